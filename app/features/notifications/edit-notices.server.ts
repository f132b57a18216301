/**
 * 'Application edited' for the staff's channels, at most one per application per EDIT_NOTICE_GAP_MS
 * (an applicant may edit ten times an hour: staff need not hear of each).
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { outbox } from "~/db/schema";
import type { ApplicationNotification, NotificationTarget } from "./notification";

/** Staff hear of one application's edits at most this often: later edits join the notice that waits. */
export const EDIT_NOTICE_GAP_MS = 10 * 60_000;

/**
 * The notice of an edit: one made while a notice waits joins it (its answers are the latest, its count
 * grows); one made within the gap after the last notice went is held until the gap has passed.
 */
export async function enqueueEditNotice(tx: Pick<Database, "insert" | "select" | "update">, notification: ApplicationNotification, targets: readonly NotificationTarget[], sourceId: string, now: Date) {
  if (targets.length === 0) return;
  const notices = await tx
    .select({ id: outbox.id, status: outbox.status, nextAttemptAt: outbox.nextAttemptAt, payload: outbox.payload })
    .from(outbox)
    .where(and(eq(outbox.sourceId, sourceId), inArray(outbox.target, [...targets]), sql`(${outbox.payload}->>'edited')::boolean is true`))
    .for("update");
  const waiting = notices.filter((notice) => notice.status === "pending" && notice.nextAttemptAt > now);
  if (waiting.length > 0) {
    const edits = Math.max(...waiting.map((notice) => (notice.payload as ApplicationNotification).edits ?? 1)) + 1;
    await tx.update(outbox).set({ payload: { ...notification, edits } }).where(inArray(outbox.id, waiting.map((notice) => notice.id)));
    return;
  }
  const lastWent = Math.max(0, ...notices.map((notice) => notice.nextAttemptAt.getTime()));
  const at = now.getTime() - lastWent < EDIT_NOTICE_GAP_MS ? new Date(lastWent + EDIT_NOTICE_GAP_MS) : now;
  await tx.insert(outbox).values(targets.map((target) => ({ target, payload: { ...notification, edits: 1 }, sourceId, nextAttemptAt: at })));
}

