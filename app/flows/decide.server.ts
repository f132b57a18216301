/**
 * A decision on applications, wherever it is made (the Sanctum's list, its bulk bar, an opened
 * card, Discord's buttons): the status and its history, the applicant's message, the link to their
 * VRChat and Discord accounts by one rule, the actions in VRChat and Discord, and the review
 * message's edit. Every entry point calls these functions; none of them does part of it itself.
 *
 * Linking happens here, at the decision, and nowhere else by itself (no page that shows an
 * application links anything): VRChat and Discord are asked before the transaction (one join
 * request list serves a whole bulk decision), and the links are written in the decision's
 * transaction, never over a staff member's own choice.
 */
import { href } from "react-router";
import type { Database } from "~/db/db.server";
import { isDecided, type ApplicationStatus } from "~/db/enums";
import { listLinkTargets, linkAccountIn, type LinkTarget } from "~/features/applications/linked-accounts.server";
import {
  reviewApplication,
  reviewApplications,
  type BulkOutcome,
  type BulkStatus,
  WAITLIST_MOVER,
  type OnDecided,
  type ReviewScope,
} from "~/features/applications/review.server";
import type { Places } from "~/features/applications/places";
import { applyDecision, listDecisionMessages, type DecisionContext } from "~/features/decisions/decisions.server";
import { queueDiscordActions, type DiscordBot } from "~/features/discord/discord-bot.server";
import { queueReviewJob } from "~/features/discord/discord-review.server";
import { addToCalendarUrl } from "~/features/events/calendar-link";
import { eventStart, formatLongDate, formatLongDateTime, isEventPast, zoneOf } from "~/features/events/event-timing";
import { getEvent } from "~/features/events/events.server";
import { queueMembershipAction, type VRChatMembership } from "~/features/vrchat/vrchat-membership.server";
import { log } from "~/utils/log.server";
import { escapeDiscordMarkdown } from "~/utils/text";
import { enqueueNotification } from "~/features/notifications/outbox.server";
import type { NotificationTarget } from "~/features/notifications/notification";
import { eventApplications } from "~/db/schema";
import { eq } from "drizzle-orm";
import type { RoleKeeper } from "~/features/vrchat/vrchat-roles.server";
import { joinLink } from "~/features/vrchat/vrchat-instances.server";
import { getOpenInstance } from "~/features/events/event-instances.server";
import { queueRoleChange } from "./event-role.server";

export interface DecideServices {
  db: Database;
  /** `roles`: events' own roles are kept (VRCHAT_OPEN_INSTANCES): an attendee's decision gives or takes theirs. */
  vrchat: { membership: VRChatMembership | null; membershipActions: boolean; roles?: RoleKeeper | null };
  discord: DiscordBot | null;
  discordInvite: string | null;
  /** Applications are posted to Discord's review channel: a decision edits their message. */
  discordReview?: boolean;
  /** Wakes the outbox worker once a decision has queued its actions. */
  wake: () => void;
  /** The staff's channels: told when a freed place moves someone from the waitlist to Pending. */
  notificationTargets?: readonly NotificationTarget[];
}

/** What a decision needs, from what every entry point has (a route's context, the interactions' server). */
export function decideServices(from: {
  db: Database;
  config: { DISCORD_INVITE_URL?: string; DISCORD_REVIEW_CHANNEL_ID?: string };
  vrchat: DecideServices["vrchat"];
  discord: DiscordBot | null;
  notifications: { wake(): void; targets?: readonly NotificationTarget[] };
}): DecideServices {
  return {
    db: from.db,
    vrchat: from.vrchat,
    discord: from.discord,
    discordInvite: from.config.DISCORD_INVITE_URL ?? null,
    discordReview: from.discord !== null && Boolean(from.config.DISCORD_REVIEW_CHANNEL_ID),
    wake: () => from.notifications.wake(),
    notificationTargets: from.notifications.targets ?? [],
  };
}

