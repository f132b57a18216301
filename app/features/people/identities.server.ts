/**
 * Which VRChat and Discord accounts are known to be the same person: an application whose two links
 * are each proven by the person (a bio code, a Discord sign-in) or confirmed by a staff member. A name
 * or a handle alone never pairs two accounts. And which accounts are a staff member's own (their
 * Discord account on the Team page, and the VRChat account paired with it).
 */
import { and, eq, inArray, isNotNull, isNull, or, sql, type SQL } from "drizzle-orm";
import { union } from "drizzle-orm/pg-core";
import type { Database } from "~/db/db.server";
import { applications, bans, eventApplications, joinRequests, personPairs, profiles } from "~/db/schema";

type Reader = Pick<Database, "select" | "selectDistinct">;

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
  const staffWord = db
    .select({ vrchatUserId: sql<string | null>`${personPairs.vrchatUserId}`, discordUserId: sql<string | null>`${personPairs.discordUserId}` })
    .from(personPairs)
    .where(and(isNull(personPairs.withdrawnAt), or(vrchat.length ? inArray(personPairs.vrchatUserId, vrchat) : undefined, discord.length ? inArray(personPairs.discordUserId, discord) : undefined)));
  const rows = await union(pick(applications), pick(eventApplications), staffWord);
  return rows.flatMap((row) => (row.vrchatUserId && row.discordUserId ? [{ vrchatUserId: row.vrchatUserId, discordUserId: row.discordUserId }] : []));
}

/** Every confirmed pair (the role bridge's people). */
export async function allConfirmedPairs(db: Reader): Promise<{ vrchatUserId: string; discordUserId: string }[]> {
  const pick = (table: typeof applications | typeof eventApplications) =>
    db
      .select({ vrchatUserId: table.vrchatUserId, discordUserId: table.discordUserId })
      .from(table)
      .where(and(isNotNull(table.vrchatUserId), isNotNull(table.discordUserId), confirmed(table.vrchatLinkedHow), confirmed(table.discordLinkedHow)));
  const staffWord = db.select({ vrchatUserId: sql<string | null>`${personPairs.vrchatUserId}`, discordUserId: sql<string | null>`${personPairs.discordUserId}` }).from(personPairs).where(isNull(personPairs.withdrawnAt));
  const rows = await union(pick(applications), pick(eventApplications), staffWord);
  return rows.flatMap((row) => (row.vrchatUserId && row.discordUserId ? [{ vrchatUserId: row.vrchatUserId, discordUserId: row.discordUserId }] : []));
}

/**
 * How many accounts are proven (or confirmed) in one place only, with nothing pairing them to the
 * other: the role bridge leaves them alone.
 */
export async function provenOnOneSide(db: Reader): Promise<{ vrchatOnly: number; discordOnly: number }> {
  const side = (table: typeof applications | typeof eventApplications, place: "vrchat" | "discord") => {
    const [mine, theirs] = place === "vrchat" ? [table.vrchatLinkedHow, table.discordLinkedHow] : [table.discordLinkedHow, table.vrchatLinkedHow];
    const id = place === "vrchat" ? table.vrchatUserId : table.discordUserId;
    return db.selectDistinct({ id: sql<string>`${id}` }).from(table).where(and(isNotNull(id), confirmed(mine), sql`not coalesce(${confirmed(theirs)}, false)`));
  };
  const [vrchat, discord, pairs] = await Promise.all([union(side(applications, "vrchat"), side(eventApplications, "vrchat")), union(side(applications, "discord"), side(eventApplications, "discord")), allConfirmedPairs(db)]);
  const paired = { vrchat: new Set(pairs.map((pair) => pair.vrchatUserId)), discord: new Set(pairs.map((pair) => pair.discordUserId)) };
  return { vrchatOnly: vrchat.filter((row) => !paired.vrchat.has(row.id)).length, discordOnly: discord.filter((row) => !paired.discord.has(row.id)).length };
}

/** A staff member's word that two accounts are the same person (from the person's file). */
export async function confirmPair(db: Pick<Database, "insert" | "select">, pair: { vrchatUserId: string; discordUserId: string }, by: { id: string; name: string }): Promise<"confirmed" | "already"> {
  const inserted = await db
    .insert(personPairs)
    .values({ ...pair, confirmedBy: by.name, confirmedById: by.id })
    .onConflictDoNothing()
    .returning({ id: personPairs.id });
  return inserted.length > 0 ? "confirmed" : "already";
}

export async function withdrawPair(db: Pick<Database, "update">, pair: { vrchatUserId: string; discordUserId: string }, by: { name: string }) {
  await db
    .update(personPairs)
    .set({ withdrawnAt: new Date(), withdrawnBy: by.name })
    .where(and(eq(personPairs.vrchatUserId, pair.vrchatUserId), eq(personPairs.discordUserId, pair.discordUserId), isNull(personPairs.withdrawnAt)));
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

/** Whether a staff member's word pairs these two accounts now (it can be withdrawn; a proof cannot). */
export async function staffWordOn(db: Reader, pair: { vrchatUserId: string; discordUserId: string }): Promise<boolean> {
  const [row] = await db
    .select({ id: personPairs.id })
    .from(personPairs)
    .where(and(eq(personPairs.vrchatUserId, pair.vrchatUserId), eq(personPairs.discordUserId, pair.discordUserId), isNull(personPairs.withdrawnAt)));
  return row !== undefined;
}
