/**
 * A person's file, as Dwell knows them: their applications (the group's and events') with each one's
 * history and screening, their attendance, join requests, bans and the staff's notes, gathered by the
 * keys the file holds (see people.server). Only reads. And the Sanctum's search for people.
 */
import { and, asc, desc, eq, ilike, inArray, isNotNull, isNull, or, sql, type SQL } from "drizzle-orm";
import { union } from "drizzle-orm/pg-core";
import type { Database } from "~/db/db.server";
import type { ApplicationStatus, Attendance, VRChatLinkWay } from "~/db/enums";
import { applicationAuditLog, applications, bans, eventApplications, events, joinRequests, screenings } from "~/db/schema";
import { keysOfFile, mergeHistory, notesOf, type MergeRecord, type PersonNote } from "./people.server";
import { formatPersonKey, personKeyOf, type PersonKey } from "~/utils/person-key";

type Reader = Pick<Database, "select">;

export interface FiledApplication {
  kind: "group" | "event";
  id: string;
  event: { id: string; title: string; date: string } | null;
  vrchatUsername: string;
  discordId: string;
  status: ApplicationStatus;
  spam: boolean;
  submittedAt: string;
  reviewedAt: string | null;
  attendance: Attendance | null;
  notes: string | null;
  vrchatUserId: string | null;
  vrchatDisplayName: string | null;
  vrchatLinkedHow: VRChatLinkWay | null;
  vrchatLinkedBy: string | null;
  discordUserId: string | null;
  discordDisplayName: string | null;
  screening: { ruleName: string | null; outcome: string | null; flag: string | null; state: string } | null;
  history: { actorName: string; field: string; fromValue: string | null; toValue: string | null; at: string }[];
}

export interface FiledJoinRequest {
  id: string;
  vrchatUserId: string;
  displayName: string;
  thumbnailUrl: string | null;
  requestedAt: string | null;
  goneAt: string | null;
  decision: string | null;
  decidedBy: string | null;
  decidedAt: string | null;
  screening: FiledApplication["screening"];
}

export interface FiledBan {
  id: string;
  vrchatUserId: string | null;
  discordUserId: string | null;
  displayName: string;
  reason: string | null;
  source: string;
  bannedBy: string | null;
  bannedAt: string;
  liftedAt: string | null;
  liftedBy: string | null;
}

export interface PersonFile {
  key: string;
  /** The name to call them by: the newest VRChat name Dwell saw, else a username they gave. */
  name: string;
  keys: PersonKey[];
  applications: FiledApplication[];
  joinRequests: FiledJoinRequest[];
  bans: FiledBan[];
  notes: PersonNote[];
  merges: MergeRecord[];
  attendance: { attended: number; noShows: number };
}

const iso = (value: Date | null) => value?.toISOString() ?? null;

/** The Discord accounts seen beside these VRChat accounts, on their applications and bans (one query). */
async function discordBeside(db: Reader, vrchatUserIds: string[]): Promise<string[]> {
  if (vrchatUserIds.length === 0) return [];
  const pick = (table: typeof applications | typeof eventApplications) =>
    db.select({ id: table.discordUserId }).from(table).where(and(inArray(table.vrchatUserId, vrchatUserIds), isNotNull(table.discordUserId)));
  const rows = await union(pick(applications), pick(eventApplications), db.select({ id: bans.discordUserId }).from(bans).where(and(inArray(bans.vrchatUserId, vrchatUserIds), isNotNull(bans.discordUserId))));
  return rows.flatMap((row) => (row.id ? [row.id] : []));
}

/** Whose items these are: by VRChat account; by Discord account where no VRChat account is linked; by the application itself where neither is. */
function whoseItems(table: typeof applications | typeof eventApplications, ids: { vrchat: string[]; discord: string[]; application: string[] }): SQL | undefined {
  return or(
    ids.vrchat.length ? inArray(table.vrchatUserId, ids.vrchat) : undefined,
    ids.discord.length ? and(isNull(table.vrchatUserId), inArray(table.discordUserId, ids.discord)) : undefined,
    ids.application.length ? and(isNull(table.vrchatUserId), isNull(table.discordUserId), inArray(table.id, ids.application)) : undefined,
  );
}

