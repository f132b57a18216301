/** Who came to an event: marked by staff after it, and how the same people did at the group's other events. */
import { and, asc, eq, inArray, isNotNull, isNull, ne, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/db.server";
import type { Attendance } from "~/db/enums";
import { applicationAuditLog, eventApplications } from "~/db/schema";
import type { BulkOutcome } from "./review-changes.server";
import type { Reviewer } from "./review-scope.server";

/**
 * Marks whether approved attendees of an event came (null: takes the mark back), each change in the
 * history. Only approved applications of this event are marked; the caller checks the event has ended.
 */
export async function markAttendance(db: Database, eventId: string, ids: string[], value: Attendance | null, reviewer: Reviewer): Promise<BulkOutcome> {
  const wanted = [...new Set(ids)].filter((id) => z.uuid().safeParse(id).success);
  const invalid = new Set(ids).size - wanted.length;
  if (wanted.length === 0) return { changed: 0, unchanged: 0, missing: invalid };
  return db.transaction(async (tx) => {
    const current = await tx
      .select({ id: eventApplications.id, status: eventApplications.status, attendance: eventApplications.attendance })
      .from(eventApplications)
      .where(and(inArray(eventApplications.id, wanted), eq(eventApplications.eventId, eventId), isNull(eventApplications.spamAt)))
      .orderBy(asc(eventApplications.id))
      .for("update");
    const changing = current.filter((row) => row.status === "approved" && row.attendance !== value);
    if (changing.length > 0) {
      await tx.update(eventApplications).set({ attendance: value }).where(inArray(eventApplications.id, changing.map((row) => row.id)));
      await tx.insert(applicationAuditLog).values(
        changing.map((row) => ({ applicationKind: "event" as const, applicationId: row.id, actorId: reviewer.id, actorName: reviewer.username, field: "attendance", fromValue: row.attendance, toValue: value })),
      );
    }
    return { changed: changing.length, unchanged: current.length - changing.length, missing: wanted.length - current.length + invalid };
  });
}

/** How a person did at the group's other events: marked attended, and no-shows. */
export interface AttendanceRecord {
  attended: number;
  noShows: number;
}

/**
 * The attendance of the same people at other events, for these applications: the same person is
 * their linked Discord account when there is one, else their VRChat username (case and spaces at the
 * ends ignored). Only events where attendance was marked count.
 */
export async function attendanceRecords(
  db: Database,
  eventId: string,
  people: readonly { id: string; vrchatUserId: string | null; discordUserId: string | null; vrchatUsername: string }[],
): Promise<Record<string, AttendanceRecord>> {
  if (people.length === 0) return {};
  // The same person: their linked VRChat account, else their linked Discord account, else the username given.
  const key = sql<string>`coalesce('vrchat:' || ${eventApplications.vrchatUserId}, 'discord:' || ${eventApplications.discordUserId}, 'name:' || lower(btrim(${eventApplications.vrchatUsername})))`;
  const keyOf = (person: (typeof people)[number]) =>
    person.vrchatUserId ? `vrchat:${person.vrchatUserId}` : person.discordUserId ? `discord:${person.discordUserId}` : `name:${person.vrchatUsername.trim().toLowerCase()}`;
  const keys = [...new Set(people.map(keyOf))];
  const rows = await db
    .select({
      key,
      attended: sql<number>`count(*) filter (where ${eventApplications.attendance} = 'attended')::int`,
      noShows: sql<number>`count(*) filter (where ${eventApplications.attendance} = 'no_show')::int`,
    })
    .from(eventApplications)
    .where(and(ne(eventApplications.eventId, eventId), isNull(eventApplications.spamAt), isNotNull(eventApplications.attendance), inArray(key, keys)))
    .groupBy(key);
  const byKey = new Map(rows.map((row) => [row.key, { attended: row.attended, noShows: row.noShows }]));
  return Object.fromEntries(people.flatMap((person) => {
    const record = byKey.get(keyOf(person));
    return record ? [[person.id, record]] : [];
  }));
}
