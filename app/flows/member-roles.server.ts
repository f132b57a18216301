/**
 * A member's role given or taken by Dwell in VRChat (`PUT`/`DELETE /groups/{groupId}/members/{userId}/roles/{groupRoleId}`)
 * or Discord (`PUT`/`DELETE /guilds/{guildId}/members/{userId}/roles/{roleId}`), as an outbox job paced
 * with the bot's other calls there: an owner's undo of a runaway moderator's acts. Each change made is
 * written into the moderation history, with who asked for it and why.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Database } from "~/db/db.server";
import { dwellAct, recordActs } from "~/db/moderation-acts.server";
import { outbox } from "~/db/schema";
import type { DiscordBot } from "~/features/discord/discord-bot.server";
import { outcomeOf as discordOutcome } from "~/features/discord/discord-jobs.server";
import type { DeliveryOutcome } from "~/features/notifications/notification";
import type { OutboxChannel } from "~/features/notifications/outbox.server";
import { actionOutcomeOf } from "~/features/vrchat/vrchat-actions.server";
import type { RoleKeeper } from "~/features/vrchat/vrchat-roles.server";
import { fillWaiting, getLink, setHolding, setLinkState } from "~/features/roles/role-links.server";

export const MemberRoleJobSchema = z.object({
  /** The act this change writes into the history, once. */
  actId: z.uuid(),
  place: z.enum(["vrchat", "discord"]),
  action: z.enum(["give", "take"]),
  userId: z.string().min(1).max(100),
  roleId: z.string().min(1).max(200),
  roleName: z.string().max(200).nullable(),
  targetName: z.string().max(500).nullable(),
  /** Why, in words (the audit logs' reason): "Undo of the tripwire on Moth". */
  reason: z.string().max(400),
  actor: z.object({ id: z.string().nullable(), name: z.string() }),
  /** The role link that asked for it (the role bridge): nothing is done once the link is removed. */
  linkId: z.uuid().optional(),
});
export type MemberRoleJob = z.infer<typeof MemberRoleJobSchema>;

export async function queueMemberRoleJobs(tx: Pick<Database, "insert">, jobs: Omit<MemberRoleJob, "actId">[], sourceId: string, at: Date) {
  if (jobs.length === 0) return;
  await tx.insert(outbox).values(jobs.map((job) => ({ target: "member_role", payload: { ...job, actId: randomUUID() } satisfies MemberRoleJob, sourceId, nextAttemptAt: at })));
}

export function memberRoleChannel({ db, vrchat, discord, timeoutMs }: { db: Database; vrchat: RoleKeeper | null; discord: DiscordBot | null; timeoutMs: number }): OutboxChannel {
  return {
    target: "member_role",
    maxDeliveryMs: 2 * timeoutMs + 5_000,
    async deliver(payload: unknown): Promise<DeliveryOutcome> {
      const parsed = MemberRoleJobSchema.safeParse(payload);
      if (!parsed.success) return { kind: "failed", error: "The job could not be read" };
      const job = parsed.data;
      const giving = job.action === "give";
      const link = job.linkId ? await getLink(db, job.linkId) : null;
      if (job.linkId && (!link || link.removedAt)) return { kind: "delivered", result: "The role link was removed: nothing to do" };
      try {
        if (job.place === "vrchat") {
          if (!vrchat) return { kind: "failed", error: "Dwell does not act in VRChat on this site (VRCHAT_MEMBERSHIP_ACTIONS)" };
          await (giving ? vrchat.give(job.userId, job.roleId) : vrchat.take(job.userId, job.roleId));
        } else {
          if (!discord) return { kind: "failed", error: "The Discord bot is not configured on this site" };
          await (giving ? discord.memberRoles.give(job.userId, job.roleId, job.reason) : discord.memberRoles.take(job.userId, job.roleId, job.reason));
        }
      } catch (error) {
        return job.place === "vrchat" ? actionOutcomeOf(error, (reason) => `VRChat refused the bot account (${reason}): its role needs group-roles-assign`) : discordOutcome(error, "member_role");
      }
      const target = job.place === "vrchat" ? { vrchatUserId: job.userId, name: job.targetName } : { discordUserId: job.userId, name: job.targetName };
      const now = new Date();
      await db.transaction(async (tx) => {
        await recordActs(tx, [dwellAct(`member_role:${job.actId}`, giving ? "role_add" : "role_remove", job.actor, target, now, { reason: job.reason, roleId: job.roleId, roleName: job.roleName })]);
        // Dwell's own change is known at once (its echo in the audit log is the bot's, and left out).
        await setHolding(tx, job.place, job.roleId, job.userId, giving, now);
      });
      const where = job.place === "vrchat" ? "VRChat" : "Discord";
      return { kind: "delivered", result: giving ? `Role given back in ${where}` : `Role taken in ${where}` };
    },
  };
}

/**
 * After a role job is settled (sent, or given up on): a fill whose every change is settled is done,
 * and the link is then kept in step as roles change. The outbox worker's `onSettled` calls it.
 */
export async function memberRoleSettled(db: Database, payload: unknown) {
  const job = MemberRoleJobSchema.safeParse(payload);
  if (!job.success || !job.data.linkId) return;
  const link = await getLink(db, job.data.linkId);
  if (link?.state !== "filling" || (await fillWaiting(db, link.id))) return;
  await setLinkState(db, link.id, { state: "active", fillFinishedAt: new Date() });
}
