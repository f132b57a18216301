/**
 * The admins' side of publishing events to the group's VRChat calendar: what an event should look
 * like there, saved in the same transaction as the event, with one outbox job that has the calendar
 * worker (features/vrchat/calendar-publisher) make VRChat match it. VRChat's limits are checked here,
 * before anything is queued, so the form can say what to change.
 */
import { and, desc, eq, gt, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { lockCalendarAllowance, queueCalendarJob, queueReplacedRemovals } from "~/db/calendar-jobs.server";
import type { Database } from "~/db/db.server";
import { vrchatPublications, type EventRow, type PublicationDetails, type PublicationRow } from "~/db/schema";
import { eventEnd, eventStart } from "./event-timing";
import {
  titleTooLongForVRChat,
  VRCHAT_CREATIONS_PER_HOUR,
  type PublicationChoice,
  type PublicationSummary,
  type VRChatCategory,
} from "./vrchat-publication";
import { truncate } from "~/utils/text";
import { m } from "~/paraglide/messages";
import { counted, formatCount } from "~/utils/language";
import { defaultLanguage, inLanguage } from "~/utils/language.server";

type Executor = Pick<Database, "select" | "insert" | "update" | "execute">;

/** Of the group's ~10 creations an hour, hosts together may use this many: the rest stays the admins'. */
export const HOST_CALENDAR_SHARE = 4;

/** A save that would publish past VRChat's hourly allowance (or past the hosts' share of it). */
export class CalendarAllowanceError extends Error {
  override name = "CalendarAllowanceError";
  readonly field = "publishToVRChat";
}

/** Who saves, and what a save does when the allowance is used up: a person's is refused; the series' own look queues (the worker waits for room). */
export interface CalendarSaver {
  byHost?: boolean;
  whenFull?: "refuse" | "queue";
}

/** VRChat sets no length in its description of the API; the entry links the page for the rest. */
const DESCRIPTION_MAX = 1_000;
const HOUR_MS = 60 * 60 * 1000;

/** The event as VRChat's calendar gets it: its own description, then a link to its page. */
export function publicationDetails(event: EventRow, choice: PublicationChoice, pageUrl: string): PublicationDetails {
  const start = eventStart(event);
  // VRChat's calendar is the group's public face: its words are in the site's default language.
  const link = event.applicationRequired ? inLanguage(defaultLanguage(), () => m.aev_vrchat_apply_on({ link: pageUrl })) : pageUrl;
  const room = DESCRIPTION_MAX - link.length - 2;
  const own = event.description.trim();
  const description = own ? `${truncate(own, room)}\n\n${link}` : link;
  return {
    title: event.title,
    description,
    startsAt: start.toISOString(),
    endsAt: eventEnd(event).toISOString(),
    category: choice.category,
    accessType: choice.accessType,
    languages: choice.languages,
    platforms: choice.platforms,
    notify: choice.notify,
  };
}

function choiceOf(details: PublicationDetails): PublicationChoice {
  return {
    category: details.category as VRChatCategory,
    accessType: details.accessType,
    languages: details.languages,
    platforms: details.platforms,
    notify: details.notify,
  };
}

/** The publication the admins want for an event (at most one). */
async function wantedPublication(db: Executor, eventId: string, lock: boolean): Promise<PublicationRow | null> {
  const query = db
    .select()
    .from(vrchatPublications)
    .where(and(eq(vrchatPublications.eventId, eventId), eq(vrchatPublications.wanted, true)));
  const [row] = lock ? await query.for("update") : await query;
  return row ?? null;
}

/**
 * Creations VRChat counts in the last hour: entries created, and those queued to be (a save that
 * has not reached VRChat yet will create one).
 */
async function recentCreations(db: Pick<Database, "select">, now: Date, { hostsOnly = false } = {}): Promise<{ count: number; oldest: Date | null }> {
  const since = new Date(now.getTime() - HOUR_MS);
  const [row] = await db
    .select({
      count: sql<number>`count(*)::int`,
      oldest: sql<string | null>`min(${vrchatPublications.vrchatCreatedAt})`,
    })
    .from(vrchatPublications)
    .where(
      and(
        or(
          gt(vrchatPublications.vrchatCreatedAt, since),
          and(eq(vrchatPublications.wanted, true), isNull(vrchatPublications.vrchatEventId), ne(vrchatPublications.state, "failed")),
        ),
        hostsOnly ? eq(vrchatPublications.requestedByHost, true) : undefined,
      ),
    );
  return { count: row?.count ?? 0, oldest: row?.oldest ? new Date(row.oldest) : null };
}

function allowanceMessage(used: number, oldest: Date | null, now: Date, limit: number, hosts: boolean) {
  const freeAt = oldest ? oldest.getTime() + HOUR_MS : now.getTime() + HOUR_MS;
  const minutes = Math.max(1, Math.ceil((freeAt - now.getTime()) / 60_000));
  const wait = counted(minutes, m.aev_allowance_wait_one, m.aev_allowance_wait);
  return hosts ? m.aev_allowance_hosts({ limit, used: formatCount(used), wait }) : m.aev_allowance_group({ limit, used: formatCount(used), wait });
}

/**
 * Counts and reserves `creates` of VRChat's hourly calendar creations, under the allowance's lock
 * (held to the end of the caller's transaction): the publications inserted next in it are the
 * reservation. Throws CalendarAllowanceError when they do not fit (a host's: within the hosts' share).
 */
export async function reserveCalendarCreations(tx: Executor, creates: number, now: Date, { byHost = false }: { byHost?: boolean } = {}) {
  if (creates <= 0) return;
  await lockCalendarAllowance(tx);
  const recent = await recentCreations(tx, now);
  if (recent.count + creates > VRCHAT_CREATIONS_PER_HOUR) throw new CalendarAllowanceError(allowanceMessage(recent.count, recent.oldest, now, VRCHAT_CREATIONS_PER_HOUR, false));
  if (!byHost) return;
  const hosts = await recentCreations(tx, now, { hostsOnly: true });
  if (hosts.count + creates > HOST_CALENDAR_SHARE) throw new CalendarAllowanceError(allowanceMessage(hosts.count, hosts.oldest, now, HOST_CALENDAR_SHARE, true));
}

/**
 * Why VRChat would refuse this publication, as a form error, or null. A new calendar entry must
 * start in the future, and the group may create about ten an hour; every title must fit.
 */
export async function publicationProblem(
  db: Database,
  { eventId, title, start, choice, now, byHost = false }: { eventId: string | null; title: string; start: Date; choice: PublicationChoice; now: Date; byHost?: boolean },
): Promise<{ field: string; error: string } | null> {
  const long = titleTooLongForVRChat(title);
  if (long) return { field: "title", error: long };
  const current = eventId ? await wantedPublication(db, eventId, false) : null;
  // Changing who may see it makes a new entry (VRChat's update does not take the access type), and so
  // does saving one whose creation VRChat refused. One queued already is counted among the recent.
  const creates =
    !current || current.details.accessType !== choice.accessType || (!current.vrchatEventId && current.state === "failed");
  if (!creates) return null;
  if (start.getTime() <= now.getTime()) {
    return { field: "eventDate", error: "VRChat's calendar takes only events that have not started yet. Change the date, or save without publishing to VRChat." };
  }
  const recent = await recentCreations(db, now);
  if (recent.count >= VRCHAT_CREATIONS_PER_HOUR) return { field: "publishToVRChat", error: allowanceMessage(recent.count, recent.oldest, now, VRCHAT_CREATIONS_PER_HOUR, false) };
  if (byHost) {
    const hosts = await recentCreations(db, now, { hostsOnly: true });
    if (hosts.count >= HOST_CALENDAR_SHARE) return { field: "publishToVRChat", error: allowanceMessage(hosts.count, hosts.oldest, now, HOST_CALENDAR_SHARE, true) };
  }
  return null;
}

/** How many calendar entries the group may still create within the hour (those queued counted), under the allowance's lock. */
export async function calendarCreationsLeft(tx: Executor, now: Date, { byHost = false }: { byHost?: boolean } = {}): Promise<number> {
  await lockCalendarAllowance(tx);
  const all = VRCHAT_CREATIONS_PER_HOUR - (await recentCreations(tx, now)).count;
  const left = byHost ? Math.min(all, HOST_CALENDAR_SHARE - (await recentCreations(tx, now, { hostsOnly: true })).count) : all;
  return Math.max(0, left);
}

/**
 * The admins no longer want this entry. Taken off the calendar at once when nothing replaces it;
 * when a new entry replaces it (a change of who may see it), it stays until the new one is published,
 * so that a refusal of the new one leaves the event on the calendar as it was.
 */
async function withdraw(tx: Executor, row: PublicationRow, now: Date, replaced: boolean) {
  await tx
    .update(vrchatPublications)
    .set({ wanted: false, state: "pending", lastError: null, version: sql`${vrchatPublications.version} + 1` })
    .where(eq(vrchatPublications.id, row.id));
  if (!replaced && row.eventId) await queueReplacedRemovals(tx, row.eventId, now);
}

/**
 * Records what the admins want on VRChat's calendar for an event (null: not there), inside the
 * transaction that saves or deletes the event. Nothing is queued when nothing changed.
 */
export async function savePublication(
  tx: Executor,
  event: EventRow,
  choice: PublicationChoice | null,
  pageUrl: string,
  now: Date,
  { byHost = false, whenFull = "refuse" }: CalendarSaver = {},
): Promise<void> {
  const current = await wantedPublication(tx, event.id, true);
  if (!choice) {
    if (current) await withdraw(tx, current, now, false);
    return;
  }
  const details = publicationDetails(event, choice, pageUrl);
  // A new entry (the first, or one with another audience) spends one of VRChat's hourly creations.
  const reserve = () => (whenFull === "refuse" ? reserveCalendarCreations(tx, 1, now, { byHost }) : Promise.resolve());
  if (current && current.details.accessType !== details.accessType) {
    await withdraw(tx, current, now, true);
  } else if (current) {
    // Compared field by field: the database gives a stored object's keys back in its own order.
    const same = (Object.keys(details) as (keyof PublicationDetails)[]).every(
      (key) => JSON.stringify(current.details[key]) === JSON.stringify(details[key]),
    );
    const unchanged = same && current.state !== "failed";
    if (unchanged) return;
    // One VRChat refused to create is created anew.
    if (!current.vrchatEventId && current.state === "failed") await reserve();
    await tx
      .update(vrchatPublications)
      .set({ details, state: "pending", lastError: null, version: sql`${vrchatPublications.version} + 1` })
      .where(eq(vrchatPublications.id, current.id));
    await queueCalendarJob(tx, current.id, now);
    return;
  }
  await reserve();
  const [created] = await tx
    .insert(vrchatPublications)
    .values({ eventId: event.id, details, requestedByHost: byHost })
    .returning({ id: vrchatPublications.id });
  await queueCalendarJob(tx, created!.id, now);
}

/** An event about to be deleted: its entry comes off VRChat's calendar too. */
export async function withdrawPublication(tx: Executor, eventId: string, now: Date): Promise<void> {
  const current = await wantedPublication(tx, eventId, true);
  if (current) await withdraw(tx, current, now, false);
}

/** "Try again" after VRChat refused: the worker makes another attempt from the latest state. */
export async function retryPublication(db: Database, eventId: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(vrchatPublications)
      .set({ state: "pending", lastError: null })
      .where(and(eq(vrchatPublications.eventId, eventId), eq(vrchatPublications.state, "failed")))
      .returning({ id: vrchatPublications.id });
    for (const row of rows) await queueCalendarJob(tx, row.id, now);
    return rows.length > 0;
  });
}

