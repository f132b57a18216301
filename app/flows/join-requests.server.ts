/**
 * Join requests made in VRChat, handled around the clock: the group's list read about once a minute
 * (a few fixed calls, never one per visitor), and a decision on a request, wherever it is made (the
 * Sanctum's list, its bulk bar, a screening rule). A person who also applied on the site is one
 * person: deciding their join request decides their open application through flows/decide (which
 * answers the request in VRChat), and deciding the application answers the request.
 */
import type { Database } from "~/db/db.server";
import type { JoinRequestDecision } from "~/db/schema";
import type { JoinRequestOutcome } from "~/features/screening/join-requests";
import type { Actor } from "~/features/accounts/team.server";
import { setJoinRequestsByRules } from "~/features/accounts/site-settings.server";
import { joinRequestSubject, openApplicationOf, recordJoinRequestDecision, requeueWaiting, syncJoinRequests } from "~/features/screening/join-requests.server";
import { queueMembershipAction, type VRChatMembership } from "~/features/vrchat/vrchat-membership.server";
import { recordListRead } from "~/features/vrchat/vrchat-list-reads.server";
import { decideApplication, deciderName, findReview, type DecideServices, type Decider } from "./decide.server";

/** How often the list is read: about once a minute. */
export const JOIN_REQUESTS_READ_MS = 60_000;

/** What the log says when VRChat's list could not be read (once until it changes, or reads again). */
export const JOIN_REQUESTS_UNREAD = "could not read the group's join requests from VRChat; they are read again each minute";

/** Pages of the list read each time (100 requests each): past this many, the oldest wait for the next reads. */
export const JOIN_REQUEST_PAGES = 10;

/** The scheduled read: VRChat's list, kept in step (new requests queued for screening). */
export async function readJoinRequests(db: Database, membership: VRChatMembership, now: Date) {
  const read = await membership.listJoinRequests(JOIN_REQUEST_PAGES);
  await recordListRead(db, "join_requests", read, now);
  return syncJoinRequests(db, read.entries, read.entries.length + read.unreadable.length < JOIN_REQUEST_PAGES * 100, now);
}

/**
 * The owner's choice for join requests without an application. Letting the rules decide screens the
 * requests already waiting again, so the rules decide them too (not only those that come later).
 */
export async function chooseJoinRequestHandling(db: Database, byRules: boolean, actor: Actor, now: Date) {
  await setJoinRequestsByRules(db, byRules, actor);
  if (byRules) await requeueWaiting(db, now);
}

export interface JoinRequestChoice {
  decision: JoinRequestDecision;
  /** With a rejection: VRChat also blocks them from asking again. */
  block: boolean;
}

/** Join requests accepted, rejected, or rejected and blocked. */
export async function decideJoinRequests(services: DecideServices, ids: readonly string[], choice: JoinRequestChoice, decider: Decider): Promise<JoinRequestOutcome | { kind: "no-actions" }> {
  if (!services.vrchat.membershipActions) return { kind: "no-actions" };
  const outcome: JoinRequestOutcome = { decided: 0, throughApplication: 0, unchanged: 0, needsProof: 0 };
  const by = { id: decider.id || null, name: deciderName(decider) };
  const review = (await findReview(services.db, undefined))!;
  for (const id of new Set(ids)) {
    const now = new Date();
    const request = await joinRequestSubject(services.db, id);
    if (!request || request.goneAt || request.decision) {
      outcome.unchanged += 1;
      continue;
    }
    const applicationId = await openApplicationOf(services.db, request.userId);
    if (applicationId) {
      // One person: their application's decision answers the request in VRChat.
      const decided = await decideApplication(services, review, { id: applicationId, status: choice.decision === "accept" ? "approved" : "rejected", block: choice.block }, decider);
      if (decided.kind === "needs-proof") outcome.needsProof += 1;
      else if (decided.kind !== "decided") outcome.unchanged += 1;
      else {
        await services.db.transaction((tx) => recordJoinRequestDecision(tx, [id], choice, by, now));
        outcome.decided += 1;
        outcome.throughApplication += 1;
      }
      continue;
    }
    const done = await services.db.transaction(async (tx) => {
      const rows = await recordJoinRequestDecision(tx, [id], choice, by, now);
      for (const row of rows) {
        await queueMembershipAction(
          tx,
          { applicationKind: "join_request", applicationId: row.id, userId: row.userId, action: choice.decision, block: choice.decision === "reject" && choice.block, actor: { id: decider.id, name: by.name } },
          now,
        );
      }
      return rows.length;
    });
    outcome.decided += done;
    outcome.unchanged += 1 - done;
  }
  if (outcome.decided > 0) services.wake();
  return outcome;
}
