/**
 * The group's join requests made in VRChat, as Dwell keeps them: the list read about once a minute
 * (those no longer listed are marked gone: accepted, rejected or withdrawn there, by Dwell or by
 * hand), each request's screening, Dwell's decision on one that came without an application, and
 * what staff see of them.
 */
import { and, desc, eq, gt, inArray, isNull, notInArray, or, sql } from "drizzle-orm";
import { dwellAct, recordActs } from "~/db/moderation-acts.server";
import type { Database } from "~/db/db.server";
import type { ApplicationStatus, VRChatLinkWay } from "~/db/enums";
import { applicationAuditLog, applications, joinRequests, screenings, type JoinRequestDecision } from "~/db/schema";
import type { AccountFacts } from "~/utils/vrchat-account";
import { queueScreening } from "./screenings.server";

type Executor = Pick<Database, "select" | "insert" | "update">;

/** A join request as VRChat lists it. */
export interface ListedRequest {
  userId: string;
  displayName: string;
  thumbnailUrl: string | null;
  requestedAt: string | null;
}

const dateOf = (iso: string | null) => {
  const at = iso ? new Date(iso) : null;
  return at && !Number.isNaN(at.getTime()) ? at : null;
};

/**
 * Keeps Dwell's copy in step with VRChat's list: new requests (and a person asking again after an
 * earlier request ended) are stored and queued for screening; those no longer listed are marked gone.
 * `complete`: the list is whole (not cut at the pages read), so what it lacks is truly gone.
 */
export async function syncJoinRequests(db: Database, listed: readonly ListedRequest[], complete: boolean, now: Date): Promise<{ added: number; gone: number }> {
  const unique = [...new Map(listed.map((request) => [request.userId, request])).values()];
  return db.transaction(async (tx) => {
    const ids = unique.map((request) => request.userId);
    const known = ids.length === 0 ? [] : await tx.select({ userId: joinRequests.vrchatUserId, goneAt: joinRequests.goneAt }).from(joinRequests).where(inArray(joinRequests.vrchatUserId, ids));
    const waiting = new Set(known.filter((row) => row.goneAt === null).map((row) => row.userId));
    let added = 0;
    for (let start = 0; start < unique.length; start += 500) {
      const rows = unique.slice(start, start + 500).map((request) => ({
        vrchatUserId: request.userId,
        displayName: request.displayName,
        thumbnailUrl: request.thumbnailUrl,
        requestedAt: dateOf(request.requestedAt),
        lastSeenAt: now,
      }));
      // A request that had ended and is listed again is a new one: Dwell's earlier decision is not its.
      const fresh = sql`${joinRequests.goneAt} is not null`;
      const stored = await tx
        .insert(joinRequests)
        .values(rows)
        .onConflictDoUpdate({
          target: joinRequests.vrchatUserId,
          set: {
            displayName: sql`excluded.display_name`,
            thumbnailUrl: sql`excluded.thumbnail_url`,
            requestedAt: sql`excluded.requested_at`,
            lastSeenAt: now,
            decision: sql`case when ${fresh} then null else ${joinRequests.decision} end`,
            block: sql`case when ${fresh} then false else ${joinRequests.block} end`,
            decidedBy: sql`case when ${fresh} then null else ${joinRequests.decidedBy} end`,
            decidedById: sql`case when ${fresh} then null else ${joinRequests.decidedById} end`,
            decidedAt: sql`case when ${fresh} then null else ${joinRequests.decidedAt} end`,
            goneAt: null,
          },
        })
        .returning({ id: joinRequests.id, userId: joinRequests.vrchatUserId });
      for (const row of stored) {
        if (waiting.has(row.userId)) continue;
        added += 1;
        // Screened when a rule could apply; its account's facts read once either way, for the list.
        await queueScreening(tx, { kind: "join_request", id: row.id, vrchatUserId: row.userId }, now);
      }
    }
    if (!complete) return { added, gone: 0 };
    const gone = await tx
      .update(joinRequests)
      .set({ goneAt: now })
      .where(and(isNull(joinRequests.goneAt), ids.length > 0 ? notInArray(joinRequests.vrchatUserId, ids) : undefined))
      .returning({ id: joinRequests.id });
    return { added, gone: gone.length };
  });
}

