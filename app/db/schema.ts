/**
 * The tables of spec section 3, with the original's table and column names (camelCase here,
 * snake_case in the database), so a group can move its rows over with a plain data dump.
 */
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  time,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";

import {
  APPLICATION_STATUSES,
  GROUP_APPLICATION_STATUSES,
  QUESTION_TYPES,
  STAFF_ROLES,
  USER_ROLES,
  VRCHAT_IMPORTS,
  WAITLIST_PROMOTIONS,
  ATTENDANCE,
  type Attendance,
  INSTANCE_ACCESS,
  INSTANCE_REGIONS,
  INSTANCE_STATES,
  ATTENDEE_ROLES,
  EVENT_ROLE_STATES,
  type AttendeeRole,
  type EventRoleState,
  type InstanceAccess,
  type InstanceRegion,
  type InstanceState,
  type ApplicationStatus,
  type StaffRole,
  type UserRole,
  type VRChatImport,
  type WaitlistPromotion,
  SERIES_FREQUENCIES,
  type SeriesFrequency,
} from "./enums";

export {
  APPLICATION_STATUSES,
  QUESTION_TYPES,
  USER_ROLES,
  type ApplicationStatus,
  type QuestionType,
  type UserRole,
} from "./enums";

/** Every abbreviation the time module understands (see features/events/event-timing.ts). */
const STORED_TIMEZONES = ["UTC", "EST", "EDT", "CST", "CDT", "MST", "MDT", "PST", "PDT"];

const inList = (values: readonly string[]) =>
  sql.raw(`(${values.map((value) => `'${value}'`).join(", ")})`);

const timestamps = {
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

/**
 * The accounts of the Sanctum (spec: profiles). better-auth keeps its users here: `username` is its
 * `name`, and `role` decides what they may do (utils/roles.ts). There is no public sign-up: the
 * first owner is made with `npm run user:create`, the rest of the team by an owner's invitation.
 */
export const profiles = pgTable(
  "profiles",
  {
    id: uuid().primaryKey().defaultRandom(),
    username: text().notNull(),
    email: text().notNull().unique(),
    emailVerified: boolean().notNull().default(false),
    image: text(),
    role: text().$type<UserRole>().notNull().default("member"),
    /** Signed in with a passphrase the policy no longer allows: the dashboard asks for a new one. */
    passwordChangeDue: boolean().notNull().default(false),
    /** Signing in takes a code from an authenticator app (or a recovery code) after the passphrase. */
    twoFactorEnabled: boolean().notNull().default(false),
    lastSignInAt: timestamp({ withTimezone: true }),
    /** Their own Discord account (a user id), as an owner set it or they linked it: who they are in Discord. */
    discordUserId: text().unique("profiles_discord_user_id_key"),
    ...timestamps,
  },
  (table) => [check("profiles_role_check", sql`${table.role} in ${inList(USER_ROLES)}`)],
);

/** The message each application has in the Discord review channel, to edit once it is decided. */
export const discordReviewMessages = pgTable(
  "discord_review_messages",
  {
    applicationKind: text().$type<"group" | "event">().notNull(),
    applicationId: uuid().notNull(),
    channelId: text().notNull(),
    messageId: text().notNull(),
    /** The application as posted: an edit keeps it and changes only the outcome and the buttons. */
    embed: jsonb().$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.applicationKind, table.applicationId] })],
);

