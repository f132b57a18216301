/**
 * The owner's answer to a trip of the tripwire (see flows/tripwire-watch.server): 'Undo' lifts the
 * bans (through the ban flow, so VRChat, Discord and Dwell's list agree) and gives the roles taken back
 * in the place they were taken; closing it lifts the moderator's suspension when the owner says so.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { outbox, tripwireTrips, profiles } from "~/db/schema";
import { liftSuspension } from "~/features/accounts/team.server";
import { bansInForce } from "~/features/bans/bans.server";
import { actsOfTrip, getTrip } from "~/features/moderation/tripwire.server";
import { personLanguage } from "~/utils/language.server";
import { m } from "~/paraglide/messages";
import type { Locale } from "~/paraglide/runtime";
import { unbanPerson } from "./bans.server";
import type { DecideServices, Decider } from "./decide.server";
import { queueMemberRoleJobs, type MemberRoleJob } from "./member-roles.server";
import { suspensionRoleJobs } from "./tripwire-watch.server";


export interface TripwireServices extends DecideServices {
  /** Gives roles back in VRChat (VRCHAT_MEMBERSHIP_ACTIONS). */
  vrchatRoles: boolean;
}

export type UndoOutcome = { kind: "undone"; unbanned: number; rolesBack: number; notUndone: number } | { kind: "already" } | { kind: "missing" };

/**
 * The owner's 'Undo' of a trip: every ban the moderator made from the trip's window on is lifted
 * (a ban in Dwell's list through the ban flow; one Dwell's list does not hold yet, in its place), and
 * every role they took is given back where it was taken. Kicks cannot be taken back (the person may
 * join again): they are counted. Once per trip.
 */
export async function undoTrip(services: TripwireServices, tripId: string, owner: Decider): Promise<UndoOutcome> {
  const trip = await getTrip(services.db, tripId);
  if (!trip) return { kind: "missing" };
  const [claimed] = await services.db
    .update(tripwireTrips)
    .set({ undoneAt: new Date(), undoneBy: owner.username })
    .where(and(eq(tripwireTrips.id, trip.id), isNull(tripwireTrips.undoneAt)))
    .returning({ id: tripwireTrips.id });
  if (!claimed) return { kind: "already" };
  const acts = await actsOfTrip(services.db, trip);
  const now = new Date();
  const actor = { id: owner.id, name: owner.username };
  const reason = m.trip_undo_reason({ name: trip.actorName }, { locale: personLanguage(null) as Locale });
  let unbanned = 0;
  let notUndone = 0;
  const roleJobs: Omit<MemberRoleJob, "actId">[] = [];
  const directUnbans: { target: "vrchat_ban" | "discord_ban"; payload: Record<string, unknown>; sourceId: string; nextAttemptAt: Date }[] = [];
  for (const act of acts) {
    if (act.kind === "kick") {
      notUndone += 1;
      continue;
    }
    if (act.kind === "ban") {
      const [ban] = await bansInForce(services.db, act.targetVrchatId ? [act.targetVrchatId] : [], act.targetDiscordId ? [act.targetDiscordId] : []);
      if (ban) {
        if (await unbanPerson(services, ban.id, owner)) unbanned += 1;
      } else if (act.place === "vrchat" && act.targetVrchatId && services.vrchat.membershipActions) {
        directUnbans.push({ target: "vrchat_ban", payload: { action: "unban", banId: act.id, userId: act.targetVrchatId, actor }, sourceId: act.id, nextAttemptAt: now });
        unbanned += 1;
      } else if (act.place === "discord" && act.targetDiscordId && services.discord) {
        directUnbans.push({ target: "discord_ban", payload: { action: "unban", banId: act.id, userId: act.targetDiscordId, reason, actor }, sourceId: act.id, nextAttemptAt: now });
        unbanned += 1;
      } else notUndone += 1;
      continue;
    }
    // A role taken: given back where it was taken, when Dwell can act there and knows the role.
    const userId = act.place === "vrchat" ? act.targetVrchatId : act.targetDiscordId;
    const canAct = act.place === "vrchat" ? services.vrchatRoles : act.place === "discord" ? services.discord !== null : false;
    if (act.place !== "dwell" && userId && act.roleId && canAct) {
      roleJobs.push({ place: act.place, action: "give", userId, roleId: act.roleId, roleName: act.roleName, targetName: act.targetName, reason, actor });
    } else notUndone += 1;
  }
  const result = m.trip_undo_result({ unbanned, roles: roleJobs.length, left: notUndone }, { locale: personLanguage(null) as Locale });
  await services.db.transaction(async (tx) => {
    if (directUnbans.length > 0) await tx.insert(outbox).values(directUnbans);
    await queueMemberRoleJobs(tx, roleJobs, trip.id, now);
    await tx.update(tripwireTrips).set({ undoResult: result }).where(eq(tripwireTrips.id, trip.id));
  });
  services.wake();
  return { kind: "undone", unbanned, rolesBack: roleJobs.length, notUndone };
}

/**
 * The owner has looked: the trip is closed and, when they say so, the moderator's suspension lifted
 * and the linked roles taken with it given back.
 */
export async function closeTrip(db: Database, tripId: string, owner: { id: string; name: string }, lift: boolean, wake: () => void = () => undefined): Promise<boolean> {
  const trip = await getTrip(db, tripId);
  if (!trip) return false;
  const now = new Date();
  const closed = await db.transaction(async (tx) => {
    const [row] = await tx.update(tripwireTrips).set({ closedAt: now, closedBy: owner.name }).where(and(eq(tripwireTrips.id, trip.id), isNull(tripwireTrips.closedAt))).returning({ id: tripwireTrips.id });
    if (row && lift && trip.suspended && trip.profileId) {
      const [still] = await tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.id, trip.profileId));
      if (still) await liftSuspension(tx, trip.profileId, { id: owner.id, username: owner.name });
      await queueMemberRoleJobs(tx, suspensionRoleJobs(trip.rolesTaken, "give", trip.actorName, m.trip_reason_lifted({ name: owner.name })), trip.id, now);
    }
    return row !== undefined;
  });
  if (closed) wake();
  return true;
}

/** What the tripwire's undo needs, from what every entry point has. */
export function tripwireServices(decide: DecideServices, vrchatRoles: boolean): TripwireServices {
  return { ...decide, vrchatRoles };
}
