/** The site's own machinery: the outbox, rate limits, shared paces, once-per-interval jobs and milestones. */
import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { inList, timestamps } from "./columns";

export const OUTBOX_STATUSES = ["pending", "delivered", "failed"] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

/**
 * Where jobs go: the admins' notification channels (one job per application and configured
 * channel), the actions a decision takes in VRChat and Discord (see features/decisions), and the
 * events published to the group's VRChat calendar (`vrchat_publications`).
 */
export const OUTBOX_TARGETS = [
  "telegram",
  "google_sheets",
  "discord",
  "vrchat_membership",
  "discord_role",
  "discord_dm",
  "vrchat_calendar",
  "discord_review",
  "discord_announcement",
  "vrchat_event_role",
  "vrchat_ban",
  "discord_ban",
  "vrchat_post",
  "discord_post",
  "discord_event",
  "member_role",
  "staff_alert",
  "role_link_read",
] as const;

/**
 * Notification jobs, written in the same transaction as the application that caused them, so an
 * application is never stored without its notifications (or the reverse). Workers lease a job by
 * setting `locked_until`; a lease that runs out (a crashed process) frees the job again.
 */
export const outbox = pgTable(
  "outbox",
  {
    id: uuid().primaryKey().defaultRandom(),
    target: text().notNull(),
    payload: jsonb().notNull(),
    status: text().$type<OutboxStatus>().notNull().default("pending"),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp({ withTimezone: true }),
    lastError: text(),
    deliveredAt: timestamp({ withTimezone: true }),
    /** The application (group or event) the job is about; no foreign key, so history outlives it. */
    sourceId: uuid(),
    /** What a delivered action did, in words for the review card ("Invite sent"). */
    result: text(),
    ...timestamps,
  },
  (table) => [
    check("outbox_target_check", sql`${table.target} in ${inList(OUTBOX_TARGETS)}`),
    check("outbox_status_check", sql`${table.status} in ${inList(OUTBOX_STATUSES)}`),
    index("outbox_due_idx")
      .on(table.nextAttemptAt)
      .where(sql`${table.status} = 'pending'`),
    index("outbox_status_idx").on(table.status, table.updatedAt.desc()),
    // What a row's jobs are (a ban's, a link's fill): read by what they work on.
    index("outbox_source_idx").on(table.sourceId, table.target),
  ],
);

/**
 * Fixed-window counters for rate limits (public forms), in the database so that every server
 * process sharing it counts the same submissions.
 */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text().notNull(),
    windowStart: timestamp({ withTimezone: true }).notNull(),
    count: integer().notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.key, table.windowStart] })],
);

/**
 * The next free turn of a pace shared by every process on the database (VRChat's actions: about one
 * call a second, whichever process makes it). A turn is taken by moving `next_at` on in one statement.
 */
export const callPaces = pgTable("call_paces", {
  key: text().primaryKey(),
  nextAt: timestamp({ withTimezone: true }).notNull(),
});

export type OutboxRow = typeof outbox.$inferSelect;

/** Background jobs that must run at most once per interval across processes (event sync). */
export const jobRuns = pgTable("job_runs", {
  name: text().primaryKey(),
  startedAt: timestamp({ withTimezone: true }).notNull(),
  finishedAt: timestamp({ withTimezone: true }),
  result: jsonb(),
});

/**
 * Steps in a database's life that happen once, whichever process or command gets there first:
 * `first-start` records the first server start (and whether the demo content was seeded then),
 * so a database made by an account command before any start still gets it.
 */
export const siteMilestones = pgTable("site_milestones", {
  name: text().primaryKey(),
  reachedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  detail: jsonb().$type<Record<string, unknown>>(),
});

/**
 * Discord interactions already answered, by Discord's id: a request replayed within its signature's
 * five minutes is acted on once. Kept an hour.
 */
export const discordInteractions = pgTable("discord_interactions", {
  id: text().primaryKey(),
  receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
