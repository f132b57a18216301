/**
 * A decision on applications, wherever it is made (the Sanctum's list, its bulk bar, an opened
 * card, Discord's buttons): the status and its history, then everything flows/decision-effects
 * does with it, and the places it frees refilled (flows/refill). Also a staff member's own choice
 * of an applicant's accounts, which completes what a decision already made would have done. Every
 * entry point calls these functions; none of them does part of it itself. A withdrawal is final:
 * no decision changes a withdrawn application.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { isConfirmedLink, isDecided, type ApplicationKind, type ApplicationStatus, type VRChatLinkWay } from "~/db/enums";
import { applications, eventApplications, outbox } from "~/db/schema";
import { listLinkTargets, linkAccountIn, type LinkedAccount } from "~/features/applications/linked-accounts.server";
import { type ReviewScope } from "~/features/applications/review.server";
import { lastStatusChange, reviewApplication, reviewApplications, type BulkOutcome, type BulkStatus } from "~/features/applications/review-changes.server";
import type { Places } from "~/features/applications/places";
import { getSiteSettings } from "~/features/accounts/site-settings.server";
import { ruleNameOf } from "~/features/screening/screening-rules";
import { markReopened, queueScreening } from "~/features/screening/screenings.server";
import { applyDecision } from "~/features/decisions/decisions.server";
import { approvalNonce } from "~/features/discord/discord-jobs.server";
import { queueMembershipAction } from "~/features/vrchat/vrchat-membership.server";
import {
  actsInVRChat,
  contextOf,
  deciderName,
  effectsOf,
  findLinks,
  linksFor,
  queueApprovalMessage,
  type DecideServices,
  type Decider,
  type Review,
} from "./decision-effects.server";
import { mayInviteToGroup, queueRoleChange } from "./event-role.server";
import { linkMovedUp, refillFor } from "./refill.server";

export { decideServices, deciderName, findReview, type DecideServices, type Decider, type Review } from "./decision-effects.server";

export interface OneDecision {
  id: string;
  status?: ApplicationStatus;
  /** An event application's notes (undefined: unchanged). */
  notes?: string | null;
  /** With a group rejection: VRChat also blocks the account from asking again. */
  block?: boolean;
  /** The decider confirmed approving past the event's last place. */
  overCapacity?: boolean;
  /** A reason to add to the applicant's message (a rejection from Discord). */
  reason?: string | null;
  /** A screening's verdict: the VRChat account it was read for (see ReviewOptions.screenedAccount). */
  screenedAccount?: string | null;
}

export type OneOutcome =
  /** `unconfirmed`: it did not act in VRChat, its account being matched by name only (staff confirm it on the card). */
  | { kind: "decided"; notLinked: boolean; unconfirmed: boolean }
  | { kind: "missing" }
  /** Its form or event approves only applicants whose VRChat account is proven, and this one's is not. */
  | { kind: "needs-proof" }
  /** Decided by someone else meanwhile (a group application), or withdrawn by the applicant. */
  | { kind: "conflict" }
  /** Its VRChat account changed since the screening read it: not decided (see OneDecision.screenedAccount). */
  | { kind: "moved" }
  | { kind: "full"; places: Places };

/** One application's decision (or, for an event application, its notes). */
export async function decideApplication(services: DecideServices, review: Review, decision: OneDecision, decider: Decider): Promise<OneOutcome> {
  if ((await unproven(services, review, [decision.id], decision.status)) > 0) return { kind: "needs-proof" };
  const reopening = review.scope.kind === "group" && decision.status === "pending" ? await ruleDecision(services.db, decision.id) : null;
  const now = new Date();
  const links = await linksFor(services, review.scope, [decision.id], decision.status, decider);
  const { onDecided, tally } = effectsOf(services, review, links, contextOf(review, services, now), decider, { block: decision.block, reason: decision.reason });
  const refill = refillFor(services, review, now);
  const done = await reviewApplication(
    services.db,
    review.scope,
    decision.id,
    { status: decision.status, notes: review.scope.kind === "event" ? decision.notes : undefined },
    { id: decider.id || null, username: deciderName(decider) },
    now,
    onDecided,
    { overCapacity: decision.overCapacity ?? false, refill: refill?.onMoved, reopenFrom: reopening?.status, screenedAccount: decision.screenedAccount },
  );
  if (done === "conflict") return { kind: "conflict" };
  if (done === "moved") return { kind: "moved" };
  if (done === true && reopening) {
    const undone = reopening.status === "approved" ? "approved" : "rejected";
    await markReopened(services.db, { kind: "group", id: decision.id }, `Reopened by ${deciderName(decider)}: rule "${reopening.rule}" had ${undone} it`);
  }
  if (typeof done === "object") return { kind: "full", places: done.full };
  if (!done) return { kind: "missing" };
  services.wake();
  await linkMovedUp(services, review, refill, "staff");
  return { kind: "decided", notLinked: tally.notLinked > 0, unconfirmed: tally.unconfirmed > 0 };
}

