/** Events, their series, and what Dwell keeps of each event's night in VRChat: its instance, its role, its reminders. */
import { sql } from "drizzle-orm";
import { boolean, check, date, index, integer, jsonb, pgTable, primaryKey, text, time, timestamp, uniqueIndex, uuid, type AnyPgColumn } from "drizzle-orm/pg-core";
import {
  EVENT_ROLE_STATES,
  INSTANCE_ACCESS,
  INSTANCE_REGIONS,
  INSTANCE_STATES,
  SERIES_FREQUENCIES,
  VRCHAT_IMPORTS,
  WAITLIST_PROMOTIONS,
  type EventRoleState,
  type InstanceAccess,
  type InstanceRegion,
  type InstanceState,
  type SeriesFrequency,
  type VRChatImport,
  type WaitlistPromotion,
  PLACE_STATES,
  type PlaceState,
} from "../enums";
import { profiles } from "./accounts";
import { inList, STORED_TIMEZONES, timestamps } from "./columns";

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
    /** An application is approved only once its VRChat account is proven (a bio code). */
    requiresProof: boolean().notNull().default(false),
    /** Applicants may edit their answers while their application is pending or waitlisted. */
    applicantEdits: boolean().notNull().default(true),
    applicationDeadline: timestamp({ withTimezone: true }),
    maxAttendees: integer(),
    /** When a place frees: approve the first on the waitlist, or move them to Pending. */
    waitlistPromotion: text().$type<WaitlistPromotion>().notNull().default("pending"),
    applicationInstructions: text(),
    featured: boolean().notNull().default(false),
    /** Listed among the Discord server's events (a public event only; see discord_events). */
    discordEvent: boolean().notNull().default(false),
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

export type EventRow = typeof events.$inferSelect;
export type NewEventRow = typeof events.$inferInsert;

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
    /**
     * What the last create call asked for, written before the call and cleared once its answer is
     * kept: a try after a lost answer takes only an instance read back with these same facts.
     */
    requested: jsonb().$type<RequestedInstance>(),
    /** VRChat's short name of the instance (`vrch.at/…`): the only link to it a public page shows. */
    shortName: text(),
    /** Tries to open it since it was last asked for. */
    attempts: integer().notNull().default(0),
    busyUntil: timestamp({ withTimezone: true }),
    nextAttemptAt: timestamp({ withTimezone: true }),
    lastError: text(),
    openedAt: timestamp({ withTimezone: true }),
    closedAt: timestamp({ withTimezone: true }),
    /** The last minute its people were read (one read a minute, whichever process takes it). */
    lastReadAt: timestamp({ withTimezone: true }),
    /** When the attendance was marked from what was read, after the event's end. */
    attendanceMarkedAt: timestamp({ withTimezone: true }),
    /** Why it was not marked from the instance: 'unreadable' (VRChat unread for more than half the evening). */
    attendanceNote: text(),
    ...timestamps,
  },
  (table) => [check("event_instances_state_check", sql`${table.state} in ${inList(INSTANCE_STATES)}`)],
);

/**
 * Who was in an event's instance (one Dwell made): each VRChat account seen, by its id, with how many
 * of the minutes read it was there. Leaving and coming back is one stay, its minutes added.
 */
export const instancePresence = pgTable(
  "instance_presence",
  {
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    userId: text().notNull(),
    displayName: text().notNull(),
    firstSeenAt: timestamp({ withTimezone: true }).notNull(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull(),
    minutesSeen: integer().notNull().default(1),
  },
  (table) => [primaryKey({ columns: [table.eventId, table.userId] })],
);

/** How many were in an event's instance, minute by minute; `people` null: the minute could not be read. */
export const instanceMinutes = pgTable(
  "instance_minutes",
  {
    eventId: uuid()
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    minute: timestamp({ withTimezone: true }).notNull(),
    people: integer(),
  },
  (table) => [primaryKey({ columns: [table.eventId, table.minute] })],
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
  /** Approvals wait for a proven VRChat account (absent in templates saved before it existed: no). */
  requiresProof?: boolean;
  /** The application deadline: this many days before the date (null: none). */
  deadlineDays: number | null;
  maxAttendees: number | null;
  applicationInstructions: string | null;
  waitlistPromotion: WaitlistPromotion;
  instanceLeadMinutes: number | null;
  instanceRegion: InstanceRegion;
  instanceAccess: InstanceAccess;
  featured: boolean;
  /** Absent in a template saved before the Discord event list was kept: no. */
  discordEvent?: boolean;
  hostId: string | null;
  createdBy: string | null;
  publication: Omit<PublicationDetails, "title" | "description" | "startsAt" | "endsAt"> | null;
}

export type EventSeriesRow = typeof eventSeries.$inferSelect;

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

/** What Dwell asked VRChat for when it last created an event's instance (see features/vrchat/vrchat-instances). */
export interface RequestedInstance {
  access: InstanceAccess | "role";
  roleIds: string[];
  calendarEntryId: string | null;
  /** ISO time after which nobody new may join (the event's end). */
  closedAt: string;
}

/**
 * An event's entry in the Discord server's event list ('Interested', reminders), as Dwell keeps it:
 * the id Discord gave, what it has, and how many are interested. Kept after the event is deleted
 * (no foreign key), so that its entry can be taken down.
 */
export const discordEvents = pgTable("discord_events", {
  eventId: uuid().primaryKey(),
  discordEventId: text(),
  state: text().$type<PlaceState>().notNull().default("waiting"),
  /** What Discord has: a digest of the fields sent (an edit sends them again only when it changed). */
  syncedFingerprint: text(),
  createAttemptedAt: timestamp({ withTimezone: true }),
  lastError: text(),
  busyUntil: timestamp({ withTimezone: true }),
  /** How many are interested in Discord (`user_count`), and when it was read. */
  userCount: integer(),
  countedAt: timestamp({ withTimezone: true }),
  ...timestamps,
}, (table) => [check("discord_events_state_check", sql`${table.state} in ${inList(PLACE_STATES)}`)]);

export type DiscordEventRow = typeof discordEvents.$inferSelect;
