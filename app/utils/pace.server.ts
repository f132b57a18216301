/**
 * Paces counted in the database, so that every process sharing it keeps one pace: a turn is taken
 * by one upsert that moves the key's next free time on by the spacing, by the database's own clock
 * (processes on other machines may disagree about the time; the database is one).
 */
import { sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { callPaces } from "~/db/schema";

/** Takes the next turn of `key`: how long to wait (ms) before the call may be made. */
export async function takeTurn(db: Database, key: string, spacingMs: number): Promise<number> {
  const spacing = sql`make_interval(secs => ${spacingMs / 1000})`;
  const [row] = await db
    .insert(callPaces)
    .values({ key, nextAt: sql`clock_timestamp() + ${spacing}` })
    .onConflictDoUpdate({ target: callPaces.key, set: { nextAt: sql`greatest(${callPaces.nextAt}, clock_timestamp()) + ${spacing}` } })
    .returning({ waitMs: sql<number>`greatest(0, extract(epoch from (${callPaces.nextAt} - ${spacing} - clock_timestamp())) * 1000)::float8` });
  return row!.waitMs;
}
