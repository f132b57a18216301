/**
 * The role bridge's records: the links (a VRChat role ⇄ a Discord role, one way or both), who holds a
 * linked role in each place as Dwell last knew it, and what a link would change for the people known
 * to be the same person in both places.
 */
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/db.server";
import { ROLE_LINK_DIRECTIONS, type RoleLinkDirection } from "~/db/enums";
import { outbox, roleHoldings, roleLinks } from "~/db/schema";

type Reader = Pick<Database, "select">;
export type RoleLink = typeof roleLinks.$inferSelect;
export type Place = "vrchat" | "discord";

export const RoleLinkInputSchema = z.object({
  vrchatRoleId: z.string().trim().min(1).max(200),
  discordRoleId: z.string().trim().regex(/^\d{17,20}$/),
  direction: z.enum(ROLE_LINK_DIRECTIONS),
});
export type RoleLinkInput = z.infer<typeof RoleLinkInputSchema>;

export async function listLinks(db: Reader): Promise<RoleLink[]> {
  return db.select().from(roleLinks).where(isNull(roleLinks.removedAt)).orderBy(roleLinks.createdAt);
}

export async function getLink(db: Reader, id: string): Promise<RoleLink | null> {
  if (!z.uuid().safeParse(id).success) return null;
  const [row] = await db.select().from(roleLinks).where(eq(roleLinks.id, id));
  return row ?? null;
}

/** A new link, waiting for its holders to be read. One of its roles in another link already: a unique violation (see isUniqueViolation). */
export async function insertLink(db: Pick<Database, "insert">, link: RoleLinkInput & { vrchatRoleName: string; discordRoleName: string }, by: string): Promise<RoleLink> {
  const [row] = await db.insert(roleLinks).values({ ...link, createdBy: by }).returning();
  return row!;
}

export async function setLinkState(db: Pick<Database, "update">, id: string, values: Partial<Pick<RoleLink, "state" | "readError" | "fillTotal" | "fillStartedAt" | "fillFinishedAt">>) {
  await db.update(roleLinks).set(values).where(eq(roleLinks.id, id));
}

/** Removes a link: nothing more is given or taken for it (the changes not yet sent are dropped). */
export async function removeLink(db: Database, id: string, by: string): Promise<RoleLink | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx.update(roleLinks).set({ state: "removed", removedAt: new Date(), removedBy: by }).where(and(eq(roleLinks.id, id), isNull(roleLinks.removedAt))).returning();
    if (!row) return null;
    await tx.delete(outbox).where(and(eq(outbox.sourceId, id), eq(outbox.status, "pending")));
    return row;
  });
}

/** Replaces who holds a role in a place, as read whole. */
export async function replaceHolders(db: Database, place: Place, roleId: string, accountIds: readonly string[], now: Date) {
  await db.transaction(async (tx) => {
    await tx.delete(roleHoldings).where(and(eq(roleHoldings.place, place), eq(roleHoldings.roleId, roleId)));
    const unique = [...new Set(accountIds)];
    for (let i = 0; i < unique.length; i += 1_000) {
      await tx.insert(roleHoldings).values(unique.slice(i, i + 1_000).map((accountId) => ({ place, roleId, accountId, seenAt: now })));
    }
  });
}

/** One holder more or less (an audit log's role change, or Dwell's own). */
export async function setHolding(db: Pick<Database, "insert" | "delete">, place: Place, roleId: string, accountId: string, holds: boolean, now: Date) {
  if (holds) {
    await db.insert(roleHoldings).values({ place, roleId, accountId, seenAt: now }).onConflictDoUpdate({ target: [roleHoldings.place, roleHoldings.roleId, roleHoldings.accountId], set: { seenAt: now } });
  } else {
    await db.delete(roleHoldings).where(and(eq(roleHoldings.place, place), eq(roleHoldings.roleId, roleId), eq(roleHoldings.accountId, accountId)));
  }
}