/** An owner's invitation to join the team: a single-use link, its token kept only as a hash. */
export const teamInvitations = pgTable(
  "team_invitations",
  {
    id: uuid().primaryKey().defaultRandom(),
    email: text().notNull(),
    role: text().$type<StaffRole>().notNull(),
    tokenHash: text().notNull().unique("team_invitations_token_hash_key"),
    invitedBy: uuid().references(() => profiles.id, { onDelete: "set null" }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    /** When it was used (or withdrawn): it opens nothing after. */
    closedAt: timestamp({ withTimezone: true }),
    ...timestamps,
  },
  (table) => [check("team_invitations_role_check", sql`${table.role} in ${inList(STAFF_ROLES)}`)],
);

/** What changed in the team, and who changed it: invitations, joins, roles, removals, settings. */
export const teamHistory = pgTable(
  "team_history",
  {
    id: uuid().primaryKey().defaultRandom(),
    actorId: uuid().references(() => profiles.id, { onDelete: "set null" }),
    actorName: text().notNull(),
    /** What happened, in words ("invited sky@dwell.example as Reviewer"). */
    change: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("team_history_created_at_idx").on(table.createdAt.desc())],
);

/** A role's security settings, set by an owner on the Team page. */
export const rolePolicies = pgTable(
  "role_policies",
  {
    role: text().$type<StaffRole>().primaryKey(),
    requireTwoFactor: boolean().notNull().default(false),
    ...timestamps,
  },
  (table) => [check("role_policies_role_check", sql`${table.role} in ${inList(STAFF_ROLES)}`)],
);

export const sessions = pgTable(
  "sessions",
  {
    id: uuid().primaryKey().defaultRandom(),
    token: text().notNull().unique(),
    userId: uuid()
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    ipAddress: text(),
    userAgent: text(),
    ...timestamps,
  },
  (table) => [index("sessions_user_idx").on(table.userId)],
);

export const accounts = pgTable(
  "accounts",
  {
    id: uuid().primaryKey().defaultRandom(),
    accountId: text().notNull(),
    providerId: text().notNull(),
    userId: uuid()
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    accessToken: text(),
    refreshToken: text(),
    idToken: text(),
    accessTokenExpiresAt: timestamp({ withTimezone: true }),
    refreshTokenExpiresAt: timestamp({ withTimezone: true }),
    scope: text(),
    password: text(),
    ...timestamps,
  },
  (table) => [index("accounts_user_idx").on(table.userId)],
);

export const verifications = pgTable(
  "verifications",
  {
    id: uuid().primaryKey().defaultRandom(),
    identifier: text().notNull(),
    value: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    ...timestamps,
  },
  (table) => [index("verifications_identifier_idx").on(table.identifier)],
);

export const events = pgTable(
  "events",
  {
    id: uuid().primaryKey().defaultRandom(),
    title: text().notNull(),
    description: text().notNull().default(""),
    eventDate: date({ mode: "string" }).notNull(),
    eventTime: time().notNull(),
    timezone: text().notNull().default("UTC"),
    worldName: text().notNull(),
    /** Its end, on the same zone's clocks (null on events saved before ends were kept: two hours). */
    endDate: date({ mode: "string" }),
    endTime: time(),
    /** The VRChat world it happens in (`wrld_…`), when the admins gave one. */
    worldId: text(),
    /** The world's picture, as VRChat gave it when the world was last checked. */
    worldImageUrl: text(),
    /** When VRChat last confirmed the world (null: given, but not checked). */
    worldCheckedAt: timestamp({ withTimezone: true }),
    /** How many minutes before the start Dwell opens the group instance (null: never by itself). */
    instanceLeadMinutes: integer().default(15),
    instanceRegion: text().$type<InstanceRegion>().notNull().default("us"),
    /** Who may enter the instance of an event without applications. */
    instanceAccess: text().$type<InstanceAccess>().notNull().default("members"),
    applicationRequired: boolean().notNull().default(false),
    applicationDeadline: timestamp({ withTimezone: true }),
    maxAttendees: integer(),
    /** When a place frees: approve the first on the waitlist, or move them to Pending. */
    waitlistPromotion: text().$type<WaitlistPromotion>().notNull().default("pending"),
    applicationInstructions: text(),
    featured: boolean().notNull().default(false),
    createdBy: uuid().references(() => profiles.id, { onDelete: "set null" }),
    /** The staff member who hosts it (its creator, unless changed): a host manages their own events. */
    hostId: uuid().references(() => profiles.id, { onDelete: "set null" }),
    /** The VRChat calendar event this one was imported from (null for events made here). */
    vrchatEventId: text().unique("events_vrchat_event_id_unique"),
    /** A digest of the VRChat fields last imported: a sync updates the event only when they change. */
    vrchatFingerprint: text(),
    /**
     * How a VRChat event came here: "sync" (a public one, imported by the calendar sync) or "admin"
     * (imported by an admin, members-only ones included). Null for events made here.
     */
    vrchatImport: text().$type<VRChatImport>(),
    /** The series it is an occurrence of ('Repeats'), and which one (0: the first). */
    seriesId: uuid().references((): AnyPgColumn => eventSeries.id, { onDelete: "set null" }),
    seriesIndex: integer(),
    ...timestamps,
  },
  (table) => [
    check("events_timezone_check", sql`${table.timezone} in ${inList(STORED_TIMEZONES)}`),
    check("events_vrchat_import_check", sql`${table.vrchatImport} in ${inList(VRCHAT_IMPORTS)}`),
    check("events_max_attendees_check", sql`${table.maxAttendees} >= 1`),
    check("events_title_check", sql`btrim(${table.title}) <> ''`),
    check("events_waitlist_promotion_check", sql`${table.waitlistPromotion} in ${inList(WAITLIST_PROMOTIONS)}`),
    check("events_instance_region_check", sql`${table.instanceRegion} in ${inList(INSTANCE_REGIONS)}`),
    check("events_instance_access_check", sql`${table.instanceAccess} in ${inList(INSTANCE_ACCESS)}`),
    check("events_instance_lead_check", sql`${table.instanceLeadMinutes} between 0 and 1440`),
    check("events_end_check", sql`(${table.endDate} is null) = (${table.endTime} is null)`),
    check("events_world_id_check", sql`${table.worldId} ~ '^wrld_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'`),
    index("events_schedule_idx").on(table.eventDate, table.eventTime),
    uniqueIndex("events_series_occurrence_key").on(table.seriesId, table.seriesIndex),
    check("events_series_check", sql`${table.seriesId} is null or ${table.seriesIndex} >= 0`),
    index("events_featured_idx")
      .on(table.eventDate, table.eventTime)
      .where(sql`${table.featured}`),
  ],
);

const questionColumns = {
  id: uuid().primaryKey().defaultRandom(),
  question: text().notNull(),
  questionType: text().notNull().default("text"),
  options: jsonb().$type<string[]>(),
  required: boolean().notNull().default(true),
  orderIndex: integer().notNull().default(0),
  ...timestamps,
};

export const applicationQuestions = pgTable(
  "application_questions",
  questionColumns,
  (table) => [
    check(
      "application_questions_type_check",
      sql`${table.questionType} in ${inList(QUESTION_TYPES)}`,
    ),
    check(
      "application_questions_options_check",
      sql`${table.options} is null or jsonb_typeof(${table.options}) = 'array'`,
    ),
    index("application_questions_order_idx").on(table.orderIndex),
  ],
);

export const eventApplicationQuestions = pgTable(
  "event_application_questions",
  {
    ...questionColumns,
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
  },
  (table) => [
    check(
      "event_application_questions_type_check",
      sql`${table.questionType} in ${inList(QUESTION_TYPES)}`,
    ),
    check(
      "event_application_questions_options_check",
      sql`${table.options} is null or (${table.questionType} = 'select' and jsonb_typeof(${table.options}) = 'array')`,
    ),
    index("event_application_questions_event_order_idx").on(table.eventId, table.orderIndex),
  ],
);

/**
 * Duplicates are refused by these indexes, not by a read before the write: the same VRChat
 * username (trimmed, any case) or the same Discord ID, once per scope. Empty values never collide.
 */
const normalized = (column: Parameters<typeof sql>[1]) => sql`lower(btrim(${column}))`;
const present = (column: Parameters<typeof sql>[1]) => sql`btrim(coalesce(${column}, '')) <> ''`;
/** A name used by spam (marked by an admin) does not keep a real person from applying with it. */
const claims = (column: Parameters<typeof sql>[1], spamAt: Parameters<typeof sql>[1]) =>
  sql`${present(column)} and ${spamAt} is null`;

/** What lets the applicant follow their application (see features/decisions). */
const applicantHearsBack = (table: string) => ({
  /** SHA-256 of the private status link's token; the token itself is never stored. */
  statusTokenHash: text().unique(`${table}_status_token_hash_key`),
  /** The decision message as written when the application was decided: what the applicant reads. */
  decisionMessage: text(),
  /** The applicant's account in the group's Discord server, as linked (a user id, and its name then). */
  discordUserId: text(),
  discordDisplayName: text(),
});

export const applications = pgTable(
  "applications",
  {
    id: uuid().primaryKey().defaultRandom(),
    vrchatUsername: text().notNull().default(""),
    discordId: text().notNull().default(""),
    responses: jsonb().$type<Record<string, string>>().notNull().default({}),
    status: text().$type<ApplicationStatus>().notNull().default("pending"),
    submittedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    reviewedAt: timestamp({ withTimezone: true }),
    /** Marked as spam by an admin: out of every list, count and export but the 'Spam' filter. */
    spamAt: timestamp({ withTimezone: true }),
    ...applicantHearsBack("applications"),
    /**
     * What became of the profile link the applicant gave, when it was not linked at once:
     * 'claimed' (VRChat names that account otherwise than the username given) or 'unchecked'
     * (VRChat could not be asked). Null when there was none, or it was linked.
     */
    vrchatProfileCheck: text().$type<"claimed" | "unchecked">(),
    /** The applicant's VRChat account (`usr_…`), as an admin linked it; a display name is not an identity. */
    vrchatUserId: text(),
    /** Its display name when it was linked, to show beside the id. */
    vrchatDisplayName: text(),
    ...timestamps,
  },
  (table) => [
    check("applications_status_check", sql`${table.status} in ${inList(GROUP_APPLICATION_STATUSES)}`),
    uniqueIndex("applications_vrchat_username_key")
      .on(normalized(table.vrchatUsername))
      .where(claims(table.vrchatUsername, table.spamAt)),
    uniqueIndex("applications_discord_id_key")
      .on(normalized(table.discordId))
      .where(claims(table.discordId, table.spamAt)),
    index("applications_submitted_at_idx").on(table.submittedAt.desc()),
    index("applications_status_idx").on(table.status),
  ],
);

export const eventApplications = pgTable(
  "event_applications",
  {
    id: uuid().primaryKey().defaultRandom(),
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    vrchatUsername: text().notNull().default(""),
    discordId: text().default(""),
    responses: jsonb().$type<Record<string, string>>().notNull().default({}),
    status: text().$type<ApplicationStatus>().notNull().default("pending"),
    submittedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    reviewedAt: timestamp({ withTimezone: true }),
    /** When its applicant withdrew it (status "withdrawn"). */
    withdrawnAt: timestamp({ withTimezone: true }),
    /** After the event: whether the approved attendee came. */
    attendance: text().$type<Attendance>(),
    notes: text(),
    spamAt: timestamp({ withTimezone: true }),
    ...applicantHearsBack("event_applications"),
    /** As for a group application: what became of a profile link that was not linked at once. */
    vrchatProfileCheck: text().$type<"claimed" | "unchecked">(),
    /** The attendee's VRChat account (`usr_…`), as the decision's rule or a staff member linked it. */
    vrchatUserId: text(),
    vrchatDisplayName: text(),
    /** Where the attendee stands with the event's VRChat role (see EVENT_ROLE_STATES). */
    eventRole: text().$type<AttendeeRole>(),
    /** When VRChat was last asked whether they may hold it (a non-member is asked again later). */
    eventRoleCheckedAt: timestamp({ withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    check("event_applications_attendance_check", sql`${table.attendance} in ${inList(ATTENDANCE)}`),
    check("event_applications_event_role_check", sql`${table.eventRole} in ${inList(ATTENDEE_ROLES)}`),
    check(
      "event_applications_status_check",
      sql`${table.status} in ${inList(APPLICATION_STATUSES)}`,
    ),
    uniqueIndex("event_applications_vrchat_username_key")
      .on(table.eventId, normalized(table.vrchatUsername))
      .where(claims(table.vrchatUsername, table.spamAt)),
    uniqueIndex("event_applications_discord_id_key")
      .on(table.eventId, normalized(table.discordId))
      .where(claims(table.discordId, table.spamAt)),
    index("event_applications_event_submitted_idx").on(table.eventId, table.submittedAt.desc()),
    index("event_applications_event_status_idx").on(table.eventId, table.status),
  ],
);

export type EventRow = typeof events.$inferSelect;
export type NewEventRow = typeof events.$inferInsert;
export type QuestionRow = typeof applicationQuestions.$inferSelect;
export type EventQuestionRow = typeof eventApplicationQuestions.$inferSelect;

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

/**
 * An account's authenticator secret and recovery codes (better-auth's two-factor plugin), both
 * encrypted with the auth secret. `verified` is false between enrolment and its first code.
 */
export const twoFactors = pgTable(
  "two_factors",
  {
    id: uuid().primaryKey().defaultRandom(),
    secret: text().notNull(),
    backupCodes: text().notNull(),
    userId: uuid()
      .notNull()
      .references(() => profiles.id, { onDelete: "cascade" }),
    verified: boolean().notNull().default(true),
    failedVerificationCount: integer().notNull().default(0),
    lockedUntil: timestamp({ withTimezone: true }),
    /** The 30-second step of the last authenticator code accepted: a code of that step or earlier is refused. */
    lastTotpStep: integer(),
  },
  (table) => [uniqueIndex("two_factors_user_id_key").on(table.userId)],
);

/**
 * Failed sign-ins, per (account, client) and per client: each further attempt past the free ones
 * waits longer. Only failures count, so nobody can lock an admin out from elsewhere.
 */
export const signInFailures = pgTable("sign_in_failures", {
  key: text().primaryKey(),
  failures: integer().notNull(),
  lastFailedAt: timestamp({ withTimezone: true }).notNull(),
});

export type OutboxRow = typeof outbox.$inferSelect;

/**
 * The messages an applicant reads when their application is decided, one per outcome: for the
 * group's applications (`kind` group), for every event's (`kind` event, no event), and for one
 * event (`kind` event with its id), which falls back to every event's. No row: the default text.
 */
export const decisionMessages = pgTable(
  "decision_messages",
  {
    id: uuid().primaryKey().defaultRandom(),
    kind: text().$type<"group" | "event">().notNull(),
    eventId: uuid().references(() => events.id, { onDelete: "cascade" }),
    outcome: text().$type<"approved" | "rejected">().notNull(),
    body: text().notNull(),
    ...timestamps,
  },
  (table) => [
    check("decision_messages_kind_check", sql`${table.kind} in ('group', 'event')`),
    check("decision_messages_outcome_check", sql`${table.outcome} in ('approved', 'rejected')`),
    check("decision_messages_event_check", sql`${table.kind} = 'event' or ${table.eventId} is null`),
    unique("decision_messages_key").on(table.kind, table.eventId, table.outcome).nullsNotDistinct(),
  ],
);

/** Who changed an application's status or notes, when, from what to what. */
export const applicationAuditLog = pgTable(
  "application_audit_log",
  {
    id: uuid().primaryKey().defaultRandom(),
    applicationKind: text().notNull(),
    applicationId: uuid().notNull(),
    actorId: uuid().references(() => profiles.id, { onDelete: "set null" }),
    /** Kept as written at the time, so the log still reads after an account is removed. */
    actorName: text().notNull(),
    field: text().notNull(),
    fromValue: text(),
    toValue: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("application_audit_log_kind_check", sql`${table.applicationKind} in ('group', 'event')`),
    check("application_audit_log_field_check", sql`${table.field} in ('status', 'notes', 'spam', 'vrchat', 'discord', 'attendance')`),
    index("application_audit_log_application_idx").on(table.applicationId, table.createdAt),
  ],
);

/**
 * The VRChat bot account's session cookies, shared by every process and kept across restarts, so
 * the server logs in again only when VRChat says the session is gone. A failed login pauses further
 * attempts until `login_paused_until`: VRChat bans accounts that retry logins in a loop.
 */
export const vrchatSessions = pgTable("vrchat_sessions", {
  username: text().primaryKey(),
  /** The bot account's own VRChat user id (`usr_…`), learnt at login: some endpoints take it. */
  userId: text(),
  authCookie: text(),
  twoFactorCookie: text(),
  loginFailures: integer().notNull().default(0),
  loginPausedUntil: timestamp({ withTimezone: true }),
  lastLoginAt: timestamp({ withTimezone: true }),
  lastError: text(),
  ...timestamps,
});

/**
 * The group's live data, cached in the database so that every process serves the same copy and
 * only one of them refreshes it per window: the one holding the lease (`refresh_lease_until`).
 */
export const groupDataCache = pgTable("group_data_cache", {
  groupId: text().primaryKey(),
  data: jsonb(),
  fetchedAt: timestamp({ withTimezone: true }),
  refreshLeaseUntil: timestamp({ withTimezone: true }),
  lastError: text(),
  lastErrorAt: timestamp({ withTimezone: true }),
  /** Upstream refreshes so far (successful or not): what the upstream-discipline benchmark counts. */
  refreshes: integer().notNull().default(0),
  /**
   * What VRChat shows only to the group's members (members-only calendar events and posts): for the
   * Sanctum. Kept out of `data`, which is what visitors are served, so no public path reads it.
   */
  membersOnly: jsonb(),
  /** The refresh's own bookkeeping: each part's state, the calendar months read, cached instance details. */
  refreshState: jsonb(),
});

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

export const SAMPLE_RESOLUTIONS = ["minute", "hour", "day"] as const;
export type SampleResolution = (typeof SAMPLE_RESOLUTIONS)[number];

/**
 * The group's member and online counts over time, one row per bucket, written by each VRChat
 * refresh: per minute for a day, per hour for 90 days, per day beyond (see features/vrchat/group-trends).
 * A bucket keeps the last member count read in it and the highest online count.
 */
export const groupSamples = pgTable(
  "group_samples",
  {
    resolution: text().$type<SampleResolution>().notNull(),
    bucket: timestamp({ withTimezone: true }).notNull(),
    memberCount: integer().notNull(),
    onlineCount: integer().notNull(),
    readings: integer().notNull().default(1),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.resolution, table.bucket] }),
    check("group_samples_resolution_check", sql`${table.resolution} in ${inList(SAMPLE_RESOLUTIONS)}`),
  ],
);

