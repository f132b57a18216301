/**
 * The bot's outbox jobs: what a decision queues for Discord (the member role, the direct message),
 * a ban, and how Discord's answer to a job is judged (delivered, to retry, or failed for good).
 */
import { z } from "zod";
import type { Database } from "~/db/db.server";
import { outbox } from "~/db/schema";
import { truncate } from "~/utils/text";
import { DiscordError, SNOWFLAKE } from "./discord-api.server";

export type JobTarget = "discord_role" | "discord_dm" | "discord_review" | "discord_ban" | "staff_alert" | "member_role";

export type ActionOutcome =
  | { kind: "delivered"; result: string }
  | { kind: "retry"; error: string; retryAfterMs?: number; slowDown?: boolean }
  | { kind: "failed"; error: string };

/** Discord's refusals are shown as they are; waits and outages are retried by the outbox. */
export function outcomeOf(error: unknown, target: JobTarget): ActionOutcome {
  if (!(error instanceof DiscordError)) {
    return { kind: "failed", error: error instanceof z.ZodError ? "Discord answered in an unexpected shape" : String(error) };
  }
  if (error.status === 429) return { kind: "retry", error: "Discord asked us to slow down", retryAfterMs: error.retryAfterMs ?? undefined, slowDown: true };
  if (error.status === null || error.status >= 500) return { kind: "retry", error: error.message };
  if (error.code === 50007) return { kind: "failed", error: "Discord refused the direct message: they do not accept messages from this server's members" };
  if (error.code === 50013 || error.status === 403) {
    const what =
      target === "discord_role"
        ? "grant the role (its role must be above the member role, with Manage Roles)"
        : target === "member_role"
          ? "give or take the role (Manage Roles, and its own role above the role)"
        : target === "discord_ban"
          ? "ban members (Ban Members, and its role above theirs)"
        : target === "discord_review"
          ? "post in the review channel (View Channel and Send Messages there)"
          : "send the message";
    return { kind: "failed", error: `The bot has no permission to ${what}` };
  }
  if (error.status === 401) return { kind: "failed", error: "Discord refused the bot's token (DISCORD_BOT_TOKEN)" };
  if (error.status === 404) {
    const what = target === "discord_role" || target === "member_role" ? "this member or the role" : target === "discord_review" ? "the review channel or its message" : "this user";
    return { kind: "failed", error: `Discord does not know ${what} (${error.message})` };
  }
  return { kind: "failed", error: `Discord answered ${error.status}: ${error.message}` };
}

const actor = z.object({ id: z.string(), name: z.string() });
export const RoleJobSchema = z.object({ applicationKind: z.enum(["group", "event"]), applicationId: z.uuid(), userId: z.string().regex(SNOWFLAKE), actor });
/** A ban or unban in the server (`banId`: the row in `bans`). */
export const BanJobSchema = z.object({ action: z.enum(["ban", "unban"]), banId: z.uuid(), userId: z.string().regex(SNOWFLAKE), reason: z.string().max(2000).nullable(), actor });
export type BanJob = z.infer<typeof BanJobSchema>;
export const MessageJobSchema = RoleJobSchema.extend({
  content: z.string().min(1).max(2000),
  nonce: z.string().max(25),
  /** It carries a private status link: its text is not kept once sent (only the link's hash is). */
  private: z.boolean().optional(),
});

/** What stays of a private message once it is sent or given up: who and why, not the link. */
export const PRIVATE_MESSAGE_KEPT = "(A message with a private status link: its text is not kept.)";
export type RoleJob = z.infer<typeof RoleJobSchema>;
export type MessageJob = z.infer<typeof MessageJobSchema>;

/** The approval's own DM of an application: Discord makes a message once per nonce (a reminder or a join link has its own). */
export const approvalNonce = (applicationId: string) => applicationId.replaceAll("-", "").slice(0, 25);

/** Queues a decision's Discord actions in its transaction: the role (group approvals) and the message. */
export async function queueDiscordActions(
  tx: Pick<Database, "insert">,
  job: RoleJob,
  actions: {
    grantRole: boolean;
    message: string | null;
    /** Another message to the same person (a reminder) needs its own. */
    nonce?: string;
    /** The message carries a private link: its text is dropped from the job once it is sent. */
    private?: boolean;
  },
  at: Date,
) {
  const rows = [
    ...(actions.grantRole ? [{ target: "discord_role", payload: job }] : []),
    ...(actions.message
      ? [{ target: "discord_dm", payload: { ...job, content: truncate(actions.message, 2000), nonce: (actions.nonce ?? approvalNonce(job.applicationId)).slice(0, 25), ...(actions.private ? { private: true } : {}) } }]
      : []),
  ];
  if (rows.length > 0) await tx.insert(outbox).values(rows.map((row) => ({ ...row, sourceId: job.applicationId, nextAttemptAt: at })));
}
