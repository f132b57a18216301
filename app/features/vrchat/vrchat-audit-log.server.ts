/**
 * The group's audit log in VRChat (`GET /groups/{groupId}/auditLogs`: pages of `n` ≤ 100 from
 * `offset`, between `startDate` and `endDate`; a PaginatedGroupAuditLogEntryList with `results` and
 * `hasNext`), read for the moderation history: who banned, kicked, gave or took a role, and to whom.
 * The bot's role needs `group-audit-view`. An entry's `data` has no fixed shape in the API description,
 * so a role is found by its id's form wherever the entry carries it.
 */
import { z } from "zod";
import type { ReadAct } from "~/db/moderation-acts.server";
import type { ModerationKind } from "~/db/enums";
import { truncate } from "~/utils/text";
import { VRCHAT_USER_ID } from "~/utils/vrchat-profile-link";
import type { VRChatClient } from "./vrchat-client.server";

export const AUDIT_PAGE = 100;

/** The entry types that are moderation, and what each is. Every other type (a role's own settings, a post) is left out. */
const KINDS: Record<string, ModerationKind> = {
  "group.user.ban": "ban",
  "group.user.unban": "unban",
  "group.member.remove": "kick",
  "group.member.role.assign": "role_add",
  "group.member.role.unassign": "role_remove",
  "group.instance.kick": "instance_kick",
  "group.request.reject": "reject",
};

const EntrySchema = z.object({
  id: z.string().min(1).max(200),
  created_at: z.string(),
  eventType: z.string().max(200),
  actorId: z.string().max(200).nullish(),
  actorDisplayName: z.string().max(500).nullish(),
  targetId: z.string().max(500).nullish(),
  description: z.string().max(5_000).nullish(),
  data: z.unknown().optional(),
});
const PageSchema = z.object({ results: z.array(z.unknown()).default([]), hasNext: z.boolean().optional() });

/** A role's id or name, wherever an entry's data carries them (one level down at most). */
function roleIn(data: unknown): { id: string | null; name: string | null } {
  const found = { id: null as string | null, name: null as string | null };
  const look = (value: unknown, depth: number) => {
    if (!value || typeof value !== "object" || depth > 2) return;
    for (const [key, inner] of Object.entries(value)) {
      if (typeof inner === "string" && /^grol_[\w-]{1,100}$/.test(inner)) found.id ??= inner;
      if (typeof inner === "string" && /role.?name/i.test(key)) found.name ??= truncate(inner, 100);
      if (inner && typeof inner === "object") look(inner, depth + 1);
    }
  };
  look(data, 0);
  return found;
}

export interface AuditPage {
  acts: ReadAct[];
  /** Members who left the group by themselves (not moderation, but the role bridge follows them). */
  departures: { userId: string; at: Date }[];
  /** The oldest entry's time on the page (every entry's, moderation or not): where the next page goes on below. */
  oldest: string | null;
  newest: string | null;
  hasNext: boolean;
  /** Entries that could not be read (no id or no time): left out, counted. */
  unreadable: number;
}

export function createVRChatAuditLog({ client, groupId }: { client: VRChatClient; groupId: string }) {
  /** One page, newest first, between two times (inclusive, as VRChat takes them). */
  async function page(range: { startDate: string | null; endDate: string | null }, offset: number): Promise<AuditPage> {
    const answer = await client.get(`/groups/${groupId}/auditLogs`, PageSchema, {
      n: AUDIT_PAGE,
      offset,
      ...(range.startDate ? { startDate: range.startDate } : {}),
      ...(range.endDate ? { endDate: range.endDate } : {}),
    });
    const acts: ReadAct[] = [];
    const departures: AuditPage["departures"] = [];
    let unreadable = 0;
    let oldest: string | null = null;
    let newest: string | null = null;
    for (const raw of answer.results) {
      const parsed = EntrySchema.safeParse(raw);
      const at = parsed.success ? Date.parse(parsed.data.created_at) : Number.NaN;
      if (!parsed.success || Number.isNaN(at)) {
        unreadable += 1;
        continue;
      }
      const entry = parsed.data;
      const iso = new Date(at).toISOString();
      if (oldest === null || iso < oldest) oldest = iso;
      if (newest === null || iso > newest) newest = iso;
      if (entry.eventType === "group.member.leave" && entry.targetId && VRCHAT_USER_ID.test(entry.targetId)) departures.push({ userId: entry.targetId, at: new Date(at) });
      const kind = KINDS[entry.eventType];
      if (!kind) continue;
      const target = entry.targetId && VRCHAT_USER_ID.test(entry.targetId) ? entry.targetId : null;
      const role = kind === "role_add" || kind === "role_remove" ? roleIn(entry.data) : { id: null, name: null };
      acts.push({
        place: "vrchat",
        sourceId: entry.id,
        kind,
        actorAccountId: entry.actorId ?? null,
        actorName: entry.actorDisplayName || entry.actorId || "Someone in VRChat",
        targetVrchatId: target,
        targetDiscordId: null,
        targetName: null,
        roleId: role.id,
        roleName: role.name,
        reason: entry.description ? truncate(entry.description, 500) : null,
        at: new Date(at),
      });
    }
    return { acts, departures, oldest, newest, hasNext: answer.hasNext ?? answer.results.length >= AUDIT_PAGE, unreadable };
  }

  return { page, botUserId: () => client.botUserId() };
}

export type VRChatAuditLog = ReturnType<typeof createVRChatAuditLog>;
