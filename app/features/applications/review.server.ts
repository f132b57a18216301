/**
 * Reviewing applications in the Sanctum: lists searched, filtered and paged in SQL, status and
 * notes changes recorded in the audit log in the same transaction.
 */
import { and, asc, desc, eq, ilike, inArray, isNotNull, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { isUniqueViolation, type Database } from "~/db/db.server";
import { APPLICATION_STATUSES, GROUP_APPLICATION_STATUSES, WITHDRAWABLE_STATUSES, type ApplicationKind, type ApplicationStatus, type Attendance, type AttendeeRole } from "~/db/enums";
import { applicationAuditLog, applications, eventApplications, events, outbox } from "~/db/schema";
import { lockPlaces } from "./capacity.server";
import { CSV_FIXED_COLUMNS, csvDate, csvRow } from "./csv";
import type { Places } from "./places";

/** Applications per review page; a bulk decision covers at most one page. */
export const REVIEW_PAGE_SIZE = 50;
/** "spam": only what admins marked as spam, which every other filter (and count) leaves out. */
export const STATUS_FILTERS = ["all", ...APPLICATION_STATUSES, "spam"] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

export type ReviewScope = { kind: "group" } | { kind: "event"; eventId: string };

export interface ReviewedApplication {
  id: string;
  vrchatUsername: string;
  discordId: string;
  responses: Record<string, string>;
  status: ApplicationStatus;
  submittedAt: string;
  reviewedAt: string | null;
  notes: string | null;
  spam: boolean;
  /** The applicant's VRChat account, as linked by an admin (group applications). */
  vrchatUserId: string | null;
  vrchatDisplayName: string | null;
  /** What became of a profile link the form could not link at once (see the submission flow). */
  vrchatProfileCheck: "claimed" | "unchecked" | null;
  /** The applicant's account in the group's Discord server, as linked by an admin. */
  discordUserId: string | null;
  discordDisplayName: string | null;
  /** After the event, whether the approved attendee came (event applications). */
  attendance: Attendance | null;
  /** Where the attendee stands with the event's VRChat role (event applications). */
  eventRole: AttendeeRole | null;
}

export interface AuditEntry {
  applicationId: string;
  actorName: string;
  field: "status" | "notes" | "spam" | "vrchat" | "discord" | "attendance";
  fromValue: string | null;
  toValue: string | null;
  at: string;
}

export const ReviewQuerySchema = z.object({
  status: z.enum(STATUS_FILTERS).catch("all"),
  q: z.string().trim().max(200).catch(""),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});
export type ReviewQuery = z.infer<typeof ReviewQuerySchema>;

function columnsOf(scope: ReviewScope) {
  return scope.kind === "event"
    ? {
        table: eventApplications,
        scopeWhere: eq(eventApplications.eventId, scope.eventId),
        notes: eventApplications.notes,
        vrchatUserId: eventApplications.vrchatUserId,
        vrchatDisplayName: eventApplications.vrchatDisplayName,
        vrchatProfileCheck: eventApplications.vrchatProfileCheck,
        eventRole: eventApplications.eventRole,
        attendance: eventApplications.attendance,
        attended: sql<number>`count(*) filter (where ${eventApplications.attendance} = 'attended' and ${eventApplications.spamAt} is null)::int`,
      }
    : {
        table: applications,
        scopeWhere: sql`true`,
        notes: sql<string | null>`null`,
        vrchatUserId: applications.vrchatUserId,
        vrchatDisplayName: applications.vrchatDisplayName,
        vrchatProfileCheck: applications.vrchatProfileCheck,
        eventRole: sql<AttendeeRole | null>`null`,
        attendance: sql<Attendance | null>`null`,
        attended: sql<number>`0`,
      };
}

/** Applications of a scope that are not marked as spam: what lists, counts and exports show. */
function liveOf(scope: ReviewScope) {
  const { table, scopeWhere } = columnsOf(scope);
  return and(scopeWhere, isNull(table.spamAt))!;
}

/** A LIKE pattern matching `text` anywhere, with the user's % and _ taken literally. */
function containing(text: string) {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listForReview(db: Database, scope: ReviewScope, query: ReviewQuery) {
  const { table, scopeWhere, notes, vrchatUserId, vrchatDisplayName, vrchatProfileCheck, eventRole, attendance, attended } = columnsOf(scope);
  const filters: SQL[] = [scopeWhere, query.status === "spam" ? isNotNull(table.spamAt) : isNull(table.spamAt)];
  if (query.status !== "all" && query.status !== "spam") filters.push(eq(table.status, query.status));
  if (query.q) filters.push(or(ilike(table.vrchatUsername, containing(query.q)), ilike(table.discordId, containing(query.q)))!);
  const where = and(...filters);

  const [rows, [counts], [matching]] = await Promise.all([
    db
      .select({
        id: table.id,
        vrchatUsername: table.vrchatUsername,
        discordId: table.discordId,
        responses: table.responses,
        status: table.status,
        submittedAt: table.submittedAt,
        reviewedAt: table.reviewedAt,
        notes,
        spam: sql<boolean>`${table.spamAt} is not null`,
        vrchatUserId,
        vrchatDisplayName,
        vrchatProfileCheck,
        discordUserId: table.discordUserId,
        discordDisplayName: table.discordDisplayName,
        attendance,
        eventRole,
      })
      .from(table)
      .where(where)
      // The waitlist reads in its order, first in line first; every other list newest first.
      .orderBy(...(query.status === "waitlist" ? [asc(table.submittedAt), asc(table.id)] : [desc(table.submittedAt), desc(table.id)]))
      .limit(REVIEW_PAGE_SIZE)
      .offset((query.page - 1) * REVIEW_PAGE_SIZE),
    db
      .select({
        total: sql<number>`count(*) filter (where ${table.spamAt} is null)::int`,
        pending: sql<number>`count(*) filter (where ${table.status} = 'pending' and ${table.spamAt} is null)::int`,
        approved: sql<number>`count(*) filter (where ${table.status} = 'approved' and ${table.spamAt} is null)::int`,
        rejected: sql<number>`count(*) filter (where ${table.status} = 'rejected' and ${table.spamAt} is null)::int`,
        waitlist: sql<number>`count(*) filter (where ${table.status} = 'waitlist' and ${table.spamAt} is null)::int`,
        withdrawn: sql<number>`count(*) filter (where ${table.status} = 'withdrawn' and ${table.spamAt} is null)::int`,
        attended,
        spam: sql<number>`count(*) filter (where ${table.spamAt} is not null)::int`,
      })
      .from(table)
      .where(scopeWhere),
    db.select({ n: sql<number>`count(*)::int` }).from(table).where(where),
  ]);

  const list: ReviewedApplication[] = rows.map((row) => ({
    ...row,
    discordId: row.discordId ?? "",
    submittedAt: row.submittedAt.toISOString(),
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
  }));
  return { applications: list, counts: counts!, matching: matching!.n, pageCount: Math.max(1, Math.ceil(matching!.n / REVIEW_PAGE_SIZE)) };
}

export async function listAudit(db: Database, applicationIds: string[]): Promise<AuditEntry[]> {
  if (applicationIds.length === 0) return [];
  const rows = await db
    .select()
    .from(applicationAuditLog)
    .where(inArray(applicationAuditLog.applicationId, applicationIds))
    .orderBy(asc(applicationAuditLog.createdAt));
  return rows.map((row) => ({
    applicationId: row.applicationId,
    actorName: row.actorName,
    field: row.field as AuditEntry["field"],
    fromValue: row.fromValue,
    toValue: row.toValue,
    at: row.createdAt.toISOString(),
  }));
}

/**
 * Where an application stands, for a decision made away from the Sanctum's lists (a Discord
 * button): its status, its event (for an event application), and who set its status last.
 * Null when it is gone or marked as spam.
 */
export async function describeApplication(db: Database, kind: ApplicationKind, id: string) {
  if (!z.uuid().safeParse(id).success) return null;
  const [row] =
    kind === "event"
      ? await db.select({ status: eventApplications.status, eventId: eventApplications.eventId }).from(eventApplications).where(and(eq(eventApplications.id, id), isNull(eventApplications.spamAt)))
      : await db.select({ status: applications.status, eventId: sql<string | null>`null` }).from(applications).where(and(eq(applications.id, id), isNull(applications.spamAt)));
  if (!row) return null;
  const [last] = await db
    .select({ actorName: applicationAuditLog.actorName })
    .from(applicationAuditLog)
    .where(and(eq(applicationAuditLog.applicationId, id), eq(applicationAuditLog.field, "status")))
    .orderBy(desc(applicationAuditLog.createdAt))
    .limit(1);
  return { status: row.status, eventId: row.eventId, decidedBy: last?.actorName ?? null };
}

export interface Reviewer {
  id: string;
  username: string;
}

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * What else a status change does, in its transaction (the route composes it: the applicant's
 * message, actions in VRChat). `index` counts the changes of one bulk decision, from 0.
 */
export type OnDecided = (tx: Transaction, decided: { kind: ApplicationKind; id: string; status: ApplicationStatus }, index: number) => Promise<void>;

export interface ReviewOptions {
  /** The decider confirmed approving past the event's last place. */
  overCapacity?: boolean;
  /**
   * For an event that has not ended: its free places are filled from the waitlist after the change
   * (see `promoteFromWaitlist`), each moved application acted on by this.
   */
  refill?: OnDecided;
}

/** Who moves an application up from the waitlist, in its history. */
export const WAITLIST_MOVER = "Dwell (a place freed)";

/**
 * Fills an event's free places from its waitlist, first in line first (earliest sent), as the event
 * chose: each approved ('automatic', up to the free places) or moved to Pending for staff (as many as
 * the free places exceed the applications already pending). The caller holds the event's row lock
 * (`lockPlaces`), so however many places free at once, never more are filled than there are. (The
 * flows call it only before the event ends.) `onMoved` runs for each (in the transaction) to act on it.
 */
export async function promoteFromWaitlist(tx: Transaction, eventId: string, now: Date, onMoved?: OnDecided): Promise<{ id: string; status: "approved" | "pending" }[]> {
  const [event] = await tx
    .select({ max: events.maxAttendees, promotion: events.waitlistPromotion })
    .from(events)
    .where(eq(events.id, eventId));
  if (!event) return [];
  const [counts] = await tx
    .select({
      approved: sql<number>`count(*) filter (where ${eventApplications.status} = 'approved')::int`,
      pending: sql<number>`count(*) filter (where ${eventApplications.status} = 'pending')::int`,
    })
    .from(eventApplications)
    .where(and(eq(eventApplications.eventId, eventId), isNull(eventApplications.spamAt)));
  const free = event.max === null ? Number.MAX_SAFE_INTEGER : Math.max(0, event.max - counts!.approved);
  const status = event.promotion === "automatic" ? ("approved" as const) : ("pending" as const);
  const moving = status === "approved" ? free : Math.max(0, free - counts!.pending);
  if (moving === 0) return [];
  const first = await tx
    .select({ id: eventApplications.id })
    .from(eventApplications)
    .where(and(eq(eventApplications.eventId, eventId), eq(eventApplications.status, "waitlist"), isNull(eventApplications.spamAt)))
    .orderBy(asc(eventApplications.submittedAt), asc(eventApplications.id))
    .limit(Math.min(moving, 1_000))
    .for("update");
  if (first.length === 0) return [];
  const ids = first.map((row) => row.id);
  await tx.update(eventApplications).set({ status, reviewedAt: now }).where(inArray(eventApplications.id, ids));
  await tx.insert(applicationAuditLog).values(
    ids.map((id) => ({ applicationKind: "event" as const, applicationId: id, actorId: null, actorName: WAITLIST_MOVER, field: "status", fromValue: "waitlist", toValue: status })),
  );
  for (const [index, id] of ids.entries()) await onMoved?.(tx, { kind: "event", id, status }, index);
  return ids.map((id) => ({ id, status }));
}

/**
 * Sets an application's status and, for event applications, its notes; either way reviewed_at
 * becomes now, and each change is logged with who made it. Event applications go from any status
 * to any other but from withdrawn (the applicant's final word); group applications are approved or
 * rejected once, from pending ("conflict" otherwise). Approving an event's application when its places are all taken is refused with
 * `{ full }` unless the admin confirmed going over (`overCapacity`). False when not found.
 */
export async function reviewApplication(
  db: Database,
  scope: ReviewScope,
  id: string,
  change: { status?: ApplicationStatus; notes?: string | null },
  reviewer: Reviewer,
  now: Date,
  onDecided?: OnDecided,
  { overCapacity = false, refill }: ReviewOptions = {},
): Promise<boolean | "conflict" | { full: Places }> {
  if (!z.uuid().safeParse(id).success) return false;
  const kind: ApplicationKind = scope.kind;
  return db.transaction(async (tx) => {
    const { table } = columnsOf(scope);
    // The event's row first, as every taker (and giver back) of a place does (see capacity.server).
    const locked = scope.kind === "event" && change.status !== undefined ? await lockPlaces(tx, scope.eventId) : null;
    if (locked === "missing") return false;
    const places = change.status === "approved" ? locked : null;
    const [current] = await tx
      .select({ status: table.status, notes: scope.kind === "event" ? eventApplications.notes : sql<string | null>`null` })
      .from(table)
      .where(and(eq(table.id, id), liveOf(scope)))
      .for("update");
    if (!current) return false;
    // A withdrawal is the applicant's final word: no decision, from anywhere, changes it.
    if (current.status === "withdrawn" && change.status !== undefined && change.status !== "withdrawn") return "conflict";
    if (scope.kind === "group" && (current.status !== "pending" || !GROUP_APPLICATION_STATUSES.includes(change.status as never) || change.status === "pending")) {
      return "conflict";
    }
    if (places && current.status !== "approved" && places.left < 1 && !overCapacity) return { full: places };

    const status = change.status ?? current.status;
    const notes = scope.kind === "event" && change.notes !== undefined ? change.notes : current.notes;
    const set = scope.kind === "event" ? { status, reviewedAt: now, notes } : { status, reviewedAt: now };
    await tx.update(table).set(set).where(eq(table.id, id));

    const entries = [
      ...(status !== current.status ? [{ field: "status", fromValue: current.status, toValue: status }] : []),
      ...(notes !== current.notes ? [{ field: "notes", fromValue: current.notes, toValue: notes }] : []),
    ];
    if (entries.length > 0) {
      await tx.insert(applicationAuditLog).values(
        entries.map((entry) => ({ ...entry, applicationKind: kind, applicationId: id, actorId: reviewer.id, actorName: reviewer.username })),
      );
    }
    if (status !== current.status) {
      await onDecided?.(tx, { kind, id, status }, 0);
      if (scope.kind === "event" && refill) await promoteFromWaitlist(tx, scope.eventId, now, refill);
    }
    return true;
  });
}

/** The statuses a bulk decision can set. */
export const BULK_STATUSES = ["approved", "rejected"] as const;
export type BulkStatus = (typeof BULK_STATUSES)[number];

export interface BulkOutcome {
  /** Applications whose status changed. */
  changed: number;
  /** Already at that status, or (group) already decided: left as they were. */
  unchanged: number;
  /** Not found in this scope (deleted meanwhile, or not an id). */
  missing: number;
}

/**
 * Approves or rejects several applications in one transaction. Each change is what a single
 * decision would be (reviewed_at now, one audit entry naming the reviewer); an application already
 * at that status, or a group application no longer pending, is left alone and counted as such.
 * Approvals that would take more places than an event has left are refused as a whole (`{ full }`)
 * unless the admin confirmed going over.
 */
export async function reviewApplications(
  db: Database,
  scope: ReviewScope,
  ids: string[],
  status: BulkStatus,
  reviewer: Reviewer,
  now: Date,
  onDecided?: OnDecided,
  { overCapacity = false, refill }: ReviewOptions = {},
): Promise<BulkOutcome | { full: Places; approving: number }> {
  const wanted = [...new Set(ids)].filter((id) => z.uuid().safeParse(id).success);
  const invalid = new Set(ids).size - wanted.length;
  if (wanted.length === 0) return { changed: 0, unchanged: 0, missing: invalid };
  return db.transaction(async (tx) => {
    const { table } = columnsOf(scope);
    const locked = scope.kind === "event" ? await lockPlaces(tx, scope.eventId) : null;
    if (locked === "missing") return { changed: 0, unchanged: 0, missing: wanted.length + invalid };
    const places = status === "approved" ? locked : null;
    const current = await tx
      .select({ id: table.id, status: table.status })
      .from(table)
      .where(and(inArray(table.id, wanted), liveOf(scope)))
      .orderBy(asc(table.id))
      .for("update");
    const changing = current.filter((row) => row.status !== status && row.status !== "withdrawn" && (scope.kind === "event" || row.status === "pending"));
    if (places && changing.length > places.left && !overCapacity) return { full: places, approving: changing.length };
    if (changing.length > 0) {
      await tx
        .update(table)
        .set({ status, reviewedAt: now })
        .where(inArray(table.id, changing.map((row) => row.id)));
      await tx.insert(applicationAuditLog).values(
        changing.map((row) => ({
          applicationKind: scope.kind,
          applicationId: row.id,
          actorId: reviewer.id,
          actorName: reviewer.username,
          field: "status",
          fromValue: row.status,
          toValue: status,
        })),
      );
    }
    for (const [index, row] of changing.entries()) await onDecided?.(tx, { kind: scope.kind, id: row.id, status }, index);
    if (scope.kind === "event" && refill && changing.length > 0) await promoteFromWaitlist(tx, scope.eventId, now, refill);
    return { changed: changing.length, unchanged: current.length - changing.length, missing: wanted.length - current.length + invalid };
  });
}

export interface SpamOutcome extends BulkOutcome {
  /** Notification jobs of these applications that had not been delivered, now deleted. */
  jobsRemoved: number;
}

/**
 * Marks applications as spam (or, with `spam` false, takes the mark back). Spam leaves every list,
 * count and export but the 'Spam' filter, and frees the names it used; its notification jobs not
 * yet delivered are deleted. Each change is in the audit log. A mark taken back while a real
 * application now holds the same name is refused as a whole ("conflict").
 */
export async function markSpam(
  db: Database,
  scope: ReviewScope,
  ids: string[],
  spam: boolean,
  reviewer: Reviewer,
  now: Date,
): Promise<SpamOutcome | "conflict"> {
  const wanted = [...new Set(ids)].filter((id) => z.uuid().safeParse(id).success);
  const invalid = new Set(ids).size - wanted.length;
  if (wanted.length === 0) return { changed: 0, unchanged: 0, missing: invalid, jobsRemoved: 0 };
  try {
    return await db.transaction(async (tx) => {
      const { table, scopeWhere } = columnsOf(scope);
      const current = await tx
        .select({ id: table.id, spam: sql<boolean>`${table.spamAt} is not null` })
        .from(table)
        .where(and(inArray(table.id, wanted), scopeWhere))
        .orderBy(asc(table.id))
        .for("update");
      const changing = current.filter((row) => row.spam !== spam).map((row) => row.id);
      let jobsRemoved = 0;
      if (changing.length > 0) {
        await tx.update(table).set({ spamAt: spam ? now : null }).where(inArray(table.id, changing));
        await tx.insert(applicationAuditLog).values(
          changing.map((id) => ({
            applicationKind: scope.kind,
            applicationId: id,
            actorId: reviewer.id,
            actorName: reviewer.username,
            field: "spam",
            fromValue: spam ? "no" : "yes",
            toValue: spam ? "yes" : "no",
          })),
        );
        if (spam) {
          const removed = await tx
            .delete(outbox)
            .where(and(inArray(outbox.sourceId, changing), ne(outbox.status, "delivered")))
            .returning({ id: outbox.id });
          jobsRemoved = removed.length;
        }
      }
      return { changed: changing.length, unchanged: current.length - changing.length, missing: wanted.length - current.length + invalid, jobsRemoved };
    });
  } catch (error) {
    if (!spam && isUniqueViolation(error)) return "conflict";
    throw error;
  }
}

const EXPORT_BATCH = 1000;

/**
 * The applications of a scope as a CSV stream: header, then rows newest first, read in batches
 * (keyset paging), so a large export neither waits for nor holds every row at once. `questions`
 * gives the answer columns, in order; answers to questions since removed follow them.
 */
export function exportCsv(db: Database, scope: ReviewScope, questions: string[]): ReadableStream<Uint8Array> {
  const { table, notes } = columnsOf(scope);
  const live = liveOf(scope);
  const encoder = new TextEncoder();
  let columns = [...questions];
  let after: { submittedAt: Date; id: string } | null = null;
  let started = false;

  return new ReadableStream({
    async pull(controller) {
      try {
        if (!started) {
          started = true;
          // Answers to questions no longer on the form still belong in the export.
          const extra = await db
            .selectDistinct({ key: sql<string>`jsonb_object_keys(${table.responses})` })
            .from(table)
            .where(live);
          const known = new Set(columns);
          columns = [...columns, ...extra.map((row) => row.key).filter((key) => !known.has(key)).sort()];
          controller.enqueue(encoder.encode(csvRow([...CSV_FIXED_COLUMNS, ...columns])));
          return;
        }
        const cursor: SQL | undefined = after
          ? sql`(${table.submittedAt}, ${table.id}) < (${after.submittedAt.toISOString()}::timestamptz, ${after.id}::uuid)`
          : undefined;
        const rows = await db
          .select({
            id: table.id,
            vrchatUsername: table.vrchatUsername,
            discordId: table.discordId,
            status: table.status,
            submittedAt: table.submittedAt,
            reviewedAt: table.reviewedAt,
            notes,
            responses: table.responses,
          })
          .from(table)
          .where(and(live, cursor))
          .orderBy(desc(table.submittedAt), desc(table.id))
          .limit(EXPORT_BATCH);
        if (rows.length === 0) {
          controller.close();
          return;
        }
        const last = rows.at(-1)!;
        after = { submittedAt: last.submittedAt, id: last.id };
        const chunk = rows
          .map((row) =>
            csvRow([
              row.vrchatUsername,
              row.discordId,
              row.status,
              csvDate(row.submittedAt),
              csvDate(row.reviewedAt),
              row.notes,
              ...columns.map((question) => row.responses[question] ?? ""),
            ]),
          )
          .join("");
        controller.enqueue(encoder.encode(chunk));
      } catch (error) {
        controller.error(error);
      }
    },
  });
}

/** Who withdrew an application, in its history. */
export const APPLICANT_ACTOR = "the applicant";

export type WithdrawResult = "withdrawn" | "already" | "missing" | { not: ApplicationStatus };

/**
 * The applicant takes their event application back: pending, on the waitlist, or approved, it
 * becomes "withdrawn" (its message cleared, the change in its history), under the event's row lock
 * like every change to its places. Anything else is left as it is and said.
 */
export async function withdrawEventApplication(tx: Transaction, eventId: string, id: string, now: Date): Promise<WithdrawResult> {
  if ((await lockPlaces(tx, eventId)) === "missing") return "missing";
  const [current] = await tx
    .select({ status: eventApplications.status })
    .from(eventApplications)
    .where(and(eq(eventApplications.id, id), eq(eventApplications.eventId, eventId), isNull(eventApplications.spamAt)))
    .for("update");
  if (!current) return "missing";
  if (current.status === "withdrawn") return "already";
  if (!(WITHDRAWABLE_STATUSES as readonly ApplicationStatus[]).includes(current.status)) return { not: current.status };
  await tx.update(eventApplications).set({ status: "withdrawn", withdrawnAt: now, decisionMessage: null }).where(eq(eventApplications.id, id));
  await tx.insert(applicationAuditLog).values({ applicationKind: "event", applicationId: id, actorId: null, actorName: APPLICANT_ACTOR, field: "status", fromValue: current.status, toValue: "withdrawn" });
  return "withdrawn";
}

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
