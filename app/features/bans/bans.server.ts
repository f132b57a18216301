/**
 * The group's one ban list: the bans Dwell read from VRChat's list and those made in Dwell, each with
 * who banned, when and why; an unban keeps its row (lifted), so the history still reads.
 */
import { and, desc, eq, gt, inArray, isNotNull, isNull, notInArray, or, sql } from "drizzle-orm";
import { isUniqueViolation, type Database } from "~/db/db.server";
import { dwellAct, recordActs } from "~/db/moderation-acts.server";
import { isConfirmedLink, type VRChatLinkWay } from "~/db/enums";
import { bans, type BanReach, type BanSource } from "~/db/schema";
import { bannedLine } from "./ban-texts";

type Executor = Pick<Database, "select" | "insert" | "update">;

export interface Ban {
  id: string;
  vrchatUserId: string | null;
  discordUserId: string | null;
  displayName: string;
  reason: string | null;
  source: BanSource;
  bannedBy: string | null;
  bannedAt: string;
  liftedAt: string | null;
  liftedBy: string | null;
  /** `site`: held on the site only (its accounts were matched by name, not confirmed): see the schema. */
  reach: BanReach;
}

const columns = {
  id: bans.id,
  vrchatUserId: bans.vrchatUserId,
  discordUserId: bans.discordUserId,
  displayName: bans.displayName,
  reason: bans.reason,
  source: bans.source,
  bannedBy: bans.bannedBy,
  bannedAt: bans.bannedAt,
  liftedAt: bans.liftedAt,
  liftedBy: bans.liftedBy,
  reach: bans.reach,
};
const banOf = (row: { bannedAt: Date; liftedAt: Date | null } & Omit<Ban, "bannedAt" | "liftedAt">): Ban => ({ ...row, bannedAt: row.bannedAt.toISOString(), liftedAt: row.liftedAt?.toISOString() ?? null });

/**
 * Someone a ban may hold against: their accounts, and how each is linked to them (absent: the
 * accounts themselves, as on the Bans page). A ban held on the site only was made against accounts
 * matched by name: it holds against the same kind of claim, never against an account proven by its
 * owner or confirmed by staff (it may be the innocent owner of the name).
 */
export interface BannedWho {
  vrchatUserId: string | null;
  discordUserId: string | null;
  vrchatLinkedHow?: VRChatLinkWay | null;
  discordLinkedHow?: VRChatLinkWay | null;
}

/** Whether a ban in force holds against this person (see BannedWho). */
function holdsAgainst(ban: Pick<Ban, "vrchatUserId" | "discordUserId" | "reach">, person: BannedWho) {
  const byVRChat = person.vrchatUserId !== null && ban.vrchatUserId === person.vrchatUserId && (ban.reach === "everywhere" || !isConfirmedLink(person.vrchatLinkedHow));
  const byDiscord = person.discordUserId !== null && ban.discordUserId === person.discordUserId && (ban.reach === "everywhere" || !isConfirmedLink(person.discordLinkedHow));
  return byVRChat || byDiscord;
}

/** The ban in force on a person (by their VRChat account, else their Discord account), if any. */
export async function banInForce(db: Pick<Database, "select">, person: BannedWho): Promise<Ban | null> {
  const found = await bansInForce(db, person.vrchatUserId ? [person.vrchatUserId] : [], person.discordUserId ? [person.discordUserId] : []);
  return found.filter((ban) => holdsAgainst(ban, person)).sort((a, b) => b.bannedAt.localeCompare(a.bannedAt))[0] ?? null;
}

/** The bans in force on any of these people, by VRChat id and Discord id (for a list of cards). */
export async function bansInForce(db: Pick<Database, "select">, vrchatUserIds: string[], discordUserIds: string[]): Promise<Ban[]> {
  const who = [...(vrchatUserIds.length ? [inArray(bans.vrchatUserId, vrchatUserIds)] : []), ...(discordUserIds.length ? [inArray(bans.discordUserId, discordUserIds)] : [])];
  if (who.length === 0) return [];
  return (await db.select(columns).from(bans).where(and(isNull(bans.liftedAt), or(...who))).orderBy(desc(bans.bannedAt))).map(banOf);
}

/** For a page of applications: each banned applicant's 'Banned on DATE by X: reason', by application id. */
export async function banLinesFor(
  db: Pick<Database, "select">,
  people: readonly (BannedWho & { id: string; vrchatLinkedHow: VRChatLinkWay | null; discordLinkedHow: VRChatLinkWay | null })[],
): Promise<Record<string, string>> {
  const found = await bansInForce(
    db,
    people.flatMap((person) => (person.vrchatUserId ? [person.vrchatUserId] : [])),
    people.flatMap((person) => (person.discordUserId ? [person.discordUserId] : [])),
  );
  const lines: Record<string, string> = {};
  for (const person of people) {
    const ban = found.find((one) => holdsAgainst(one, person));
    if (ban) lines[person.id] = bannedLine(ban);
  }
  return lines;
}

export type BanAdded = { kind: "banned"; ban: Ban } | { kind: "already"; ban: Ban };

/**
 * A new ban made in Dwell (in the caller's transaction); one in force already is answered as such,
 * unless it held on the site only and this one reaches everywhere: it is widened (and counts as new,
 * so that it is carried to VRChat and Discord).
 */