/** Who decides: a staff account, in the Sanctum or (its linked member) in Discord. */
export interface Decider {
  id: string;
  username: string;
  via: "sanctum" | "discord";
}

/** The name a decision's history carries: 'keeper', or 'keeper in Discord'. */
export const deciderName = (decider: Decider) => (decider.via === "discord" ? `${decider.username} in Discord` : decider.username);

/** The review a decision belongs to: the group's, or an event's (with the event). */
export async function findReview(db: Database, eventId: string | undefined) {
  if (!eventId) return { scope: { kind: "group" } as ReviewScope, event: null };
  const event = await getEvent(db, eventId);
  return event ? { scope: { kind: "event", eventId: event.id } as ReviewScope, event } : null;
}
export type Review = NonNullable<Awaited<ReturnType<typeof findReview>>>;

/** What `{event}`, `{date}` stand for in the messages, and an event's details for its Discord message. */
function contextOf(review: Review, siteOrigin: string, discordInvite: string | null, now: Date) {
  const { event } = review;
  if (!event) return { event: "the Dwellers", date: formatLongDate(now, "UTC"), discordInvite, eventDetails: null };
  const date = formatLongDateTime(eventStart(event), zoneOf(event.timezone));
  const page = `${siteOrigin}${href("/events/:id", { id: event.id })}`;
  const eventDetails = [`${event.title}: ${date}, in ${event.worldName}`, `Event page: ${page}`, `Add it to your calendar: ${addToCalendarUrl(event, page)}`].join("\n");
  return { event: event.title, date, discordInvite, eventDetails };
}

interface FoundLinks {
  vrchat: Map<string, { account: { userId: string; displayName: string }; how: string }>;
  discord: Map<string, { userId: string; displayName: string }>;
  /** VRChat could not be asked for some of them. */
  vrchatUnreachable: boolean;
}

/** Decisions in this review act in VRChat: the group's join requests, or an event's own role. */
const actsInReview = (services: DecideServices, scope: ReviewScope) =>
  scope.kind === "group" ? services.vrchat.membershipActions : Boolean(services.vrchat.roles);

/** Whether a decision to `status` acts on the application in VRChat (and so needs its account). */
function actsInVRChat(services: DecideServices, scope: ReviewScope, target: Pick<LinkTarget, "status">, status: ApplicationStatus) {
  if (!actsInReview(services, scope)) return false;
  return scope.kind === "group" ? target.status === "pending" && isDecided(status) : status === "approved";
}

/**
 * The accounts the rule finds for the applications a decision will change (see the module's
 * comment). Asked in order; once a service cannot be asked (down, or its lookups spent), the
 * rest are left unlinked for this decision, and the decision goes ahead.
 */
async function findLinks(services: DecideServices, scope: ReviewScope, targets: LinkTarget[], status: ApplicationStatus, { decided = false } = {}): Promise<FoundLinks> {
  const found: FoundLinks = { vrchat: new Map(), discord: new Map(), vrchatUnreachable: false };
  let vrchatReachable = services.vrchat.membership !== null;
  let discordReachable = services.discord !== null;
  for (const target of targets) {
    // `decided`: the decision is made already (a place refilled): its links are looked for after it.
    if (target.status === status && !decided) continue;
    if (vrchatReachable && !target.vrchatUserId && actsInVRChat(services, scope, target, status)) {
      try {
        const match = await services.vrchat.membership!.matchApplicant({ username: target.vrchatUsername, claimedUserId: target.claimedVRChatUserId });
        if ("account" in match) {
          found.vrchat.set(target.id, { account: match.account, how: match.how === "profile" ? "their profile link, under the username given" : "the one join request with this name" });
        }
      } catch (error) {
        vrchatReachable = false;
        found.vrchatUnreachable = true;
        log.warn("VRChat could not be asked for an applicant's account at a decision", { error: error instanceof Error ? error.message : String(error) });
      }
    }
    if (discordReachable && !target.discordUserId && status === "approved" && target.discordHandle.trim()) {
      try {
        const match = await services.discord!.matchApplicant({ handle: target.discordHandle, username: target.vrchatUsername });
        if ("account" in match) found.discord.set(target.id, match.account);
      } catch (error) {
        discordReachable = false;
        log.warn("Discord could not be asked for an applicant's member at a decision", { error: error instanceof Error ? error.message : String(error) });
      }
    }
  }
  return found;
}