/**
 * A group application whose status a screening rule set (its last change): what the rule set, and
 * which rule. Such a decision can be reopened by staff (back to Pending); a person's cannot.
 */
async function ruleDecision(db: Database, id: string) {
  const last = await lastStatusChange(db, "group", id);
  const rule = last && last.actorId === null ? ruleNameOf(last.actorName) : null;
  return rule && last?.status && isDecided(last.status as ApplicationStatus) ? { rule, status: last.status as ApplicationStatus } : null;
}

export type ManyOutcome =
  | (BulkOutcome & { kind: "decided"; notLinked: number; unconfirmed: number })
  | { kind: "full"; places: Places; approving: number }
  /** Some of them are not proven where proof is required: none was decided. */
  | { kind: "needs-proof"; count: number };

/**
 * Where the form or the event requires a proven VRChat account, how many of these applications a
 * decision to `status` would approve (or put on the waitlist) without one: such decisions wait.
 */
async function unproven(services: DecideServices, review: Review, ids: string[], status: ApplicationStatus | undefined): Promise<number> {
  if (status !== "approved" && status !== "waitlist") return 0;
  const required = review.event ? review.event.requiresProof : (await getSiteSettings(services.db)).groupRequiresProof;
  if (!required) return 0;
  const targets = await listLinkTargets(services.db, review.scope.kind, ids);
  return targets.filter((target) => target.status !== status && target.vrchatLinkedHow !== "proven").length;
}

/** Several applications of one review approved or rejected at once (the bulk bar). */
export async function decideApplications(
  services: DecideServices,
  review: Review,
  decision: { ids: string[]; status: BulkStatus; overCapacity?: boolean; /** See effectsOf. */ confirmNamed?: boolean },
  decider: Decider,
): Promise<ManyOutcome> {
  const waiting = await unproven(services, review, decision.ids, decision.status);
  if (waiting > 0) return { kind: "needs-proof", count: waiting };
  const now = new Date();
  const links = await linksFor(services, review.scope, decision.ids, decision.status, decider);
  const { onDecided, tally } = effectsOf(services, review, links, contextOf(review, services, now), decider, { confirmNamed: decision.confirmNamed });
  const refill = refillFor(services, review, now);
  const done = await reviewApplications(services.db, review.scope, decision.ids, decision.status, { id: decider.id || null, username: deciderName(decider) }, now, onDecided, {
    overCapacity: decision.overCapacity ?? false,
    refill: refill?.onMoved,
  });
  if ("full" in done) return { kind: "full", places: done.full, approving: done.approving };
  if (done.changed > 0) services.wake();
  await linkMovedUp(services, review, refill, "staff");
  return { kind: "decided", ...done, notLinked: tally.notLinked, unconfirmed: tally.unconfirmed };
}

export interface ApprovalPreview {
  /** Approvals that will be acted on in VRChat: the account is proven or confirmed by staff. */
  inVRChat: number;
  /** Approvals whose account is (or will be) matched by name only: decided, then acted on once staff confirm it. */
  needConfirming: number;
  /** Approvals for which no account is linked or found: staff choose it on the card. */
  needAccount: number;
  /** VRChat could not be asked: the counts are what is linked already. */
  unchecked: boolean;
}

/**
 * What approving these applications would do in VRChat, for the bulk bar's confirmation: asked
 * by the same rule as the decision, and writing nothing. Null when decisions do not act in VRChat.
 */
