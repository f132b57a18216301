/**
 * A job that names what it works on (an announcement's place, an event's Discord entry) rather than
 * a change: one waiting job is enough, since it reads the latest state when it runs. Queuing again
 * moves the waiting one to the new time instead of adding another.
 */
import { and, eq } from "drizzle-orm";
import type { Database } from "./db.server";
import { outbox } from "./schema";

export async function queueOrMoveJob(tx: Pick<Database, "insert" | "update">, job: { target: string; sourceId: string; payload: unknown; at: Date }) {
  const moved = await tx
    .update(outbox)
    .set({ nextAttemptAt: job.at })
    .where(and(eq(outbox.sourceId, job.sourceId), eq(outbox.target, job.target), eq(outbox.status, "pending")))
    .returning({ id: outbox.id });
  if (moved.length === 0) await tx.insert(outbox).values({ target: job.target, payload: job.payload, sourceId: job.sourceId, nextAttemptAt: job.at });
}
