/**
 * An event's places: `max_attendees` is how many applicants may be approved. Whatever decides
 * whether a place is free locks the event's row first (`for update`), so two approvals of the last
 * place, or an approval and a new application, are answered one after the other and never both
 * take it.
 */
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { eventApplications, events } from "~/db/schema";
import type { Places } from "./places";

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
type Reader = Pick<Database, "select">;

/**
 * Locks the event's row for the rest of the transaction and counts its approved applications.
 * Null when the event has no limit; "missing" when there is no such event.
 */
export async function lockPlaces(tx: Transaction, eventId: string): Promise<Places | null | "missing"> {
  const [event] = await tx.select({ id: events.id }).from(events).where(eq(events.id, eventId)).for("update");
  if (!event) return "missing";
  // Counted once the lock is held: a statement after it sees every approval committed before.
  return (await listPlaces(tx, [eventId])).get(eventId) ?? null;
}

export function placesOf(max: number, taken: number): Places {
  return { max, taken, left: Math.max(0, max - taken) };
}

/** The places of events with a limit, by event id (events without one are left out). */
export async function listPlaces(db: Reader, eventIds: readonly string[]): Promise<Map<string, Places>> {
  if (eventIds.length === 0) return new Map();
  // Counted in a grouped pass and joined: drizzle writes column names unqualified, so a correlated
  // subquery as SQL text would count against itself.
  const approved = db
    .select({ eventId: eventApplications.eventId, taken: sql<number>`count(*)::int`.as("taken") })
    .from(eventApplications)
    .where(and(inArray(eventApplications.eventId, [...eventIds]), eq(eventApplications.status, "approved"), isNull(eventApplications.spamAt)))
    .groupBy(eventApplications.eventId)
    .as("approved");
  const rows = await db
    .select({ id: events.id, max: events.maxAttendees, taken: sql<number>`coalesce(${approved.taken}, 0)`.mapWith(Number) })
    .from(events)
    .leftJoin(approved, eq(approved.eventId, events.id))
    .where(inArray(events.id, [...eventIds]));
  return new Map(rows.filter((row) => row.max !== null).map((row) => [row.id, placesOf(row.max!, row.taken)]));
}

/** Where an application on the waitlist stands: 1 for the first in line (earliest sent). */
export async function waitlistPosition(db: Reader, applicationId: string): Promise<number | null> {
  const [row] = await db
    .select({ eventId: eventApplications.eventId, submittedAt: eventApplications.submittedAt, status: eventApplications.status })
    .from(eventApplications)
    .where(and(eq(eventApplications.id, applicationId), isNull(eventApplications.spamAt)));
  if (!row || row.status !== "waitlist") return null;
  const [ahead] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(eventApplications)
    .where(
      and(
        eq(eventApplications.eventId, row.eventId),
        eq(eventApplications.status, "waitlist"),
        isNull(eventApplications.spamAt),
        sql`(${eventApplications.submittedAt}, ${eventApplications.id}) < (${row.submittedAt.toISOString()}::timestamptz, ${applicationId}::uuid)`,
      ),
    );
  return ahead!.n + 1;
}

/** An event's approved attendees with a linked Discord account, and when each was approved. */
export async function listApprovedWithDiscord(db: Reader, eventId: string) {
  return db
    .select({ id: eventApplications.id, discordUserId: eventApplications.discordUserId, reviewedAt: eventApplications.reviewedAt, language: eventApplications.language })
    .from(eventApplications)
    .where(and(eq(eventApplications.eventId, eventId), eq(eventApplications.status, "approved"), isNull(eventApplications.spamAt), sql`${eventApplications.discordUserId} is not null`));
}