/**
 * The links a decision to `status` makes, read only when it can make one (decisions acting in
 * VRChat, or an approval with the Discord bot): otherwise a decision asks nothing more.
 */
async function linksFor(services: DecideServices, scope: ReviewScope, ids: string[], status: ApplicationStatus | undefined): Promise<FoundLinks> {
  const vrchat = actsInReview(services, scope);
  if (!status || !isDecided(status) || (!vrchat && !(services.discord && status === "approved"))) {
    return { vrchat: new Map(), discord: new Map(), vrchatUnreachable: false };
  }
  return findLinks(services, scope, await listLinkTargets(services.db, scope.kind, ids), status);
}

/**
 * What a decision does beyond its status, in its transaction: the links found, the applicant's
 * message, in VRChat the join request answered (or an invite), in Discord on approval the member
 * role (group) and the message by DM. Counts the decisions that could not act in VRChat for
 * want of an account.
 */
function effectsOf(
  services: DecideServices,
  review: Review,
  links: FoundLinks,
  context: ReturnType<typeof contextOf>,
  decider: Decider,
  { block = false, reason = null }: { block?: boolean; reason?: string | null } = {},
) {
  const { scope } = review;
  const actor = { id: decider.id, name: deciderName(decider) };
  let templates: ReturnType<typeof listDecisionMessages> | undefined;
  const tally = { notLinked: 0 };
  const onDecided: OnDecided = async (tx, decided) => {
    templates ??= listDecisionMessages(tx, scope.kind === "event" ? { kind: "event", eventId: scope.eventId } : { kind: "group" });
    const vrchat = links.vrchat.get(decided.id);
    if (vrchat) {
      await linkAccountIn(tx, decided.kind, decided.id, "vrchat", vrchat.account, { id: decider.id, name: `${actor.name} (at the decision: ${vrchat.how})` }, { onlyIfUnlinked: true });
    }
    const discord = links.discord.get(decided.id);
    if (discord) {
      await linkAccountIn(tx, decided.kind, decided.id, "discord", discord, { id: decider.id, name: `${actor.name} (at the decision: the one member with this handle and name)` }, { onlyIfUnlinked: true });
    }
    const linked = await applyDecision(tx, decided, { ...context, templates: await templates, note: reason } satisfies DecisionContext);
    const now = new Date();
    // An attendee's own role in VRChat: given on approval, taken when no longer approved.
    if (decided.kind === "event" && scope.kind === "event" && services.vrchat.roles) {
      const queued = await queueRoleChange(tx, decided.id, scope.eventId, actor, now);
      if (!queued && decided.status === "approved") tally.notLinked += 1;
    }
    // The review message in Discord shows the outcome (or, back to pending, its buttons again).
    if (services.discordReview) {
      await queueReviewJob(tx, { job: "edit", applicationKind: decided.kind, applicationId: decided.id, status: decided.status, by: actor.name }, now);
    }
    if (!isDecided(decided.status)) return;
    if (services.vrchat.membershipActions && decided.kind === "group") {
      if (linked.vrchatUserId) {
        await queueMembershipAction(
          tx,
          {
            applicationKind: "group",
            applicationId: decided.id,
            userId: linked.vrchatUserId,
            action: decided.status === "approved" ? "accept" : "reject",
            block: decided.status === "rejected" && block,
            actor,
          },
          now,
        );
      } else {
        tally.notLinked += 1;
      }
    }
    if (services.discord && linked.discordUserId && decided.status === "approved") {
      await queueApprovalMessage(tx, services, scope, context, { kind: decided.kind, id: decided.id, discordUserId: linked.discordUserId, directMessage: linked.directMessage }, actor, now);
    }
  };
  return { onDecided, tally };
}

