/**
 * One moderation history for the group's two homes and the site: what moderators did in VRChat (the
 * group's audit log), in Discord (the server's audit log) and in Dwell (its own decisions and bans),
 * kept as long as the owner chooses; where each log was read up to; and the tripwire's trips.
 */
import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { MODERATION_KINDS, MODERATION_PLACES, ROLE_LINK_DIRECTIONS, ROLE_LINK_STATES, type ModerationKind, type ModerationPlace, type RoleLinkDirection, type RoleLinkState } from "../enums";
import { profiles } from "./accounts";
import { inList, timestamps } from "./columns";

/**
 * One act: where it was made (`place`) and its id there (`source_id`: VRChat's `gaud_…`, Discord's
 * entry id and role, Dwell's own), what it was, who made it and to whom. People are joined to files by
 * their account ids, never by a name. `actor_key` is the moderator as the tripwire counts them: a staff
 * account (`staff:{profile id}`) when the act's account is known as theirs, else the account itself.
 */
export const moderationActs = pgTable(
  "moderation_acts",
  {
    id: uuid().primaryKey().defaultRandom(),
    place: text().$type<ModerationPlace>().notNull(),
    sourceId: text().notNull(),
    kind: text().$type<ModerationKind>().notNull(),
    actorKey: text().notNull(),
    /** The account that acted, in its place (a VRChat or Discord id, or a staff account's id); null: not said. */
    actorAccountId: text(),
    actorName: text().notNull(),
    targetVrchatId: text(),
    targetDiscordId: text(),
    targetName: text(),
    /** A role given or taken: its id and name in that place. */
    roleId: text(),
    roleName: text(),
    reason: text(),
    at: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check("moderation_acts_place_check", sql`${table.place} in ${inList(MODERATION_PLACES)}`),
    check("moderation_acts_kind_check", sql`${table.kind} in ${inList(MODERATION_KINDS)}`),
    uniqueIndex("moderation_acts_source_key").on(table.place, table.sourceId),
    // Ascending, read backwards for 'newest first' (ORDER BY at DESC, id DESC): an index made DESC
    // here would be NULLS LAST, which that order (NULLS FIRST) cannot use.
    index("moderation_acts_at_idx").on(table.at, table.id),
    index("moderation_acts_place_at_idx").on(table.place, table.at, table.id),
    index("moderation_acts_kind_at_idx").on(table.kind, table.at, table.id),
    index("moderation_acts_actor_at_idx").on(table.actorKey, table.at, table.id),
    index("moderation_acts_vrchat_target_idx").on(table.targetVrchatId, table.at, table.id),
    index("moderation_acts_discord_target_idx").on(table.targetDiscordId, table.at, table.id),
    // A person named in the filter: their name's start, in any case.
    index("moderation_acts_target_name_idx").using("btree", sql`lower(${table.targetName}) text_pattern_ops`),
  ],
);

/**
 * How far each place's audit log is read. `done_to`: every entry up to this point is held (VRChat: a
 * time; Discord: an entry id). A read goes from the newest entry down; one that stops before reaching
 * `done_to` (a page cap, a failure) keeps `sweep_top` (the newest it saw) and `sweep_below` (the
 * oldest), and the next read carries on below it, so no stretch is ever taken for 'nothing happened'.
 */
export const auditLogReads = pgTable("audit_log_reads", {
  place: text().$type<Exclude<ModerationPlace, "dwell">>().primaryKey(),
  doneTo: text(),
  sweepTop: text(),
  sweepBelow: text(),
  lastReadAt: timestamp({ withTimezone: true }),
  lastError: text(),
  lastErrorAt: timestamp({ withTimezone: true }),
  ...timestamps,
});

/**
 * A moderator past one of the owner's limits: the acts counted (their ids), what the owner was told,
 * and the owner's answer ('Undo', or looked and let be). `suspended`: their Sanctum account was
 * suspended with it.
 */
export const tripwireTrips = pgTable(
  "tripwire_trips",
  {
    id: uuid().primaryKey().defaultRandom(),
    actorKey: text().notNull(),
    actorName: text().notNull(),
    /** Their Sanctum account, when the acts are known as theirs. */
    profileId: uuid().references(() => profiles.id, { onDelete: "set null" }),
    /** Which limit was passed, and the count then. */
    counts: jsonb().$type<{ removals: number; roleRemovals: number }>().notNull(),
    windowStart: timestamp({ withTimezone: true }).notNull(),
    trippedAt: timestamp({ withTimezone: true }).notNull(),
    suspended: boolean().notNull().default(false),
    /** The moderator's linked roles taken with the suspension (given back when it is lifted). */
    rolesTaken: jsonb().$type<{ place: "vrchat" | "discord"; userId: string; roleId: string; roleName: string }[]>().notNull().default([]),
    undoneAt: timestamp({ withTimezone: true }),
    undoneBy: text(),
    /** What the undo sent, in words ("3 unbans, 12 roles given back"). */
    undoResult: text(),
    closedAt: timestamp({ withTimezone: true }),
    closedBy: text(),
    ...timestamps,
  },
  (table) => [
    index("tripwire_trips_open_idx").on(table.trippedAt).where(sql`${table.closedAt} is null`),
    index("tripwire_trips_actor_idx").on(table.actorKey, table.trippedAt),
  ],
);

