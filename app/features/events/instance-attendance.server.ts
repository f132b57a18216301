/** What an event's instance showed of who came (flows/event-attendance), as its card in the Sanctum shows it. */
import { and, desc, eq, inArray, isNotNull } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { eventApplications, eventInstances, instanceMinutes, instancePresence } from "~/db/schema";

export interface InstanceAttendance {
  /** In it at the last minute read (null: that minute could not be read). */
  now: number | null;
  /** Different people seen over the evening. */
  seen: number;
  /** The marks read from the instance at the end, once made. */
  marked: { attended: number; noShows: number } | null;
  /** VRChat could not be read for more than half of the evening: the marks are left to staff. */
  unreadable: boolean;
  /** People seen without an approved application (their VRChat names), at most 50. */
  withoutApplying: string[];
}

export async function listInstanceAttendance(db: Database, eventIds: readonly string[]): Promise<Map<string, InstanceAttendance>> {
  if (eventIds.length === 0) return new Map();
  const ids = [...eventIds];
  const [instances, presence, approved, latest] = await Promise.all([
    db.select({ eventId: eventInstances.eventId, markedAt: eventInstances.attendanceMarkedAt, note: eventInstances.attendanceNote }).from(eventInstances).where(and(inArray(eventInstances.eventId, ids), isNotNull(eventInstances.openedAt))),
    db.select({ eventId: instancePresence.eventId, userId: instancePresence.userId, displayName: instancePresence.displayName }).from(instancePresence).where(inArray(instancePresence.eventId, ids)),
    db
      .select({ eventId: eventApplications.eventId, vrchatUserId: eventApplications.vrchatUserId, attendance: eventApplications.attendance, source: eventApplications.attendanceSource })
      .from(eventApplications)
      .where(and(inArray(eventApplications.eventId, ids), eq(eventApplications.status, "approved"))),
    db.selectDistinctOn([instanceMinutes.eventId], { eventId: instanceMinutes.eventId, people: instanceMinutes.people }).from(instanceMinutes).where(inArray(instanceMinutes.eventId, ids)).orderBy(instanceMinutes.eventId, desc(instanceMinutes.minute)),
  ]);
  const summaries = new Map<string, InstanceAttendance>();
  for (const instance of instances) {
    const attendees = approved.filter((row) => row.eventId === instance.eventId);
    const accounts = new Set(attendees.map((row) => row.vrchatUserId).filter(Boolean));
    const people = presence.filter((row) => row.eventId === instance.eventId);
    const marked = instance.markedAt && !instance.note ? { attended: attendees.filter((row) => row.attendance === "attended").length, noShows: attendees.filter((row) => row.attendance === "no_show").length } : null;
    summaries.set(instance.eventId, {
      now: latest.find((row) => row.eventId === instance.eventId)?.people ?? null,
      seen: people.length,
      marked,
      unreadable: instance.note === "unreadable",
      withoutApplying: people.filter((row) => !accounts.has(row.userId)).slice(0, 50).map((row) => row.displayName),
    });
  }
  return summaries;
}