export async function previewApproval(services: DecideServices, review: Review, ids: string[]): Promise<ApprovalPreview | null> {
  if (!services.vrchat.membershipActions || review.scope.kind !== "group") return null;
  const targets = (await listLinkTargets(services.db, review.scope.kind, ids)).filter((target) => actsInVRChat(services, review.scope, target, "approved"));
  // Only an account proven or confirmed by staff is acted on; one matched by name waits for a confirmation.
  const confirmed = targets.filter((target) => target.vrchatUserId && isConfirmedLink(target.vrchatLinkedHow)).length;
  const named = targets.filter((target) => target.vrchatUserId && !isConfirmedLink(target.vrchatLinkedHow)).length;
  const rest = targets.filter((target) => !target.vrchatUserId);
  const links = await findLinks({ ...services, discord: null }, review.scope, rest, "approved");
  const found = links.vrchat.size;
  return { inVRChat: confirmed, needConfirming: named + found, needAccount: rest.length - found, unchecked: links.vrchatUnreachable };
}

/** `confirmed`: the account already linked (by a name), now confirmed as theirs. */
export type HandLinkOutcome = { kind: "linked"; displayName: string; acting: boolean; confirmed: boolean } | { kind: "unlinked" } | { kind: "missing" } | { kind: "unknown-account" };

/** The application belongs to the review it is changed under: a host's event path never reaches another event's. */
async function inScope(tx: Pick<Database, "select">, applicationId: string, scope: ReviewScope) {
  if (scope.kind !== "event") return true;
  const [row] = await tx.select({ eventId: eventApplications.eventId }).from(eventApplications).where(eq(eventApplications.id, applicationId));
  return row?.eventId === scope.eventId;
}

/**
 * A staff member's own choice of the applicant's VRChat account (null: unlinks it). An application
 * already decided without an account ('Not linked in VRChat') is then acted on as its decision
 * said, in the same transaction: the choice completes the decision.
 */
export async function linkVRChatAccount(services: DecideServices, applicationId: string, userId: string | null, decider: Decider, scope: ReviewScope = { kind: "group" }): Promise<HandLinkOutcome> {
  const account = userId && services.vrchat.membership ? await services.vrchat.membership.describeUser(userId) : null;
  if (userId && !account) return { kind: "unknown-account" };
  const actor = { id: decider.id, name: deciderName(decider) };
  return linkAndComplete(services, applicationId, account ? { userId: account.id, displayName: account.displayName } : null, actor, decider, scope, "staff");
}

/**
 * The applicant's proof that a VRChat account is theirs (read in its bio): linked as proven, over a
 * link made by name, and a decision already made acts on it as a staff member's choice would.
 */
export async function linkProvenAccount(services: DecideServices, application: { kind: ApplicationKind; id: string; eventId: string | null }, account: LinkedAccount, actor: { name: string }) {
  const scope: ReviewScope = application.kind === "event" && application.eventId ? { kind: "event", eventId: application.eventId } : { kind: "group" };
  // The applicant's own act: no staff member's rights (such as inviting to the group) come with it.
  const decider: Decider = { id: "", username: actor.name, via: "sanctum", role: null };
  return linkAndComplete(services, application.id, account, { id: null, name: actor.name }, decider, scope, "proven");
}

