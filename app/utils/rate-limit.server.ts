/**
 * Fixed-window rate limits counted in the database, so every process sharing it counts the same
 * requests. One upsert per request; old windows are pruned by the server's maintenance timer.
 */
import { and, eq, lt, sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { rateLimits } from "~/db/schema";

export interface RateLimitResult {
  allowed: boolean;
  /** Until the window ends, when not allowed. */
  retryAfterMs: number;
}

/** The start of the fixed window of `windowMs` that `now` falls in. */
export const windowOf = (windowMs: number, now: Date) => new Date(Math.floor(now.getTime() / windowMs) * windowMs);

/** Counts one more under `key` in the current window; returns the window's count. */
export async function countHit(db: Pick<Database, "insert">, { key, windowMs, now }: { key: string; windowMs: number; now: Date }): Promise<number> {
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart: windowOf(windowMs, now), count: 1 })
    .onConflictDoUpdate({
      target: [rateLimits.key, rateLimits.windowStart],
      set: { count: sql`${rateLimits.count} + 1` },
    })
    .returning({ count: rateLimits.count });
  return row!.count;
}

export async function hitRateLimit(
  db: Database,
  { key, limit, windowMs, now }: { key: string; limit: number; windowMs: number; now: Date },
): Promise<RateLimitResult> {
  const allowed = (await countHit(db, { key, windowMs, now })) <= limit;
  return { allowed, retryAfterMs: allowed ? 0 : windowOf(windowMs, now).getTime() + windowMs - now.getTime() };
}

/** Takes back one hit counted in the current window (what it counted did not happen after all). */
export async function giveBackHit(db: Pick<Database, "update">, { key, windowMs, now }: { key: string; windowMs: number; now: Date }) {
  await db
    .update(rateLimits)
    .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
    .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, windowOf(windowMs, now))));
}

/** How many hits the key has in the current window, without adding one. */
export async function rateLimitCount(db: Database, { key, windowMs, now }: { key: string; windowMs: number; now: Date }): Promise<number> {
  const [row] = await db
    .select({ count: rateLimits.count })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, windowOf(windowMs, now))));
  return row?.count ?? 0;
}

export async function pruneRateLimits(db: Database, olderThan: Date) {
  await db.delete(rateLimits).where(lt(rateLimits.windowStart, olderThan));
}
