/**
 * Changes to applications under review, each recorded in the audit log in its transaction: a
 * status (one, or a page in bulk), spam marks, a place freed going to the waitlist's first, and an
 * applicant's withdrawal.
 */
import { and, asc, desc, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { isUniqueViolation, type Database } from "~/db/db.server";
import { dwellAct, recordActs } from "~/db/moderation-acts.server";
import { GROUP_APPLICATION_STATUSES, WITHDRAWABLE_STATUSES, type ApplicationKind, type ApplicationStatus } from "~/db/enums";
import { applicationAuditLog, eventApplications, events, outbox } from "~/db/schema";
import { lockPlaces } from "./capacity.server";
import type { Places } from "./places";
import { columnsOf, liveOf, type OnDecided, type Reviewer, type ReviewOptions, type ReviewScope, type Transaction } from "./review-scope.server";
import { APPLICANT_ACTOR } from "~/utils/actors";

/** Who moves an application up from the waitlist, in its history. */
export const WAITLIST_MOVER = "Dwell (a place freed)";

/**
 * Fills an event's free places from its waitlist, first in line first (earliest sent), as the event
 * chose: each approved ('automatic', up to the free places) or moved to Pending for staff (as many as
 * the free places exceed the applications already pending). The caller holds the event's row lock
 * (`lockPlaces`), so however many places free at once, never more are filled than there are. (The
 * flows call it only before the event ends.) `onMoved` runs for each (in the transaction) to act on it.
 * Where the event requires a proven VRChat account, only proven applicants are approved this way.
 */
export async function promoteFromWaitlist(tx: Transaction, eventId: string, now: Date, onMoved?: OnDecided): Promise<{ id: string; status: "approved" | "pending" }[]> {
  const [event] = await tx
    .select({ max: events.maxAttendees, promotion: events.waitlistPromotion, requiresProof: events.requiresProof })
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
    .where(
      and(
        eq(eventApplications.eventId, eventId),
        eq(eventApplications.status, "waitlist"),
        isNull(eventApplications.spamAt),
        // Approval waits for proof where the event requires it: those not proven keep their turn.
        status === "approved" && event.requiresProof ? eq(eventApplications.vrchatLinkedHow, "proven") : undefined,
      ),
    )
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

/** A group application's decision is the group's door: it belongs in the moderation history. */
async function recordGroupDecisions(tx: Transaction, decided: { id: string; vrchatUserId: string | null; discordUserId: string | null; name: string }[], status: ApplicationStatus, reviewer: Reviewer, now: Date) {
  if (status !== "approved" && status !== "rejected") return;
  await recordActs(
    tx,
    decided.map((row) => dwellAct(`group:${row.id}:${status}`, status === "approved" ? "approve" : "reject", { id: reviewer.id, name: reviewer.username }, { vrchatUserId: row.vrchatUserId, discordUserId: row.discordUserId, name: row.name }, now)),
  );
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
  { overCapacity = false, refill, reopenFrom, screenedAccount }: ReviewOptions = {},
): Promise<boolean | "conflict" | "moved" | { full: Places }> {
  if (!z.uuid().safeParse(id).success) return false;
  const kind: ApplicationKind = scope.kind;
  return db.transaction(async (tx) => {
    const { table } = columnsOf(scope);
    // The event's row first, as every taker (and giver back) of a place does (see capacity.server).
    const locked = scope.kind === "event" && change.status !== undefined ? await lockPlaces(tx, scope.eventId) : null;
    if (locked === "missing") return false;
    const places = change.status === "approved" ? locked : null;
    const [current] = await tx
      .select({
        status: table.status,
        notes: scope.kind === "event" ? eventApplications.notes : sql<string | null>`null`,
        vrchatUserId: table.vrchatUserId,
        discordUserId: table.discordUserId,
        name: sql<string>`coalesce(${table.vrchatDisplayName}, ${table.vrchatUsername})`,
      })
      .from(table)
      .where(and(eq(table.id, id), liveOf(scope)))
      .for("update");
    if (!current) return false;
    if (screenedAccount !== undefined && current.vrchatUserId !== screenedAccount) return "moved";
    // A withdrawal is the applicant's final word: no decision, from anywhere, changes it.
    if (current.status === "withdrawn" && change.status !== undefined && change.status !== "withdrawn") return "conflict";
    const reopening = scope.kind === "group" && change.status === "pending" && reopenFrom !== undefined && current.status === reopenFrom;
    if (scope.kind === "group" && !reopening && (current.status !== "pending" || !GROUP_APPLICATION_STATUSES.includes(change.status as never) || change.status === "pending")) {
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
      if (scope.kind === "group") await recordGroupDecisions(tx, [{ id, ...current }], status, reviewer, now);
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
      .select({ id: table.id, status: table.status, vrchatUserId: table.vrchatUserId, discordUserId: table.discordUserId, name: sql<string>`coalesce(${table.vrchatDisplayName}, ${table.vrchatUsername})` })
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
    if (scope.kind === "group") await recordGroupDecisions(tx, changing, status, reviewer, now);
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

/** Who withdrew an application, in its history. */

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

/** The last change of an application's status: who made it, and to what (null: never decided). */
export async function lastStatusChange(db: Pick<Database, "select">, kind: ApplicationKind, id: string) {
  const [entry] = await db
    .select({ actorId: applicationAuditLog.actorId, actorName: applicationAuditLog.actorName, status: applicationAuditLog.toValue })
    .from(applicationAuditLog)
    .where(and(eq(applicationAuditLog.applicationKind, kind), eq(applicationAuditLog.applicationId, id), eq(applicationAuditLog.field, "status")))
    .orderBy(desc(applicationAuditLog.createdAt), desc(applicationAuditLog.id))
    .limit(1);
  return entry ?? null;
}
