/**
 * Who gets into an event with applications: its own VRChat group role, which its role-only
 * instance admits. Every entry point that changes an attendee (a decision from the list, the card,
 * the bulk bar or Discord, a place refilled, a withdrawal, a staff member linking their account)
 * calls `queueRoleChange` in its transaction; the outbox then gives or takes the role, one paced
 * call at a time, and the minute's look asks again about approved attendees who were not group
 * members, and retires the role after the event (taken from everyone, then deleted).
 *
 * - Acts only on an account linked by the decision's rule or by staff, never on a claim.
 * - The role is made once: a claim row before any call, and a look for the role marked with the
 *   event's id before making one (a lost answer is found, not repeated).
 * - An approved attendee who is not a member is never invited by default (they ask to join, and
 *   their request meets the group's review); an owner may allow invites from approvals by roles
 *   that decide group applications (`mayInviteToGroup`). The role follows when they join.
 */
import { eq } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { eventApplications } from "~/db/schema";
import { recordActionOutcome } from "~/features/applications/linked-accounts.server";
import {
  claimEventRole,
  claimRolesToDelete,
  getEventRole,
  getRoleSubject,
  listAttendeesToAskAgain,
  listRoleHolders,
  listRolesToRetire,
  markRoleRetiring,
  recordRoleDeleted,
  recordRoleFailure,
  recordRoleReady,
  setAttendeeRole,
} from "~/features/events/event-roles.server";
import { formatLongDate, eventStart, zoneOf } from "~/features/events/event-timing";
import { deleteEvent, getEvent } from "~/features/events/events.server";
import { getOpenInstance } from "~/features/events/event-instances.server";
import { joinLinkOf } from "~/features/vrchat/vrchat-location";
import type { DeliveryOutcome } from "~/features/notifications/notification";
import type { OutboxChannel } from "~/features/notifications/outbox.server";
import { actionOutcomeOf, type ActionOutcome } from "~/features/vrchat/vrchat-actions.server";
import { VRChatError } from "~/features/vrchat/vrchat-error";
import type { VRChatMembership } from "~/features/vrchat/vrchat-membership.server";
import { queueRoleAction, queueRoleRemoval, RoleActionSchema, RoleRemovalSchema, type RoleAction, type RoleKeeper } from "~/features/vrchat/vrchat-roles.server";
import { isConfirmedLink, type StaffRole } from "~/db/enums";
import { getSiteSettings } from "~/features/accounts/site-settings.server";
import { allows } from "~/utils/roles";
import { failureText } from "~/utils/failure-text.server";
import { log } from "~/utils/log.server";

export interface RoleServices {
  db: Database;
  /** Null unless VRCHAT_OPEN_INSTANCES is on (with VRChat configured). */
  roles: RoleKeeper | null;
  membership: VRChatMembership | null;
  /** Decisions act on membership (VRCHAT_MEMBERSHIP_ACTIONS): a non-member attendee is invited. */
  invites: boolean;
  /** Wakes the outbox worker once jobs are queued. */
  wake: () => void;
}

/** What role changes need, from what every entry point has. */
export function eventRoleServices(from: {
  db: Database;
  vrchat: { roles: RoleKeeper | null; membership: VRChatMembership | null; membershipActions: boolean };
  notifications: { wake(): void };
}): RoleServices {
  return { db: from.db, roles: from.vrchat.roles, membership: from.vrchat.membership, invites: from.vrchat.membershipActions, wake: () => from.notifications.wake() };
}

/** The site's own hand in the history, for the role's removal after the event and the later asks. */
export const ROLE_KEEPER_ACTOR = { id: "dwell", name: "Dwell (event night)" } as const;

/**
 * Whether an event approval by this decider may invite a non-member to the group in VRChat. Never by
 * default: an invite admits without the group's own review. Only when an owner allowed it (the Team
 * page), membership actions are on, and the decider's role may decide the group's own applications;
 * never a host, never the site's own hand (a place refilled, a later ask).
 */