/** Join requests still waiting in VRChat that Dwell has not decided, screened again (when a rule could apply). */
export async function requeueWaiting(db: Database, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const waiting = await tx.select({ id: joinRequests.id }).from(joinRequests).where(and(isNull(joinRequests.goneAt), isNull(joinRequests.decision)));
    let queued = 0;
    for (const row of waiting) if (await queueScreening(tx, { kind: "join_request", id: row.id }, now)) queued += 1;
    return queued;
  });
}

/** A join request's screening subject: the account, and whether it still waits for a decision. */
export async function joinRequestSubject(db: Pick<Database, "select">, id: string) {
  const [row] = await db
    .select({ id: joinRequests.id, userId: joinRequests.vrchatUserId, displayName: joinRequests.displayName, goneAt: joinRequests.goneAt, decision: joinRequests.decision })
    .from(joinRequests)
    .where(eq(joinRequests.id, id));
  return row ?? null;
}

/**
 * The open group application (pending, not spam) of the person behind a VRChat account, if any: only
 * one whose account is proven or confirmed by staff is theirs. One matched by name is a claim: the
 * request and that application are decided apart.
 */
export async function openApplicationOf(db: Pick<Database, "select">, vrchatUserId: string) {
  const [row] = await db
    .select({ id: applications.id })
    .from(applications)
    .where(and(eq(applications.vrchatUserId, vrchatUserId), inArray(applications.vrchatLinkedHow, ["proven", "staff"]), eq(applications.status, "pending"), isNull(applications.spamAt)))
    .orderBy(desc(applications.createdAt))
    .limit(1);
  return row?.id ?? null;
}

export interface JoinRequestRow {
  id: string;
  userId: string;
}

/**
 * Dwell's decision on join requests still waiting and not yet decided (in the caller's transaction,
 * rows locked): recorded on each with who made it, and in the history. Returns those it decided.
 */
export async function recordJoinRequestDecision(
  tx: Executor,
  ids: readonly string[],
  decision: { decision: JoinRequestDecision; block: boolean },
  by: { id: string | null; name: string },
  now: Date,
): Promise<JoinRequestRow[]> {
  if (ids.length === 0) return [];
  const open = await tx
    .select({ id: joinRequests.id, userId: joinRequests.vrchatUserId, name: joinRequests.displayName })
    .from(joinRequests)
    .where(and(inArray(joinRequests.id, [...ids]), isNull(joinRequests.goneAt), isNull(joinRequests.decision)))
    .for("update");
  if (open.length === 0) return [];
  await tx
    .update(joinRequests)
    .set({ decision: decision.decision, block: decision.decision === "reject" && decision.block, decidedBy: by.name, decidedById: by.id, decidedAt: now })
    .where(inArray(joinRequests.id, open.map((row) => row.id)));
  const to = decision.decision === "accept" ? "accepted" : decision.block ? "rejected and blocked" : "rejected";
  await tx
    .insert(applicationAuditLog)
    .values(open.map((row) => ({ applicationKind: "join_request", applicationId: row.id, actorId: by.id, actorName: by.name, field: "status", fromValue: "waiting", toValue: to })));
  await recordActs(
    tx,
    open.map((row) => dwellAct(`join_request:${row.id}`, decision.decision === "accept" ? "approve" : "reject", by, { vrchatUserId: row.userId, name: row.name }, now, { reason: decision.block ? "Blocked from asking again" : null })),
  );
  return open;
}