/**
 * An approval's Discord DM (and, for the group, the member role): the applicant's message and the
 * event's details; approved once the event's role-only instance is open, its link too.
 */
async function queueApprovalMessage(
  tx: Parameters<OnDecided>[0],
  services: DecideServices,
  scope: ReviewScope,
  context: ReturnType<typeof contextOf>,
  approved: { kind: "group" | "event"; id: string; discordUserId: string; directMessage: string | null },
  actor: { id: string; name: string },
  now: Date,
) {
  if (!services.discord) return;
  const open = scope.kind === "event" && services.vrchat.roles ? await getOpenInstance(tx, scope.eventId) : null;
  const join = open?.worldId && open.instanceId ? `The event is open in VRChat (you can enter once the event's role reaches you): ${joinLink({ worldId: open.worldId, instanceId: open.instanceId })}` : null;
  const message = [approved.directMessage, context.eventDetails, join].filter(Boolean).join("\n\n");
  await queueDiscordActions(
    tx,
    { applicationKind: approved.kind, applicationId: approved.id, userId: approved.discordUserId, actor },
    { grantRole: approved.kind === "group" && services.discord.roleConfigured, message },
    now,
  );
}

const NO_LINKS: FoundLinks = { vrchat: new Map(), discord: new Map(), vrchatUnreachable: false };

/** The site's own hand: a place freed, and the first on the waitlist moved up. */
const WAITLIST_DECIDER: Decider = { id: "dwell", username: WAITLIST_MOVER, via: "sanctum" };

/**
 * What fills an event's freed places after a change on it (a decision, a withdrawal, more places):
 * each one moved up is acted on as a decision by the site itself (approved: the applicant's message,
 * the Discord DM when their account is linked, the review message), and one moved to Pending is
 * told to staff in their channels (not the spreadsheet: it holds the application already). None for
 * the group's applications, or once the event has ended.
 */
export interface Refill {
  onMoved: OnDecided;
  /** The applications it approved: their accounts are looked for once it is committed (`linkMovedUp`). */
  approved: string[];
}

export function refillFor(services: DecideServices, review: Review, siteOrigin: string, now: Date): Refill | undefined {
  if (review.scope.kind !== "event" || !review.event || isEventPast(review.event, now)) return undefined;
  const { event } = review;
  const { onDecided } = effectsOf(services, review, NO_LINKS, contextOf(review, siteOrigin, services.discordInvite, now), WAITLIST_DECIDER);
  const staffChannels = (services.notificationTargets ?? []).filter((target) => target !== "google_sheets");
  const approved: string[] = [];
  const onMoved: OnDecided = async (tx, moved, index) => {
    await onDecided(tx, moved, index);
    if (moved.status === "approved") approved.push(moved.id);
    if (moved.status !== "pending" || staffChannels.length === 0) return;
    const [row] = await tx
      .select({ vrchatUsername: eventApplications.vrchatUsername, discordId: eventApplications.discordId, submittedAt: eventApplications.submittedAt })
      .from(eventApplications)
      .where(eq(eventApplications.id, moved.id));
    if (!row) return;
    await enqueueNotification(
      tx,
      {
        type: "event_application",
        event_title: event.title,
        event_url: `${siteOrigin}${href("/events/:id", { id: event.id })}`,
        vrchat_username: row.vrchatUsername,
        discord_id: row.discordId ?? "",
        submitted_at: row.submittedAt.toISOString(),
        answers: [],
        moved_up: true,
      },
      staffChannels,
      moved.id,
    );
  };
  return { onMoved, approved };
}

