/**
 * An event's group instance, opened by Dwell at its time ('Open the instance': minutes before the
 * start) or when staff press 'Open now' / 'Retry', and closed by 'Close'. Every entry point (the
 * server's minute timer, the Sanctum's buttons) calls these functions.
 *
 * - Never two instances for one event: a worker claims the event's row before it asks VRChat, and
 *   writes down what it asks for before the create call. A later try after a lost answer looks for
 *   that instance (read back, every fact Dwell set matching) before making another.
 * - Only Dwell's own: an instance a member opened in the event's world, the group's standing
 *   hangout, or another event's is never taken as this event's.
 * - VRChat unreachable (or asking to slow down) is tried again every minute until the event ends,
 *   then shown as missed; a refusal (no permission, a world it does not know) waits for 'Retry'.
 * - An event with applications opens to the members holding its own role (flows/event-role.server),
 *   made first if no attendee has been approved yet; its join link goes to each approved attendee by
 *   Discord DM (and shows on their status page), never to the announcement channel.
 * - Once open, an open event's join link goes to the announcement channel in Discord.
 */
import { href } from "react-router";
import type { Database } from "~/db/db.server";
import {
  claimInstance,
  getOpenInstance,
  INSTANCE_RETRY_MS,
  listDueInstanceEvents,
  markMissedInstances,
  otherEventsLocations,
  recordInstanceClosed,
  recordInstanceRequested,
  recordInstanceFailure,
  recordInstanceOpened,
} from "~/features/events/event-instances.server";
import { eventEnd, isEventPast } from "~/features/events/event-timing";
import { getEvent } from "~/features/events/events.server";
import { listPublications } from "~/features/events/vrchat-publication.server";
import { queueAnnouncement } from "~/features/notifications/discord.server";
import { actionOutcomeOf } from "~/features/vrchat/vrchat-actions.server";
import { requestedOf, type InstanceOpener, type InstanceRequest } from "~/features/vrchat/vrchat-instances.server";
import { joinLink } from "~/features/vrchat/vrchat-location";
import { m } from "~/paraglide/messages";
import { personLanguage, inLanguage } from "~/utils/language.server";
import { log } from "~/utils/log.server";
import { escapeDiscordMarkdown } from "~/utils/text";
import { listApprovedWithDiscord } from "~/features/applications/capacity.server";
import { queueDiscordActions } from "~/features/discord/discord-jobs.server";
import type { RoleKeeper } from "~/features/vrchat/vrchat-roles.server";
import type { VRChatMembership } from "~/features/vrchat/vrchat-membership.server";
import { ensureEventRole, eventRoleServices, type RoleServices } from "./event-role.server";

export interface InstanceServices {
  db: Database;
  /** Null unless VRCHAT_OPEN_INSTANCES is on (with VRChat configured). */
  instances: InstanceOpener | null;
  /** The announcement channel is configured (DISCORD_ANNOUNCE_WEBHOOK_URL). */
  announce: boolean;
  /** The site's address, for the event's page in the announcement. */
  siteOrigin: string;
  /** Wakes the outbox worker once an announcement is queued. */
  wake: () => void;
  /** The events' own roles, for the instances of events with applications. */
  roles: RoleServices;
  /** The Discord bot is configured: approved attendees get the join link by DM. */
  directMessages: boolean;
}

/** How often the server looks for instances due to open. */
export const INSTANCE_LOOK_MS = 30_000;

/** What opening instances needs, from what every entry point has (a route's context, the server's timer). */
export function eventInstanceServices(from: {
  db: Database;
  config: { PUBLIC_URL: string; DISCORD_ANNOUNCE_WEBHOOK_URL?: string };
  vrchat: { instances: InstanceOpener | null; roles: RoleKeeper | null; membership: VRChatMembership | null; membershipActions: boolean };
  discord: unknown;
  notifications: { wake(): void };
}): InstanceServices {
  return {
    db: from.db,
    instances: from.vrchat.instances,
    announce: Boolean(from.config.DISCORD_ANNOUNCE_WEBHOOK_URL),
    siteOrigin: from.config.PUBLIC_URL.replace(/\/+$/, ""),
    wake: () => from.notifications.wake(),
    roles: eventRoleServices(from),
    directMessages: from.discord !== null,
  };
}

