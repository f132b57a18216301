/** The group's screening rules, and each application's screening: what the rules made of it. */
import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
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
    applicationKind: text().$type<"group" | "event">().notNull(),
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
    ...timestamps,
  },
  (table) => [
    primaryKey({ columns: [table.applicationKind, table.applicationId] }),
    check("screenings_kind_check", sql`${table.applicationKind} in ('group', 'event')`),
    check("screenings_state_check", sql`${table.state} in ${inList(SCREENING_STATES)}`),
    index("screenings_due_idx").on(table.nextAttemptAt).where(sql`${table.state} <> 'done'`),
  ],
);