/**
 * After a refill is committed: the accounts of those it approved, found by the decision's rule
 * (VRChat and Discord are asked outside the transaction that moved them), linked unless linked
 * already, and acted on as an approval would (the event's role, the DM with the message).
 */
export async function linkMovedUp(services: DecideServices, review: Review, siteOrigin: string, refill: Refill | undefined) {
  if (!refill || refill.approved.length === 0 || review.scope.kind !== "event") return;
  const { scope } = review;
  const now = new Date();
  const targets = (await listLinkTargets(services.db, "event", refill.approved)).filter((target) => target.status === "approved");
  const links = await findLinks(services, scope, targets, "approved", { decided: true });
  if (links.vrchat.size === 0 && links.discord.size === 0) return;
  const context = contextOf(review, siteOrigin, services.discordInvite, now);
  const actor = { id: WAITLIST_DECIDER.id, name: WAITLIST_DECIDER.username };
  await services.db.transaction(async (tx) => {
    for (const target of targets) {
      const vrchat = links.vrchat.get(target.id);
      if (vrchat && (await linkAccountIn(tx, "event", target.id, "vrchat", vrchat.account, { id: null, name: `${actor.name} (moved up: ${vrchat.how})` }, { onlyIfUnlinked: true }))) {
        if (services.vrchat.roles) await queueRoleChange(tx, target.id, scope.eventId, actor, now);
      }
      const discord = links.discord.get(target.id);
      if (discord && (await linkAccountIn(tx, "event", target.id, "discord", discord, { id: null, name: `${actor.name} (moved up: the one member with this handle and name)` }, { onlyIfUnlinked: true }))) {
        const [row] = await tx.select({ message: eventApplications.decisionMessage, status: eventApplications.status }).from(eventApplications).where(eq(eventApplications.id, target.id));
        if (row?.status === "approved") {
          await queueApprovalMessage(tx, services, scope, context, { kind: "event", id: target.id, discordUserId: discord.userId, directMessage: row.message ? escapeDiscordMarkdown(row.message) : null }, actor, now);
        }
      }
    }
  });
  services.wake();
}

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
}

export type OneOutcome =
  | { kind: "decided"; notLinked: boolean }
  | { kind: "missing" }
  | { kind: "conflict" }
  | { kind: "full"; places: Places };

/** One application's decision (or, for an event application, its notes). */
export async function decideApplication(services: DecideServices, review: Review, decision: OneDecision, decider: Decider, siteOrigin: string): Promise<OneOutcome> {
  const now = new Date();
  const links = await linksFor(services, review.scope, [decision.id], decision.status);
  const { onDecided, tally } = effectsOf(services, review, links, contextOf(review, siteOrigin, services.discordInvite, now), decider, {
    block: decision.block,
    reason: decision.reason,
  });
  const refill = refillFor(services, review, siteOrigin, now);
  const done = await reviewApplication(
    services.db,
    review.scope,
    decision.id,
    { status: decision.status, notes: review.scope.kind === "event" ? decision.notes : undefined },
    { id: decider.id, username: deciderName(decider) },
    now,
    onDecided,
    { overCapacity: decision.overCapacity ?? false, refill: refill?.onMoved },
  );
  if (done === "conflict") return { kind: "conflict" };
  if (typeof done === "object") return { kind: "full", places: done.full };
  if (!done) return { kind: "missing" };
  services.wake();
  await linkMovedUp(services, review, siteOrigin, refill);
  return { kind: "decided", notLinked: tally.notLinked > 0 };
}

export type ManyOutcome = (BulkOutcome & { kind: "decided"; notLinked: number }) | { kind: "full"; places: Places; approving: number };