export type OpenOutcome =
  | { kind: "opened"; location: string; adopted: boolean }
  /** Another worker holds it, or it is open already. */
  | { kind: "busy" }
  | { kind: "failed"; error: string; retrying: boolean }
  | { kind: "not-possible"; reason: string };

export const INSTANCE_TEXTS = {
  get off() {
    return m.aev_inst_off();
  },
  get missing() {
    return m.event_not_found_admin();
  },
  get noWorld() {
    return m.aev_inst_no_world_reason();
  },
  get ended() {
    return m.aev_inst_ended();
  },
};

/** What each approved attendee of an event with applications gets by DM when its instance opens. */
export function joinMessage(event: { id: string; title: string }, link: string, siteOrigin: string): string {
  return `${m.dm_instance_open({ event: escapeDiscordMarkdown(event.title), link })}\n${siteOrigin}${href("/events/:id", { id: event.id })}`;
}

/** What goes to the announcement channel when an open event's instance opens. */
export function openAnnouncement(event: { id: string; title: string }, access: string, link: string, siteOrigin: string): string {
  const who = access === "public" ? m.announce_who_public() : m.announce_who_members();
  return `${m.announce_instance_open({ event: escapeDiscordMarkdown(event.title), who, link })}\n${siteOrigin}${href("/events/:id", { id: event.id })}`;
}

/** Opens the event's instance now, unless one is open or being opened. `manual`: a staff member asked ('Open now', 'Retry'). */
export async function openEventInstance(services: InstanceServices, eventId: string, now: Date, { manual = false }: { manual?: boolean } = {}): Promise<OpenOutcome> {
  const { db, instances } = services;
  if (!instances) return { kind: "not-possible", reason: INSTANCE_TEXTS.off };
  const event = await getEvent(db, eventId);
  if (!event) return { kind: "not-possible", reason: INSTANCE_TEXTS.missing };
  if (!event.worldId) return { kind: "not-possible", reason: INSTANCE_TEXTS.noWorld };
  if (isEventPast(event, now)) return { kind: "not-possible", reason: INSTANCE_TEXTS.ended };
  // An event with applications admits its own role only: made before the instance, if need be.
  let roleId: string | null = null;
  if (event.applicationRequired) {
    const role = await ensureEventRole(services.roles, event.id, now, { manual });
    if (role.kind === "busy") return { kind: "busy" };
    if (role.kind !== "ready") {
      if (!(await claimInstance(db, event.id, now, { manual }))) return { kind: "busy" };
      const retrying = role.kind === "unreachable";
      await recordInstanceFailure(db, event.id, role.error, retrying ? new Date(now.getTime() + Math.max(INSTANCE_RETRY_MS, role.retryAfterMs ?? 0)) : null);
      return { kind: "failed", error: role.error, retrying };
    }
    roleId = role.roleId;
  }
  const claim = await claimInstance(db, event.id, now, { manual });
  if (!claim) return { kind: "busy" };
  try {
    const calendarEntryId = (await listPublications(db, [event.id])).get(event.id)?.vrchatEventId ?? null;
    const access = roleId ? ({ access: "role", roleIds: [roleId] } as const) : ({ access: event.instanceAccess } as const);
    const request: InstanceRequest = { worldId: event.worldId, region: event.instanceRegion, ...access, closedAt: eventEnd(event), calendarEntryId };
    // Only an instance this event's own earlier try made (its answer lost) is taken: never one a member
    // opened, the group's hangout, or another event's.
    const found = claim.requested ? await instances.findMade(event.worldId, claim.requested, await otherEventsLocations(db, event.id)) : null;
    let instance = found;
    if (!instance) {
      await recordInstanceRequested(db, event.id, requestedOf(request));
      instance = await instances.open(request);
    }
    // Its short link is what a public page may show: read once when VRChat's answer had none.
    if (!instance.shortName && event.instanceAccess === "public" && !roleId) {
      instance = { ...instance, shortName: await instances.shortName(instance.location).catch(() => null) };
    }
    const link = joinLink(instance);
    const told = await db.transaction(async (tx) => {
      await recordInstanceOpened(tx, event.id, instance, now);
      if (roleId) return tellAttendees(tx, services, event, link, now);
      if (!services.announce) return false;
      await queueAnnouncement(tx, { content: openAnnouncement(event, event.instanceAccess, link, services.siteOrigin) }, event.id, now);
      return true;
    });
    if (told) services.wake();
    log.info("an event's instance is open", { eventId: event.id, adopted: found !== null });
    return { kind: "opened", location: instance.location, adopted: found !== null };
  } catch (error) {
    const outcome = actionOutcomeOf(error, (reason) => `VRChat refused the bot account (${reason}): its role needs the permission to open group instances`);
    const retrying = outcome.kind === "retry";
    const message = outcome.kind === "delivered" ? "" : outcome.error;
    await recordInstanceFailure(db, event.id, message, retrying ? new Date(now.getTime() + Math.max(INSTANCE_RETRY_MS, outcome.kind === "retry" ? (outcome.retryAfterMs ?? 0) : 0)) : null);
    log.warn("an event's instance could not be opened", { eventId: event.id, error: message, retrying });
    return { kind: "failed", error: message, retrying };
  }
}