const applicationColumns = (table: typeof applications | typeof eventApplications) => ({
  id: table.id,
  vrchatUsername: table.vrchatUsername,
  discordId: table.discordId,
  status: table.status,
  spamAt: table.spamAt,
  submittedAt: table.submittedAt,
  reviewedAt: table.reviewedAt,
  vrchatUserId: table.vrchatUserId,
  vrchatDisplayName: table.vrchatDisplayName,
  vrchatLinkedHow: table.vrchatLinkedHow,
  vrchatLinkedBy: table.vrchatLinkedBy,
  discordUserId: table.discordUserId,
  discordDisplayName: table.discordDisplayName,
});

export async function readPersonFile(db: Reader, root: string, inForce?: Map<string, string>): Promise<PersonFile> {
  const keys = await keysOfFile(db, root, (vrchatUserIds) => discordBeside(db, vrchatUserIds), inForce);
  const ids = {
    vrchat: keys.filter((key) => key.kind === "vrchat").map((key) => key.id),
    discord: keys.filter((key) => key.kind === "discord").map((key) => key.id),
    application: keys.filter((key) => key.kind === "application").map((key) => key.id),
  };
  const groupWhere = whoseItems(applications, ids);
  const eventWhere = whoseItems(eventApplications, ids);
  const never = sql`false`;
  const [groupRows, eventRows, requestRows, banRows] = await Promise.all([
    db.select(applicationColumns(applications)).from(applications).where(groupWhere ?? never).orderBy(desc(applications.submittedAt)).limit(500),
    db
      .select({ ...applicationColumns(eventApplications), attendance: eventApplications.attendance, notes: eventApplications.notes, eventId: events.id, eventTitle: events.title, eventDate: events.eventDate })
      .from(eventApplications)
      .innerJoin(events, eq(events.id, eventApplications.eventId))
      .where(eventWhere ?? never)
      .orderBy(desc(events.eventDate), desc(eventApplications.submittedAt))
      .limit(1_000),
    ids.vrchat.length ? db.select().from(joinRequests).where(inArray(joinRequests.vrchatUserId, ids.vrchat)).orderBy(desc(joinRequests.lastSeenAt)) : Promise.resolve([]),
    db
      .select()
      .from(bans)
      .where(or(ids.vrchat.length ? inArray(bans.vrchatUserId, ids.vrchat) : undefined, ids.discord.length ? and(isNull(bans.vrchatUserId), inArray(bans.discordUserId, ids.discord)) : undefined) ?? never)
      .orderBy(desc(bans.bannedAt)),
  ]);
  const screenedIds = [...groupRows, ...eventRows, ...requestRows].map((row) => row.id);
  const keyTexts = keys.map(formatPersonKey);
  const [screeningRows, historyRows, notes, merges] = await Promise.all([
    screenedIds.length ? db.select().from(screenings).where(inArray(screenings.applicationId, screenedIds)) : Promise.resolve([]),
    screenedIds.length ? db.select().from(applicationAuditLog).where(inArray(applicationAuditLog.applicationId, screenedIds)).orderBy(asc(applicationAuditLog.createdAt)) : Promise.resolve([]),
    notesOf(db, keyTexts),
    mergeHistory(db, keyTexts),
  ]);
  const screeningOf = (kind: string, id: string) => {
    const row = screeningRows.find((screening) => screening.applicationKind === kind && screening.applicationId === id);
    return row ? { ruleName: row.ruleName, outcome: row.outcome, flag: row.flag, state: row.state } : null;
  };
  const historyOf = (id: string) =>
    historyRows.filter((entry) => entry.applicationId === id).map((entry) => ({ actorName: entry.actorName, field: entry.field, fromValue: entry.fromValue, toValue: entry.toValue, at: entry.createdAt.toISOString() }));
  const filed = (kind: "group" | "event", row: Omit<(typeof groupRows)[number], "discordId"> & { discordId: string | null }, extra: Pick<FiledApplication, "event" | "attendance" | "notes">): FiledApplication => ({
    kind,
    ...row,
    ...extra,
    discordId: row.discordId ?? "",
    spam: row.spamAt !== null,
    submittedAt: row.submittedAt.toISOString(),
    reviewedAt: iso(row.reviewedAt),
    screening: screeningOf(kind, row.id),
    history: historyOf(row.id),
  });
  const filedApplications = [
    ...groupRows.map((row) => filed("group", row, { event: null, attendance: null, notes: null })),
    ...eventRows.map(({ eventId, eventTitle, eventDate, attendance, notes, ...row }) => filed("event", row, { event: { id: eventId, title: eventTitle, date: eventDate }, attendance, notes })),
  ];
  const counted = filedApplications.filter((application) => !application.spam);
  const newestRequest = requestRows[0];
  const named = filedApplications.find((application) => application.vrchatDisplayName) ?? null;
  return {
    key: root,
    name: named?.vrchatDisplayName ?? newestRequest?.displayName ?? banRows[0]?.displayName ?? filedApplications[0]?.vrchatUsername ?? filedApplications[0]?.discordDisplayName ?? root,
    keys,
    applications: filedApplications,
    joinRequests: requestRows.map((row) => ({
      id: row.id,
      vrchatUserId: row.vrchatUserId,
      displayName: row.displayName,
      thumbnailUrl: row.thumbnailUrl,
      requestedAt: iso(row.requestedAt),
      goneAt: iso(row.goneAt),
      decision: row.decision,
      decidedBy: row.decidedBy,
      decidedAt: iso(row.decidedAt),
      screening: screeningOf("join_request", row.id),
    })),
    bans: banRows.map((row) => ({ ...row, bannedAt: row.bannedAt.toISOString(), liftedAt: iso(row.liftedAt) })),
    notes,
    merges,
    attendance: {
      attended: counted.filter((application) => application.attendance === "attended").length,
      noShows: counted.filter((application) => application.attendance === "no_show").length,
    },
  };
}