/** Several applications of one review approved or rejected at once (the bulk bar). */
export async function decideApplications(
  services: DecideServices,
  review: Review,
  decision: { ids: string[]; status: BulkStatus; overCapacity?: boolean },
  decider: Decider,
  siteOrigin: string,
): Promise<ManyOutcome> {
  const now = new Date();
  const links = await linksFor(services, review.scope, decision.ids, decision.status);
  const { onDecided, tally } = effectsOf(services, review, links, contextOf(review, siteOrigin, services.discordInvite, now), decider);
  const refill = refillFor(services, review, siteOrigin, now);
  const done = await reviewApplications(services.db, review.scope, decision.ids, decision.status, { id: decider.id, username: deciderName(decider) }, now, onDecided, {
    overCapacity: decision.overCapacity ?? false,
    refill: refill?.onMoved,
  });
  if ("full" in done) return { kind: "full", places: done.full, approving: done.approving };
  if (done.changed > 0) services.wake();
  await linkMovedUp(services, review, siteOrigin, refill);
  return { kind: "decided", ...done, notLinked: tally.notLinked };
}

export interface ApprovalPreview {
  /** Approvals that will be acted on in VRChat: the account is linked, or the rule finds it. */
  inVRChat: number;
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
  const linked = targets.filter((target) => target.vrchatUserId).length;
  const rest = targets.filter((target) => !target.vrchatUserId);
  const links = await findLinks({ ...services, discord: null }, review.scope, rest, "approved");
  const found = links.vrchat.size;
  return { inVRChat: linked + found, needAccount: targets.length - linked - found, unchecked: links.vrchatUnreachable };
}

export type HandLinkOutcome = { kind: "linked"; displayName: string; acting: boolean } | { kind: "unlinked" } | { kind: "missing" } | { kind: "unknown-account" };

/**
 * A staff member's own choice of the applicant's VRChat account (null: unlinks it). An application
 * already decided without an account ('Not linked in VRChat') is then acted on as its decision
 * said, in the same transaction: the choice completes the decision.
 */
export async function linkVRChatAccount(
  services: DecideServices,
  applicationId: string,
  userId: string | null,
  decider: Decider,
  scope: ReviewScope = { kind: "group" },
): Promise<HandLinkOutcome> {
  const account = userId && services.vrchat.membership ? await services.vrchat.membership.describeUser(userId) : null;
  if (userId && !account) return { kind: "unknown-account" };
  const actor = { id: decider.id, name: deciderName(decider) };
  const outcome = await services.db.transaction(async (tx) => {
    const [before] = await listLinkTargets(tx, scope.kind, [applicationId]);
    if (!before || (scope.kind === "event" && !(await belongsTo(tx, applicationId, scope.eventId)))) return { kind: "missing" } as const;
    const changed = await linkAccountIn(tx, scope.kind, applicationId, "vrchat", account ? { userId: account.id, displayName: account.displayName } : null, actor);
    const now = new Date();
    let acting = false;
    if (changed && scope.kind === "event" && services.vrchat.roles) {
      // The attendee's role follows the account: taken from the one unlinked, given to the one linked.
      acting = await queueRoleChange(tx, applicationId, scope.eventId, actor, now, { previousUserId: before.vrchatUserId });
    } else if (changed && account && scope.kind === "group" && services.vrchat.membershipActions && isDecided(before.status)) {
      acting = true;
      await queueMembershipAction(
        tx,
        { applicationKind: "group", applicationId, userId: account.id, action: before.status === "approved" ? "accept" : "reject", block: false, actor },
        now,
      );
    }
    if (!account) return { kind: "unlinked" } as const;
    return { kind: "linked", displayName: account.displayName, acting } as const;
  });
  if ((outcome.kind === "linked" && outcome.acting) || outcome.kind === "unlinked") services.wake();
  return outcome;
}

async function belongsTo(tx: Pick<Database, "select">, applicationId: string, eventId: string) {
  const [row] = await tx.select({ eventId: eventApplications.eventId }).from(eventApplications).where(eq(eventApplications.id, applicationId));
  return row?.eventId === eventId;
}
