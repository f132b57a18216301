import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql, type SQL } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { profiles } from "~/db/schema";
import type { EventInput } from "~/features/events/event-input";
import { createEvent } from "~/features/events/events.server";
import { PglitePool } from "../tests/setup/pglite-pool";
import { TEMPLATE_ENV } from "../tests/setup/pglite-seed";
import type { DatabaseHandle } from "~/db/db.server";

/**
 * What a test meets in a database the pool hands out again: nothing of the test before it. Each case
 * compares a database used and closed with a new copy of the same template, read the same way.
 */
describe("the test databases a process uses again", () => {
  let image: Blob;
  let opened = 0;
  const open: DatabaseHandle[] = [];
  // The run's template, with what migrations may also leave: a filled table, a sequence moved on.
  const openCopy = async () => {
    opened++;
    const client = await PGlite.create({ loadDataDir: image });
    await client.exec(`
      create table lanterns (id integer generated always as identity primary key, name text not null);
      insert into lanterns (name) values ('first'), ('second');`);
    return client;
  };
  const take = async (pool: PglitePool) => {
    const handle = await pool.take();
    open.push(handle);
    return handle;
  };

  const rowsOf = async <Row>({ db }: DatabaseHandle, query: SQL) => ((await db.execute(query)) as unknown as { rows: Row[] }).rows;

  /** Everything a test could read: each table's rows and each sequence's value. */
  async function contents(handle: DatabaseHandle) {
    const tables = await rowsOf<{ name: string }>(handle, sql`select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname = 'public' order by 1`);
    const rows: Record<string, unknown[]> = {};
    for (const { name } of tables) rows[name] = await rowsOf(handle, sql.raw(`select * from ${name} order by 1`));
    const sequences = await rowsOf(handle, sql`select sequencename, last_value from pg_sequences where schemaname = 'public' order by 1`);
    return { rows, sequences };
  }

  beforeAll(() => {
    const dir = process.env[TEMPLATE_ENV];
    if (!dir || !existsSync(join(dir, "image.tar"))) throw new Error(`${TEMPLATE_ENV} names no template: the app project's global setup makes it`);
    image = new Blob([readFileSync(join(dir, "image.tar"))]);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((handle) => handle.close()));
    opened = 0;
  });

  it("hands a closed database out again with the template's contents, and the old handle refuses every query", async () => {
    const pool = new PglitePool(openCopy);
    const first = await take(pool);
    const fresh = await contents(first);
    expect(fresh.rows["public.lanterns"]).toEqual([{ id: 1, name: "first" }, { id: 2, name: "second" }]);

    // A test's writes: an event through the app, rows in a filled table, a sequence moved on.
    const [admin] = await first.db.insert(profiles).values({ username: "Warden", email: "warden@dwell.example", role: "admin" }).returning();
    const input = { title: "Lanterns at Dusk", description: "Bring a lantern.", eventDate: "2027-01-01", eventTime: "20:00", timezone: "UTC", endDate: "2027-01-01", endTime: "22:00", worldName: "The Garden", worldId: null, applicationRequired: false, requiresProof: false, waitlistPromotion: "pending", instanceLeadMinutes: 15, instanceRegion: "us", instanceAccess: "members", featured: false, discordEvent: true } as EventInput;
    await createEvent(first.db, input, admin!.id);
    await first.db.execute(sql`insert into lanterns (name) values ('third')`);
    await first.db.execute(sql`delete from lanterns where name = 'first'`);
    expect(await contents(first)).not.toEqual(fresh);
    await first.close();

    const second = await take(pool);
    expect(opened).toBe(1);
    expect(await contents(second)).toEqual(fresh);
    await expect(first.db.execute(sql`select 1`)).rejects.toMatchObject({ cause: { message: "PGlite is closed" } });

    // A new copy, beside it, reads the same.
    const third = await take(pool);
    expect(opened).toBe(2);
    expect(await contents(third)).toEqual(fresh);
  });

  it("closes for good a database whose schema or session a test changed", async () => {
    const pool = new PglitePool(openCopy);
    const altered = await take(pool);
    await altered.db.execute(sql`alter table lanterns add column colour text`);
    await altered.close();
    const afterSchema = await take(pool);
    expect(opened).toBe(2);
    expect(await contents(afterSchema)).toEqual(await contents(await take(pool)));

    await afterSchema.db.execute(sql`set time zone 'Asia/Tokyo'`);
    await afterSchema.close();
    const afterSession = await take(pool);
    expect(opened).toBe(4);
    const [zone] = await rowsOf<{ TimeZone: string }>(afterSession, sql`show time zone`);
    expect(zone?.TimeZone).not.toBe("Asia/Tokyo");
  });
});
