/**
 * Where each event's group instance stands (`event_instances`): which events are due to have theirs
 * opened, the claim a worker takes before it asks VRChat (so a second process, a restart or a retry
 * never opens another), and what came of it.
 */
import { and, eq, inArray, isNotNull, lt, ne, or, sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import type { InstanceState } from "~/db/enums";
import { eventInstances, events, type RequestedInstance } from "~/db/schema";
import { truncate } from "~/utils/text";
import { endsAt, startsAt } from "./events.server";

/** How long a worker may hold an instance it is opening before another may look again. */
export const INSTANCE_LEASE_MS = 2 * 60 * 1000;
/** Between two tries while VRChat cannot be reached. */
export const INSTANCE_RETRY_MS = 60 * 1000;

/**
 * Events whose instance is due now: a world, a time to open ('Open the instance'), that time come,
 * the event not ended; and no instance, or one still to try (not reached, or a worker's claim run out).
 */
export async function listDueInstanceEvents(db: Database, now: Date): Promise<string[]> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const rows = await db
    .select({ id: events.id })
    .from(events)
    .leftJoin(eventInstances, eq(eventInstances.eventId, events.id))
    .where(
      and(
        isNotNull(events.worldId),
        isNotNull(events.instanceLeadMinutes),
        sql`${startsAt} - make_interval(mins => ${events.instanceLeadMinutes}) <= ${at}`,
        sql`${endsAt} > ${at}`,
        or(
          sql`${eventInstances.id} is null`,
          and(eq(eventInstances.state, "failed"), sql`${eventInstances.nextAttemptAt} <= ${at}`),
          and(eq(eventInstances.state, "opening"), lt(eventInstances.busyUntil, now)),
        ),
      ),
    )
    .limit(20);
  return rows.map((row) => row.id);
}

/** Events whose instance was still being tried when they ended: missed. */
export async function markMissedInstances(db: Database, now: Date): Promise<number> {
  const ended = db.select({ id: events.id }).from(events).where(sql`${endsAt} <= ${now.toISOString()}::timestamptz`);
  const rows = await db
    .update(eventInstances)
    .set({ state: "missed", busyUntil: null, nextAttemptAt: null })
    .where(and(inArray(eventInstances.state, ["failed", "opening"]), inArray(eventInstances.eventId, ended), or(sql`${eventInstances.busyUntil} is null`, lt(eventInstances.busyUntil, now))))
    .returning({ id: eventInstances.id });
  return rows.length;
}

export interface InstanceClaim {
  /** Tries since it was last asked for (1: the first). */
  attempts: number;
  /** What an earlier try asked VRChat for without keeping its answer: the instance it may have made. */
  requested: RequestedInstance | null;
}

/**
 * Takes the event's instance for this worker, or null when another holds it or it needs nothing: an
 * open one, one VRChat refused (unless a staff member asked again: `manual`), one closed or missed
 * (the same).
 */
export async function claimInstance(db: Database, eventId: string, now: Date, { manual = false }: { manual?: boolean } = {}): Promise<InstanceClaim | null> {
  const busyUntil = new Date(now.getTime() + INSTANCE_LEASE_MS);
  const at = sql`${now.toISOString()}::timestamptz`;
  const retryable = sql`(${eventInstances.state} = 'failed' and ${eventInstances.nextAttemptAt} <= ${at}) or (${eventInstances.state} = 'opening' and ${eventInstances.busyUntil} < ${at})`;
  const asked = manual ? sql` or ${eventInstances.state} in ('failed', 'refused', 'closed', 'missed')` : sql``;
  const [row] = await db
    .insert(eventInstances)
    .values({ eventId, state: "opening", attempts: 1, busyUntil })
    .onConflictDoUpdate({
      target: eventInstances.eventId,
      set: {
        state: "opening",
        busyUntil,
        attempts: manual ? sql`1` : sql`${eventInstances.attempts} + 1`,
        lastError: sql`case when ${eventInstances.state} = 'failed' then ${eventInstances.lastError} else null end`,
      },
      setWhere: sql`${retryable}${asked}`,
    })
    .returning({ attempts: eventInstances.attempts, requested: eventInstances.requested });
  return row ? { attempts: row.attempts, requested: row.requested } : null;
}

/** Written before the create call: a later try knows what a lost answer may have made. */
export async function recordInstanceRequested(db: Pick<Database, "update">, eventId: string, requested: RequestedInstance) {
  await db.update(eventInstances).set({ requested }).where(eq(eventInstances.eventId, eventId));
}

export async function recordInstanceOpened(db: Pick<Database, "update">, eventId: string, instance: { location: string; worldId: string; instanceId: string; shortName: string | null }, now: Date) {
  await db
    .update(eventInstances)
    .set({
      state: "open",
      location: instance.location,
      worldId: instance.worldId,
      instanceId: instance.instanceId,
      shortName: instance.shortName,
      requested: null,
      openedAt: now,
      closedAt: null,
      busyUntil: null,
      nextAttemptAt: null,
      lastError: null,
    })
    .where(eq(eventInstances.eventId, eventId));
}

/**
 * Not opened: tried again at `retryAt` (VRChat not reached, slow, or its answer unreadable), or
 * refused (waits for 'Retry'). A refusal made nothing: what was asked for is forgotten.
 */
export async function recordInstanceFailure(db: Database, eventId: string, error: string, retryAt: Date | null) {
  const state: InstanceState = retryAt ? "failed" : "refused";
  await db
    .update(eventInstances)
    .set({ state, lastError: truncate(error, 500), busyUntil: null, nextAttemptAt: retryAt, ...(retryAt ? {} : { requested: null }) })
    .where(eq(eventInstances.eventId, eventId));
}

export async function recordInstanceClosed(db: Database, eventId: string, now: Date) {
  await db.update(eventInstances).set({ state: "closed", closedAt: now, busyUntil: null }).where(eq(eventInstances.eventId, eventId));
}

/** The instances other events hold (open, or once opened): never taken for this one. */
export async function otherEventsLocations(db: Database, eventId: string): Promise<Set<string>> {
  const rows = await db
    .select({ location: eventInstances.location })
    .from(eventInstances)
    .where(and(ne(eventInstances.eventId, eventId), isNotNull(eventInstances.location)));
  return new Set(rows.map((row) => row.location!));
}

/** The open instance of an event, if it has one. */
export async function getOpenInstance(db: Pick<Database, "select">, eventId: string) {
  const [row] = await db.select().from(eventInstances).where(and(eq(eventInstances.eventId, eventId), eq(eventInstances.state, "open")));
  return row ?? null;
}

/** What the Sanctum's event cards show of each event's instance. */
export interface InstanceSummary {
  state: InstanceState;
  location: string | null;
  worldId: string | null;
  instanceId: string | null;
  shortName: string | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  openedAt: string | null;
  closedAt: string | null;
}

export async function listEventInstances(db: Database, eventIds: readonly string[]): Promise<Map<string, InstanceSummary>> {
  if (eventIds.length === 0) return new Map();
  const rows = await db.select().from(eventInstances).where(inArray(eventInstances.eventId, [...eventIds]));
  return new Map(
    rows.map((row) => [
      row.eventId,
      {
        state: row.state,
        location: row.location,
        worldId: row.worldId,
        instanceId: row.instanceId,
        shortName: row.shortName,
        lastError: row.lastError,
        nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
        openedAt: row.openedAt?.toISOString() ?? null,
        closedAt: row.closedAt?.toISOString() ?? null,
      },
    ]),
  );
}
