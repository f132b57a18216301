/**
 * What a decision does beyond its status, wherever it is made (the Sanctum's list, card and bulk
 * bar, Discord's buttons, a place refilled): the links to the applicant's VRChat and Discord
 * accounts by one rule, the applicant's message, the actions in VRChat and Discord, and the review
 * message's edit. flows/decide.server and flows/refill.server build on these; no entry point does
 * any part of it itself.
 *
 * Linking happens at the decision and nowhere else by itself (no page that shows an application
 * links anything): VRChat and Discord are asked before the transaction (one join request list serves
 * a whole bulk decision), and the links are written in the decision's transaction, never over a
 * staff member's own choice.
 */
import { href } from "react-router";
import { eq } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { applications } from "~/db/schema";
import { isConfirmedLink, isDecided, type ApplicationStatus, type StaffRole, type VRChatLinkWay } from "~/db/enums";
import { listLinkTargets, linkAccountIn, type LinkTarget } from "~/features/applications/linked-accounts.server";
import type { ReviewScope } from "~/features/applications/review.server";
import type { OnDecided } from "~/features/applications/review-scope.server";
import { applyDecision, listDecisionMessages, type DecisionContext, type EditableMessage } from "~/features/decisions/decisions.server";
import type { DiscordBot } from "~/features/discord/discord-bot.server";
import { queueDiscordActions } from "~/features/discord/discord-jobs.server";
import type { LookupAllowance } from "~/utils/lookup-cache.server";
import { queueReviewJob } from "~/features/discord/discord-review.server";
import { addToCalendarUrl } from "~/features/events/calendar-link";
import { getOpenInstance } from "~/features/events/event-instances.server";
import { eventStart, formatLongDate, formatLongDateTime, zoneOf } from "~/features/events/event-timing";
import { getEvent } from "~/features/events/events.server";
import type { NotificationTarget } from "~/features/notifications/notification";
import { queueMembershipAction, type VRChatMembership } from "~/features/vrchat/vrchat-membership.server";
import type { RoleKeeper } from "~/features/vrchat/vrchat-roles.server";
import { joinLinkOf } from "~/features/vrchat/vrchat-location";
import { m } from "~/paraglide/messages";
import { defaultLanguage, inLanguage } from "~/utils/language.server";
import { log } from "~/utils/log.server";
import { escapeDiscordMarkdown } from "~/utils/text";
import { mayInviteToGroup, queueRoleChange } from "./event-role.server";

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
  /** The site's public origin (PUBLIC_URL): every link a decision sends points there, never to a request's Host. */
  siteOrigin: string;
  /** The staff's channel in Discord (the review channel): told of a tripwire's trip too. */
  staffChannelId?: string | null;
}

/** What a decision needs, from what every entry point has (a route's context, the interactions' server, a job). */
export function decideServices(from: {
  db: Database;
  config: { DISCORD_INVITE_URL?: string; DISCORD_REVIEW_CHANNEL_ID?: string; DISCORD_STAFF_CHANNEL_ID?: string; PUBLIC_URL: string };
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
    staffChannelId: from.discord ? (from.config.DISCORD_STAFF_CHANNEL_ID ?? from.config.DISCORD_REVIEW_CHANNEL_ID ?? null) : null,
    wake: () => from.notifications.wake(),
    notificationTargets: from.notifications.targets ?? [],
    siteOrigin: from.config.PUBLIC_URL.replace(/\/+$/, ""),
  };
}

/** Who decides: a staff account (with its role), in the Sanctum or (its linked member) in Discord; or the site itself. */
export interface Decider {
  id: string;
  username: string;
  /** `rule`: a screening rule decided (its name is the username: 'rule "…"'). */
  via: "sanctum" | "discord" | "rule";
  /** Null for the site's own hand (a place refilled). */
  role: StaffRole | null;
}