/** Drops every linked role an account holds in a place (they left or were removed). */
export async function dropHoldings(db: Pick<Database, "delete">, place: Place, accountId: string) {
  await db.delete(roleHoldings).where(and(eq(roleHoldings.place, place), eq(roleHoldings.accountId, accountId)));
}

/** Whether one account holds a linked role, as Dwell knows it (one row by its key). */
export async function holdsRole(db: Reader, place: Place, roleId: string, accountId: string): Promise<boolean> {
  const [row] = await db
    .select({ accountId: roleHoldings.accountId })
    .from(roleHoldings)
    .where(and(eq(roleHoldings.place, place), eq(roleHoldings.roleId, roleId), eq(roleHoldings.accountId, accountId)));
  return row !== undefined;
}

/** Whether a link's fill still has changes waiting to be sent. */
export async function fillWaiting(db: Reader, linkId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(eq(outbox.sourceId, linkId), eq(outbox.target, "member_role"), eq(outbox.status, "pending")))
    .limit(1);
  return row !== undefined;
}

export async function holdersOf(db: Reader, place: Place, roleId: string): Promise<Set<string>> {
  const rows = await db.select({ accountId: roleHoldings.accountId }).from(roleHoldings).where(and(eq(roleHoldings.place, place), eq(roleHoldings.roleId, roleId)));
  return new Set(rows.map((row) => row.accountId));
}

export interface Pair {
  vrchatUserId: string;
  discordUserId: string;
}

export interface FillPlan {
  /** Gains and losses in each place, each a pair. */
  vrchat: { gain: Pair[]; lose: Pair[] };
  discord: { gain: Pair[]; lose: Pair[] };
}

/**
 * What a link changes for the people known in both places: one way, the other side follows the
 * source (gains and losses); both ways, a role held on either side is given on the other (a first
 * fill takes nothing away: which side is right cannot be known).
 */
export function planFill(direction: RoleLinkDirection, pairs: readonly Pair[], vrchat: Set<string>, discord: Set<string>): FillPlan {
  const plan: FillPlan = { vrchat: { gain: [], lose: [] }, discord: { gain: [], lose: [] } };
  for (const pair of pairs) {
    const inVRChat = vrchat.has(pair.vrchatUserId);
    const inDiscord = discord.has(pair.discordUserId);
    if (inVRChat === inDiscord) continue;
    if (direction !== "to_vrchat" && inVRChat) plan.discord.gain.push(pair);
    if (direction === "to_discord" && !inVRChat) plan.discord.lose.push(pair);
    if (direction !== "to_discord" && inDiscord) plan.vrchat.gain.push(pair);
    if (direction === "to_vrchat" && !inDiscord) plan.vrchat.lose.push(pair);
  }
  return plan;
}

/** A fill's progress: its changes sent, failed, and still to send. */
export async function fillProgress(db: Reader, linkIds: readonly string[]): Promise<Map<string, { sent: number; failed: number; waiting: number; lastError: string | null }>> {
  const progress = new Map<string, { sent: number; failed: number; waiting: number; lastError: string | null }>();
  if (linkIds.length === 0) return progress;
  const rows = await db
    .select({ linkId: outbox.sourceId, status: outbox.status, count: sql<number>`count(*)::int`, lastError: sql<string | null>`max(${outbox.lastError})` })
    .from(outbox)
    .where(and(eq(outbox.target, "member_role"), inArray(outbox.sourceId, [...linkIds])))
    .groupBy(outbox.sourceId, outbox.status);
  for (const row of rows) {
    const entry = progress.get(row.linkId!) ?? { sent: 0, failed: 0, waiting: 0, lastError: null };
    if (row.status === "delivered") entry.sent += row.count;
    else if (row.status === "failed") {
      entry.failed += row.count;
      entry.lastError = row.lastError;
    } else entry.waiting += row.count;
    progress.set(row.linkId!, entry);
  }
  return progress;
}
