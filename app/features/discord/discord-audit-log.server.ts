/** The server's audit log as the moderation log reads it: Discord's entries, as acts. */
import { z } from "zod";
import type { ModerationKind } from "~/db/enums";
import type { ReadAct } from "~/db/moderation-acts.server";
import { DISCORD_EPOCH, SNOWFLAKE, type DiscordCall } from "./discord-api.server";

const AuditLogSchema = z.object({
  audit_log_entries: z.array(z.unknown()),
  users: z.array(z.object({ id: z.string(), username: z.string(), global_name: z.string().nullish() }).passthrough()).default([]),
});
const AuditEntrySchema = z.object({
  id: z.string().regex(/^\d{1,20}$/),
  user_id: z.string().nullish(),
  target_id: z.string().nullish(),
  action_type: z.number().int(),
  reason: z.string().max(2_000).nullish(),
  changes: z.array(z.object({ key: z.string(), new_value: z.unknown().optional(), old_value: z.unknown().optional() })).nullish(),
});
const RolesChangedSchema = z.array(z.object({ id: z.string(), name: z.string().optional() }));

/** An entry's acts: one per role given or taken, else one (or none, for what is not moderation). */
function actsOf(entry: z.infer<typeof AuditEntrySchema>, names: Map<string, string>): ReadAct[] {
  const at = new Date(Number((BigInt(entry.id) >> 22n) + DISCORD_EPOCH));
  const target = entry.target_id && SNOWFLAKE.test(entry.target_id) ? entry.target_id : null;
  const base = {
    place: "discord" as const,
    actorAccountId: entry.user_id ?? null,
    actorName: (entry.user_id && names.get(entry.user_id)) || entry.user_id || "Someone in Discord",
    targetVrchatId: null,
    targetDiscordId: target,
    targetName: target ? (names.get(target) ?? null) : null,
    roleId: null,
    roleName: null,
    reason: entry.reason ?? null,
    at,
  };
  const simple: Record<number, ModerationKind> = { 20: "kick", 22: "ban", 23: "unban" };
  const kind = simple[entry.action_type];
  if (kind) return [{ ...base, sourceId: entry.id, kind }];
  if (entry.action_type === 24) {
    const timeout = entry.changes?.find((change) => change.key === "communication_disabled_until");
    if (!timeout || typeof timeout.new_value !== "string") return [];
    return [{ ...base, sourceId: entry.id, kind: "timeout", reason: [entry.reason, `until ${timeout.new_value}`].filter(Boolean).join(" · ") }];
  }
  if (entry.action_type === 25) {
    return (entry.changes ?? []).flatMap((change) => {
      if (change.key !== "$add" && change.key !== "$remove") return [];
      const roles = RolesChangedSchema.safeParse(change.new_value);
      if (!roles.success) return [];
      return roles.data.map((role) => ({ ...base, sourceId: `${entry.id}:${role.id}`, kind: change.key === "$add" ? ("role_add" as const) : ("role_remove" as const), roleId: role.id, roleName: role.name ?? null }));
    });
  }
  return [];
}

/**
 * One page of the server's audit log, newest first (`GET /guilds/{id}/audit-logs`, 100 entries
 * `before` an entry id): bans, kicks, timeouts and role changes. Needs View Audit Log.
 */
export async function readAuditLog(call: DiscordCall, guildId: string, before: string | null) {
  const query = new URLSearchParams({ limit: "100", ...(before ? { before } : {}) });
  const answer = AuditLogSchema.parse(await call("GET", `/guilds/${guildId}/audit-logs?${query}`));
  const names = new Map(answer.users.map((user) => [user.id, user.global_name || user.username]));
  const acts: ReadAct[] = [];
  let unreadable = 0;
  let oldest: string | null = null;
  let newest: string | null = null;
  for (const raw of answer.audit_log_entries) {
    const entry = AuditEntrySchema.safeParse(raw);
    if (!entry.success) {
      unreadable += 1;
      continue;
    }
    const id = BigInt(entry.data.id);
    if (oldest === null || id < BigInt(oldest)) oldest = entry.data.id;
    if (newest === null || id > BigInt(newest)) newest = entry.data.id;
    acts.push(...actsOf(entry.data, names));
  }
  return { acts, oldest, newest, hasNext: answer.audit_log_entries.length >= 100, unreadable };
}
