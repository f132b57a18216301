/**
 * The reminders sent before events: which events are within reminding time, and the record that
 * makes each reminder once (per event, reminder time and recipient).
 */
import { and, sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { eventReminders, events, type EventRow } from "~/db/schema";
import { startsAt } from "./events.server";

/** Events not started yet whose earliest reminder time has come (`maxLeadMinutes` before the start). */
export async function listEventsToRemind(db: Database, now: Date, maxLeadMinutes: number): Promise<EventRow[]> {
  const at = sql`${now.toISOString()}::timestamptz`;
  return db
    .select()
    .from(events)
    .where(and(sql`${startsAt} > ${at}`, sql`${startsAt} - make_interval(mins => ${maxLeadMinutes}) <= ${at}`))
    .limit(200);
}

/**
 * Takes one reminder (sent, or skipped: `sent` false) in the caller's transaction: false when it was
 * taken before, by this process or another.
 */
export async function claimReminder(tx: Pick<Database, "insert">, eventId: string, leadMinutes: number, recipient: string, sent: boolean): Promise<boolean> {
  const rows = await tx.insert(eventReminders).values({ eventId, leadMinutes, recipient, sent }).onConflictDoNothing().returning({ id: eventReminders.id });
  return rows.length > 0;
}
