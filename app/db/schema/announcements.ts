/** Announcements written once in the Sanctum, and where each went: the site, VRChat, Discord. */
import { sql } from "drizzle-orm";
import { boolean, check, customType, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import {
  ANNOUNCEMENT_AUDIENCES,
  ANNOUNCEMENT_PLACES,
  PICTURE_TYPES,
  PLACE_STATES,
  type AnnouncementAudience,
  type AnnouncementPlace,
  type PictureType,
  type PlaceState,
} from "../enums";
import { profiles } from "./accounts";
import { inList, timestamps } from "./columns";
import { events } from "./events";

const bytes = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});

/** One language's words of an announcement (its language's code is the key). */
export interface AnnouncementText {
  title: string;
  text: string;
}

/** An announcement's picture, checked by its bytes when it was given. */
export const announcementPictures = pgTable(
  "announcement_pictures",
  {
    id: uuid().primaryKey().defaultRandom(),
    type: text().$type<PictureType>().notNull(),
    data: bytes().notNull(),
    width: integer().notNull(),
    height: integer().notNull(),
    /** The file VRChat made of it (`file_…`), once uploaded: a post's `imageId`. */
    vrchatFileId: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check("announcement_pictures_type_check", sql`${table.type} in ${inList(PICTURE_TYPES)}`)],
);

export const announcements = pgTable(
  "announcements",
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Per language; the site's default language is always there. */
    texts: jsonb().$type<Record<string, AnnouncementText>>().notNull(),
    audience: text().$type<AnnouncementAudience>().notNull().default("everyone"),
    /** The VRChat group roles it is meant for (a post VRChat shows to them only). */
    vrchatRoleIds: jsonb().$type<string[]>().notNull().default([]),
    /** 'Notify members in VRChat': the post sends them a notification. */
    notifyMembers: boolean().notNull().default(false),
    /** The one Discord role the message mentions, from the owner's short list. */
    discordRoleId: text(),
    pictureId: uuid().references(() => announcementPictures.id, { onDelete: "set null" }),
    /** The event it announces ('Announce' on an event's card): its time and page go with it. */
    eventId: uuid().references(() => events.id, { onDelete: "set null" }),
    /** Null: a draft. Otherwise when it is (or was) published: in the future, it is scheduled. */
    publishAt: timestamp({ withTimezone: true }),
    /** Goes up with each saved change; each place records the version it has. */
    version: integer().notNull().default(1),
    deletedAt: timestamp({ withTimezone: true }),
    createdBy: uuid().references(() => profiles.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (table) => [
    check("announcements_audience_check", sql`${table.audience} in ${inList(ANNOUNCEMENT_AUDIENCES)}`),
    index("announcements_publish_at_idx").on(table.publishAt.desc()).where(sql`${table.deletedAt} is null`),
  ],
);

/**
 * One place an announcement goes to, and what that place has: the id of what Dwell made there (a
 * post, a message), and the version it shows. A worker makes the place match the announcement; only
 * what Dwell made (its id here) is ever edited or deleted.
 */
export const announcementPlaces = pgTable(
  "announcement_places",
  {
    announcementId: uuid()
      .notNull()
      .references(() => announcements.id, { onDelete: "cascade" }),
    place: text().$type<AnnouncementPlace>().notNull(),
    /** False once the announcement is deleted: the place is to take it down. */
    wanted: boolean().notNull().default(true),
    state: text().$type<PlaceState>().notNull().default("waiting"),
    externalId: text(),
    /** Where a person sees it there (a post's page, a message's link). */
    url: text(),
    syncedVersion: integer().notNull().default(0),
    /** The picture the place has now (a change of picture sends it again). */
    syncedPictureId: uuid(),
    /** Set before a create call: a later attempt looks for what it made before making another. */
    createAttemptedAt: timestamp({ withTimezone: true }),
    lastError: text(),
    /** One worker at a time works on a place (several processes may share PostgreSQL). */
    busyUntil: timestamp({ withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    primaryKey({ columns: [table.announcementId, table.place] }),
    check("announcement_places_place_check", sql`${table.place} in ${inList(ANNOUNCEMENT_PLACES)}`),
    check("announcement_places_state_check", sql`${table.state} in ${inList(PLACE_STATES)}`),
  ],
);

/** Who published, edited, deleted or sent again an announcement, and when. */
export const announcementHistory = pgTable(
  "announcement_history",
  {
    id: uuid().primaryKey().defaultRandom(),
    announcementId: uuid().notNull(),
    actorId: uuid().references(() => profiles.id, { onDelete: "set null" }),
    actorName: text().notNull(),
    /** What happened, in words ("published", "edited"). */
    change: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("announcement_history_announcement_idx").on(table.announcementId, table.createdAt)],
);

export type AnnouncementRow = typeof announcements.$inferSelect;
export type AnnouncementPlaceRow = typeof announcementPlaces.$inferSelect;
