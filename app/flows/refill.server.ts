/**
 * Places that refill themselves: whatever frees an event's place (a decision, a withdrawal, more
 * places on its form), the first on the waitlist moves up as the event chose, under the event's
 * row lock and in the transaction that freed it. Each one moved up is acted on as a decision by the
 * site itself (approved: the applicant's message, the review message, and once committed the
 * accounts found by the decision's rule, the event's role and the DM); one moved to Pending is told
 * to the staff in their channels. The site's own hand never invites anyone to the group.
 */
import { eq } from "drizzle-orm";
import { href } from "react-router";
import { eventApplications, type EventRow } from "~/db/schema";
import { listLinkTargets, linkAccountIn } from "~/features/applications/linked-accounts.server";
import { promoteFromWaitlist, WAITLIST_MOVER } from "~/features/applications/review-changes.server";
import { type OnDecided } from "~/features/applications/review-scope.server";
import { applyDecision } from "~/features/decisions/decisions.server";
import type { LookupAllowance } from "~/utils/lookup-cache.server";
import type { EventInput, EventToSave } from "~/features/events/event-input";
import { isEventPast } from "~/features/events/event-timing";
import { updateEvent, type PublicationChange } from "~/features/events/events.server";
import { enqueueNotification } from "~/features/notifications/outbox.server";
import { contextOf, effectsOf, findLinks, NO_LINKS, queueApprovalMessage, type DecideServices, type Decider, type Review } from "./decision-effects.server";
import { queueRoleChange } from "./event-role.server";

/** The site's own hand: a place freed, and the first on the waitlist moved up. */
export const WAITLIST_DECIDER: Decider = { id: "dwell", username: WAITLIST_MOVER, via: "sanctum", role: null };

export interface Refill {
  onMoved: OnDecided;
  /** The applications it approved: their accounts are looked for once it is committed (`linkMovedUp`). */
  approved: string[];
}

/** What fills an event's freed places after a change on it. None for the group's applications, or once the event has ended. */
export function refillFor(services: DecideServices, review: Review, now: Date): Refill | undefined {
  if (review.scope.kind !== "event" || !review.event || isEventPast(review.event, now)) return undefined;
  const { event } = review;
  const { onDecided } = effectsOf(services, review, NO_LINKS, contextOf(review, services, now), WAITLIST_DECIDER);
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
        event_url: `${services.siteOrigin}${href("/events/:id", { id: event.id })}`,
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
 * (VRChat and Discord are asked outside the transaction that moved them, from `allowance`: a
 * withdrawal is a visitor's act), linked unless linked already, and acted on as an approval would
 * (the event's role; the DM, written as a direct approval's is).
 */
export async function linkMovedUp(services: DecideServices, review: Review, refill: Refill | undefined, allowance: LookupAllowance) {
  if (!refill || refill.approved.length === 0 || review.scope.kind !== "event") return;
  const { scope } = review;
  const now = new Date();
  const targets = (await listLinkTargets(services.db, "event", refill.approved)).filter((target) => target.status === "approved");
  const links = await findLinks(services, scope, targets, "approved", { decided: true, allowance });
  if (links.vrchat.size === 0 && links.discord.size === 0) return;
  const texts = contextOf(review, services, now);
  const actor = { id: WAITLIST_DECIDER.id, name: WAITLIST_DECIDER.username };
  await services.db.transaction(async (tx) => {
    for (const target of targets) {
      const vrchat = links.vrchat.get(target.id);
      if (vrchat && (await linkAccountIn(tx, "event", target.id, "vrchat", vrchat.account, { id: null, name: `${actor.name} (moved up: ${vrchat.how})` }, { onlyIfUnlinked: true, how: "name" }))) {
        if (services.vrchat.roles) await queueRoleChange(tx, target.id, scope.eventId, actor, now);
      }
      const discord = links.discord.get(target.id);
      if (discord && (await linkAccountIn(tx, "event", target.id, "discord", discord, { id: null, name: `${actor.name} (moved up: the one member with this handle and name)` }, { onlyIfUnlinked: true, how: "name" }))) {
        const [row] = await tx.select({ status: eventApplications.status }).from(eventApplications).where(eq(eventApplications.id, target.id));
        if (row?.status !== "approved") continue;
        // The approval's own message again, built as every approval's DM is.
        const decided = await applyDecision(tx, { kind: "event", id: target.id, status: "approved" }, texts.context(tx));
        await queueApprovalMessage(tx, services, scope, texts, { kind: "event", id: target.id, discordUserId: discord.userId, language: decided.language, directMessage: decided.directMessage }, actor, now);
      }
    }
  });
  services.wake();
}

/**
 * What an event's save does to its waitlist, in the save's transaction (the update holds the event's
 * row): more places (or none now), or the choice changed, fill what is free from the waitlist.
 * `afterCommit`, once the save is committed: the accounts of those moved up (see linkMovedUp).
 */
export function refillAfterSave(services: DecideServices, now: Date) {
  let done: { review: Review; refill: Refill } | null = null;
  return {
    inSave: async (tx: Parameters<typeof promoteFromWaitlist>[0], event: EventRow) => {
      if (!event.applicationRequired) return;
      const review = { scope: { kind: "event" as const, eventId: event.id }, event };
      const refill = refillFor(services, review, now);
      if (!refill) return;
      await promoteFromWaitlist(tx, event.id, now, refill.onMoved);
      done = { review, refill };
    },
    afterCommit: async () => {
      if (done) await linkMovedUp(services, done.review, done.refill, "staff");
    },
  };
}

/** An event's save from the Sanctum: the event, then its waitlist filled from what is free (see refillAfterSave). */
export async function saveEventRefilling(services: DecideServices, id: string, input: EventInput | EventToSave, publication?: PublicationChange, hostId?: string): Promise<boolean> {
  const refill = refillAfterSave(services, new Date());
  if (!(await updateEvent(services.db, id, input, publication, hostId, refill.inSave))) return false;
  await refill.afterCommit();
  return true;
}
