/**
 * Which file a person's key opens, and the staff's hand on files: merging two into one, splitting them
 * again (both kept as history), and notes. A key's file: a merge in force sends it into another file;
 * else a Discord account seen beside a VRChat account is that account's file (the newest such); else
 * its own.
 */
import { and, desc, eq, inArray, isNotNull, isNull, or } from "drizzle-orm";
import { isUniqueViolation, type Database } from "~/db/db.server";
import { applications, bans, eventApplications, personMerges, personNotes } from "~/db/schema";
import { formatPersonKey, parsePersonKey, type PersonKey } from "~/utils/person-key";

type Reader = Pick<Database, "select">;

/** No chain of merges is longer (each merge joins two roots, so there is no loop to follow). */
const MAX_DEPTH = 50;

/** The merges in force: key → the key it was merged into. */
export async function mergesInForce(db: Reader): Promise<Map<string, string>> {
  const rows = await db.select({ personKey: personMerges.personKey, intoKey: personMerges.intoKey }).from(personMerges).where(isNull(personMerges.splitAt));
  return new Map(rows.map((row) => [row.personKey, row.intoKey]));
}

/** The VRChat account a Discord account was last seen beside (on an application or a ban), if any. */
async function vrchatBeside(db: Reader, discordUserIds: readonly string[]): Promise<Map<string, string>> {
  if (discordUserIds.length === 0) return new Map();
  const ids = [...discordUserIds];
  const pick = (table: typeof applications | typeof eventApplications) =>
    db
      .select({ discordUserId: table.discordUserId, vrchatUserId: table.vrchatUserId, at: table.submittedAt })
      .from(table)
      .where(and(inArray(table.discordUserId, ids), isNotNull(table.vrchatUserId), isNull(table.spamAt)));
  const [group, event, banned] = await Promise.all([
    pick(applications),
    pick(eventApplications),
    db.select({ discordUserId: bans.discordUserId, vrchatUserId: bans.vrchatUserId, at: bans.bannedAt }).from(bans).where(and(inArray(bans.discordUserId, ids), isNotNull(bans.vrchatUserId))),
  ]);
  const newest = new Map<string, { vrchatUserId: string; at: number }>();
  for (const row of [...group, ...event, ...banned]) {
    if (!row.discordUserId || !row.vrchatUserId) continue;
    const seen = newest.get(row.discordUserId);
    if (!seen || row.at.getTime() > seen.at) newest.set(row.discordUserId, { vrchatUserId: row.vrchatUserId, at: row.at.getTime() });
  }
  return new Map([...newest].map(([discord, found]) => [discord, found.vrchatUserId]));
}

/** An unlinked application's key, once it is linked: the account's. */
async function applicationNowLinked(db: Reader, id: string): Promise<string | null> {
  const pick = (table: typeof applications | typeof eventApplications) =>
    db.select({ vrchatUserId: table.vrchatUserId, discordUserId: table.discordUserId }).from(table).where(eq(table.id, id));
  const [row] = [...(await pick(applications)), ...(await pick(eventApplications))];
  if (row?.vrchatUserId) return formatPersonKey({ kind: "vrchat", id: row.vrchatUserId });
  if (row?.discordUserId) return formatPersonKey({ kind: "discord", id: row.discordUserId });
  return null;
}

/** The key whose file holds this one (itself when it is a file of its own). */
export async function resolvePersonKey(db: Reader, key: string, merges?: Map<string, string>): Promise<string> {
  const inForce = merges ?? (await mergesInForce(db));
  let current = key;
  if (!inForce.has(current)) {
    const parsed = parsePersonKey(current);
    if (parsed?.kind === "discord") {
      const vrchat = (await vrchatBeside(db, [parsed.id])).get(parsed.id);
      if (vrchat) current = formatPersonKey({ kind: "vrchat", id: vrchat });
    } else if (parsed?.kind === "application") {
      current = (await applicationNowLinked(db, parsed.id)) ?? current;
    }
  }
  for (let depth = 0; depth < MAX_DEPTH && inForce.has(current); depth += 1) current = inForce.get(current)!;
  return current;
}

/**
 * Every key a file holds: its own, those merged into it (and into those), and the Discord accounts
 * seen beside its VRChat accounts that no merge sends elsewhere.
 */
