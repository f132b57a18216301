/**
 * Which VRChat and Discord accounts are known to be the same person: an application whose two links
 * are each proven by the person (a bio code, a Discord sign-in) or confirmed by a staff member. A name
 * or a handle alone never pairs two accounts. And which accounts are a staff member's own (their
 * Discord account on the Team page, and the VRChat account paired with it).
 */
import { and, eq, inArray, isNotNull, or, sql, type SQL } from "drizzle-orm";
import { union } from "drizzle-orm/pg-core";
import type { Database } from "~/db/db.server";
import { applications, bans, eventApplications, joinRequests, profiles } from "~/db/schema";

type Reader = Pick<Database, "select">;

const confirmed = (column: typeof applications.vrchatLinkedHow | typeof applications.discordLinkedHow | typeof eventApplications.vrchatLinkedHow | typeof eventApplications.discordLinkedHow) =>
  inArray(column, ["proven", "staff"]);

/** Confirmed pairs (VRChat id, Discord id) among the accounts given. */
export async function confirmedPairs(db: Reader, accounts: { vrchat?: readonly string[]; discord?: readonly string[] }): Promise<{ vrchatUserId: string; discordUserId: string }[]> {
  const vrchat = [...new Set(accounts.vrchat ?? [])];
  const discord = [...new Set(accounts.discord ?? [])];
  if (vrchat.length === 0 && discord.length === 0) return [];
  const pick = (table: typeof applications | typeof eventApplications) => {
    const which: SQL | undefined = or(vrchat.length ? inArray(table.vrchatUserId, vrchat) : undefined, discord.length ? inArray(table.discordUserId, discord) : undefined);
    return db
      .select({ vrchatUserId: table.vrchatUserId, discordUserId: table.discordUserId })
      .from(table)
      .where(and(which, isNotNull(table.vrchatUserId), isNotNull(table.discordUserId), confirmed(table.vrchatLinkedHow), confirmed(table.discordLinkedHow)));
  };
  const rows = await union(pick(applications), pick(eventApplications));
  return rows.flatMap((row) => (row.vrchatUserId && row.discordUserId ? [{ vrchatUserId: row.vrchatUserId, discordUserId: row.discordUserId }] : []));
}

/** The staff accounts these accounts belong to: by the Team page's Discord account, and a VRChat account confirmed as the same person. */
export async function staffOwning(db: Reader, accounts: { vrchat: readonly string[]; discord: readonly string[] }): Promise<Map<string, { id: string; name: string }>> {
  const pairs = await confirmedPairs(db, { vrchat: accounts.vrchat });
  const discordIds = [...new Set([...accounts.discord, ...pairs.map((pair) => pair.discordUserId)])];
  const owners = new Map<string, { id: string; name: string }>();
  if (discordIds.length === 0) return owners;
  const staff = await db.select({ id: profiles.id, name: profiles.username, discordUserId: profiles.discordUserId }).from(profiles).where(and(inArray(profiles.discordUserId, discordIds), isNotNull(profiles.discordUserId)));
  const byDiscord = new Map(staff.map((row) => [row.discordUserId!, { id: row.id, name: row.name }]));
  for (const id of accounts.discord) if (byDiscord.has(id)) owners.set(id, byDiscord.get(id)!);
  for (const pair of pairs) if (byDiscord.has(pair.discordUserId) && accounts.vrchat.includes(pair.vrchatUserId)) owners.set(pair.vrchatUserId, byDiscord.get(pair.discordUserId)!);
  return owners;
}

/** A staff account's name and Discord account (for a trip's alert). */
export async function staffAccount(db: Reader, profileId: string) {
  const [row] = await db.select({ id: profiles.id, name: profiles.username, role: profiles.role, discordUserId: profiles.discordUserId }).from(profiles).where(eq(profiles.id, profileId));
  return row ?? null;
}

/** The names Dwell knows for VRChat accounts (their join requests, bans, applications), to show beside acts read by id. */
export async function knownVRChatNames(db: Reader, ids: readonly string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids)];
  const names = new Map<string, string>();
  if (wanted.length === 0) return names;
  const rows = await union(
    db.select({ id: joinRequests.vrchatUserId, name: joinRequests.displayName }).from(joinRequests).where(inArray(joinRequests.vrchatUserId, wanted)),
    db.select({ id: sql<string>`${bans.vrchatUserId}`, name: bans.displayName }).from(bans).where(inArray(bans.vrchatUserId, wanted)),
    db.select({ id: sql<string>`${applications.vrchatUserId}`, name: sql<string>`coalesce(${applications.vrchatDisplayName}, ${applications.vrchatUsername})` }).from(applications).where(inArray(applications.vrchatUserId, wanted)),
  );
  for (const row of rows) if (row.id && row.name && !names.has(row.id)) names.set(row.id, row.name);
  return names;
}
