/** The group's screening rules, and each application's screening: what the rules made of it. */
import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { profiles } from "./accounts";
import { inList, timestamps } from "./columns";
import { events } from "./events";

export const SCREENING_SCOPES = ["group", "events", "event"] as const;
export type ScreeningScope = (typeof SCREENING_SCOPES)[number];

/**
 * One rule, in its place in the list (`position`, lowest first): where it applies (the group's form,
 * every event's, or one event's), its conditions and its outcome. Names are unique, whatever their case.
 */
export const screeningRules = pgTable(
  "screening_rules",
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    position: integer().notNull(),
    scope: text().$type<ScreeningScope>().notNull(),
    eventId: uuid().references(() => events.id, { onDelete: "cascade" }),
    /** Read through features/screening's schemas: what is stored is checked again when used. */
    conditions: jsonb().$type<unknown[]>().notNull(),
    outcome: jsonb().$type<unknown>().notNull(),
    createdBy: uuid().references(() => profiles.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("screening_rules_name_key").on(sql`lower(btrim(${table.name}))`),
    check("screening_rules_scope_check", sql`${table.scope} in ${inList(SCREENING_SCOPES)}`),
    check("screening_rules_event_check", sql`(${table.scope} = 'event') = (${table.eventId} is not null)`),
    index("screening_rules_position_idx").on(table.position),
  ],
);

/** What is screened: an application of the group or of an event, or a join request made in VRChat. */
export type ScreenedKind = "group" | "event" | "join_request";

export const SCREENING_STATES = ["queued", "waiting", "done"] as const;
export type ScreeningState = (typeof SCREENING_STATES)[number];

/**
 * An application's screening: queued when it arrives or its account is linked, `waiting` while
 * VRChat cannot be read (tried again at `next_attempt_at`), `done` with what the rules decided: the
 * rule (by name, as it was), the outcome, and the flag shown to staff. `facts`: what was read, for
 * 'Try these rules'.
 */
export const screenings = pgTable(
  "screenings",
  {
    /** An application's kind, or `join_request` (its id a join_requests row's). */
    applicationKind: text().$type<ScreenedKind>().notNull(),
    applicationId: uuid().notNull(),
    state: text().$type<ScreeningState>().notNull().default("queued"),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    attempts: integer().notNull().default(0),
    /** A worker's claim on it until then (several processes share the queue). */
    lockedUntil: timestamp({ withTimezone: true }),
    ruleName: text(),
    outcome: text().$type<"approve" | "reject" | "flag">(),
    flag: text(),
    facts: jsonb(),
    /**
     * The VRChat account the verdict was read for: a decision acts only while the application still
     * links it (an edit in between screens it again).
     */
    vrchatUserId: text(),
    ...timestamps,
  },
  (table) => [
    primaryKey({ columns: [table.applicationKind, table.applicationId] }),
    check("screenings_kind_check", sql`${table.applicationKind} in ('group', 'event', 'join_request')`),
    check("screenings_state_check", sql`${table.state} in ${inList(SCREENING_STATES)}`),
    index("screenings_due_idx").on(table.nextAttemptAt).where(sql`${table.state} <> 'done'`),
  ],
);

export const JOIN_REQUEST_DECISIONS = ["accept", "reject"] as const;
export type JoinRequestDecision = (typeof JOIN_REQUEST_DECISIONS)[number];

/**
 * A request to join the group made in VRChat, as Dwell last read VRChat's list (about once a minute):
 * the account (its id is the requester's own), when it asked, and whether it is still waiting there
 * (`gone_at`: accepted, rejected or withdrawn, by Dwell or in VRChat by hand). Dwell's own decision on
 * it, when it made one, with who made it (a staff member, or a rule).
 */
export const joinRequests = pgTable(
  "join_requests",
  {
    id: uuid().primaryKey().defaultRandom(),
    vrchatUserId: text().notNull(),
    displayName: text().notNull(),
    thumbnailUrl: text(),
    /** When they asked, as VRChat says (null: it did not say). */
    requestedAt: timestamp({ withTimezone: true }),
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    goneAt: timestamp({ withTimezone: true }),
    decision: text().$type<JoinRequestDecision>(),
    block: boolean().notNull().default(false),
    decidedBy: text(),
    decidedById: uuid().references(() => profiles.id, { onDelete: "set null" }),
    decidedAt: timestamp({ withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("join_requests_user_key").on(table.vrchatUserId),
    check("join_requests_decision_check", sql`${table.decision} is null or ${table.decision} in ${inList(JOIN_REQUEST_DECISIONS)}`),
    index("join_requests_waiting_idx").on(table.requestedAt).where(sql`${table.goneAt} is null`),
  ],
);

/**
 * What VRChat said of an account when screening last read it (`GET /users/{userId}`, and its groups when
 * a rule asked): read once when a join request or a linked application arrives, kept for the list, for
 * 'Try these rules' and for later screenings, and read again only when a decision needs fresher facts.
 * `found` false: VRChat has no such account.
 */
export const vrchatAccountFacts = pgTable("vrchat_account_facts", {
  vrchatUserId: text().primaryKey(),
  found: boolean().notNull(),
  /** Trust rank, age, 18+ and bio (a bio VRChat did not send is null: unread, not empty). */
  account: jsonb(),
  /** The groups it is a member of (null: not read). */
  groups: jsonb().$type<string[]>(),
  readAt: timestamp({ withTimezone: true }).notNull(),
  groupsReadAt: timestamp({ withTimezone: true }),
  ...timestamps,
});

export const BAN_SOURCES = ["vrchat", "dwell"] as const;
export type BanSource = (typeof BAN_SOURCES)[number];
export const BAN_REACHES = ["everywhere", "site"] as const;
export type BanReach = (typeof BAN_REACHES)[number];

/**
 * The group's ban list: those Dwell read from VRChat's (`source` vrchat, kept in step about every ten
 * minutes) and those made in Dwell (`dwell`, sent to VRChat and Discord as outbox jobs), each with who
 * banned, when and why. An unban keeps the row (`lifted_at`), so the history stays readable. One ban
 * in force per VRChat account, and per Discord account without one.
 */
export const bans = pgTable(
  "bans",
  {
    id: uuid().primaryKey().defaultRandom(),
    vrchatUserId: text(),
    discordUserId: text(),
    displayName: text().notNull(),
    reason: text(),
    source: text().$type<BanSource>().notNull(),
    bannedBy: text(),
    bannedById: uuid().references(() => profiles.id, { onDelete: "set null" }),
    bannedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    liftedAt: timestamp({ withTimezone: true }),
    liftedBy: text(),
    /**
     * `site`: the ban holds on the site only, because the accounts it names were matched by name and no
     * staff member confirmed them: nothing was sent to VRChat or Discord, and it never counts against
     * a proven or confirmed account.
     */
    reach: text().$type<BanReach>().notNull().default("everywhere"),
    ...timestamps,
  },
  (table) => [
    check("bans_source_check", sql`${table.source} in ${inList(BAN_SOURCES)}`),
    check("bans_reach_check", sql`${table.reach} in ${inList(BAN_REACHES)}`),
    check("bans_someone_check", sql`${table.vrchatUserId} is not null or ${table.discordUserId} is not null`),
    uniqueIndex("bans_vrchat_in_force_key").on(table.vrchatUserId).where(sql`${table.liftedAt} is null and ${table.vrchatUserId} is not null`),
    uniqueIndex("bans_discord_in_force_key").on(table.discordUserId).where(sql`${table.liftedAt} is null and ${table.vrchatUserId} is null`),
  ],
);