export async function keysOfFile(db: Reader, root: string, discordBeside: (vrchatUserIds: string[]) => Promise<string[]>, merges?: Map<string, string>): Promise<PersonKey[]> {
  merges ??= await mergesInForce(db);
  const children = new Map<string, string[]>();
  for (const [from, into] of merges) children.set(into, [...(children.get(into) ?? []), from]);
  const held = new Set<string>();
  const queue = [root];
  while (queue.length > 0 && held.size < 1_000) {
    const key = queue.shift()!;
    if (held.has(key)) continue;
    held.add(key);
    queue.push(...(children.get(key) ?? []));
  }
  const keys = [...held].flatMap((key) => parsePersonKey(key) ?? []);
  const vrchatIds = keys.filter((key) => key.kind === "vrchat").map((key) => key.id);
  const beside = (await discordBeside(vrchatIds)).filter((id) => !held.has(formatPersonKey({ kind: "discord", id })) && !merges.has(formatPersonKey({ kind: "discord", id })));
  if (beside.length === 0) return keys;
  // Each such Discord account belongs here only when the VRChat account it was last seen beside is here.
  const newest = await vrchatBeside(db, beside);
  return [...keys, ...beside.filter((id) => vrchatIds.includes(newest.get(id) ?? "")).map((id) => ({ kind: "discord" as const, id }))];
}

export type MergeOutcome = { kind: "merged" } | { kind: "same" } | { kind: "busy" };

/** Puts the file `from` into the file `into` (both resolved first), as `by`. */
export async function mergeFiles(db: Database, from: string, into: string, by: { id: string; name: string }, now: Date): Promise<MergeOutcome> {
  const merges = await mergesInForce(db);
  const [source, target] = await Promise.all([resolvePersonKey(db, from, merges), resolvePersonKey(db, into, merges)]);
  if (source === target) return { kind: "same" };
  try {
    await db.insert(personMerges).values({ personKey: source, intoKey: target, mergedBy: by.name, mergedById: by.id, mergedAt: now });
  } catch (error) {
    // Another merge of the same file was saved a moment ago.
    if (isUniqueViolation(error)) return { kind: "busy" };
    throw error;
  }
  return { kind: "merged" };
}

/** Takes a merged key out of the file it was put in: it is a file of its own again. Null when it was not merged. */
export async function splitFile(db: Database, key: string, by: { name: string }, now: Date): Promise<{ intoKey: string } | null> {
  const [row] = await db
    .update(personMerges)
    .set({ splitAt: now, splitBy: by.name })
    .where(and(eq(personMerges.personKey, key), isNull(personMerges.splitAt)))
    .returning({ intoKey: personMerges.intoKey });
  return row ?? null;
}

export interface MergeRecord {
  id: string;
  personKey: string;
  intoKey: string;
  mergedBy: string;
  mergedAt: string;
  splitAt: string | null;
  splitBy: string | null;
}

/** The merges (in force and split) that touched these keys, newest first. */
export async function mergeHistory(db: Reader, keys: readonly string[]): Promise<MergeRecord[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .select()
    .from(personMerges)
    .where(or(inArray(personMerges.personKey, [...keys]), inArray(personMerges.intoKey, [...keys])))
    .orderBy(desc(personMerges.mergedAt))
    .limit(200);
  return rows.map((row) => ({
    id: row.id,
    personKey: row.personKey,
    intoKey: row.intoKey,
    mergedBy: row.mergedBy,
    mergedAt: row.mergedAt.toISOString(),
    splitAt: row.splitAt?.toISOString() ?? null,
    splitBy: row.splitBy,
  }));
}

export interface PersonNote {
  id: string;
  body: string;
  authorName: string;
  createdAt: string;
}

export async function addNote(db: Database, key: string, body: string, author: { id: string; name: string }, now: Date) {
  await db.insert(personNotes).values({ personKey: key, body, authorId: author.id, authorName: author.name, createdAt: now });
}

export async function notesOf(db: Reader, keys: readonly string[]): Promise<PersonNote[]> {
  if (keys.length === 0) return [];
  const rows = await db.select().from(personNotes).where(inArray(personNotes.personKey, [...keys])).orderBy(desc(personNotes.createdAt)).limit(500);
  return rows.map((row) => ({ id: row.id, body: row.body, authorName: row.authorName, createdAt: row.createdAt.toISOString() }));
}
