/**
 * The calendar worker's queue, written to by the admins' saves (features/events) and by the worker
 * itself when a new entry replaces an old one (features/vrchat): one place for both.
 */
import { and, eq, gt, isNotNull, isNull, lte, ne, or, sql } from "drizzle-orm";
import type { Database } from "./db.server";
import { outbox, vrchatPublications } from "./schema";

type Executor = Pick<Database, "select" | "insert">;

const HOUR_MS = 60 * 60 * 1000;

/**
 * Queues the calendar worker for a publication, unless a job for it is already waiting (it will
 * read the latest state when it runs). A job being worked on does not count: it read the state before.
 */
export async function queueCalendarJob(tx: Executor, publicationId: string, now: Date) {
  const [waiting] = await tx
    .select({ id: outbox.id })
    .from(outbox)
    .where(
      and(
        eq(outbox.target, "vrchat_calendar"),
        eq(outbox.sourceId, publicationId),
        eq(outbox.status, "pending"),
        or(isNull(outbox.lockedUntil), lte(outbox.lockedUntil, now)),
      ),
    )
    .limit(1);
  if (waiting) return;
  await tx.insert(outbox).values({ target: "vrchat_calendar", payload: { publicationId }, sourceId: publicationId, nextAttemptAt: now });
}

/**
 * Queues the removal of an event's earlier entries, the ones no longer wanted and not yet removed:
 * once their replacement is on the calendar, or once the admins want none at all.
 */
export async function queueReplacedRemovals(tx: Executor, eventId: string, now: Date) {
  const replaced = await tx
    .select({ id: vrchatPublications.id })
    .from(vrchatPublications)
    .where(and(eq(vrchatPublications.eventId, eventId), eq(vrchatPublications.wanted, false), ne(vrchatPublications.state, "removed")));
  for (const row of replaced) await queueCalendarJob(tx, row.id, now);
}

/**
 * Holds VRChat's hourly allowance of calendar creations for this transaction: whoever counts and
 * reserves under it (a save in the Sanctum, a series' look, the worker about to create) cannot be
 * overtaken by another doing the same at once.
 */
export async function lockCalendarAllowance(tx: Pick<Database, "execute">) {
  await tx.execute(sql`select pg_advisory_xact_lock(7283)`);
}

/**
 * Creations VRChat has counted, or is about to, in the hour before `now`: entries created, and
 * creations tried without an answer yet. `hostsOnly`: those asked for by hosts.
 */
export async function calendarCreationsInHour(tx: Pick<Database, "select">, now: Date, { excluding, hostsOnly = false }: { excluding?: string; hostsOnly?: boolean } = {}) {
  const since = new Date(now.getTime() - HOUR_MS);
  const [row] = await tx
    .select({ count: sql<number>`count(*)::int`, oldest: sql<string | null>`min(coalesce(${vrchatPublications.vrchatCreatedAt}, ${vrchatPublications.createAttemptedAt}))` })
    .from(vrchatPublications)
    .where(
      and(
        or(gt(vrchatPublications.vrchatCreatedAt, since), and(isNull(vrchatPublications.vrchatEventId), isNotNull(vrchatPublications.createAttemptedAt), gt(vrchatPublications.createAttemptedAt, since))),
        excluding ? ne(vrchatPublications.id, excluding) : undefined,
        hostsOnly ? eq(vrchatPublications.requestedByHost, true) : undefined,
      ),
    );
  return { count: row?.count ?? 0, oldest: row?.oldest ? new Date(row.oldest) : null };
}