export const PUBLICATION_STATES = ["pending", "published", "removed", "failed"] as const;
export type PublicationState = (typeof PUBLICATION_STATES)[number];

/** What is sent to VRChat's calendar for an event: its fields when last saved, and the admin's choices. */
export interface PublicationDetails {
  title: string;
  description: string;
  startsAt: string;
  endsAt: string;
  category: string;
  accessType: "public" | "group";
  languages: string[];
  platforms: string[];
  /** VRChat tells the group's members when the entry is created. */
  notify: boolean;
}

/**
 * An event published to the group's VRChat calendar: one row per VRChat calendar entry, from the
 * admin's choice to its removal. `wanted` is what the admins asked for; the calendar worker makes
 * VRChat match it (create, update, delete) and records the entry's id. Rows outlive their entry and
 * their event: every id in this table is one the import from VRChat must never bring in as a new event.
 */
export const vrchatPublications = pgTable(
  "vrchat_publications",
  {
    id: uuid().primaryKey().defaultRandom(),
    eventId: uuid().references(() => events.id, { onDelete: "set null" }),
    wanted: boolean().notNull().default(true),
    details: jsonb().$type<PublicationDetails>().notNull(),
    /** Goes up with each save; `syncedVersion` is the last one VRChat has. */
    version: integer().notNull().default(1),
    syncedVersion: integer().notNull().default(0),
    state: text().$type<PublicationState>().notNull().default("pending"),
    vrchatEventId: text().unique("vrchat_publications_vrchat_event_id_unique"),
    /** Set before the create call: a later attempt looks for the entry before creating another. */
    createAttemptedAt: timestamp({ withTimezone: true }),
    /** When VRChat created the entry: VRChat's limit on creations per hour counts these. */
    vrchatCreatedAt: timestamp({ withTimezone: true }),
    lastError: text(),
    /** One worker at a time works on a publication (several processes share PostgreSQL). */
    busyUntil: timestamp({ withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    check("vrchat_publications_state_check", sql`${table.state} in ${inList(PUBLICATION_STATES)}`),
    uniqueIndex("vrchat_publications_wanted_event_idx")
      .on(table.eventId)
      .where(sql`${table.wanted}`),
    index("vrchat_publications_created_idx").on(table.vrchatCreatedAt),
  ],
);

export type PublicationRow = typeof vrchatPublications.$inferSelect;

/**
 * The group instance Dwell opened for an event (at most one at a time: the event is unique here). A
 * worker claims the row before it calls VRChat (`busy_until`), so a second process, a restart or a
 * retry finds it and never opens another.
 */
export const eventInstances = pgTable(
  "event_instances",
  {
    id: uuid().primaryKey().defaultRandom(),
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: "cascade" })
      .unique("event_instances_event_id_key"),
    state: text().$type<InstanceState>().notNull(),
    /** VRChat's location of the instance ("wrld_…:12345~group(grp_…)…"): never shown to visitors. */
    location: text(),
    worldId: text(),
    instanceId: text(),
    /** Tries to open it since it was last asked for. */
    attempts: integer().notNull().default(0),
    busyUntil: timestamp({ withTimezone: true }),
    nextAttemptAt: timestamp({ withTimezone: true }),
    lastError: text(),
    openedAt: timestamp({ withTimezone: true }),
    closedAt: timestamp({ withTimezone: true }),
    ...timestamps,
  },
  (table) => [check("event_instances_state_check", sql`${table.state} in ${inList(INSTANCE_STATES)}`)],
);

