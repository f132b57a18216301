/**
 * Where each event's own VRChat role stands (`event_roles`) and who holds it (`event_applications.event_role`):
 * the claim a worker takes before it makes the role (so a second process or a retry never makes
 * another), the attendees to ask again, the roles to retire after their event.
 */
import { and, eq, inArray, isNotNull, lt, notExists, or, sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import type { AttendeeRole, EventRoleState } from "~/db/enums";
import { eventApplications, eventRoles, events, outbox } from "~/db/schema";
import { truncate } from "~/utils/text";
import { endsAt } from "./events.server";

/** How long a worker may hold a role it is making before another may try. */
export const ROLE_LEASE_MS = 2 * 60 * 1000;
/** How often an approved attendee who is not a group member is asked about again, until the event ends. */
export const NOT_MEMBER_RECHECK_MS = 15 * 60 * 1000;

export interface EventRoleSummary {
  state: EventRoleState;
  roleId: string | null;
  lastError: string | null;
}

export async function getEventRole(db: Pick<Database, "select">, eventId: string): Promise<EventRoleSummary | null> {
  const [row] = await db.select({ state: eventRoles.state, roleId: eventRoles.roleId, lastError: eventRoles.lastError }).from(eventRoles).where(eq(eventRoles.eventId, eventId));
  return row ?? null;
}

export async function listEventRoles(db: Database, eventIds: readonly string[]): Promise<Map<string, EventRoleSummary>> {
  if (eventIds.length === 0) return new Map();
  const rows = await db.select().from(eventRoles).where(inArray(eventRoles.eventId, [...eventIds]));
  return new Map(rows.map((row) => [row.eventId, { state: row.state, roleId: row.roleId, lastError: row.lastError }]));
}

/**
 * Takes the making of the event's role for this worker: true when it is this worker's to make
 * (none yet, a worker's claim run out, or one VRChat refused and a staff member asked again).
 */
export async function claimEventRole(db: Database, eventId: string, now: Date, { manual = false } = {}): Promise<boolean> {
  const busyUntil = new Date(now.getTime() + ROLE_LEASE_MS);
  const at = sql`${now.toISOString()}::timestamptz`;
  const refused = manual ? sql` or ${eventRoles.state} = 'refused'` : sql``;
  const rows = await db
    .insert(eventRoles)
    .values({ eventId, state: "creating", busyUntil })
    .onConflictDoUpdate({
      target: eventRoles.eventId,
      set: { state: "creating", busyUntil, lastError: null, updatedAt: now },
      setWhere: sql`(${eventRoles.state} = 'creating' and (${eventRoles.busyUntil} is null or ${eventRoles.busyUntil} < ${at}))${refused}`,
    })
    .returning({ id: eventRoles.id });
  return rows.length > 0;
}

export async function recordRoleReady(db: Database, eventId: string, roleId: string, now: Date) {
  await db.update(eventRoles).set({ state: "ready", roleId, busyUntil: null, lastError: null, updatedAt: now }).where(eq(eventRoles.eventId, eventId));
}

/** VRChat refused (waits for a staff member's 'Retry'), or could not be asked (`retry`: the next worker tries). */
export async function recordRoleFailure(db: Database, eventId: string, error: string, retry: boolean, now: Date) {
  await db
    .update(eventRoles)
    .set({ state: retry ? "creating" : "refused", busyUntil: null, lastError: truncate(error, 500), updatedAt: now })
    .where(and(eq(eventRoles.eventId, eventId), eq(eventRoles.state, "creating")));
}

/** Where the attendee stands with the role now, as VRChat last answered. */
export async function setAttendeeRole(db: Pick<Database, "update">, applicationId: string, role: AttendeeRole | null, now: Date) {
  await db.update(eventApplications).set({ eventRole: role, eventRoleCheckedAt: now }).where(eq(eventApplications.id, applicationId));
}

/** What a role job needs of the attendee and their event. */
export async function getRoleSubject(db: Pick<Database, "select">, applicationId: string, now: Date) {
  const [row] = await db
    .select({
      status: eventApplications.status,
      vrchatUserId: eventApplications.vrchatUserId,
      eventRole: eventApplications.eventRole,
      spam: sql<boolean>`${eventApplications.spamAt} is not null`,
      eventId: eventApplications.eventId,
      ended: sql<boolean>`${endsAt} <= ${now.toISOString()}::timestamptz`,
    })
    .from(eventApplications)
    .innerJoin(events, eq(events.id, eventApplications.eventId))
    .where(eq(eventApplications.id, applicationId));
  return row ?? null;
}

/** A role job still to be sent for the application. */
const pendingRoleJob = (applicationId: Parameters<typeof eq>[1]) =>
  sql`(select 1 from ${outbox} where ${outbox.target} = 'vrchat_event_role' and ${outbox.status} = 'pending' and ${outbox.sourceId} = ${applicationId})`;

/**
 * Approved attendees who were not group members when last asked, long enough ago, of events not
 * ended, with no role job waiting: they may have joined since.
 */
export async function listAttendeesToAskAgain(db: Database, now: Date, limit = 50) {
  return db
    .select({ id: eventApplications.id, eventId: eventApplications.eventId, userId: eventApplications.vrchatUserId })
    .from(eventApplications)
    .innerJoin(events, eq(events.id, eventApplications.eventId))
    .where(
      and(
        eq(eventApplications.status, "approved"),
        eq(eventApplications.eventRole, "not_member"),
        isNotNull(eventApplications.vrchatUserId),
        sql`${eventApplications.spamAt} is null`,
        or(sql`${eventApplications.eventRoleCheckedAt} is null`, lt(eventApplications.eventRoleCheckedAt, new Date(now.getTime() - NOT_MEMBER_RECHECK_MS))),
        sql`${endsAt} > ${now.toISOString()}::timestamptz`,
        notExists(pendingRoleJob(eventApplications.id)),
      ),
    )
    .limit(limit);
}

/** Events that have ended whose role is made: their holders lose it, then it is deleted. */
export async function listRolesToRetire(db: Database, now: Date) {
  return db
    .select({ eventId: eventRoles.eventId, roleId: eventRoles.roleId })
    .from(eventRoles)
    .innerJoin(events, eq(events.id, eventRoles.eventId))
    .where(and(eq(eventRoles.state, "ready"), sql`${endsAt} <= ${now.toISOString()}::timestamptz`))
    .limit(20);
}

/** Holders of the event's role (and those still to be asked), to take it away from. */
export async function listRoleHolders(db: Pick<Database, "select">, eventId: string) {
  return db
    .select({ id: eventApplications.id, userId: eventApplications.vrchatUserId })
    .from(eventApplications)
    .where(and(eq(eventApplications.eventId, eventId), eq(eventApplications.eventRole, "given"), isNotNull(eventApplications.vrchatUserId)));
}

export async function markRoleRetiring(db: Pick<Database, "update">, eventId: string, now: Date) {
  await db.update(eventRoles).set({ state: "retiring", updatedAt: now }).where(and(eq(eventRoles.eventId, eventId), eq(eventRoles.state, "ready")));
}

/**
 * Retiring roles with no role job of their event left to send (each holder's is done): ready to be
 * deleted, and taken for this worker (a claim, as for making one).
 */
export async function claimRolesToDelete(db: Database, now: Date): Promise<{ eventId: string; roleId: string | null }[]> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const waiting = db
    .select({ eventId: eventApplications.eventId })
    .from(eventApplications)
    .innerJoin(outbox, and(eq(outbox.sourceId, eventApplications.id), eq(outbox.target, "vrchat_event_role"), eq(outbox.status, "pending")));
  return db
    .update(eventRoles)
    .set({ busyUntil: new Date(now.getTime() + ROLE_LEASE_MS), updatedAt: now })
    .where(
      and(
        eq(eventRoles.state, "retiring"),
        or(sql`${eventRoles.busyUntil} is null`, sql`${eventRoles.busyUntil} < ${at}`),
        sql`${eventRoles.eventId} not in (${waiting})`,
      ),
    )
    .returning({ eventId: eventRoles.eventId, roleId: eventRoles.roleId });
}

export async function recordRoleDeleted(db: Database, eventId: string, error: string | null, now: Date) {
  await db
    .update(eventRoles)
    .set(error === null ? { state: "deleted", busyUntil: null, lastError: null, updatedAt: now } : { busyUntil: null, lastError: truncate(error, 500), updatedAt: now })
    .where(eq(eventRoles.eventId, eventId));
}