export async function mayInviteToGroup(tx: Pick<Database, "select">, membershipActions: boolean, decider: { role: StaffRole | null }): Promise<boolean> {
  if (!membershipActions || !decider.role || !allows(decider.role, "group.review")) return false;
  return (await getSiteSettings(tx)).eventApprovalInvites;
}

export const ROLE_TEXTS = {
  given: "Event role given in VRChat",
  taken: "Event role taken away in VRChat",
  notHeld: "Did not hold the event's role: nothing to do",
  noRole: "The event has no role to take away",
  stays: "Approved again: the event's role stays",
  notApproved: "No longer approved with this account: nothing to do",
  ended: "The event has ended: nothing to do",
  notMember: "Not a member of the group in VRChat yet: they must join it to get in (the role follows when they do)",
  notInvited: "Not a member of the group in VRChat yet: event approvals do not invite to the group, so they must ask to join it, and their request meets the group's review (the role follows when they join)",
  banned: "Banned from the group in VRChat: they cannot get in",
  blocked: "They have blocked the group in VRChat: they cannot get in",
  making: "The event's role is being made",
  refusedRoles: (reason: string) => `VRChat refused the bot account (${reason}): its role needs the permissions to manage and assign the group's roles`,
} as const;

/** How a role is described in VRChat (Dwell's mark is added after it). */
function roleDescription(event: Parameters<typeof eventStart>[0] & { title: string; timezone: string }) {
  return `Approved attendees of ${event.title}, ${formatLongDate(eventStart(event), zoneOf(event.timezone))}. Given and taken by the site; deleted after the event.`;
}

export type EnsuredRole = { kind: "ready"; roleId: string } | { kind: "busy" } | { kind: "refused"; error: string } | { kind: "unreachable"; error: string; retryAfterMs?: number };

/**
 * The event's role, made now if it has none (the first approved attendee's job, or its instance's
 * opening). `manual`: a staff member asked again after VRChat refused.
 */
export async function ensureEventRole(services: RoleServices, eventId: string, now: Date, { manual = false } = {}): Promise<EnsuredRole> {
  const { db, roles } = services;
  if (!roles) return { kind: "refused", error: "Event roles are not turned on (VRCHAT_OPEN_INSTANCES)." };
  const current = await getEventRole(db, eventId);
  if (current?.state === "ready" && current.roleId) return { kind: "ready", roleId: current.roleId };
  if (current?.state === "retiring" || current?.state === "deleted") return { kind: "refused", error: ROLE_TEXTS.ended };
  if (current?.state === "refused" && !manual) return { kind: "refused", error: current.lastError ?? "VRChat refused to make the event's role" };
  const event = await getEvent(db, eventId);
  if (!event) return { kind: "refused", error: "Event not found" };
  if (!(await claimEventRole(db, eventId, now, { manual }))) {
    const again = await getEventRole(db, eventId);
    return again?.state === "ready" && again.roleId ? { kind: "ready", roleId: again.roleId } : { kind: "busy" };
  }
  try {
    const roleId = (await roles.find(eventId)) ?? (await roles.create(eventId, event.title, roleDescription(event)));
    await recordRoleReady(db, eventId, roleId, now);
    log.info("an event's VRChat role is ready", { eventId });
    return { kind: "ready", roleId };
  } catch (error) {
    const outcome = actionOutcomeOf(error, ROLE_TEXTS.refusedRoles);
    const message = outcome.kind === "delivered" ? "" : outcome.error;
    await recordRoleFailure(db, eventId, message, outcome.kind === "retry", now);
    log.warn("an event's VRChat role could not be made", { eventId, error: message });
    return outcome.kind === "retry" ? { kind: "unreachable", error: message, retryAfterMs: outcome.retryAfterMs } : { kind: "refused", error: message };
  }
}