/** The join link to each approved attendee with a linked Discord account, by DM (once per opening). */
async function tellAttendees(tx: Parameters<Parameters<Database["transaction"]>[0]>[0], services: InstanceServices, event: { id: string; title: string }, link: string, now: Date) {
  if (!services.directMessages) return false;
  const attendees = await listApprovedWithDiscord(tx, event.id);
  for (const attendee of attendees) {
    // In the language the attendee applied in.
    const message = inLanguage(personLanguage(attendee.language), () => joinMessage(event, link, services.siteOrigin));
    await queueDiscordActions(
      tx,
      { applicationKind: "event", applicationId: attendee.id, userId: attendee.discordUserId!, actor: { id: "dwell", name: "Dwell (instance open)" } },
      { grantRole: false, message, nonce: `join${attendee.id.replaceAll("-", "")}` },
      now,
    );
  }
  return attendees.length > 0;
}

/** The minute's look: instances due now are opened; those still tried when their event ended are missed. */
export async function openDueInstances(services: InstanceServices, now: Date): Promise<number> {
  if (!services.instances) return 0;
  await markMissedInstances(services.db, now);
  let opened = 0;
  for (const eventId of await listDueInstanceEvents(services.db, now)) {
    const outcome = await openEventInstance(services, eventId, now);
    if (outcome.kind === "opened") opened += 1;
  }
  return opened;
}

export type CloseOutcome = { kind: "closed" } | { kind: "none" } | { kind: "failed"; error: string };

/** 'Close': nobody new may join from now on. */
export async function closeEventInstance(services: InstanceServices, eventId: string, now: Date): Promise<CloseOutcome> {
  if (!services.instances) return { kind: "failed", error: INSTANCE_TEXTS.off };
  const open = await getOpenInstance(services.db, eventId);
  if (!open?.location) return { kind: "none" };
  try {
    await services.instances.close(open.location);
  } catch (error) {
    const outcome = actionOutcomeOf(error);
    return { kind: "failed", error: outcome.kind === "delivered" ? "" : outcome.error };
  }
  await recordInstanceClosed(services.db, eventId, now);
  return { kind: "closed" };
}