/**
 * How each event stands on VRChat's calendar: its wanted publication, or else one still being
 * removed (or whose removal failed). Events never published are absent.
 */
export async function listPublications(db: Database, eventIds: readonly string[]): Promise<Map<string, PublicationSummary>> {
  if (eventIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(vrchatPublications)
    .where(and(inArray(vrchatPublications.eventId, [...eventIds]), or(eq(vrchatPublications.wanted, true), ne(vrchatPublications.state, "removed"))))
    .orderBy(desc(vrchatPublications.wanted), desc(vrchatPublications.updatedAt));
  const found = new Map<string, PublicationSummary>();
  // An entry no longer wanted but still there (its replacement not on the calendar yet).
  const kept = new Map(rows.filter((row) => row.eventId && !row.wanted && row.vrchatEventId && row.state !== "removed").map((row) => [row.eventId!, row.details.accessType]));
  for (const row of rows) {
    if (!row.eventId || found.has(row.eventId)) continue;
    found.set(row.eventId, {
      wanted: row.wanted,
      state: row.state,
      vrchatEventId: row.vrchatEventId,
      accessType: row.details.accessType,
      lastError: row.lastError,
      choice: choiceOf(row.details),
      keptAccessType: row.wanted ? (kept.get(row.eventId) ?? null) : null,
    });
  }
  return found;
}
