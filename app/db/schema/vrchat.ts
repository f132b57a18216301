/** What Dwell keeps of VRChat: the bot's session, the group's cached data and its counts over time, and the calendar entries it published. */
import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { inList, timestamps } from "./columns";
import { events, type PublicationDetails } from "./events";

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
  /** No call to VRChat before this time: its last 429 asked for that long (every process reads it). */
  quietUntil: timestamp({ withTimezone: true }),
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
    /** Saved by a host: hosts together may use only part of the group's hourly allowance. */
    requestedByHost: boolean().notNull().default(false),
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

export const VRCHAT_LISTS = ["join_requests", "bans"] as const;
export type VRChatList = (typeof VRCHAT_LISTS)[number];

/**
 * The last whole read of a list Dwell keeps in step with VRChat's (the group's join requests, its
 * bans): when, how many entries it held, and how many of them could not be read (no user id of
 * VRChat's forms), for the Sanctum's pages to say so.
 */
export const vrchatListReads = pgTable(
  "vrchat_list_reads",
  {
    list: text().$type<VRChatList>().primaryKey(),
    readAt: timestamp({ withTimezone: true }).notNull(),
    entries: integer().notNull(),
    unreadable: integer().notNull().default(0),
    ...timestamps,
  },
  (table) => [check("vrchat_list_reads_list_check", sql`${table.list} in ${inList(VRCHAT_LISTS)}`)],
);
