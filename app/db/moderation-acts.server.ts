/**
 * What Dwell itself did as a moderator (a decision on someone's request to join, a ban, an unban, a
 * role it gave or took), written into the moderation history in the transaction that did it, so the
 * history never says more or less than happened. Acts read from VRChat's and Discord's audit logs go
 * in beside them (flows/moderation-log.server).
 */
import { sql } from "drizzle-orm";
import type { Database } from "./db.server";
import type { ModerationKind, ModerationPlace } from "./enums";
import { moderationActs } from "./schema";

export interface NewAct {
  place: ModerationPlace;
  sourceId: string;
  kind: ModerationKind;
  actorKey: string;
  actorAccountId: string | null;
  actorName: string;
  targetVrchatId?: string | null;
  targetDiscordId?: string | null;
  targetName?: string | null;
  roleId?: string | null;
  roleName?: string | null;
  reason?: string | null;
  at: Date;
}

/** An act as read from VRChat's or Discord's audit log: who the moderator is, Dwell works out. */
export type ReadAct = Omit<NewAct, "actorKey">;

/** A staff account, as the tripwire counts moderators. */
export const staffKey = (profileId: string) => `staff:${profileId}`;
/** Dwell's own hand (a screening rule, a sync): never a moderator of its own. */
export const DWELL_HAND_KEY = "dwell:rules";

/** One of Dwell's own acts, made by a staff member (`by.id`) or by Dwell's own rules (no id). */
export function dwellAct(
  sourceId: string,
  kind: ModerationKind,
  by: { id: string | null; name: string },
  target: { vrchatUserId?: string | null; discordUserId?: string | null; name?: string | null },
  at: Date,
  extra: { reason?: string | null; roleId?: string | null; roleName?: string | null } = {},
): NewAct {
  return {
    place: "dwell",
    sourceId,
    kind,
    actorKey: by.id ? staffKey(by.id) : DWELL_HAND_KEY,
    actorAccountId: by.id,
    actorName: by.name,
    targetVrchatId: target.vrchatUserId ?? null,
    targetDiscordId: target.discordUserId ?? null,
    targetName: target.name ?? null,
    at,
    ...extra,
  };
}

/** Adds acts; one already held (the same place and id) is left as it is. The acts added. */
export async function recordActs(tx: Pick<Database, "insert">, acts: readonly NewAct[]) {
  if (acts.length === 0) return [];
  return tx
    .insert(moderationActs)
    .values(acts.map((act) => ({ ...act, reason: act.reason ? act.reason.slice(0, 2_000) : null })))
    .onConflictDoNothing({ target: [moderationActs.place, moderationActs.sourceId] })
    .returning({ id: moderationActs.id, kind: moderationActs.kind, actorKey: moderationActs.actorKey, at: moderationActs.at });
}

/** Forgets acts older than the owner's retention. */
export async function forgetActsBefore(db: Pick<Database, "delete">, before: Date) {
  await db.delete(moderationActs).where(sql`${moderationActs.at} < ${before.toISOString()}`);
}
