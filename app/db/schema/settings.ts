/** What the owner set up in the Sanctum: the connections, the first owner's setup code, and what was last found to work. */
import { sql } from "drizzle-orm";
import { boolean, check, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * A connection's setting saved on the Connections page (features/connections): its environment
 * variable's name and value. A secret's value is sealed (utils/sealed.server) and never read back to a
 * page. `revision` is the settings' revision that last wrote it (two owners saving at once).
 */
export const connectionSettings = pgTable("connection_settings", {
  key: text().primaryKey(),
  value: text().notNull(),
  secret: boolean().notNull().default(false),
  revision: integer().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  /** The owner's profile id (no foreign key: the history outlives the account). */
  updatedBy: uuid(),
});

/**
 * One row: the revision of the saved settings, moved on by every save. Each process compares it with
 * the one it runs with (a read every few seconds) and takes the new settings without a restart.
 */
export const settingsRevision = pgTable(
  "settings_revision",
  {
    id: integer().primaryKey().default(1),
    revision: integer().notNull().default(0),
    changedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check("settings_revision_one_row", sql`${table.id} = 1`)],
);

/**
 * The one-time code that makes the first owner in the browser (features/accounts/first-owner): its
 * hash, made at a start while no staff account exists, valid 24 hours, used once. A newer start's
 * code replaces it. Wrong tries are counted per code (5 an hour).
 */
export const setupCodes = pgTable("setup_codes", {
  id: uuid().primaryKey().defaultRandom(),
  codeHash: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  usedAt: timestamp({ withTimezone: true }),
});

/**
 * What the last look at each connection found (features/connections/checks): the live facts read
 * (the bot's permissions, its place among the roles, the chat, the sheet, the mail server) and the
 * choices offered on the page (the bot's groups, servers, channels, roles). Every process reads it.
 */
export const connectionChecks = pgTable("connection_checks", {
  /** vrchat, discord, telegram, sheets, mail */
  area: text().primaryKey(),
  checkedAt: timestamp({ withTimezone: true }).notNull(),
  /** The settings' revision it was read with: an older one is shown as 'not read since the change'. */
  revision: integer().notNull(),
  result: jsonb().notNull(),
});
