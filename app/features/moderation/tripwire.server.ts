/**
 * The tripwire on runaway moderators: the owner's limits (bans and kicks, and roles taken, per
 * moderator per window), who is past one now, and the trips it recorded with the owner's answers.
 * Acts count wherever they were made: VRChat, Discord or Dwell.
 */
import { and, desc, eq, gte, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/db.server";
import { REMOVING_KINDS, type ModerationKind } from "~/db/enums";
import { DWELL_HAND_KEY } from "~/db/moderation-acts.server";
import { moderationActs, tripwireSettings, tripwireTrips } from "~/db/schema";

type Reader = Pick<Database, "select">;

export interface TripwireSettings {
  removalLimit: number | null;
  roleRemovalLimit: number | null;
  windowMinutes: number;
  suspend: boolean;
  retentionDays: number | null;
}

export const TRIPWIRE_DEFAULTS: TripwireSettings = { removalLimit: null, roleRemovalLimit: null, windowMinutes: 10, suspend: false, retentionDays: null };

const limit = (max: number) =>
  z.preprocess((value) => (value === "" || value === null || value === undefined ? null : value), z.coerce.number().int().min(1).max(max).nullable());

/** The owner's form: an empty limit is off. */
export const TripwireSettingsSchema = z.object({
  removalLimit: limit(10_000),
  roleRemovalLimit: limit(10_000),
  windowMinutes: z.coerce.number().int().min(1).max(1_440),
  suspend: z.preprocess((value) => value === "on" || value === "true" || value === true, z.boolean()),
  retentionDays: limit(36_500),
});

export async function getTripwireSettings(db: Reader): Promise<TripwireSettings> {
  const [row] = await db.select().from(tripwireSettings).where(eq(tripwireSettings.id, 1));
  return row ? { removalLimit: row.removalLimit, roleRemovalLimit: row.roleRemovalLimit, windowMinutes: row.windowMinutes, suspend: row.suspend, retentionDays: row.retentionDays } : TRIPWIRE_DEFAULTS;
}

export async function saveTripwireSettings(db: Pick<Database, "insert">, settings: TripwireSettings) {
  await db.insert(tripwireSettings).values({ id: 1, ...settings }).onConflictDoUpdate({ target: tripwireSettings.id, set: settings });
}

/** The acts a trip counts: taking people out (bans, kicks) and taking roles. */
export const COUNTED_KINDS = [...REMOVING_KINDS, "role_remove"] as const satisfies readonly ModerationKind[];

export interface OverLimit {
  actorKey: string;
  actorName: string;
  removals: number;
  roleRemovals: number;
}

/**
 * The moderators past a limit within the window ending now, who have no trip in it yet. Dwell's own
 * hand (its rules) is never a moderator; neither is an act with no one named.
 */
export async function findOverLimit(db: Reader, settings: TripwireSettings, now: Date): Promise<OverLimit[]> {
  if (settings.removalLimit === null && settings.roleRemovalLimit === null) return [];
  const since = new Date(now.getTime() - settings.windowMinutes * 60_000);
  const removals = sql<number>`count(*) filter (where ${inArray(moderationActs.kind, [...REMOVING_KINDS])})::int`;
  const roleRemovals = sql<number>`count(*) filter (where ${moderationActs.kind} = 'role_remove')::int`;
  const rows = await db
    .select({ actorKey: moderationActs.actorKey, actorName: sql<string>`max(${moderationActs.actorName})`, removals, roleRemovals })
    .from(moderationActs)
    .where(and(gte(moderationActs.at, since), inArray(moderationActs.kind, [...COUNTED_KINDS]), sql`${moderationActs.actorKey} <> ${DWELL_HAND_KEY}`))
    .groupBy(moderationActs.actorKey);
  const over = rows.filter((row) => (settings.removalLimit !== null && row.removals > settings.removalLimit) || (settings.roleRemovalLimit !== null && row.roleRemovals > settings.roleRemovalLimit));
  if (over.length === 0) return [];
  const tripped = await db
    .select({ actorKey: tripwireTrips.actorKey })
    .from(tripwireTrips)
    .where(and(inArray(tripwireTrips.actorKey, over.map((row) => row.actorKey)), gte(tripwireTrips.trippedAt, since)));
  const already = new Set(tripped.map((row) => row.actorKey));
  return over.filter((row) => !already.has(row.actorKey));
}

export interface TripView {
  id: string;
  actorKey: string;
  actorName: string;
  counts: { removals: number; roleRemovals: number };
  windowStart: string;
  trippedAt: string;
  suspended: boolean;
  rolesTaken: { place: "vrchat" | "discord"; roleName: string }[];
  undoneAt: string | null;
  undoneBy: string | null;
  undoResult: string | null;
  closedAt: string | null;
  closedBy: string | null;
}

const tripView = (row: typeof tripwireTrips.$inferSelect): TripView => ({
  id: row.id,
  actorKey: row.actorKey,
  actorName: row.actorName,
  counts: row.counts,
  windowStart: row.windowStart.toISOString(),
  trippedAt: row.trippedAt.toISOString(),
  suspended: row.suspended,
  rolesTaken: row.rolesTaken.map((role) => ({ place: role.place, roleName: role.roleName })),
  undoneAt: row.undoneAt?.toISOString() ?? null,
  undoneBy: row.undoneBy,
  undoResult: row.undoResult,
  closedAt: row.closedAt?.toISOString() ?? null,
  closedBy: row.closedBy,
});

/** The trips the owner has not closed yet, newest first, then the latest closed ones. */
export async function listTrips(db: Reader, limit = 20): Promise<TripView[]> {
  const rows = await db.select().from(tripwireTrips).orderBy(sql`${tripwireTrips.closedAt} is null desc`, desc(tripwireTrips.trippedAt)).limit(limit);
  return rows.map(tripView);
}

export async function countOpenTrips(db: Reader): Promise<number> {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(tripwireTrips).where(isNull(tripwireTrips.closedAt));
  return row?.count ?? 0;
}

export async function getTrip(db: Reader, id: string) {
  if (!z.uuid().safeParse(id).success) return null;
  const [row] = await db.select().from(tripwireTrips).where(eq(tripwireTrips.id, id));
  return row ?? null;
}

/** What the moderator did from the trip's window on: the acts an undo answers. */
export async function actsOfTrip(db: Reader, trip: { actorKey: string; windowStart: Date }) {
  return db
    .select()
    .from(moderationActs)
    .where(and(eq(moderationActs.actorKey, trip.actorKey), gte(moderationActs.at, trip.windowStart), inArray(moderationActs.kind, [...COUNTED_KINDS])))
    .orderBy(moderationActs.at)
    .limit(5_000);
}
