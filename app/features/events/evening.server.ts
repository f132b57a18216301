/**
 * How an evening went, from what its instance showed (flows/event-attendance): the people in it minute
 * by minute, its peak, how many different people came and how long they stayed, and how many of the
 * approved came; for a series, the same over its occurrences, and its regulars.
 */
import { and, asc, desc, eq, gte, inArray, isNotNull } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { eventApplications, eventInstances, events, instanceMinutes, instancePresence } from "~/db/schema";
import { eventEnd, eventStart } from "./event-timing";

export interface EveningFigures {
  eventId: string;
  title: string;
  start: string;
  end: string;
  /** Each minute read from the first to the last: the people in it, null where it could not be read. */
  minutes: { at: number; people: number | null }[];
  peak: { at: number; people: number } | null;
  /** Different people seen. */
  seen: number;
  /** The median of the minutes each person was seen. */
  medianStay: number | null;
  approved: number;
  /** Approved attendees marked attended (read from the instance, or by staff). */
  came: number;
  /** came / approved, 0–1; null without approved attendees. */
  showRate: number | null;
}

const median = (values: number[]) => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

type EventRow = { id: string; title: string; eventDate: string; eventTime: string; endDate: string | null; endTime: string | null; timezone: string | null };

async function figuresOf(db: Database, rows: EventRow[]): Promise<EveningFigures[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [minutes, presence, attendees] = await Promise.all([
    db.select().from(instanceMinutes).where(inArray(instanceMinutes.eventId, ids)).orderBy(asc(instanceMinutes.minute)),
    db.select({ eventId: instancePresence.eventId, minutesSeen: instancePresence.minutesSeen }).from(instancePresence).where(inArray(instancePresence.eventId, ids)),
    db.select({ eventId: eventApplications.eventId, attendance: eventApplications.attendance }).from(eventApplications).where(and(inArray(eventApplications.eventId, ids), eq(eventApplications.status, "approved"))),
  ]);
  return rows.map((row) => {
    const own = minutes.filter((minute) => minute.eventId === row.id).map((minute) => ({ at: minute.minute.getTime(), people: minute.people }));
    const read = own.filter((minute): minute is { at: number; people: number } => minute.people !== null);
    const peak = read.reduce<{ at: number; people: number } | null>((best, minute) => (!best || minute.people > best.people ? minute : best), null);
    const stays = presence.filter((person) => person.eventId === row.id).map((person) => person.minutesSeen);
    const approved = attendees.filter((attendee) => attendee.eventId === row.id);
    const came = approved.filter((attendee) => attendee.attendance === "attended").length;
    return {
      eventId: row.id,
      title: row.title,
      start: eventStart(row).toISOString(),
      end: eventEnd(row).toISOString(),
      minutes: own,
      peak,
      seen: stays.length,
      medianStay: median(stays),
      approved: approved.length,
      came,
      showRate: approved.length > 0 ? came / approved.length : null,
    };
  });
}

const EVENT_COLUMNS = { id: events.id, title: events.title, eventDate: events.eventDate, eventTime: events.eventTime, endDate: events.endDate, endTime: events.endTime, timezone: events.timezone, seriesId: events.seriesId, hostId: events.hostId };

/** One event's evening, and its series' (the occurrences whose instance Dwell opened, latest first, at most 12). */
export async function eveningOf(db: Database, eventId: string, minMinutes: number) {
  const [event] = await db.select(EVENT_COLUMNS).from(events).where(eq(events.id, eventId));
  if (!event) return null;
  const [figures] = await figuresOf(db, [event]);
  const series = event.seriesId ? await seriesEvenings(db, event.seriesId, minMinutes) : null;
  return { event, figures: figures!, series };
}

/** How many of the last occurrences a regular came to, and of how many. */
export const REGULAR_OF = { came: 3, last: 5 } as const;

async function seriesEvenings(db: Database, seriesId: string, minMinutes: number) {
  const occurrences = await db
    .select(EVENT_COLUMNS)
    .from(events)
    .innerJoin(eventInstances, eq(eventInstances.eventId, events.id))
    .where(and(eq(events.seriesId, seriesId), isNotNull(eventInstances.openedAt)))
    .orderBy(desc(events.eventDate), desc(events.eventTime))
    .limit(12);
  const figures = await figuresOf(db, occurrences);
  // Regulars: seen at least ATTENDANCE_MIN_MINUTES at 3 of the last 5 evenings read (by their VRChat account).
  const lastFive = occurrences.slice(0, REGULAR_OF.last).map((occurrence) => occurrence.id);
  const seen = lastFive.length > 0 ? await db.select({ eventId: instancePresence.eventId, userId: instancePresence.userId, displayName: instancePresence.displayName }).from(instancePresence).where(and(inArray(instancePresence.eventId, lastFive), gte(instancePresence.minutesSeen, minMinutes))) : [];
  const counts = new Map<string, { name: string; evenings: number }>();
  for (const person of seen) {
    const entry = counts.get(person.userId) ?? { name: person.displayName, evenings: 0 };
    entry.evenings++;
    counts.set(person.userId, entry);
  }
  const regulars = [...counts.values()].filter((entry) => entry.evenings >= REGULAR_OF.came).sort((a, b) => b.evenings - a.evenings || a.name.localeCompare(b.name));
  return { figures, regulars };
}