/**
 * What a change to an event application means for its role, in the change's transaction: approved
 * with a linked account, the role is given; no longer approved (or another account linked), the one
 * given or asked for is taken away. True when a job was queued.
 */
export async function queueRoleChange(
  tx: Pick<Database, "select" | "insert">,
  applicationId: string,
  eventId: string,
  actor: { id: string; name: string },
  now: Date,
  {
    previousUserId = null,
    mayInvite = false,
    confirmedOnly = false,
  }: {
    previousUserId?: string | null;
    /** See mayInviteToGroup. */
    mayInvite?: boolean;
    /** A rule's approval: the role is given only to an account proven or confirmed by staff (taking it back needs no proof). */
    confirmedOnly?: boolean;
  } = {},
): Promise<boolean> {
  const [row] = await tx
    .select({ status: eventApplications.status, vrchatUserId: eventApplications.vrchatUserId, linkedHow: eventApplications.vrchatLinkedHow, eventRole: eventApplications.eventRole, spamAt: eventApplications.spamAt })
    .from(eventApplications)
    .where(eq(eventApplications.id, applicationId));
  if (!row) return false;
  const base = { applicationKind: "event" as const, applicationId, eventId, actor };
  let queued = false;
  const held = row.eventRole === "given" || row.eventRole === "not_member";
  if (previousUserId && previousUserId !== row.vrchatUserId && held) {
    await queueRoleAction(tx, { ...base, userId: previousUserId, action: "take" }, now);
    queued = true;
  }
  if (!row.vrchatUserId) return queued;
  if (row.status === "approved" && row.spamAt === null) {
    if (confirmedOnly && !isConfirmedLink(row.linkedHow)) return queued;
    await queueRoleAction(tx, { ...base, userId: row.vrchatUserId, action: "give", ...(mayInvite ? { mayInvite: true } : {}) }, now);
    return true;
  }
  if (held && !previousUserId) {
    await queueRoleAction(tx, { ...base, userId: row.vrchatUserId, action: "take" }, now);
    return true;
  }
  return queued;
}

async function give(services: RoleServices, job: RoleAction, subject: NonNullable<Awaited<ReturnType<typeof getRoleSubject>>>, now: Date): Promise<ActionOutcome> {
  const { db, roles, membership } = services;
  if (subject.spam || subject.status !== "approved" || subject.vrchatUserId !== job.userId) return { kind: "delivered", result: ROLE_TEXTS.notApproved };
  if (subject.ended) return { kind: "delivered", result: ROLE_TEXTS.ended };
  if (!roles || !membership) return { kind: "failed", error: "VRChat is not configured on this site" };
  const status = await membership.membershipNow(job.userId);
  if (status !== "member") {
    const firstAsk = subject.eventRole === null || subject.eventRole === "removed";
    await setAttendeeRole(db, job.applicationId, "not_member", now);
    if (status === "banned") return { kind: "delivered", result: ROLE_TEXTS.banned };
    if (status === "blocked") return { kind: "delivered", result: ROLE_TEXTS.blocked };
    if (!firstAsk) return { kind: "delivered", result: ROLE_TEXTS.notMember };
    if (!services.invites || !job.mayInvite) return { kind: "delivered", result: ROLE_TEXTS.notInvited };
    try {
      const sent = await membership.invite(job.userId);
      return { kind: "delivered", result: `Not a member of the group in VRChat yet: ${sent.toLowerCase()} (the role follows when they join)` };
    } catch (error) {
      if (error instanceof VRChatError) return actionOutcomeOf(error);
      return { kind: "delivered", result: `${ROLE_TEXTS.notMember}. ${failureText(error)}` };
    }
  }
  // An approval asks again even after a refusal: the staff may have given the bot the permission since.
  const role = await ensureEventRole(services, job.eventId, now, { manual: true });
  if (role.kind === "busy") return { kind: "retry", error: ROLE_TEXTS.making, retryAfterMs: 5_000 };
  if (role.kind === "refused") return { kind: "failed", error: role.error };
  if (role.kind === "unreachable") return { kind: "retry", error: role.error, retryAfterMs: role.retryAfterMs };
  await roles.give(job.userId, role.roleId);
  await setAttendeeRole(db, job.applicationId, "given", now);
  return { kind: "delivered", result: ROLE_TEXTS.given };
}