/** Links (or unlinks) the account, and completes in VRChat what a decision already made would have done. */
async function linkAndComplete(
  services: DecideServices,
  applicationId: string,
  account: LinkedAccount | null,
  actor: { id: string | null; name: string },
  decider: Decider,
  scope: ReviewScope,
  how: VRChatLinkWay,
): Promise<HandLinkOutcome> {
  const outcome = await services.db.transaction(async (tx) => {
    const [before] = await listLinkTargets(tx, scope.kind, [applicationId]);
    if (!before || !(await inScope(tx, applicationId, scope))) return { kind: "missing" } as const;
    const changed = await linkAccountIn(tx, scope.kind, applicationId, "vrchat", account, actor, { how });
    const moved = changed && before.vrchatUserId !== (account?.userId ?? null);
    // The account already linked, now proven or confirmed: what a rule's decision left undone for want
    // of that (a rule acts only on a proven account) is done now, once.
    const confirmed = changed && !moved && !isConfirmedLink(before.vrchatLinkedHow) && (await neverActedFor(tx, applicationId));
    const now = new Date();
    let acting = false;
    const queueActor = { id: actor.id ?? "", name: actor.name };
    if ((moved || confirmed) && scope.kind === "event" && services.vrchat.roles) {
      // The attendee's role follows the account: taken from the one unlinked, given to the one linked.
      const mayInvite = await mayInviteToGroup(tx, services.vrchat.membershipActions, decider);
      acting = await queueRoleChange(tx, applicationId, scope.eventId, queueActor, now, { previousUserId: moved ? before.vrchatUserId : null, mayInvite });
    } else if ((moved || confirmed) && account && scope.kind === "group" && services.vrchat.membershipActions && isDecided(before.status)) {
      acting = true;
      const block = before.status === "rejected" && (await rejectedWithBlock(tx, applicationId));
      await queueMembershipAction(tx, { applicationKind: "group", applicationId, userId: account.userId, action: before.status === "approved" ? "accept" : "reject", block, actor: queueActor }, now);
    }
    // An open application's rules look again at the account now linked (or how it is linked now).
    if (changed && account && (before.status === "pending" || before.status === "waitlist")) await queueScreening(tx, { kind: scope.kind, id: applicationId, vrchatUserId: account.userId }, now);
    if (!account) return { kind: "unlinked" } as const;
    return { kind: "linked", displayName: account.displayName, acting, confirmed: changed && !moved } as const;
  });
  if ((outcome.kind === "linked" && outcome.acting) || outcome.kind === "unlinked") services.wake();
  return outcome;
}

/** Whether its rejection asked VRChat to block them from asking again. */
async function rejectedWithBlock(tx: Pick<Database, "select">, applicationId: string) {
  const [row] = await tx.select({ block: applications.rejectedWithBlock }).from(applications).where(eq(applications.id, applicationId));
  return row?.block ?? false;
}

/** Whether no decision on this application has acted in VRChat yet (no membership or role job of it). */
async function neverActedFor(tx: Pick<Database, "select">, applicationId: string) {
  const [row] = await tx
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(inArray(outbox.target, ["vrchat_membership", "vrchat_event_role"]), eq(outbox.sourceId, applicationId)))
    .limit(1);
  return row === undefined;
}

/** Whether this Discord account was already sent this application's approval (its DM job exists). */
async function approvalSentTo(tx: Pick<Database, "select">, applicationId: string, discordUserId: string) {
  const [row] = await tx
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(eq(outbox.target, "discord_dm"), eq(outbox.sourceId, applicationId), sql`${outbox.payload}->>'userId' = ${discordUserId}`, sql`${outbox.payload}->>'nonce' = ${approvalNonce(applicationId)}`))
    .limit(1);
  return row !== undefined;
}

export type DiscordLinkOutcome = { kind: "linked"; acting: boolean } | { kind: "unlinked" } | { kind: "missing" };

/**
 * A staff member's own choice of the applicant's Discord account (null: unlinks it). An approved
 * application whose approval never reached this account then gets it, once: the DM with its
 * message (and, for the group, the member role), as the decision would have sent.
 */
export async function linkDiscordAccount(
  services: DecideServices,
  review: Review,
  applicationId: string,
  account: LinkedAccount | null,
  decider: Decider,
  how: VRChatLinkWay = "staff",
): Promise<DiscordLinkOutcome> {
  const { scope } = review;
  const actor = { id: decider.id, name: deciderName(decider) };
  const outcome = await services.db.transaction(async (tx): Promise<DiscordLinkOutcome> => {
    const [before] = await listLinkTargets(tx, scope.kind, [applicationId]);
    if (!before || !(await inScope(tx, applicationId, scope))) return { kind: "missing" };
    const changed = await linkAccountIn(tx, scope.kind, applicationId, "discord", account, { id: decider.id || null, name: actor.name }, { how });
    if (!account) return { kind: "unlinked" };
    if (!changed || before.status !== "approved" || !services.discord || (await approvalSentTo(tx, applicationId, account.userId))) return { kind: "linked", acting: false };
    const texts = contextOf(review, services, new Date());
    const decided = await applyDecision(tx, { kind: scope.kind as ApplicationKind, id: applicationId, status: "approved" }, texts.context(tx));
    await queueApprovalMessage(tx, services, scope, texts, { kind: scope.kind, id: applicationId, discordUserId: account.userId, language: decided.language, directMessage: decided.directMessage }, actor, new Date());
    return { kind: "linked", acting: true };
  });
  if (outcome.kind === "linked" && outcome.acting) services.wake();
  return outcome;
}