export interface FoundPerson {
  key: string;
  name: string;
  /** What else is known of them, in a few words. */
  detail: string;
}

const SEARCH_LIMIT = 25;
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (match) => `\\${match}`)}%`;

/**
 * Files matching a search among what Dwell knows: VRChat names and ids, Discord handles and ids, on
 * applications, join requests and bans (never an e-mail). One row per person's key, newest first;
 * a key that belongs to another file leads there when opened.
 */
export async function searchPeople(db: Reader, query: string): Promise<FoundPerson[]> {
  const text = containing(query.trim());
  const onApplications = (table: typeof applications | typeof eventApplications) =>
    db
      .select({ id: table.id, vrchatUserId: table.vrchatUserId, discordUserId: table.discordUserId, name: sql<string>`coalesce(${table.vrchatDisplayName}, nullif(${table.vrchatUsername}, ''), ${table.discordDisplayName}, ${table.discordId}, '')`, at: table.submittedAt })
      .from(table)
      .where(
        or(
          ilike(table.vrchatUsername, text),
          ilike(table.vrchatDisplayName, text),
          ilike(table.vrchatUserId, text),
          ilike(table.discordId, text),
          ilike(table.discordDisplayName, text),
          ilike(table.discordUserId, text),
        ),
      )
      .orderBy(desc(table.submittedAt))
      .limit(SEARCH_LIMIT);
  const [group, event, requests, banned] = await Promise.all([
    onApplications(applications),
    onApplications(eventApplications),
    db
      .select({ vrchatUserId: joinRequests.vrchatUserId, name: joinRequests.displayName, at: joinRequests.lastSeenAt })
      .from(joinRequests)
      .where(or(ilike(joinRequests.displayName, text), ilike(joinRequests.vrchatUserId, text)))
      .orderBy(desc(joinRequests.lastSeenAt))
      .limit(SEARCH_LIMIT),
    db
      .select({ vrchatUserId: bans.vrchatUserId, discordUserId: bans.discordUserId, name: bans.displayName, at: bans.bannedAt })
      .from(bans)
      .where(or(ilike(bans.displayName, text), ilike(bans.vrchatUserId, text), ilike(bans.discordUserId, text)))
      .orderBy(desc(bans.bannedAt))
      .limit(SEARCH_LIMIT),
  ]);
  const found = new Map<string, FoundPerson & { at: number; seen: Set<string> }>();
  const add = (key: string | null, name: string, what: string, at: Date) => {
    if (!key) return;
    const entry = found.get(key) ?? { key, name, detail: "", at: at.getTime(), seen: new Set<string>() };
    entry.seen.add(what);
    entry.at = Math.max(entry.at, at.getTime());
    found.set(key, entry);
  };
  for (const row of group) add(personKeyOf({ ...row, applicationId: row.id }), row.name, "group application", row.at);
  for (const row of event) add(personKeyOf({ ...row, applicationId: row.id }), row.name, "event application", row.at);
  for (const row of requests) add(personKeyOf(row), row.name, "join request", row.at);
  for (const row of banned) add(personKeyOf(row), row.name, "ban", row.at);
  return [...found.values()]
    .sort((a, b) => b.at - a.at)
    .slice(0, SEARCH_LIMIT)
    .map(({ key, name, seen }) => ({ key, name, detail: [...seen].join(", ") }));
}
