/** Who came to an event: marked by staff after it, and how the same people did at the group's other events. */
import { and, asc, eq, inArray, isNotNull, isNull, ne, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/db.server";
import { isConfirmedLink, type Attendance, type VRChatLinkWay } from "~/db/enums";
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
      // A staff member's mark wins over what the instance read (flows/event-attendance).
      await tx.update(eventApplications).set({ attendance: value, attendanceSource: value === null ? null : "staff" }).where(inArray(eventApplications.id, changing.map((row) => row.id)));
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
 * The attendance of the same people at other events, for these applications. The same person is
 * their VRChat account when it is proven or confirmed by staff, else their Discord account on the
 * same terms; an account matched by name only is a claim, so its marks stay on their own
 * application and count nowhere else. Only where no account is linked at all does the username
 * given stand for the person (case and spaces at the ends ignored), as before accounts were linked.
 * Only events where attendance was marked count.
 */
export async function attendanceRecords(
  db: Database,
  eventId: string,
  people: readonly PersonKeys[],
): Promise<Record<string, AttendanceRecord>> {
  if (people.length === 0) return {};
  const confirmed = (how: typeof eventApplications.vrchatLinkedHow | typeof eventApplications.discordLinkedHow) => sql`${how} in ('proven', 'staff')`;
  const key = sql<string>`case
    when ${eventApplications.vrchatUserId} is not null and ${confirmed(eventApplications.vrchatLinkedHow)} then 'vrchat:' || ${eventApplications.vrchatUserId}
    when ${eventApplications.discordUserId} is not null and ${confirmed(eventApplications.discordLinkedHow)} then 'discord:' || ${eventApplications.discordUserId}
    when ${eventApplications.vrchatUserId} is null and ${eventApplications.discordUserId} is null then 'name:' || lower(btrim(${eventApplications.vrchatUsername}))
    else 'application:' || ${eventApplications.id}::text
  end`;
  const keys = [...new Set(people.map(personKeyOf))];
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
    const record = byKey.get(personKeyOf(person));
    return record ? [[person.id, record]] : [];
  }));
}

/** What tells who an applicant is, for their record at other events. */
export interface PersonKeys {
  id: string;
  vrchatUserId: string | null;
  vrchatLinkedHow: VRChatLinkWay | null;
  discordUserId: string | null;
  discordLinkedHow: VRChatLinkWay | null;
  vrchatUsername: string;
}

/** The key attendanceRecords counts a person's marks under (see there). */
function personKeyOf(person: PersonKeys) {
  if (person.vrchatUserId && isConfirmedLink(person.vrchatLinkedHow)) return `vrchat:${person.vrchatUserId}`;
  if (person.discordUserId && isConfirmedLink(person.discordLinkedHow)) return `discord:${person.discordUserId}`;
  if (!person.vrchatUserId && !person.discordUserId) return `name:${person.vrchatUsername.trim().toLowerCase()}`;
  return `application:${person.id}`;
}
