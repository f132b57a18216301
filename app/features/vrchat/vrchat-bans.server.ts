/**
 * The group's bans in VRChat: the list as VRChat has it (`GET /groups/{groupId}/bans`, read on a
 * schedule), and a ban or unban (`POST /groups/{groupId}/bans`, `DELETE /groups/{groupId}/bans/{userId}`)
 * as an outbox job, paced with every other action the bot takes. The bot's role needs `group-bans-manage`.
 */
import { z } from "zod";
import { VRCHAT_USER_ID } from "~/utils/vrchat-profile-link";
import { actionOutcomeOf, vrchatReason, type ActionOutcome, type Pacer } from "./vrchat-actions.server";
import type { VRChatClient } from "./vrchat-client.server";
import { VRChatError } from "./vrchat-error";
import { JoinRequestsSchema as GroupMemberListSchema, type ListRead } from "./vrchat-people";

const PAGE = 100;

/** A ban or unban in VRChat, as its outbox job carries it (`banId`: the row in `bans`). */
export const BanJobSchema = z.object({
  action: z.enum(["ban", "unban"]),
  banId: z.uuid(),
  userId: z.string().regex(VRCHAT_USER_ID),
  actor: z.object({ id: z.string(), name: z.string() }),
});
export type BanJob = z.infer<typeof BanJobSchema>;

export function createVRChatBans(options: { client: VRChatClient; groupId: string; paced: Pacer; timeoutMs: number; actionSpacingMs: number; forget: (userId: string) => void }) {
  const { client, groupId, paced, timeoutMs, actionSpacingMs } = options;

  /** The bans as VRChat lists them now: pages of 100, up to `maxPages`. */
  async function list(maxPages = 10): Promise<ListRead<{ userId: string; displayName: string; bannedAt: string | null }>> {
    const found = [];
    const unreadable: unknown[] = [];
    for (let page = 0; page < maxPages; page += 1) {
      const entries = await client.get(`/groups/${groupId}/bans`, GroupMemberListSchema, { n: PAGE, offset: page * PAGE });
      for (const entry of entries) {
        if (!entry || !VRCHAT_USER_ID.test(entry.userId)) {
          unreadable.push(entry?.userId ?? entry);
          continue;
        }
        found.push({ userId: entry.userId, displayName: entry.user?.displayName ?? entry.userId, bannedAt: entry.bannedAt ?? null });
      }
      if (entries.length < PAGE) break;
    }
    return { entries: found, unreadable };
  }

  /** Done already counts as done: a ban of someone banned, an unban of someone who is not. */
  async function act(job: BanJob): Promise<string> {
    options.forget(job.userId);
    try {
      if (job.action === "ban") {
        await paced(() => client.send("POST", `/groups/${groupId}/bans`, { userId: job.userId }));
        return "Banned in VRChat";
      }
      await paced(() => client.send("DELETE", `/groups/${groupId}/bans/${encodeURIComponent(job.userId)}`, undefined));
      return "Unbanned in VRChat";
    } catch (error) {
      if (!(error instanceof VRChatError) || error.status !== 400) throw error;
      const reason = vrchatReason(error);
      if (job.action === "ban" && /already banned/i.test(reason)) return "Already banned in VRChat: nothing to do";
      if (job.action === "unban" && /not banned/i.test(reason)) return "Not banned in VRChat: nothing to do";
      throw error;
    }
  }

  return {
    list,
    channel: {
      target: "vrchat_ban" as const,
      maxDeliveryMs: 2 * timeoutMs + actionSpacingMs,
      async deliver(payload: unknown): Promise<ActionOutcome> {
        const parsed = BanJobSchema.safeParse(payload);
        if (!parsed.success) return { kind: "failed", error: "The job could not be read" };
        try {
          return { kind: "delivered", result: await act(parsed.data) };
        } catch (error) {
          return actionOutcomeOf(error, (reason) => `VRChat refused the bot account (${reason}): its role needs group-bans-manage`);
        }
      },
    },
  };
}
