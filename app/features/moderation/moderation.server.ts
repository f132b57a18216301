/**
 * The moderation history as staff read it: one list of every act from VRChat, Discord and Dwell,
 * newest first, filtered by place, kind, moderator, person and dates; its CSV; a moderator's activity
 * week by week; a person's part of it; and how far each audit log has been read.
 */
import { and, desc, eq, gte, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/db.server";
import { MODERATION_KINDS, MODERATION_PLACES, type ModerationKind, type ModerationPlace } from "~/db/enums";
import { auditLogReads, moderationActs, type ModerationActRow } from "~/db/schema";
import { csvDate, csvRow } from "~/utils/csv";

type Reader = Pick<Database, "select">;

export const ACTS_PAGE = 50;

const DAY_TEXT = /^\d{4}-\d{2}-\d{2}$/;
/** The filters, as the page's address carries them (anything unreadable is left out, not refused). */
export const ActFiltersSchema = z.object({
  place: z.enum(MODERATION_PLACES).optional().catch(undefined),
  kind: z.enum(MODERATION_KINDS).optional().catch(undefined),
  moderator: z.string().trim().min(1).max(200).optional().catch(undefined),
  person: z.string().trim().min(1).max(200).optional().catch(undefined),
  from: z.string().regex(DAY_TEXT).optional().catch(undefined),
  to: z.string().regex(DAY_TEXT).optional().catch(undefined),
  /** Where the page starts: older than this act (`at|id`). */
  before: z.string().max(100).optional().catch(undefined),
});
export type ActFilters = z.infer<typeof ActFiltersSchema>;

export function readActFilters(params: URLSearchParams): ActFilters {
  return ActFiltersSchema.parse(Object.fromEntries([...params].filter(([, value]) => value !== "")));
}

const SNOWFLAKE = /^\d{17,20}$/;
const ACCOUNT = /^(?:usr_[0-9a-f-]{36}|[A-Za-z0-9]{10})$/;
/** A name's start, in any case (the index on lower(target_name) serves it). */
const startingWith = (text: string) => `${text.toLowerCase().replace(/[\\%_]/g, (match) => `\\${match}`)}%`;

/** A day's start (UTC), and the next day's: the page's dates are whole days. */
const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`);
const nextDay = (day: string) => new Date(dayStart(day).getTime() + 86_400_000);

function whereOf(filters: ActFilters): SQL | undefined {
  const person = filters.person;
  return and(
    filters.place ? eq(moderationActs.place, filters.place) : undefined,
    filters.kind ? eq(moderationActs.kind, filters.kind) : undefined,
    filters.moderator ? eq(moderationActs.actorKey, filters.moderator) : undefined,
    person
      ? SNOWFLAKE.test(person)
        ? eq(moderationActs.targetDiscordId, person)
        : ACCOUNT.test(person)
          ? eq(moderationActs.targetVrchatId, person)
          : sql`lower(${moderationActs.targetName}) like ${startingWith(person)}`
      : undefined,
    filters.from ? gte(moderationActs.at, dayStart(filters.from)) : undefined,
    filters.to ? lt(moderationActs.at, nextDay(filters.to)) : undefined,
  );
}

/** Older than the act `at|id` (the order is newest first, then by id). */
function olderThan(cursor: string | undefined): SQL | undefined {
  if (!cursor) return undefined;
  const [at, id] = cursor.split("|");
  const time = Date.parse(at ?? "");
  if (Number.isNaN(time) || !z.uuid().safeParse(id).success) return undefined;
  return sql`(${moderationActs.at}, ${moderationActs.id}) < (${new Date(time).toISOString()}::timestamptz, ${id}::uuid)`;
}

export interface ActView {
  id: string;
  place: ModerationPlace;
  kind: ModerationKind;
  actorKey: string;
  actorName: string;
  targetVrchatId: string | null;
  targetDiscordId: string | null;
  targetName: string | null;
  roleName: string | null;
  roleId: string | null;
  reason: string | null;
  at: string;
}

const viewOf = (row: ModerationActRow): ActView => ({
  id: row.id,
  place: row.place,
  kind: row.kind,
  actorKey: row.actorKey,
  actorName: row.actorName,
  targetVrchatId: row.targetVrchatId,
  targetDiscordId: row.targetDiscordId,
  targetName: row.targetName,
  roleName: row.roleName,
  roleId: row.roleId,
  reason: row.reason,
  at: row.at.toISOString(),
});

/** One page of acts, newest first; `next`: the cursor of the page after, when there is one. */
export async function listActs(db: Reader, filters: ActFilters, limit = ACTS_PAGE): Promise<{ acts: ActView[]; next: string | null }> {
  const rows = await db
    .select()
    .from(moderationActs)
    .where(and(whereOf(filters), olderThan(filters.before)))
    .orderBy(desc(moderationActs.at), desc(moderationActs.id))
    .limit(limit + 1);
  const acts = rows.slice(0, limit).map(viewOf);
  const last = rows.length > limit ? rows[limit - 1]! : null;
  return { acts, next: last ? `${last.at.toISOString()}|${last.id}` : null };
}

/**
 * The moderators in the history, for the filter: each key once, by its latest name. A skip through
 * the index (one probe per moderator), not a read of every act.
 */
export async function listModerators(db: Pick<Database, "execute">): Promise<{ key: string; name: string }[]> {
  const result = (await db.execute(sql`
    with recursive keys as (
      (select ${moderationActs.actorKey} as key from ${moderationActs} order by ${moderationActs.actorKey} limit 1)
      union all
      select (select m.actor_key from ${moderationActs} m where m.actor_key > keys.key order by m.actor_key limit 1) from keys where keys.key is not null
    )
    select keys.key, (select m.actor_name from ${moderationActs} m where m.actor_key = keys.key order by m.at desc, m.id desc limit 1) as name
    from keys where keys.key is not null limit 500`)) as unknown as { rows: { key: string; name: string }[] };
  return result.rows.toSorted((a, b) => a.name.localeCompare(b.name));
}

/** A moderator's acts per kind, week by week (weeks start on Monday, UTC), the last `weeks` weeks. */
export async function moderatorActivity(db: Reader, actorKey: string, now: Date, weeks = 12) {
  const since = new Date(now.getTime() - weeks * 7 * 86_400_000);
  const week = sql<string>`to_char(date_trunc('week', ${moderationActs.at} at time zone 'UTC'), 'YYYY-MM-DD')`;
  const rows = await db
    .select({ week, kind: moderationActs.kind, count: sql<number>`count(*)::int` })
    .from(moderationActs)
    .where(and(eq(moderationActs.actorKey, actorKey), gte(moderationActs.at, since)))
    .groupBy(week, moderationActs.kind)
    .orderBy(desc(week));
  const byWeek = new Map<string, Partial<Record<ModerationKind, number>>>();
  for (const row of rows) byWeek.set(row.week, { ...byWeek.get(row.week), [row.kind]: row.count });
  return [...byWeek].map(([weekOf, counts]) => ({ week: weekOf, counts }));
}

/** The acts done to a person, by the accounts their file holds. */
export async function actsOfPerson(db: Reader, accounts: { vrchat: string[]; discord: string[] }, limit = 200): Promise<ActView[]> {
  const which = or(accounts.vrchat.length ? inArray(moderationActs.targetVrchatId, accounts.vrchat) : undefined, accounts.discord.length ? inArray(moderationActs.targetDiscordId, accounts.discord) : undefined);
  if (!which) return [];
  const rows = await db.select().from(moderationActs).where(which).orderBy(desc(moderationActs.at), desc(moderationActs.id)).limit(limit);
  return rows.map(viewOf);
}

/** The CSV's header row (in English: a file for spreadsheets, read by staff of any language alike). */
const CSV_HEADER = ["When (UTC)", "Where", "What", "Moderator", "Person", "VRChat account", "Discord account", "Role", "Reason"];

/** The whole filtered history as CSV, written in batches so that no page of it is held at once. */
export function actsCsv(db: Reader, filters: ActFilters, batch = 5_000): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: string | undefined;
  let started = false;
  return new ReadableStream({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(`\uFEFF${csvRow(CSV_HEADER)}`));
      }
      const { acts, next } = await listActs(db, { ...filters, before: cursor }, batch);
      controller.enqueue(
        encoder.encode(acts.map((act) => csvRow([csvDate(act.at), act.place, act.kind, act.actorName, act.targetName, act.targetVrchatId, act.targetDiscordId, act.roleName ?? act.roleId, act.reason])).join("")),
      );
      if (!next) controller.close();
      cursor = next ?? undefined;
    },
  });
}

/** How far each audit log has been read, and its last failure. */
export async function auditLogStates(db: Reader) {
  const rows = await db.select().from(auditLogReads);
  return rows.map((row) => ({
    place: row.place,
    lastReadAt: row.lastReadAt?.toISOString() ?? null,
    lastError: row.lastError,
    lastErrorAt: row.lastErrorAt?.toISOString() ?? null,
    catchingUp: row.sweepBelow !== null,
  }));
}