export type EventInstanceRow = typeof eventInstances.$inferSelect;

/**
 * Each reminder Dwell sent (or skipped) before an event: per reminder time (minutes before the
 * start) and recipient (an application, or "channel" for the announcement channel). The unique key
 * makes each one once, whatever restarts, processes or later edits of the event.
 */
export const eventReminders = pgTable(
  "event_reminders",
  {
    id: uuid().primaryKey().defaultRandom(),
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    leadMinutes: integer().notNull(),
    /** An application's id, or "channel". */
    recipient: text().notNull(),
    /** false: its time had passed when it could be sent (a nearer one went instead). */
    sent: boolean().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("event_reminders_once_key").on(table.eventId, table.leadMinutes, table.recipient)],
);

/**
 * Each event's own VRChat group role, made by Dwell for the attendees of an event with applications:
 * the claim a worker takes before it asks VRChat (so no second role is ever made), the role's id,
 * and what became of it.
 */
export const eventRoles = pgTable(
  "event_roles",
  {
    id: uuid().primaryKey().defaultRandom(),
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: "cascade" })
      .unique("event_roles_event_id_key"),
    state: text().$type<EventRoleState>().notNull(),
    /** VRChat's id of the role (`grol_…`). */
    roleId: text(),
    busyUntil: timestamp({ withTimezone: true }),
    lastError: text(),
    ...timestamps,
  },
  (table) => [check("event_roles_state_check", sql`${table.state} in ${inList(EVENT_ROLE_STATES)}`)],
);