async function take(services: RoleServices, job: RoleAction, subject: NonNullable<Awaited<ReturnType<typeof getRoleSubject>>>, now: Date): Promise<ActionOutcome> {
  const { db, roles } = services;
  const current = subject.vrchatUserId === job.userId;
  if (current && subject.status === "approved" && !subject.spam && !subject.ended) return { kind: "delivered", result: ROLE_TEXTS.stays };
  if (current && subject.eventRole !== "given") {
    if (subject.eventRole === "not_member") await setAttendeeRole(db, job.applicationId, "removed", now);
    return { kind: "delivered", result: ROLE_TEXTS.notHeld };
  }
  const role = await getEventRole(db, job.eventId);
  if (!role?.roleId || role.state === "deleted") return { kind: "delivered", result: ROLE_TEXTS.noRole };
  if (!roles) return { kind: "failed", error: "VRChat is not configured on this site" };
  await roles.take(job.userId, role.roleId);
  if (current) await setAttendeeRole(db, job.applicationId, "removed", now);
  return { kind: "delivered", result: ROLE_TEXTS.taken };
}

/** What an approved attendee's status page shows of the way in: the join link, or to join the group first. */
export interface AttendeeWayIn {
  /** The event's instance is open and they hold its role. */
  joinUrl: string | null;
  /** They are not a member of the group in VRChat yet: the role (and the way in) follows when they join. */
  joinGroupFirst: boolean;
  /** No VRChat account is linked to the application yet: the hosts link it (the role follows). */
  noAccount: boolean;
}

/** Null unless the application is approved, roles are kept, and its event has not ended. */
export async function attendeeWayIn(services: Pick<RoleServices, "db" | "roles">, applicationId: string, now: Date): Promise<AttendeeWayIn | null> {
  if (!services.roles) return null;
  const subject = await getRoleSubject(services.db, applicationId, now);
  if (!subject || subject.spam || subject.status !== "approved" || subject.ended) return null;
  const open = subject.eventRole === "given" ? await getOpenInstance(services.db, subject.eventId) : null;
  return {
    joinUrl: open ? joinLinkOf(open) : null,
    joinGroupFirst: subject.eventRole === "not_member",
    noAccount: subject.vrchatUserId === null,
  };
}

/** The outbox channel that gives and takes events' roles. */
export function eventRoleChannel(services: RoleServices, timeoutMs: number): OutboxChannel {
  return {
    target: "vrchat_event_role",
    // A membership read, perhaps the role's making (a list and a create), an invite or the change: each perhaps after a login.
    maxDeliveryMs: 8 * timeoutMs + 5_000,
    async deliver(payload: unknown): Promise<DeliveryOutcome> {
      const removal = RoleRemovalSchema.safeParse(payload);
      if (removal.success) {
        if (!services.roles) return { kind: "failed", error: "VRChat is not configured on this site" };
        try {
          await services.roles.remove(removal.data.roleId);
          return { kind: "delivered", result: "The deleted event's role was deleted in VRChat" };
        } catch (error) {
          return actionOutcomeOf(error, ROLE_TEXTS.refusedRoles);
        }
      }
      const parsed = RoleActionSchema.safeParse(payload);
      if (!parsed.success) return { kind: "failed", error: "The job could not be read" };
      const job = parsed.data;
      const now = new Date();
      const subject = await getRoleSubject(services.db, job.applicationId, now);
      if (!subject || subject.eventId !== job.eventId) return { kind: "delivered", result: "The application is gone: nothing to do" };
      try {
        return await (job.action === "give" ? give : take)(services, job, subject, now);
      } catch (error) {
        return actionOutcomeOf(error, ROLE_TEXTS.refusedRoles);
      }
    },
  };
}

