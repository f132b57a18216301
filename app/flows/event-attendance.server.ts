/**
 * Who came to an event, read from the instance Dwell opened for it. VRChat lists an instance's users
 * to its creator only (`GET /instances/{worldId}:{instanceId}`), and the creator is Dwell's bot.
 *
 * - While an event is under way and its instance is open, it is read about once a minute: one call an
 *   instance a minute, whichever process takes the minute (a conditional update claims it). Each
 *   minute keeps how many were in it (null: it could not be read), and each account seen its minutes.
 * - At the event's end, each approved attendee whose VRChat account was seen for at least
 *   ATTENDANCE_MIN_MINUTES is marked attended, each approved attendee with an account who was not is
 *   marked a no-show (in the application's history, as read from the instance). A staff member's mark
 *   is never changed. An attendee without a linked account is left to staff. People seen without an
 *   approved application are 'came without applying' on the card.
 * - An evening read for less than half of its minutes marks no one: the card says so.
 * - A person is their VRChat account id, never a name. A mark on an application whose account was
 *   matched by name only stays on that application (features/applications/attendance.server).
 */
import { and, eq, inArray, isNotNull, isNull, lte, ne, or, sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { applicationAuditLog, eventApplications, eventInstances, events, instanceMinutes, instancePresence } from "~/db/schema";
import { eventEnd, eventStart } from "~/features/events/event-timing";
import type { InstanceOpener } from "~/features/vrchat/vrchat-instances.server";
import { log } from "~/utils/log.server";

/** How often the open instances are looked at (each is read at most once a minute). */
export const ATTENDANCE_LOOK_MS = 20_000;
const MINUTE = 60_000;

/** The name the automatic marks carry in an application's history. */
export const READ_FROM_INSTANCE = "read from the instance";

export interface AttendanceServices {
  db: Database;
  /** Reads an instance's people: null without VRChat or without instances opened by Dwell. */
  people: InstanceOpener["people"] | null;
  /** Minutes an attendee must have been seen to count as having come. */
  minMinutes: number;
}

/** What reading and marking needs, from what every entry point has (the server's timer, a test). */
export function attendanceServices(from: { db: Database; config: { ATTENDANCE_MIN_MINUTES: number }; vrchat: { instances: InstanceOpener | null } }): AttendanceServices {
  return { db: from.db, people: from.vrchat.instances?.people ?? null, minMinutes: from.config.ATTENDANCE_MIN_MINUTES };
}

const minuteOf = (at: Date) => new Date(Math.floor(at.getTime() / MINUTE) * MINUTE);

/** The events under way whose instance Dwell opened and has not seen closed. */
async function openInstancesUnderWay(db: Database, now: Date) {
  const rows = await db
    .select({ eventId: eventInstances.eventId, location: eventInstances.location, lastReadAt: eventInstances.lastReadAt, event: { eventDate: events.eventDate, eventTime: events.eventTime, endDate: events.endDate, endTime: events.endTime, timezone: events.timezone } })
    .from(eventInstances)
    .innerJoin(events, eq(events.id, eventInstances.eventId))
    .where(and(eq(eventInstances.state, "open"), isNotNull(eventInstances.location), isNull(eventInstances.attendanceMarkedAt)));
  return rows.filter((row) => eventStart(row.event).getTime() <= now.getTime() + MINUTE && now.getTime() < eventEnd(row.event).getTime());
}

/** Takes this minute's read of one instance, unless another process (or an earlier look) took it. */
async function claimMinute(db: Database, eventId: string, minute: Date): Promise<boolean> {
  const claimed = await db
    .update(eventInstances)
    .set({ lastReadAt: minute })
    .where(and(eq(eventInstances.eventId, eventId), or(isNull(eventInstances.lastReadAt), sql`${eventInstances.lastReadAt} < ${minute}`)))
    .returning({ eventId: eventInstances.eventId });
  return claimed.length > 0;
}

/** Reads each open instance of an event under way, once a minute; returns how many were read. */
export async function readEventInstances(services: AttendanceServices, now: Date): Promise<number> {
  if (!services.people) return 0;
  const minute = minuteOf(now);
  let read = 0;
  for (const row of await openInstancesUnderWay(services.db, now)) {
    if (!(await claimMinute(services.db, row.eventId, minute))) continue;
    read++;
    let answer: Awaited<ReturnType<InstanceOpener["people"]>>;
    try {
      answer = await services.people(row.location!);
    } catch (error) {
      log.warn("an event's instance could not be read", { eventId: row.eventId, error });
      await services.db.insert(instanceMinutes).values({ eventId: row.eventId, minute, people: null }).onConflictDoNothing();
      continue;
    }
    await recordMinute(services.db, row.eventId, minute, answer);
  }
  return read;
}

/** What one read found: the count, each account seen, or the instance gone (closed early or by hand). */
export async function recordMinute(db: Database, eventId: string, minute: Date, answer: Awaited<ReturnType<InstanceOpener["people"]>>) {
  if (answer === null) {
    // Closed: nobody is in it from now on, and it is not read again.
    await db.transaction(async (tx) => {
      await tx.insert(instanceMinutes).values({ eventId, minute, people: 0 }).onConflictDoNothing();
      await tx.update(eventInstances).set({ state: "closed", closedAt: minute }).where(and(eq(eventInstances.eventId, eventId), eq(eventInstances.state, "open")));
    });
    return;
  }
  // Without the list of users the minute's people are not known: a gap, whatever the count.
  const seen = answer.users === null ? null : [...new Map(answer.users.map((user) => [user.id, user])).values()];
  await db.transaction(async (tx) => {
    await tx.insert(instanceMinutes).values({ eventId, minute, people: seen === null ? null : seen.length }).onConflictDoNothing();
    if (!seen || seen.length === 0) return;
    await tx
      .insert(instancePresence)
      .values(seen.map((user) => ({ eventId, userId: user.id, displayName: user.displayName.slice(0, 200), firstSeenAt: minute, lastSeenAt: minute, minutesSeen: 1 })))
      .onConflictDoUpdate({
        target: [instancePresence.eventId, instancePresence.userId],
        set: {
          displayName: sql`excluded.display_name`,
          lastSeenAt: sql`excluded.last_seen_at`,
          minutesSeen: sql`${instancePresence.minutesSeen} + 1`,
        },
      });
  });
}

export type MarkOutcome = { kind: "marked"; attended: number; noShows: number; unlinked: number } | { kind: "unreadable"; readMinutes: number; minutes: number };

/**
 * After the end: the marks of one event from what its instance showed. Minutes after the instance
 * closed count as read (nobody was in it); an evening read for less than half its minutes marks no one.
 */
export async function markFromInstance(services: AttendanceServices, eventId: string, now: Date): Promise<MarkOutcome | null> {
  const { db } = services;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ state: eventInstances.state, openedAt: eventInstances.openedAt, closedAt: eventInstances.closedAt, markedAt: eventInstances.attendanceMarkedAt, event: { eventDate: events.eventDate, eventTime: events.eventTime, endDate: events.endDate, endTime: events.endTime, timezone: events.timezone } })
      .from(eventInstances)
      .innerJoin(events, eq(events.id, eventInstances.eventId))
      .where(eq(eventInstances.eventId, eventId))
      .for("update", { of: eventInstances });
    if (!row || row.markedAt || !row.openedAt) return null;
    const start = eventStart(row.event);
    const end = eventEnd(row.event);
    if (now.getTime() < end.getTime()) return null;
    const minutes = Math.max(1, Math.round((end.getTime() - start.getTime()) / MINUTE));
    const readings = await tx.select({ minute: instanceMinutes.minute, people: instanceMinutes.people }).from(instanceMinutes).where(eq(instanceMinutes.eventId, eventId));
    const closedAt = row.closedAt && row.closedAt.getTime() < end.getTime() ? row.closedAt : null;
    const afterClose = closedAt ? Math.max(0, Math.round((end.getTime() - Math.max(closedAt.getTime(), start.getTime())) / MINUTE)) : 0;
    const readMinutes = Math.min(minutes, readings.filter((reading) => reading.people !== null && reading.minute.getTime() >= start.getTime() && reading.minute.getTime() < end.getTime() && (!closedAt || reading.minute.getTime() < closedAt.getTime())).length + afterClose);
    if (readMinutes * 2 < minutes) {
      await tx.update(eventInstances).set({ attendanceMarkedAt: now, attendanceNote: "unreadable" }).where(eq(eventInstances.eventId, eventId));
      return { kind: "unreadable", readMinutes, minutes } as const;
    }
    const presence = await tx.select({ userId: instancePresence.userId, minutesSeen: instancePresence.minutesSeen }).from(instancePresence).where(eq(instancePresence.eventId, eventId));
    const minutesOf = new Map(presence.map((person) => [person.userId, person.minutesSeen]));
    const attendees = await tx
      .select({ id: eventApplications.id, vrchatUserId: eventApplications.vrchatUserId, attendance: eventApplications.attendance })
      .from(eventApplications)
      .where(and(eq(eventApplications.eventId, eventId), eq(eventApplications.status, "approved"), isNull(eventApplications.spamAt), or(isNull(eventApplications.attendanceSource), ne(eventApplications.attendanceSource, "staff"))));
    const marks = { attended: [] as typeof attendees, no_show: [] as typeof attendees };
    let unlinked = 0;
    for (const attendee of attendees) {
      if (!attendee.vrchatUserId) {
        unlinked++;
        continue;
      }
      marks[(minutesOf.get(attendee.vrchatUserId) ?? 0) >= services.minMinutes ? "attended" : "no_show"].push(attendee);
    }
    for (const [value, list] of Object.entries(marks) as ["attended" | "no_show", typeof attendees][]) {
      if (list.length === 0) continue;
      await tx.update(eventApplications).set({ attendance: value, attendanceSource: "instance" }).where(inArray(eventApplications.id, list.map((attendee) => attendee.id)));
      const changed = list.filter((attendee) => attendee.attendance !== value);
      if (changed.length > 0) {
        await tx.insert(applicationAuditLog).values(changed.map((attendee) => ({ applicationKind: "event" as const, applicationId: attendee.id, actorId: null, actorName: READ_FROM_INSTANCE, field: "attendance", fromValue: attendee.attendance, toValue: value })));
      }
    }
    await tx.update(eventInstances).set({ attendanceMarkedAt: now, attendanceNote: null }).where(eq(eventInstances.eventId, eventId));
    return { kind: "marked", attended: marks.attended.length, noShows: marks.no_show.length, unlinked } as const;
  });
}

/** Every ended event whose instance Dwell opened and whose marks were not made yet. */
export async function markEndedEvents(services: AttendanceServices, now: Date): Promise<number> {
  const rows = await services.db
    .select({ eventId: eventInstances.eventId, event: { eventDate: events.eventDate, eventTime: events.eventTime, endDate: events.endDate, endTime: events.endTime, timezone: events.timezone } })
    .from(eventInstances)
    .innerJoin(events, eq(events.id, eventInstances.eventId))
    // A day ahead of UTC's date: an event dated tomorrow far east of it may have ended already.
    .where(and(isNotNull(eventInstances.openedAt), isNull(eventInstances.attendanceMarkedAt), lte(events.eventDate, new Date(now.getTime() + 24 * 60 * MINUTE).toISOString().slice(0, 10))));
  let marked = 0;
  for (const row of rows) {
    if (eventEnd(row.event).getTime() > now.getTime()) continue;
    const started = performance.now();
    const outcome = await markFromInstance(services, row.eventId, now);
    if (outcome) {
      marked++;
      log.info("attendance read from an event's instance", { eventId: row.eventId, ...outcome, ms: Math.round(performance.now() - started) });
    }
  }
  return marked;
}