/**
 * A repeating event ('Repeats'): its rule, its end (a last date or a number of events: never
 * neither), and the settings its next occurrences are made from. Each occurrence is an event of its
 * own; `madeCount` is the next index to make, so an occurrence deleted by the admins never comes back.
 * Dates follow the rule from the anchor (an occurrence's index and date, moved by 'this and the
 * following' edits).
 */
export const eventSeries = pgTable(
  "event_series",
  {
    id: uuid().primaryKey().defaultRandom(),
    frequency: text().$type<SeriesFrequency>().notNull(),
    anchorIndex: integer().notNull().default(0),
    anchorDate: date({ mode: "string" }).notNull(),
    untilDate: date({ mode: "string" }),
    occurrenceCount: integer(),
    madeCount: integer().notNull().default(0),
    template: jsonb().$type<SeriesTemplate>().notNull(),
    ...timestamps,
  },
  (table) => [
    check("event_series_frequency_check", sql`${table.frequency} in ${inList(SERIES_FREQUENCIES)}`),
    check("event_series_end_check", sql`(${table.untilDate} is null) <> (${table.occurrenceCount} is null)`),
    check("event_series_count_check", sql`${table.occurrenceCount} >= 0`),
  ],
);

/**
 * What a series' next occurrences are made from: an event's settings without its date (the rule
 * gives that), its length and deadline as distances from the date, its host, and what the admins
 * chose for VRChat's calendar (null: not published).
 */
export interface SeriesTemplate {
  title: string;
  description: string;
  eventTime: string;
  timezone: string;
  /** The end: this many days after the date, at this time (the zone's clocks). */
  endDays: number;
  endTime: string;
  worldName: string;
  worldId: string | null;
  worldImageUrl: string | null;
  worldChecked: boolean;
  applicationRequired: boolean;
  /** The application deadline: this many days before the date (null: none). */
  deadlineDays: number | null;
  maxAttendees: number | null;
  applicationInstructions: string | null;
  waitlistPromotion: WaitlistPromotion;
  instanceLeadMinutes: number | null;
  instanceRegion: InstanceRegion;
  instanceAccess: InstanceAccess;
  featured: boolean;
  hostId: string | null;
  createdBy: string | null;
  publication: Omit<PublicationDetails, "title" | "description" | "startsAt" | "endsAt"> | null;
}

export type EventSeriesRow = typeof eventSeries.$inferSelect;
