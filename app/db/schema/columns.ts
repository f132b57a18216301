/** What the tables share: their timestamps, and CHECK lists written from the `as const` lists of enums. */
import { sql } from "drizzle-orm";
import { timestamp } from "drizzle-orm/pg-core";

/** Every abbreviation the time module understands (see features/events/event-timing.ts). */
export const STORED_TIMEZONES = ["UTC", "EST", "EDT", "CST", "CDT", "MST", "MDT", "PST", "PDT"];

export const inList = (values: readonly string[]) =>
  sql.raw(`(${values.map((value) => `'${value}'`).join(", ")})`);

export const timestamps = {
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};