export async function addBan(
  tx: Executor,
  person: { vrchatUserId: string | null; discordUserId: string | null; displayName: string },
  reason: string | null,
  by: { id: string | null; name: string },
  now: Date,
  reach: BanReach = "everywhere",
): Promise<BanAdded> {
  const existing = (await bansInForce(tx, person.vrchatUserId ? [person.vrchatUserId] : [], person.discordUserId ? [person.discordUserId] : []))[0];
  if (existing && existing.reach === "site" && reach === "everywhere") {
    const [row] = await tx.update(bans).set({ reach, reason: reason ?? existing.reason, bannedBy: by.name, bannedById: by.id }).where(eq(bans.id, existing.id)).returning(columns);
    await recordActs(tx, [banAct(row!.id, "ban", by, person, reason, now)]);
    return { kind: "banned", ban: banOf(row!) };
  }
  if (existing) return { kind: "already", ban: existing };
  try {
    const [row] = await tx
      .insert(bans)
      .values({ ...person, reason, source: "dwell", bannedBy: by.name, bannedById: by.id, bannedAt: now, reach })
      .returning(columns);
    await recordActs(tx, [banAct(row!.id, "ban", by, person, reason, now)]);
    return { kind: "banned", ban: banOf(row!) };
  } catch (error) {
    // Banned by someone else at the same moment.
    if (!isUniqueViolation(error)) throw error;
    return { kind: "already", ban: (await bansInForce(tx, person.vrchatUserId ? [person.vrchatUserId] : [], person.discordUserId ? [person.discordUserId] : []))[0]! };
  }
}

/** A ban or unban made in Dwell, in the moderation history (a site-only ban included: it is Dwell's act). */
const banAct = (sourceId: string, kind: "ban" | "unban", by: { id: string | null; name: string }, person: { vrchatUserId: string | null; discordUserId: string | null; displayName: string }, reason: string | null, now: Date) =>
  dwellAct(sourceId, kind, by, { vrchatUserId: person.vrchatUserId, discordUserId: person.discordUserId, name: person.displayName }, now, { reason });

/** An unban: the ban stays in the list, lifted. Null when it is not in force (lifted already, or unknown). */
export async function liftBan(tx: Executor, id: string, by: { id: string | null; name: string }, now: Date): Promise<Ban | null> {
  const [row] = await tx
    .update(bans)
    .set({ liftedAt: now, liftedBy: by.name })
    .where(and(eq(bans.id, id), isNull(bans.liftedAt)))
    .returning(columns);
  if (row) await recordActs(tx, [banAct(`${row.id}:unban:${now.getTime()}`, "unban", by, row, null, now)]);
  return row ? banOf(row) : null;
}

/**
 * VRChat's list, kept in step: a ban found there that Dwell does not have is added (as VRChat's); one
 * of VRChat's that left its list is lifted there. Bans made in Dwell are Dwell's own: they stay in
 * force until unbanned in Dwell. `complete`: the list was read whole.
 */
export async function syncVRChatBans(db: Database, listed: readonly { userId: string; displayName: string; bannedAt: string | null }[], complete: boolean, now: Date) {
  return db.transaction(async (tx) => {
    const ids = [...new Set(listed.map((ban) => ban.userId))];
    const known = ids.length === 0 ? [] : await tx.select({ userId: bans.vrchatUserId }).from(bans).where(and(isNull(bans.liftedAt), inArray(bans.vrchatUserId, ids)));
    const have = new Set(known.map((row) => row.userId));
    const fresh = listed.filter((ban, i) => !have.has(ban.userId) && listed.findIndex((other) => other.userId === ban.userId) === i);
    if (fresh.length > 0) {
      await tx
        .insert(bans)
        .values(
          fresh.map((ban) => {
            const at = ban.bannedAt ? new Date(ban.bannedAt) : null;
            return { vrchatUserId: ban.userId, displayName: ban.displayName, source: "vrchat" as const, bannedBy: "VRChat", bannedAt: at && !Number.isNaN(at.getTime()) ? at : now };
          }),
        )
        .onConflictDoNothing();
    }
    let lifted = 0;
    if (complete) {
      const gone = await tx
        .update(bans)
        .set({ liftedAt: now, liftedBy: "VRChat (no longer on its ban list)" })
        .where(and(isNull(bans.liftedAt), eq(bans.source, "vrchat"), isNotNull(bans.vrchatUserId), ids.length > 0 ? notInArray(bans.vrchatUserId, ids) : sql`true`))
        .returning({ id: bans.id });
      lifted = gone.length;
    }
    return { added: fresh.length, lifted };
  });
}

/** How long a lifted ban stays in the list. */
const LIFTED_SHOWN_MS = 30 * 24 * 60 * 60 * 1000;

/** The bans in force (newest first), then those lifted in the last 30 days. */
export async function listBans(db: Pick<Database, "select">, now: Date, limit = 1_000): Promise<Ban[]> {
  const rows = await db
    .select(columns)
    .from(bans)
    .where(or(isNull(bans.liftedAt), gt(bans.liftedAt, new Date(now.getTime() - LIFTED_SHOWN_MS))))
    .orderBy(sql`${bans.liftedAt} is not null`, desc(bans.bannedAt))
    .limit(limit);
  return rows.map(banOf);
}
