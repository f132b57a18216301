/**
 * The tripwire: after every read of the audit logs and every ban made in Dwell, the moderators past
 * one of the owner's limits are each tripped once per window. A trip is recorded, the owners are told
 * (a Discord DM to each owner whose Discord account is on the Team page, a line in the staff's review
 * channel, and the Sanctum's dashboard), and, if the owner chose so, the moderator's Sanctum account is
 * suspended. The owner's 'Undo' lifts the bans (through the ban flow, so VRChat, Discord and Dwell's
 * list agree) and gives the roles taken back in the place they were taken.
 */
import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/db.server";
import type { DiscordBot } from "~/features/discord/discord-bot.server";
import { outbox, tripwireTrips, profiles } from "~/db/schema";
import { liftSuspension, ownersInDiscord, suspendMember } from "~/features/accounts/team.server";
import { bansInForce } from "~/features/bans/bans.server";
import { actsOfTrip, findOverLimit, getTrip, getTripwireSettings } from "~/features/moderation/tripwire.server";
import { staffAccount } from "~/features/people/identities.server";
import { personLanguage } from "~/utils/language.server";
import { m } from "~/paraglide/messages";
import type { Locale } from "~/paraglide/runtime";
import { unbanPerson } from "./bans.server";
import type { DecideServices, Decider } from "./decide.server";
import { queueMemberRoleJobs, type MemberRoleJob } from "./member-roles.server";


export interface TripwireServices extends DecideServices {
  /** The staff's channel in Discord (the review channel), told of a trip too. */
  staffChannelId: string | null;
  /** Gives roles back in VRChat (VRCHAT_MEMBERSHIP_ACTIONS). */
  vrchatRoles: boolean;
}

/** A trip's alert in Discord: a DM to an owner, or a line in the staff channel. */
export const StaffAlertSchema = z.object({
  tripId: z.uuid(),
  to: z.discriminatedUnion("kind", [z.object({ kind: z.literal("dm"), userId: z.string().regex(/^\d{17,20}$/) }), z.object({ kind: z.literal("channel"), channelId: z.string().regex(/^\d{17,20}$/) })]),
  content: z.string().min(1).max(2000),
  nonce: z.string().max(25),
});
export type StaffAlert = z.infer<typeof StaffAlertSchema>;

/** How often the tripwire looks at the last minutes of every moderator (one query). */
export const TRIPWIRE_LOOK_MS = 30_000;

const profileOf = (actorKey: string) => (actorKey.startsWith("staff:") ? actorKey.slice("staff:".length) : null);

/** Trips every moderator past a limit now (once per window each). The number tripped. */
export async function watchModerators(services: TripwireServices, now: Date): Promise<number> {
  const settings = await getTripwireSettings(services.db);
  const over = await findOverLimit(services.db, settings, now);
  if (over.length === 0) return 0;
  const owners = await ownersInDiscord(services.db);
  const link = `${services.siteOrigin}/admin/moderation`;
  for (const actor of over) {
    const profileId = profileOf(actor.actorKey);
    const account = profileId ? await staffAccount(services.db, profileId) : null;
    await services.db.transaction(async (tx) => {
      const suspended = settings.suspend && account !== null ? await suspendMember(tx, account.id, "the tripwire", now) : false;
      const [trip] = await tx
        .insert(tripwireTrips)
        .values({
          actorKey: actor.actorKey,
          actorName: account?.name ?? actor.actorName,
          profileId: account?.id ?? null,
          counts: { removals: actor.removals, roleRemovals: actor.roleRemovals },
          windowStart: new Date(now.getTime() - settings.windowMinutes * 60_000),
          trippedAt: now,
          suspended,
        })
        .returning({ id: tripwireTrips.id });
      const text = (locale: Locale) =>
        [
          m.trip_alert({ name: account?.name ?? actor.actorName, removals: actor.removals, roles: actor.roleRemovals, minutes: settings.windowMinutes }, { locale }),
          suspended ? m.trip_alert_suspended({}, { locale }) : "",
          m.trip_alert_link({ link }, { locale }),
        ]
          .filter(Boolean)
          .join("\n");
      const nonce = trip!.id.replaceAll("-", "").slice(0, 25);
      const alerts: StaffAlert[] = [
        ...(services.discord ? owners.map((owner) => ({ tripId: trip!.id, to: { kind: "dm" as const, userId: owner.discordUserId }, content: text(personLanguage(owner.language) as Locale), nonce })) : []),
        ...(services.discord && services.staffChannelId ? [{ tripId: trip!.id, to: { kind: "channel" as const, channelId: services.staffChannelId }, content: text(personLanguage(null) as Locale), nonce }] : []),
      ];
      if (alerts.length > 0) await tx.insert(outbox).values(alerts.map((alert) => ({ target: "staff_alert", payload: alert, sourceId: trip!.id, nextAttemptAt: now })));
    });
  }
  services.wake();
  return over.length;
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

/** The owner has looked: the trip is closed and, when they say so, the moderator's suspension lifted. */
export async function closeTrip(db: Database, tripId: string, owner: { id: string; name: string }, lift: boolean): Promise<boolean> {
  const trip = await getTrip(db, tripId);
  if (!trip) return false;
  await db.transaction(async (tx) => {
    await tx.update(tripwireTrips).set({ closedAt: new Date(), closedBy: owner.name }).where(and(eq(tripwireTrips.id, trip.id), isNull(tripwireTrips.closedAt)));
    if (lift && trip.suspended && trip.profileId) {
      const [still] = await tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.id, trip.profileId));
      if (still) await liftSuspension(tx, trip.profileId, { id: owner.id, username: owner.name });
    }
  });
  return true;
}

/** The trips' alerts in Discord, sent by the bot at its one pace. */
export function staffAlertChannel(bot: DiscordBot) {
  return bot.jobChannel("staff_alert", StaffAlertSchema, async (alert) => {
    if (alert.to.kind === "dm") {
      await bot.directMessage(alert.to.userId, alert.content, alert.nonce);
      return "Owner told by direct message";
    }
    await bot.postMessage(alert.to.channelId, { content: alert.content, allowed_mentions: { parse: [] }, nonce: alert.nonce, enforce_nonce: true });
    return "Staff channel told";
  });
}

/** What the tripwire needs, from what every entry point has. */
export function tripwireServices(decide: DecideServices, config: { DISCORD_REVIEW_CHANNEL_ID?: string }, vrchatRoles: boolean): TripwireServices {
  return { ...decide, staffChannelId: config.DISCORD_REVIEW_CHANNEL_ID ?? null, vrchatRoles };
}
