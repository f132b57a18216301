import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { migrateDatabase, openPglite, type DatabaseHandle } from "~/db/db.server";
import { applicationQuestions, events, profiles } from "~/db/schema";
import { createTestDatabase, describeEachDatabase, ON_PGLITE, type TestDatabase } from "../tests/setup/test-database";
import { recordFirstStart } from "./demo-content";

const NOW = new Date("2026-11-23T12:00:00Z");

async function eventCount(db: DatabaseHandle["db"]) {
  return (await db.select({ id: events.id }).from(events)).length;
}

describeEachDatabase("the first start", (kind) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(kind);
  });
  afterEach(() => database.close());

  it("seeds the demo content once, however many processes start together", async () => {
    const starts = await Promise.all([1, 2, 3].map(() => recordFirstStart(database.db, { demoContent: true, now: NOW })));
    expect(starts.filter(Boolean)).toHaveLength(1);
    const seeded = await eventCount(database.db);
    expect(seeded).toBe(7);
    expect(await recordFirstStart(database.db, { demoContent: true, now: NOW })).toBe(false);
    expect(await eventCount(database.db)).toBe(seeded);
  });

  it("seeds into a database that already has an account (made before the first start)", async () => {
    await database.db.insert(profiles).values({ username: "Keeper", email: "keeper@dwell.example", role: "admin" });
    expect(await recordFirstStart(database.db, { demoContent: true, now: NOW })).toBe(true);
    expect((await database.db.select().from(applicationQuestions)).length).toBe(5);
  });

  it("never seeds a database whose first start was without demo content", async () => {
    expect(await recordFirstStart(database.db, { demoContent: false, now: NOW })).toBe(false);
    expect(await recordFirstStart(database.db, { demoContent: true, now: NOW })).toBe(false);
    expect(await eventCount(database.db)).toBe(0);
  });
});

describe.runIf(ON_PGLITE)("upgrading a database made before the first start was recorded", () => {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const folders: string[] = [];
  afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

  /** A database migrated by the version before this record existed, then by this one. */
  async function upgraded(before: (db: DatabaseHandle["db"]) => Promise<unknown>) {
    const older = mkdtempSync(join(tmpdir(), "dwell-migrations-"));
    folders.push(older);
    cpSync(join(root, "drizzle"), older, { recursive: true });
    const journalPath = join(older, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
    const cut = journal.entries.findIndex((entry) => entry.tag === "0002_milestones");
    writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, cut) }));

    const handle = await openPglite(null);
    await migrate(handle.db as never, { migrationsFolder: older });
    await before(handle.db);
    await migrateDatabase(handle);
    return handle;
  }

  it("counts a database in use as started: the new version seeds nothing into it", async () => {
    // Written as that version's table had it (the schema in code has since grown).
    const handle = await upgraded((db) =>
      db.execute(sql`insert into events (title, event_date, event_time, world_name) values ('Our own night', '2026-12-01', '20:00', 'Home')`),
    );
    expect(await recordFirstStart(handle.db, { demoContent: true, now: NOW })).toBe(false);
    expect(await eventCount(handle.db)).toBe(1);
    await handle.close();
  });

  it("counts an empty one as never started", async () => {
    const handle = await upgraded(async () => undefined);
    expect(await recordFirstStart(handle.db, { demoContent: true, now: NOW })).toBe(true);
    await handle.close();
  });
});