/** A join request as the Sanctum lists it. */
export interface JoinRequestView {
  id: string;
  userId: string;
  displayName: string;
  thumbnailUrl: string | null;
  requestedAt: string | null;
  gone: boolean;
  decision: JoinRequestDecision | null;
  block: boolean;
  decidedBy: string | null;
  /** What VRChat said of the account when it was screened (null: not read yet). */
  facts: AccountFacts | null;
  /** The account's age in days, from `facts` (null: not known). */
  accountAgeDays: number | null;
  screening: { state: string; ruleName: string | null; outcome: string | null; flag: string | null } | null;
  /**
   * Their application on the site, by their VRChat account: `linkedHow` says whether it is theirs
   * (proven or confirmed by staff) or only names them (matched by name: a claim, decided apart).
   */
  application: { id: string; status: ApplicationStatus; name: string; linkedHow: VRChatLinkWay | null } | null;
}

/** How long a join request Dwell decided, or that ended in VRChat, stays in the list. */
const SHOWN_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

/** The join requests waiting in VRChat (oldest first), then those that ended in the last week. */
export async function listJoinRequests(db: Pick<Database, "select">, now: Date, limit = 500): Promise<JoinRequestView[]> {
  const rows = await db
    .select({
      id: joinRequests.id,
      userId: joinRequests.vrchatUserId,
      displayName: joinRequests.displayName,
      thumbnailUrl: joinRequests.thumbnailUrl,
      requestedAt: joinRequests.requestedAt,
      goneAt: joinRequests.goneAt,
      decision: joinRequests.decision,
      block: joinRequests.block,
      decidedBy: joinRequests.decidedBy,
      state: screenings.state,
      ruleName: screenings.ruleName,
      outcome: screenings.outcome,
      flag: screenings.flag,
      facts: screenings.facts,
    })
    .from(joinRequests)
    .leftJoin(screenings, and(eq(screenings.applicationKind, "join_request"), eq(screenings.applicationId, joinRequests.id)))
    .where(or(isNull(joinRequests.goneAt), gt(joinRequests.goneAt, new Date(now.getTime() - SHOWN_AFTER_MS))))
    .orderBy(sql`${joinRequests.goneAt} is not null`, joinRequests.requestedAt, joinRequests.createdAt)
    .limit(limit);
  const userIds = rows.map((row) => row.userId);
  const applied =
    userIds.length === 0
      ? []
      : await db
          .select({ id: applications.id, userId: applications.vrchatUserId, status: applications.status, name: applications.vrchatUsername, linkedHow: applications.vrchatLinkedHow })
          .from(applications)
          .where(and(inArray(applications.vrchatUserId, userIds), isNull(applications.spamAt)))
          .orderBy(sql`${applications.vrchatLinkedHow} in ('proven', 'staff')`, applications.createdAt);
  // The latest application of each account, one that is theirs before one that only names them.
  const byUser = new Map(applied.map((row) => [row.userId!, { id: row.id, status: row.status, name: row.name, linkedHow: row.linkedHow }]));
  return rows.map((row) => {
    const kept = row.facts as { vrchat?: AccountFacts | "none" | null } | null;
    const facts = kept?.vrchat && kept.vrchat !== "none" ? kept.vrchat : null;
    const joined = facts?.joinedOn ? Date.parse(`${facts.joinedOn.slice(0, 10)}T00:00:00Z`) : Number.NaN;
    return {
      id: row.id,
      userId: row.userId,
      displayName: row.displayName,
      thumbnailUrl: row.thumbnailUrl,
      requestedAt: row.requestedAt?.toISOString() ?? null,
      gone: row.goneAt !== null,
      decision: row.decision,
      block: row.block,
      decidedBy: row.decidedBy,
      facts,
      accountAgeDays: Number.isNaN(joined) ? null : Math.floor((now.getTime() - joined) / (24 * 60 * 60 * 1000)),
      screening: row.state ? { state: row.state, ruleName: row.ruleName, outcome: row.outcome, flag: row.flag } : null,
      application: byUser.get(row.userId) ?? null,
    };
  });
}