/** The owner's limits; one row. A limit of null is off. */
export const tripwireSettings = pgTable(
  "tripwire_settings",
  {
    id: integer().primaryKey().default(1),
    /** Bans and kicks (from the group or the server) per moderator per window. */
    removalLimit: integer(),
    /** Roles taken from people per moderator per window. */
    roleRemovalLimit: integer(),
    windowMinutes: integer().notNull().default(10),
    /** Past a limit, the moderator's Sanctum account is suspended until an owner looks. */
    suspend: boolean().notNull().default(false),
    /** Acts older than this many days are forgotten (null: kept for ever). */
    retentionDays: integer(),
    ...timestamps,
  },
  (table) => [
    check("tripwire_settings_one_row_check", sql`${table.id} = 1`),
    check("tripwire_settings_limits_check", sql`coalesce(${table.removalLimit}, 1) > 0 and coalesce(${table.roleRemovalLimit}, 1) > 0 and ${table.windowMinutes} between 1 and 1440`),
  ],
);

export type ModerationActRow = typeof moderationActs.$inferSelect;


/**
 * A VRChat group role and a Discord role kept in step for people proven to be the same person in both
 * places, one way or both. Each role is in at most one link in force (two links on one role could undo
 * each other). The roles' names are kept as they were when linked, for the page and the history.
 */
export const roleLinks = pgTable(
  "role_links",
  {
    id: uuid().primaryKey().defaultRandom(),
    vrchatRoleId: text().notNull(),
    vrchatRoleName: text().notNull(),
    discordRoleId: text().notNull(),
    discordRoleName: text().notNull(),
    direction: text().$type<RoleLinkDirection>().notNull(),
    state: text().$type<RoleLinkState>().notNull().default("reading"),
    createdBy: text().notNull(),
    /** Why the holders could not be read (kept until a read succeeds). */
    readError: text(),
    /** The fill: how many changes it queued, when it began and ended. */
    fillTotal: integer().notNull().default(0),
    fillStartedAt: timestamp({ withTimezone: true }),
    fillFinishedAt: timestamp({ withTimezone: true }),
    removedAt: timestamp({ withTimezone: true }),
    removedBy: text(),
    ...timestamps,
  },
  (table) => [
    check("role_links_direction_check", sql`${table.direction} in ${inList(ROLE_LINK_DIRECTIONS)}`),
    check("role_links_state_check", sql`${table.state} in ${inList(ROLE_LINK_STATES)}`),
    uniqueIndex("role_links_vrchat_in_force_key").on(table.vrchatRoleId).where(sql`${table.removedAt} is null`),
    uniqueIndex("role_links_discord_in_force_key").on(table.discordRoleId).where(sql`${table.removedAt} is null`),
  ],
);

/**
 * Who holds a linked role in each place, as Dwell last knew it: read whole when a link is made, then
 * kept by the audit logs' role changes (never by reading every member again).
 */
export const roleHoldings = pgTable(
  "role_holdings",
  {
    place: text().$type<"vrchat" | "discord">().notNull(),
    roleId: text().notNull(),
    accountId: text().notNull(),
    seenAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.place, table.roleId, table.accountId] }), index("role_holdings_account_idx").on(table.place, table.accountId)],
);

/**
 * A staff member's word on a person's file that a VRChat account and a Discord account are the same
 * person (beside the proofs: a bio code and a Discord sign-in). Withdrawn, it stays, closed.
 */
export const personPairs = pgTable(
  "person_pairs",
  {
    id: uuid().primaryKey().defaultRandom(),
    vrchatUserId: text().notNull(),
    discordUserId: text().notNull(),
    confirmedBy: text().notNull(),
    confirmedById: uuid().references(() => profiles.id, { onDelete: "set null" }),
    confirmedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    withdrawnAt: timestamp({ withTimezone: true }),
    withdrawnBy: text(),
  },
  (table) => [
    uniqueIndex("person_pairs_in_force_key").on(table.vrchatUserId, table.discordUserId).where(sql`${table.withdrawnAt} is null`),
    index("person_pairs_discord_idx").on(table.discordUserId),
  ],
);