/**
 * A screening rule's (or the ban list's) decision: it acts in VRChat and Discord only on accounts
 * proven by their owner or confirmed by staff, and links nothing by a name.
 */
export const isAutomatic = (decider: Decider) => decider.via === "rule";

/** The name a decision's history carries: 'keeper', or 'keeper in Discord'. */
export const deciderName = (decider: Decider) => (decider.via === "discord" ? `${decider.username} in Discord` : decider.username);

/** The review a decision belongs to: the group's, or an event's (with the event). */
export async function findReview(db: Database, eventId: string | undefined) {
  if (!eventId) return { scope: { kind: "group" } as ReviewScope, event: null };
  const event = await getEvent(db, eventId);
  return event ? { scope: { kind: "event", eventId: event.id } as ReviewScope, event } : null;
}
export type Review = NonNullable<Awaited<ReturnType<typeof findReview>>>;

/**
 * What `{event}`, `{date}` stand for in the messages, and an event's details for its Discord
 * message, in each applicant's language; the review's messages in it, read once per language. The
 * title and the world's name are written by hosts and world authors: escaped in the Discord text,
 * so they cannot form a masked link or a mention.
 */
export function contextOf(review: Review, services: Pick<DecideServices, "siteOrigin" | "discordInvite">, now: Date) {
  const { event, scope } = review;
  const { discordInvite } = services;
  const page = event ? `${services.siteOrigin}${href("/events/:id", { id: event.id })}` : null;
  // Each language's words once per review, however many of its applicants write in it.
  const words = new Map<string, { event: string; date: string; eventDetails: string | null }>();
  const wordsOf = (language: string) => {
    let known = words.get(language);
    if (!known) words.set(language, (known = wordsIn(language)));
    return known;
  };
  const wordsIn = (language: string) =>
    inLanguage(language, () => {
      if (!event || !page) return { event: m.decision_the_group(), date: formatLongDate(now, "UTC"), eventDetails: null };
      const date = formatLongDateTime(eventStart(event), zoneOf(event.timezone));
      const eventDetails = [
        m.dm_event_line({ event: escapeDiscordMarkdown(event.title), date, world: escapeDiscordMarkdown(event.worldName) }),
        m.dm_event_page({ link: page }),
        m.dm_add_to_calendar({ link: addToCalendarUrl(event, page) }),
      ].join("\n");
      return { event: event.title, date, eventDetails };
    });
  const templates = new Map<string, Promise<EditableMessage[]>>();
  const messageScope = scope.kind === "event" ? { kind: "event" as const, eventId: scope.eventId } : { kind: "group" as const };
  return {
    /** The words of this review in a language. */
    in: wordsOf,
    /** What applyDecision needs, reading the messages with `tx` (each language once). */
    context(tx: Pick<Database, "select">, note?: string | null): DecisionContext {
      return {
        note,
        async wordsIn(language) {
          let read = templates.get(language);
          if (!read) templates.set(language, (read = listDecisionMessages(tx, messageScope, language, defaultLanguage())));
          return { ...wordsOf(language), discordInvite, templates: await read };
        },
      };
    },
  };
}
export type DecisionTexts = ReturnType<typeof contextOf>;

export interface FoundLinks {
  vrchat: Map<string, { account: { userId: string; displayName: string }; how: string }>;
  discord: Map<string, { userId: string; displayName: string }>;
  /** VRChat could not be asked for some of them. */
  vrchatUnreachable: boolean;
}

export const NO_LINKS: FoundLinks = { vrchat: new Map(), discord: new Map(), vrchatUnreachable: false };

/** Decisions in this review act in VRChat: the group's join requests, or an event's own role. */
const actsInReview = (services: DecideServices, scope: ReviewScope) =>
  scope.kind === "group" ? services.vrchat.membershipActions : Boolean(services.vrchat.roles);