/**
 * An event deleted from the Sanctum: with it, its role in VRChat (queued in the deletion's
 * transaction, so the role's id outlives the event's rows).
 */
export async function deleteEventWithRole(db: Database, eventId: string, now: Date): Promise<boolean> {
  return deleteEvent(db, eventId, (tx, id) => dropRoleOfDeleted(tx, id, now));
}

/** In the transaction that deletes an event: its VRChat role, if it has one, is queued for deletion. */
export async function dropRoleOfDeleted(tx: Parameters<typeof getEventRole>[0] & Parameters<typeof queueRoleRemoval>[0], eventId: string, now: Date): Promise<void> {
  const role = await getEventRole(tx, eventId);
  if (role?.roleId && (role.state === "ready" || role.state === "retiring")) await queueRoleRemoval(tx, { eventId, roleId: role.roleId }, now);
}

/**
 * A role job's outcome in the application's history, as the membership actions' are; a later ask
 * about a non-member that found them still outside is not written again.
 */
export async function recordRoleOutcome(db: Database, payload: unknown, outcome: DeliveryOutcome) {
  const job = RoleActionSchema.safeParse(payload);
  if (job.success && job.data.actor.id === ROLE_KEEPER_ACTOR.id && job.data.action === "give" && outcome.kind === "delivered" && outcome.result === ROLE_TEXTS.notMember) return;
  const text = outcome.kind === "delivered" ? (outcome.result ?? "Done") : `Failed: ${outcome.error}`;
  await recordActionOutcome(db, "vrchat", payload, text);
}

/**
 * The minute's look: approved attendees who were not group members are asked about again (every
 * 15 minutes until the event ends); after an event, its role is taken from everyone who holds it,
 * then deleted once those jobs are done.
 */
export async function keepEventRoles(services: RoleServices, now: Date): Promise<{ queued: number; deleted: number }> {
  const { db, roles } = services;
  if (!roles) return { queued: 0, deleted: 0 };
  let queued = 0;
  for (const attendee of await listAttendeesToAskAgain(db, now)) {
    await db.transaction(async (tx) => {
      await queueRoleAction(tx, { applicationKind: "event", applicationId: attendee.id, eventId: attendee.eventId, userId: attendee.userId!, action: "give", actor: ROLE_KEEPER_ACTOR }, now);
      await setAttendeeRole(tx, attendee.id, "not_member", now);
    });
    queued += 1;
  }
  for (const { eventId } of await listRolesToRetire(db, now)) {
    await db.transaction(async (tx) => {
      for (const holder of await listRoleHolders(tx, eventId)) {
        await queueRoleAction(tx, { applicationKind: "event", applicationId: holder.id, eventId, userId: holder.userId!, action: "take", actor: ROLE_KEEPER_ACTOR }, now);
        queued += 1;
      }
      await markRoleRetiring(tx, eventId, now);
    });
  }
  let deleted = 0;
  for (const { eventId, roleId } of await claimRolesToDelete(db, now)) {
    try {
      if (roleId) await roles.remove(roleId);
      await recordRoleDeleted(db, eventId, null, now);
      deleted += 1;
      log.info("an event's VRChat role was deleted after the event", { eventId });
    } catch (error) {
      const outcome = actionOutcomeOf(error, ROLE_TEXTS.refusedRoles);
      await recordRoleDeleted(db, eventId, outcome.kind === "delivered" ? "" : outcome.error, now);
      log.warn("an event's VRChat role could not be deleted", { eventId, error: outcome.kind === "delivered" ? "" : outcome.error });
    }
  }
  if (queued > 0) services.wake();
  return { queued, deleted };
}
