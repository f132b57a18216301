/**
 * Each application's screening, as a small queue in the database: queued when it arrives (or its
 * account is linked later), claimed by one worker at a time, `waiting` while VRChat cannot be read,
 * and `done` with what the rules made of it.
 */
import { and, desc, eq, inArray, isNotNull, isNull, lte, ne, or, sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import type { ApplicationKind, ApplicationStatus, VRChatLinkWay } from "~/db/enums";
import { applications, eventApplications, screeningRules, screenings, vrchatAccountFacts, type ScreenedKind, type ScreeningScope } from "~/db/schema";
import { valuesByText, type AnswerValue } from "~/utils/form-questions";
import type { Facts } from "./screening-rules";
import type { TrialSubject } from "./screening-trial";

type Executor = Pick<Database, "select" | "insert" | "update" | "execute">;

/** How long a worker holds a claimed screening before another may take it (a crashed one lets go). */
const CLAIM_MS = 2 * 60 * 1000;

/**
 * Queues a screening (in the caller's transaction) when some rule could apply, or when it has a VRChat
 * account (`vrchatUserId`) whose facts were never read: those are read once as it arrives, so staff
 * and 'Try these rules' have them before any rule asks. A new screening replaces what an earlier one found.
 * One statement, decided in the database: it is on the path of every application sent.
 */
export async function queueScreening(tx: Executor, application: { kind: ScreenedKind; id: string; vrchatUserId?: string | null }, now: Date): Promise<boolean> {
  const scopes: ScreeningScope[] = application.kind === "event" ? ["events", "event"] : ["group"];
  const ruleMayApply = sql`exists (select 1 from ${screeningRules} where ${inArray(screeningRules.scope, scopes)})`;
  const neverRead = application.vrchatUserId
    ? sql`not exists (select 1 from ${vrchatAccountFacts} where ${eq(vrchatAccountFacts.vrchatUserId, application.vrchatUserId)})`
    : sql`false`;
  const at = now.toISOString();
  const result = (await tx.execute(sql`
    insert into ${screenings} (application_kind, application_id, state, next_attempt_at, attempts, locked_until, rule_name, outcome, flag)
    select ${application.kind}, ${application.id}::uuid, 'queued', ${at}::timestamptz, 0, null, null, null, null
    where ${ruleMayApply} or ${neverRead}
    on conflict (application_kind, application_id) do update set state = 'queued', next_attempt_at = ${at}::timestamptz, attempts = 0,
      locked_until = null, rule_name = null, outcome = null, flag = null, updated_at = now()
    returning 1 as queued
  `)) as unknown as { rows: unknown[] };
  return result.rows.length > 0;
}

export interface Claimed {
  kind: ScreenedKind;
  id: string;
  attempts: number;
}

/**
 * Up to `limit` screenings due now, claimed for this worker: applications made on the site first
 * (their applicants wait on the status page), then join requests, each oldest first.
 */
export async function claimDueScreenings(db: Database, now: Date, limit: number): Promise<Claimed[]> {
  const due = db
    .select({ kind: screenings.applicationKind, id: screenings.applicationId })
    .from(screenings)
    .where(and(ne(screenings.state, "done"), lte(screenings.nextAttemptAt, now), or(isNull(screenings.lockedUntil), lte(screenings.lockedUntil, now))))
    .orderBy(sql`${screenings.applicationKind} = 'join_request'`, screenings.nextAttemptAt)
    .limit(limit)
    .for("update", { skipLocked: true });
  const rows = await db
    .update(screenings)
    .set({ lockedUntil: new Date(now.getTime() + CLAIM_MS), attempts: sql`${screenings.attempts} + 1` })
    .where(sql`(${screenings.applicationKind}, ${screenings.applicationId}) in (${due})`)
    .returning({ kind: screenings.applicationKind, id: screenings.applicationId, attempts: screenings.attempts, due: screenings.nextAttemptAt });
  // An update returns its rows in no set order: they are put back in the order they were chosen in.
  const rank = (row: (typeof rows)[number]) => [row.kind === "join_request" ? 1 : 0, row.due.getTime()] as const;
  return rows
    .toSorted((a, b) => rank(a)[0] - rank(b)[0] || rank(a)[1] - rank(b)[1])
    .map(({ kind, id, attempts }) => ({ kind, id, attempts }));
}

/** Gives claimed screenings back untouched (their claim and its attempt undone): none was tried. */
export async function releaseScreenings(db: Pick<Database, "update">, claimed: readonly Claimed[]) {
  if (claimed.length === 0) return;
  const keys = sql.join(claimed.map((one) => sql`(${one.kind}, ${one.id}::uuid)`), sql`, `);
  await db
    .update(screenings)
    .set({ lockedUntil: null, attempts: sql`greatest(${screenings.attempts} - 1, 0)` })
    .where(sql`(${screenings.applicationKind}, ${screenings.applicationId}) in (${keys})`);
}

export type ScreeningRecord = (
  | { state: "waiting"; retryAt: Date; ruleName: string }
  | { state: "done"; ruleName: string | null; outcome: "approve" | "reject" | "flag" | null; flag: string | null }
) & {
  facts?: unknown;
  /** The VRChat account the verdict was read for (null: none was linked). */
  vrchatUserId?: string | null;
};

/** What a screening found; it lets go of its claim. */
export async function recordScreening(db: Pick<Database, "update">, application: { kind: ScreenedKind; id: string }, record: ScreeningRecord) {
  const read = { facts: record.facts ?? null, vrchatUserId: record.vrchatUserId ?? null };
  const set =
    record.state === "waiting"
      ? { state: "waiting" as const, nextAttemptAt: record.retryAt, ruleName: record.ruleName, outcome: null, flag: null, ...read }
      : { state: "done" as const, ruleName: record.ruleName, outcome: record.outcome, flag: record.flag, ...read };
  await db
    .update(screenings)
    .set({ ...set, lockedUntil: null })
    .where(and(eq(screenings.applicationKind, application.kind), eq(screenings.applicationId, application.id)));
}

/** Staff took back what a rule decided: the card says so, and no rule decides it again unless it is screened anew. */
export async function markReopened(db: Pick<Database, "update">, application: { kind: ApplicationKind; id: string }, text: string) {
  await db
    .update(screenings)
    .set({ state: "done", outcome: "flag", flag: text, lockedUntil: null })
    .where(and(eq(screenings.applicationKind, application.kind), eq(screenings.applicationId, application.id)));
}

/** What screening needs of an application (null: gone, or marked as spam). */
export interface ScreeningSubject {
  kind: ApplicationKind;
  id: string;
  eventId: string | null;
  status: ApplicationStatus;
  vrchatUsername: string;
  vrchatUserId: string | null;
  vrchatLinkedHow: VRChatLinkWay | null;
  discordUserId: string | null;
  discordLinkedHow: VRChatLinkWay | null;
  /** The answers, by question text as asked. */
  answers: Record<string, AnswerValue>;
}

export async function screeningSubject(db: Pick<Database, "select">, application: { kind: ApplicationKind; id: string }): Promise<ScreeningSubject | null> {
  if (application.kind === "event") {
    const [row] = await db
      .select({
        eventId: eventApplications.eventId,
        status: eventApplications.status,
        vrchatUsername: eventApplications.vrchatUsername,
        vrchatUserId: eventApplications.vrchatUserId,
        vrchatLinkedHow: eventApplications.vrchatLinkedHow,
        discordUserId: eventApplications.discordUserId,
        discordLinkedHow: eventApplications.discordLinkedHow,
        answers: eventApplications.answers,
      })
      .from(eventApplications)
      .where(and(eq(eventApplications.id, application.id), isNull(eventApplications.spamAt)));
    return row ? { kind: "event", id: application.id, ...row, answers: valuesByText(row.answers) } : null;
  }
  const [row] = await db
    .select({
      status: applications.status,
      vrchatUsername: applications.vrchatUsername,
      vrchatUserId: applications.vrchatUserId,
      vrchatLinkedHow: applications.vrchatLinkedHow,
      discordUserId: applications.discordUserId,
      discordLinkedHow: applications.discordLinkedHow,
      answers: applications.answers,
    })
    .from(applications)
    .where(and(eq(applications.id, application.id), isNull(applications.spamAt)));
  return row ? { kind: "group", id: application.id, eventId: null, ...row, answers: valuesByText(row.answers) } : null;
}

/** The screenings of these applications, by id, for their cards: the state, the rule, and the flag. */
export async function listScreenings(db: Pick<Database, "select">, kind: ScreenedKind, ids: readonly string[]): Promise<Record<string, { state: string; ruleName: string | null; outcome: string | null; flag: string | null }>> {
  if (ids.length === 0) return {};
  const rows = await db
    .select({ id: screenings.applicationId, state: screenings.state, ruleName: screenings.ruleName, outcome: screenings.outcome, flag: screenings.flag })
    .from(screenings)
    .where(and(eq(screenings.applicationKind, kind), inArray(screenings.applicationId, [...ids])));
  return Object.fromEntries(rows.map(({ id, ...row }) => [id, row]));
}

/** What a screening kept of what it read (see flows/screen-applications). */
type KeptFacts = Pick<Facts, "vrchat" | "groups" | "banned" | "noShows" | "linkedHow">;

/**
 * The last `limit` decided applications (the group's and events', newest decision first), each with
 * the facts its screening read; where none were read, only what Dwell knows itself (`noShowsOf`
 * gives the no-shows, by application id).
 */
export async function trialSubjects(
  db: Pick<Database, "select">,
  limit: number,
  noShowsOf: (
    people: { id: string; eventId: string | null; vrchatUserId: string | null; vrchatLinkedHow: VRChatLinkWay | null; discordUserId: string | null; discordLinkedHow: VRChatLinkWay | null; vrchatUsername: string }[],
  ) => Promise<Record<string, number>>,
): Promise<TrialSubject[]> {
  const decided = ["approved", "rejected", "waitlist"];
  const columns = (table: typeof applications | typeof eventApplications) => ({
    id: table.id,
    status: table.status,
    reviewedAt: table.reviewedAt,
    vrchatUsername: table.vrchatUsername,
    vrchatUserId: table.vrchatUserId,
    vrchatLinkedHow: table.vrchatLinkedHow,
    discordUserId: table.discordUserId,
    discordLinkedHow: table.discordLinkedHow,
    answers: table.answers,
    facts: screenings.facts,
  });
  const [group, event] = await Promise.all([
    db
      .select({ ...columns(applications), eventId: sql<string | null>`null` })
      .from(applications)
      .leftJoin(screenings, and(eq(screenings.applicationKind, "group"), eq(screenings.applicationId, applications.id)))
      .where(and(inArray(applications.status, decided as never), isNull(applications.spamAt), isNotNull(applications.reviewedAt)))
      .orderBy(desc(applications.reviewedAt))
      .limit(limit),
    db
      .select({ ...columns(eventApplications), eventId: eventApplications.eventId })
      .from(eventApplications)
      .leftJoin(screenings, and(eq(screenings.applicationKind, "event"), eq(screenings.applicationId, eventApplications.id)))
      .where(and(inArray(eventApplications.status, decided as never), isNull(eventApplications.spamAt), isNotNull(eventApplications.reviewedAt)))
      .orderBy(desc(eventApplications.reviewedAt))
      .limit(limit),
  ]);
  const rows = [...group.map((row) => ({ ...row, kind: "group" as const })), ...event.map((row) => ({ ...row, kind: "event" as const }))]
    .sort((a, b) => b.reviewedAt!.getTime() - a.reviewedAt!.getTime())
    .slice(0, limit);
  const noShows = await noShowsOf(rows.filter((row) => !row.facts));
  return rows.map((row) => {
    const kept = row.facts as KeptFacts | null;
    const facts: Facts = {
      where: row.eventId ? { kind: "event", eventId: row.eventId } : { kind: "group" },
      linkedHow: row.vrchatLinkedHow,
      vrchat: kept?.vrchat ?? (row.vrchatUserId ? null : "none"),
      groups: kept?.groups ?? null,
      banned: kept?.banned ?? (row.vrchatUserId ? null : false),
      noShows: kept?.noShows ?? noShows[row.id] ?? 0,
      answers: valuesByText(row.answers),
    };
    return { kind: row.kind, id: row.id, eventId: row.eventId, name: row.vrchatUsername, status: row.status, facts };
  });
}