/** Whether a decision to `status` acts on the application in VRChat (and so needs its account). */
export function actsInVRChat(services: DecideServices, scope: ReviewScope, target: Pick<LinkTarget, "status">, status: ApplicationStatus) {
  if (!actsInReview(services, scope)) return false;
  return scope.kind === "group" ? target.status === "pending" && isDecided(status) : status === "approved";
}

/**
 * The accounts the rule finds for the applications a decision will change (see the module's
 * comment). Asked in order; once a service cannot be asked (down, or its lookups spent), the
 * rest are left unlinked for this decision, and the decision goes ahead. `allowance`: whose lookups
 * it spends (a withdrawal's refill is a visitor's act: never the staff's).
 */
export async function findLinks(
  services: DecideServices,
  scope: ReviewScope,
  targets: LinkTarget[],
  status: ApplicationStatus,
  { decided = false, allowance = "staff" }: { decided?: boolean; allowance?: LookupAllowance } = {},
): Promise<FoundLinks> {
  const found: FoundLinks = { vrchat: new Map(), discord: new Map(), vrchatUnreachable: false };
  let vrchatReachable = services.vrchat.membership !== null;
  let discordReachable = services.discord !== null;
  for (const target of targets) {
    // `decided`: the decision is made already (a place refilled): its links are looked for after it.
    if (target.status === status && !decided) continue;
    if (vrchatReachable && !target.vrchatUserId && actsInVRChat(services, scope, target, status)) {
      try {
        const match = await services.vrchat.membership!.matchApplicant({ username: target.vrchatUsername, claimedUserId: target.claimedVRChatUserId }, allowance);
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
        const match = await services.discord!.matchApplicant({ handle: target.discordHandle, username: target.vrchatUsername }, allowance);
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
export async function linksFor(services: DecideServices, scope: ReviewScope, ids: string[], status: ApplicationStatus | undefined, decider: Decider): Promise<FoundLinks> {
  const vrchat = actsInReview(services, scope);
  if (!status || !isDecided(status) || isAutomatic(decider) || (!vrchat && !(services.discord && status === "approved"))) return NO_LINKS;
  return findLinks(services, scope, await listLinkTargets(services.db, scope.kind, ids), status);
}

/**
 * What a decision does beyond its status, in its transaction: the links found, the applicant's
 * message, in VRChat the join request answered (or an invite) or the event's role, in Discord on
 * approval the member role (group) and the message by DM. Counts the decisions that could not act
 * in VRChat for want of an account.
 */
export function effectsOf(
  services: DecideServices,
  review: Review,
  links: FoundLinks,
  texts: DecisionTexts,
  decider: Decider,
  {
    block = false,
    reason = null,
    confirmNamed = false,
  }: {
    block?: boolean;
    reason?: string | null;
    /** The decider confirmed that the accounts matched by name are the applicants' (the bulk bar's box). */
    confirmNamed?: boolean;
  } = {},
) {
  const { scope } = review;
  const actor = { id: decider.id, name: deciderName(decider) };
  let invites: Promise<boolean> | undefined;
  const tally = { notLinked: 0, unconfirmed: 0 };
  // A rule acts only on who is proven (or confirmed by staff); a person's decision is their own confirmation.
  const mayActOn = (how: VRChatLinkWay | null) => !isAutomatic(decider) || isConfirmedLink(how);
  const onDecided: OnDecided = async (tx, decided) => {
    const vrchat = links.vrchat.get(decided.id);
    if (vrchat) {
      await linkAccountIn(tx, decided.kind, decided.id, "vrchat", vrchat.account, { id: decider.id || null, name: `${actor.name} (at the decision: ${vrchat.how})` }, { onlyIfUnlinked: true, how: "name" });
    }
    const discord = links.discord.get(decided.id);
    if (discord) {
      await linkAccountIn(tx, decided.kind, decided.id, "discord", discord, { id: decider.id || null, name: `${actor.name} (at the decision: the one member with this handle and name)` }, { onlyIfUnlinked: true, how: "name" });
    }
    if (confirmNamed && !isAutomatic(decider) && decided.kind === "group" && isDecided(decided.status)) await confirmNamedLink(tx, decided.id, actor);
    if (decided.kind === "group") await tx.update(applications).set({ rejectedWithBlock: decided.status === "rejected" && block }).where(eq(applications.id, decided.id));
    const linked = await applyDecision(tx, decided, texts.context(tx, reason));
    const now = new Date();
    // An attendee's own role in VRChat: given on approval, taken when no longer approved.
    if (decided.kind === "event" && scope.kind === "event" && services.vrchat.roles) {
      invites ??= mayInviteToGroup(tx, services.vrchat.membershipActions, decider);
      const queued = await queueRoleChange(tx, decided.id, scope.eventId, actor, now, { mayInvite: await invites, confirmedOnly: isAutomatic(decider) });
      if (!queued && decided.status === "approved") tally.notLinked += 1;
    }
    // The review message in Discord shows the outcome (or, back to pending, its buttons again).
    if (services.discordReview) {
      await queueReviewJob(tx, { job: "edit", applicationKind: decided.kind, applicationId: decided.id, status: decided.status, by: actor.name }, now);
    }
    if (!isDecided(decided.status)) return;
    if (services.vrchat.membershipActions && decided.kind === "group") {
      // An application and a join request (or an invite) are one person only when the account is
      // proven or confirmed by staff: one matched by name waits for that confirmation on the card.
      if (linked.vrchatUserId && !isConfirmedLink(linked.vrchatLinkedHow)) {
        tally.unconfirmed += 1;
      } else if (linked.vrchatUserId) {
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
    if (services.discord && linked.discordUserId && mayActOn(linked.discordLinkedHow) && decided.status === "approved") {
      await queueApprovalMessage(tx, services, scope, texts, { kind: decided.kind, id: decided.id, discordUserId: linked.discordUserId, language: linked.language, directMessage: linked.directMessage }, actor, now);
    }
  };
  return { onDecided, tally };
}

/** A staff member's confirmation, at their decision, that the account matched by name is the applicant's. */
async function confirmNamedLink(tx: Parameters<OnDecided>[0], applicationId: string, actor: { id: string; name: string }) {
  const [target] = await listLinkTargets(tx, "group", [applicationId]);
  if (!target?.vrchatUserId || isConfirmedLink(target.vrchatLinkedHow)) return;
  const account = { userId: target.vrchatUserId, displayName: target.vrchatDisplayName ?? target.vrchatUsername };
  await linkAccountIn(tx, "group", applicationId, "vrchat", account, { id: actor.id || null, name: `${actor.name} (confirmed at the decision)` }, { how: "staff" });
}

/**
 * An approval's Discord DM (and, for the group, the member role): the applicant's message and the
 * event's details; approved once the event's role-only instance is open, its link too. Sent once per
 * application, however often it is asked for (its nonce is the application's).
 */
export async function queueApprovalMessage(
  tx: Parameters<OnDecided>[0],
  services: DecideServices,
  scope: ReviewScope,
  texts: DecisionTexts,
  approved: { kind: "group" | "event"; id: string; discordUserId: string; language: string; directMessage: string | null },
  actor: { id: string; name: string },
  now: Date,
) {
  if (!services.discord) return;
  const open = scope.kind === "event" && services.vrchat.roles ? await getOpenInstance(tx, scope.eventId) : null;
  const link = open ? joinLinkOf(open) : null;
  const join = link ? inLanguage(approved.language, () => m.dm_event_open({ link })) : null;
  const message = [approved.directMessage, texts.in(approved.language).eventDetails, join].filter(Boolean).join("\n\n");
  await queueDiscordActions(
    tx,
    { applicationKind: approved.kind, applicationId: approved.id, userId: approved.discordUserId, actor },
    { grantRole: approved.kind === "group" && services.discord.roleConfigured, message },
    now,
  );
}
