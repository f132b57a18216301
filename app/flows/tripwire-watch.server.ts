/**
 * The tripwire's watch: after every read of the audit logs, every ban made in Dwell, and twice a
 * minute besides, the moderators past one of the owner's limits are each tripped once per window. A
 * trip is recorded, the owners are told (a Discord DM to each owner whose Discord account is on the
 * Team page, a line in the staff's channel, the Sanctum's dashboard) and, if the owner chose so, the
 * moderator's Sanctum account is suspended (never an owner's). The owner's answer is in
 * flows/tripwire.server.
 */
import { z } from "zod";
import type { Database } from "~/db/db.server";
import { outbox, tripwireTrips } from "~/db/schema";
import { ownersInDiscord, suspendMember } from "~/features/accounts/team.server";
import type { DiscordBot } from "~/features/discord/discord-bot.server";
import { findOverLimit, getTripwireSettings } from "~/features/moderation/tripwire.server";
import { confirmedPairs, staffAccount } from "~/features/people/identities.server";
import { holdsRole, listLinks } from "~/features/roles/role-links.server";
import { queueMemberRoleJobs, type MemberRoleJob } from "./member-roles.server";
import { personLanguage } from "~/utils/language.server";
import { m } from "~/paraglide/messages";
import type { Locale } from "~/paraglide/runtime";

/** What the watch needs: the database, the bot (for the alerts), the staff's channel, the site's address. */
export interface WatchServices {
  db: Database;
  discord: DiscordBot | null;
  /** Whether Dwell acts in VRChat (a suspended moderator's linked VRChat roles are taken there). */
  vrchat: { membershipActions: boolean };
  staffChannelId?: string | null;
  siteOrigin: string;
  wake: () => void;
}

type TakenRole = { place: "vrchat" | "discord"; userId: string; roleId: string; roleName: string };

/**
 * The roles a suspended moderator holds that a role link names (in Discord by their Team-page account,
 * in VRChat by the account known as the same person): taken with the suspension, given back with its end.
 */
async function linkedRolesOf(services: WatchServices, discordUserId: string | null): Promise<TakenRole[]> {
  if (!discordUserId) return [];
  const [links, pairs] = await Promise.all([listLinks(services.db), confirmedPairs(services.db, { discord: [discordUserId] })]);
  const taken: TakenRole[] = [];
  for (const link of links.filter((one) => one.state === "filling" || one.state === "active")) {
    if (services.discord && (await holdsRole(services.db, "discord", link.discordRoleId, discordUserId))) taken.push({ place: "discord", userId: discordUserId, roleId: link.discordRoleId, roleName: link.discordRoleName });
    if (!services.vrchat.membershipActions) continue;
    for (const pair of pairs) if (await holdsRole(services.db, "vrchat", link.vrchatRoleId, pair.vrchatUserId)) taken.push({ place: "vrchat", userId: pair.vrchatUserId, roleId: link.vrchatRoleId, roleName: link.vrchatRoleName });
  }
  return taken;
}

/** The jobs that take (or give back) a suspended moderator's linked roles. */
export function suspensionRoleJobs(roles: readonly TakenRole[], action: "give" | "take", name: string, reason: string): Omit<MemberRoleJob, "actId">[] {
  return roles.map((role) => ({ place: role.place, action, userId: role.userId, roleId: role.roleId, roleName: role.roleName, targetName: name, reason, actor: { id: null, name: m.trip_actor() } }));
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
export async function watchModerators(services: WatchServices, now: Date): Promise<number> {
  const settings = await getTripwireSettings(services.db);
  const over = await findOverLimit(services.db, settings, now);
  if (over.length === 0) return 0;
  const owners = await ownersInDiscord(services.db);
  const link = `${services.siteOrigin}/admin/moderation`;
  for (const actor of over) {
    const profileId = profileOf(actor.actorKey);
    const account = profileId ? await staffAccount(services.db, profileId) : null;
    // Their linked roles go with a suspension (an owner is never suspended, so never loses them).
    const roles = settings.suspend && account && account.role !== "owner" ? await linkedRolesOf(services, account.discordUserId) : [];
    await services.db.transaction(async (tx) => {
      const suspended = settings.suspend && account !== null ? await suspendMember(tx, account.id, "the tripwire", now) : false;
      const rolesTaken = suspended ? roles : [];
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
          rolesTaken,
        })
        .returning({ id: tripwireTrips.id });
      await queueMemberRoleJobs(tx, suspensionRoleJobs(rolesTaken, "take", account?.name ?? actor.actorName, m.trip_reason_suspended()), trip!.id, now);
      const text = (locale: Locale) =>
        [
          m.trip_alert({ name: account?.name ?? actor.actorName, removals: actor.removals, roles: actor.roleRemovals, minutes: settings.windowMinutes }, { locale }),
          suspended ? m.trip_alert_suspended({}, { locale }) : "",
          rolesTaken.length > 0 ? m.trip_roles_taken({ roles: rolesTaken.map((role) => `${role.roleName} (${role.place === "vrchat" ? "VRChat" : "Discord"})`).join(", ") }, { locale }) : "",
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

