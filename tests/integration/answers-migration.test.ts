/**
 * Answers kept by question text before 0020 become answers kept by question, on both databases:
 * a database at 0019 with applications is migrated, and each answer takes its question's id and
 * type, in the form's order; an answer whose question is gone keeps its text; an event's answers
 * take that event's questions, not another's of the same text.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { afterAll, expect, it } from "vitest";
import { migrateDatabase, openPglite, openPostgres, type DatabaseHandle } from "~/db/db.server";
import { describeEachDatabase, postgresUrl } from "../setup/test-database";

const LAST_BEFORE = "0019_people";

/** The rows of a raw query (PGlite and node-postgres both answer with `rows`). */
const rowsOf = <T,>(result: unknown) => (result as { rows: T[] }).rows;

/** The migrations folder as it was before answers were kept by question. */
function migrationsBefore(): string {
  const folder = mkdtempSync(join(tmpdir(), "dwell-migrations-"));
  cpSync("drizzle", folder, { recursive: true });
  const journalPath = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
  const last = journal.entries.findIndex((entry) => entry.tag === LAST_BEFORE);
  expect(last).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, last + 1);
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}

const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

describeEachDatabase("the migration of answers to answers by question", (kind) => {
  it("gives each kept answer its question's id and type, in the form's order, and keeps an orphan by its text", async () => {
    const before = migrationsBefore();
    folders.push(before);
    let handle: DatabaseHandle;
    let url: string | undefined;
    let dropDatabase = async () => {};
    if (kind === "pglite") {
      handle = await openPglite(null);
      await migratePglite(handle.db as never, { migrationsFolder: before });
    } else {
      const name = `dwell_test_${randomUUID().replaceAll("-", "")}`;
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      url = postgresUrl(name);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await migrateNodePg(drizzleNodePg({ client, casing: "snake_case" }), { migrationsFolder: before });
      await client.end();
      handle = openPostgres(url, 2);
      dropDatabase = async () => {
        const cleanup = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await cleanup.connect();
        await cleanup.query(`drop database if exists ${name} with (force)`);
        await cleanup.end();
      };
    }
    try {
      const { db } = handle;
      const eventA = rowsOf<{ id: string }>(await db.execute(sql`insert into events (title, event_date, event_time, world_name) values ('A', '2026-12-01', '20:00', 'W') returning id`))[0]!.id;
      const eventB = rowsOf<{ id: string }>(await db.execute(sql`insert into events (title, event_date, event_time, world_name) values ('B', '2026-12-02', '20:00', 'W') returning id`))[0]!.id;
      const [why, role] = rowsOf<{ id: string }>(await db.execute(sql`
        insert into application_questions (question, question_type, options, order_index) values
          ('Why join?', 'textarea', null, 1), ('Which role?', 'select', '["Listener","Performer"]'::jsonb, 0)
        returning id`));
      const [whyA] = rowsOf<{ id: string }>(await db.execute(sql`insert into event_application_questions (event_id, question, order_index) values (${eventA}, 'Why come?', 0) returning id`));
      const [whyB] = rowsOf<{ id: string }>(await db.execute(sql`insert into event_application_questions (event_id, question, order_index) values (${eventB}, 'Why come?', 0) returning id`));
      await db.execute(sql`
        insert into applications (vrchat_username, discord_id, responses) values
          ('Moth', 'moth', ${JSON.stringify({ "Why join?": "Quiet worlds", "Which role?": "Listener", "A question since deleted": "Kept" })}::jsonb),
          ('Wren', 'wren', '{}'::jsonb)`);
      await db.execute(sql`insert into event_applications (event_id, vrchat_username, responses) values (${eventB}, 'Ash', ${JSON.stringify({ "Why come?": "Music" })}::jsonb)`);

      await migrateDatabase(handle, url);

      const group = rowsOf<{ name: string; answers: unknown }>(await db.execute(sql`select vrchat_username as name, answers from applications order by vrchat_username`));
      expect(group).toEqual([
        {
          name: "Moth",
          answers: [
            { questionId: role!.id, question: "Which role?", type: "select", value: "Listener" },
            { questionId: why!.id, question: "Why join?", type: "textarea", value: "Quiet worlds" },
            { questionId: null, question: "A question since deleted", type: "text", value: "Kept" },
          ],
        },
        { name: "Wren", answers: [] },
      ]);
      const event = rowsOf<{ answers: unknown }>(await db.execute(sql`select answers from event_applications`));
      expect(event).toEqual([{ answers: [{ questionId: whyB!.id, question: "Why come?", type: "text", value: "Music" }] }]);
      expect(whyA!.id).not.toBe(whyB!.id);
      // The text-keyed column is gone: one place holds the answers.
      const columns = rowsOf<unknown>(await db.execute(sql`select column_name from information_schema.columns where table_name = 'applications' and column_name = 'responses'`));
      expect(columns).toEqual([]);
    } finally {
      await handle.close();
      await dropDatabase();
    }
  });
});
