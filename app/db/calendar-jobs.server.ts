/**
 * The calendar worker's queue, written to by the admins' saves (features/events) and by the worker
 * itself when a new entry replaces an old one (features/vrchat): one place for both.
 */
import { and, eq, isNull, lte, ne, or } from "drizzle-orm";
import type { Database } from "./db.server";
import { outbox, vrchatPublications } from "./schema";

type Executor = Pick<Database, "select" | "insert">;

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
