/** A person's file: the staff's notes on it, and the files staff joined by hand (and split again). */
import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { profiles } from "./accounts";

/**
 * A note written on a person's file, kept under the file's key as it was then (a VRChat id, a Discord
 * id, or an unlinked application's): a file shows the notes of every key it holds.
 */
export const personNotes = pgTable(
  "person_notes",
  {
    id: uuid().primaryKey().defaultRandom(),
    personKey: text().notNull(),
    body: text().notNull(),
    authorId: uuid().references(() => profiles.id, { onDelete: "set null" }),
    /** Kept as written, so the note still reads after the account is removed. */
    authorName: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("person_notes_key_idx").on(table.personKey, table.createdAt)],
);

/**
 * Two files a staff member joined: the file under `person_key` is shown inside the one under
 * `into_key` until it is split off again (`split_at`). The rows stay, so both are audited. One merge
 * in force per key; files join as a tree (a file merged into another keeps what was merged into it).
 */
export const personMerges = pgTable(
  "person_merges",
  {
    id: uuid().primaryKey().defaultRandom(),
    personKey: text().notNull(),
    intoKey: text().notNull(),
    mergedBy: text().notNull(),
    mergedById: uuid().references(() => profiles.id, { onDelete: "set null" }),
    mergedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    splitAt: timestamp({ withTimezone: true }),
    splitBy: text(),
  },
  (table) => [
    uniqueIndex("person_merges_in_force_key").on(table.personKey).where(sql`${table.splitAt} is null`),
    index("person_merges_into_idx").on(table.intoKey),
  ],
);
