/**
 * 'Repeats': an event that comes back weekly, every two weeks or monthly on the same weekday. Each
 * occurrence is an event of its own (its applications, places, instance, role and reminders); the
 * series makes them eight weeks ahead and keeps that far ahead (the hourly look), from its template,
 * with the questions and messages of the occurrence before. An edit applies to 'this event' or to
 * 'this and the following' (the rule, the settings, the calendar choice: the series itself). Every
 * entry point (the Sanctum's form and delete, the look) comes here.
 */
import type { Database } from "~/db/db.server";
import { eventSeries, events } from "~/db/schema";
import { and, eq, gte } from "drizzle-orm";
import { copyEventMessages } from "~/features/decisions/decisions.server";
import { copyEventQuestions } from "~/features/questions/questions.server";
import type { EventToSave } from "~/features/events/event-input";
import { occurrencesDue, SERIES_AHEAD_DAYS, SERIES_TEXTS, addDays, occurrenceAt, type SeriesEnd, type SeriesRule } from "~/features/events/event-series";
import {
  eventsWithApplications,
  latestOccurrence,
  listOpenSeries,
  lockOccurrencesAfter,
  lockSeries,
  occurrenceInput,
  profileExists,
  ruleOf,
  templateOf,
} from "~/features/events/event-series.server";
import { eventStart, localDayKey, zoneOf } from "~/features/events/event-timing";
import { createEventIn, deleteEventIn, getEvent, updateEventIn, type PublicationChange, type Transaction } from "~/features/events/events.server";
import { calendarCreationsLeft } from "~/features/events/vrchat-publication.server";
import { VRCHAT_CREATIONS_PER_HOUR, type PublicationChoice } from "~/features/events/vrchat-publication";
import { m } from "~/paraglide/messages";
import { formatCount } from "~/utils/language";
import { log } from "~/utils/log.server";
import { formQuestionsMemo } from "~/utils/memo.server";
import type { DecideServices } from "./decide.server";
import { dropRoleOfDeleted } from "./event-role.server";
import { refillAfterSave } from "./refill.server";

/** 'Repeats' as the form gave it: how often, and until when (null: it does not repeat). */
export type RepeatRule = { frequency: SeriesRule["frequency"]; end: SeriesEnd } | null;

/** A save refused for a reason the admin can act on (rolled back whole). */
export class SeriesRefusal extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }
}

/** An event's page on the site: its link on VRChat's calendar. */
export const eventPageUrl = (siteOrigin: string) => (eventId: string) => `${siteOrigin.replace(/\/+$/, "")}/events/${eventId}`;

const today = (now: Date, timezone: string) => localDayKey(now, zoneOf(timezone));
const horizonOf = (now: Date, timezone: string) => addDays(today(now, timezone), SERIES_AHEAD_DAYS);

/** The calendar choice a series keeps, as a change for one occurrence (its own page link). */
function publicationFor(choice: PublicationChoice | null, pageUrl: (eventId: string) => string): PublicationChange | undefined {
  // Counted against VRChat's hourly allowance by the save that made the series, in bulk; the
  // series' own look never refuses an occurrence: the calendar worker waits for room.
  return choice ? { choice, pageUrl, whenFull: "queue" } : undefined;
}

/**
 * Makes the series' occurrences due by eight weeks from now, inside the caller's transaction (the
 * series row locked): each from the template, on the rule's date, with the questions and messages
 * of the occurrence before it. Dates already past are passed over (a server that was down does not
 * make events nobody could attend). How many were made.
 */
async function makeDue(tx: Transaction, seriesId: string, now: Date, pageUrl: (eventId: string) => string): Promise<number> {
  const series = await lockSeries(tx, seriesId);
  if (!series) return 0;
  const template = series.template;
  const due = occurrencesDue(ruleOf(series), series.madeCount, horizonOf(now, template.timezone));
  if (due.length === 0) return 0;
  // A host or creator who left the team: the occurrences are made without them (as their events were kept).
  const hostId = (await profileExists(tx, template.hostId)) ? template.hostId : null;
  const createdBy = (await profileExists(tx, template.createdBy)) ? template.createdBy : null;
  let previous = await latestOccurrence(tx, seriesId);
  let made = 0;
  for (const { index, date } of due) {
    const input = occurrenceInput(template, date, now);
    if (eventStart(input).getTime() <= now.getTime()) continue;
    const row = await createEventIn(tx, input, createdBy, publicationFor(template.publication as PublicationChoice | null, pageUrl), hostId, { seriesId, seriesIndex: index });
    if (previous) {
      await copyEventQuestions(tx, previous.id, row.id);
      await copyEventMessages(tx, previous.id, row.id);
    }
    previous = row;
    made++;
  }
  await tx.update(eventSeries).set({ madeCount: due.at(-1)!.index + 1 }).where(eq(eventSeries.id, seriesId));
  return made;
}

/** How many of a series' occurrences a new rule would make now (the VRChat calendar's allowance is checked against it). */
function dueNow(rule: SeriesRule, from: number, now: Date, timezone: string, eventTime: string): number {
  return occurrencesDue(rule, from, horizonOf(now, timezone)).filter(({ date }) => eventStart({ eventDate: date, eventTime, timezone }).getTime() > now.getTime()).length;
}

async function checkCalendarRoom(tx: Transaction, choice: PublicationChoice | null, creates: number, now: Date, byHost: boolean) {
  if (!choice || creates === 0) return;
  const left = await calendarCreationsLeft(tx, now, { byHost });
  if (creates > left) {
    throw new SeriesRefusal(
      "publishToVRChat",
      left === 1
        ? m.aev_series_allowance_one({ limit: VRCHAT_CREATIONS_PER_HOUR, creates: formatCount(creates) })
        : m.aev_series_allowance({ limit: VRCHAT_CREATIONS_PER_HOUR, creates: formatCount(creates), left: formatCount(left) }),
    );
  }
}

const seriesValues = (rule: NonNullable<RepeatRule>, anchorIndex: number, anchorDate: string) => ({
  frequency: rule.frequency,
  anchorIndex,
  anchorDate,
  untilDate: rule.end.untilDate,
  occurrenceCount: rule.end.occurrenceCount,
});

export interface NewSeries {
  /** The site's address: each occurrence's page is its link on VRChat's calendar. */
  siteOrigin: string;
  input: EventToSave;
  rule: NonNullable<RepeatRule>;
  createdBy: string;
  hostId: string;
  /** The calendar choice (undefined: publishing is not configured). */
  publication: PublicationChange | undefined;
}

/** A new repeating event: its first occurrence, its series, and the occurrences due in the next eight weeks, in one transaction. */
export async function createEventSeries(db: Database, { siteOrigin, input, rule, createdBy, hostId, publication }: NewSeries, now: Date): Promise<SeriesSave & { made?: number }> {
  const choice = publication?.choice ?? null;
  try {
    const made = await db.transaction(async (tx) => {
      const values = seriesValues(rule, 0, input.eventDate);
      await checkCalendarRoom(tx, choice, dueNow(values, 0, now, input.timezone, input.eventTime), now, publication?.byHost ?? false);
      const first = await createEventIn(tx, input, createdBy, publication, hostId);
      const [series] = await tx.insert(eventSeries).values({ ...values, madeCount: 1, template: templateOf(first, choice) }).returning();
      await tx.update(events).set({ seriesId: series!.id, seriesIndex: 0 }).where(eq(events.id, first.id));
      return 1 + (await makeDue(tx, series!.id, now, eventPageUrl(siteOrigin)));
    });
    return { kind: "saved", made };
  } catch (error) {
    if (error instanceof SeriesRefusal) return { kind: "refused", field: error.field, error: error.message };
    throw error;
  }
}

export type SeriesSave = { kind: "saved" } | { kind: "missing" } | { kind: "refused"; field: string; error: string };

/**
 * 'This and the following events': the event, every later occurrence (moved to the rule's dates from
 * this one, with the new settings and calendar choice), and the series' template and rule. An event
 * not in a series becomes the first of one. Occurrences past a shortened end are deleted, unless one
 * has applications (then nothing is saved). Places freed on any of them refill from its waitlist.
 */
export async function saveFollowing(
  services: DecideServices,
  eventId: string,
  input: EventToSave,
  rule: RepeatRule,
  publication: PublicationChange | undefined,
  hostId: string | undefined,
  now: Date,
): Promise<SeriesSave> {
  const stored = await getEvent(services.db, eventId);
  if (!stored) return { kind: "missing" };
  const refills: ReturnType<typeof refillAfterSave>[] = [];
  const refilled = () => {
    const refill = refillAfterSave(services, now);
    refills.push(refill);
    return refill.inSave;
  };
  try {
    const saved = await services.db.transaction(async (tx) => {
      const row = await updateEventIn(tx, eventId, input, publication, hostId, refilled());
      if (!row) return false;
      const series = row.seriesId ? await lockSeries(tx, row.seriesId) : null;
      const index = series ? row.seriesIndex! : 0;
      const choice = publication ? publication.choice : (series?.template.publication ?? null);
      const template = templateOf(row, choice as PublicationChoice | null);
      if (!series) {
        if (!rule) return true;
        const values = seriesValues(rule, 0, row.eventDate);
        await checkCalendarRoom(tx, choice as PublicationChoice | null, dueNow(values, 1, now, row.timezone, row.eventTime), now, publication?.byHost ?? false);
        const [created] = await tx.insert(eventSeries).values({ ...values, madeCount: 1, template }).returning();
        await tx.update(events).set({ seriesId: created!.id, seriesIndex: 0 }).where(eq(events.id, row.id));
        await makeDue(tx, created!.id, now, eventPageUrl(services.siteOrigin));
        return true;
      }
      // 'Never' from here: the series ends with this event.
      const next: SeriesRule = rule
        ? seriesValues(rule, index, row.eventDate)
        : { frequency: series.frequency, anchorIndex: index, anchorDate: row.eventDate, untilDate: null, occurrenceCount: index + 1 };
      const following = await lockOccurrencesAfter(tx, series.id, index);
      const moved = following.map((event) => ({ event, date: occurrenceAt(next, event.seriesIndex!) }));
      const beyond = moved.filter(({ date }) => date === null || eventStart(occurrenceInput(template, date, now)).getTime() <= now.getTime());
      const taken = await eventsWithApplications(tx, beyond.map(({ event }) => event.id));
      if (taken.size > 0) throw new SeriesRefusal(rule ? "repeatUntil" : "repeats", SERIES_TEXTS.applicationsBeyondEnd);
      for (const { event } of beyond) await deleteEventIn(tx, event.id, (inner, id) => dropRoleOfDeleted(inner, id, now));
      const kept = moved.filter((entry) => !beyond.includes(entry));
      for (const { event, date } of kept) await updateEventIn(tx, event.id, occurrenceInput(template, date!, now), publication, hostId, refilled());
      await tx
        .update(eventSeries)
        .set({ ...next, template, madeCount: Math.max(series.madeCount, index + 1) })
        .where(eq(eventSeries.id, series.id));
      await makeDue(tx, series.id, now, eventPageUrl(services.siteOrigin));
      return true;
    });
    if (!saved) return { kind: "missing" };
  } catch (error) {
    if (error instanceof SeriesRefusal) return { kind: "refused", field: error.field, error: error.message };
    throw error;
  }
  for (const refill of refills) await refill.afterCommit();
  return { kind: "saved" };
}

/**
 * 'Delete this and the following events': the series ends before this occurrence, and this one and
 * every later one are deleted (their applications with them, as a single event's delete does), each
 * with its calendar entry and VRChat role. Whether the event existed.
 */
export async function deleteFollowing(db: Database, eventId: string, now: Date): Promise<boolean> {
  const stored = await getEvent(db, eventId);
  if (!stored) return false;
  return db.transaction(async (tx) => {
    const series = stored.seriesId ? await lockSeries(tx, stored.seriesId) : null;
    if (!series || stored.seriesIndex === null) return deleteEventIn(tx, eventId, (inner, id) => dropRoleOfDeleted(inner, id, now));
    const doomed = await tx
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.seriesId, series.id), gte(events.seriesIndex, stored.seriesIndex)));
    for (const { id } of doomed) await deleteEventIn(tx, id, (inner, removed) => dropRoleOfDeleted(inner, removed, now));
    await tx
      .update(eventSeries)
      .set({ occurrenceCount: stored.seriesIndex, untilDate: null })
      .where(eq(eventSeries.id, series.id));
    return true;
  });
}

/**
 * The hourly look (and one soon after a start): every series that has not ended makes what is due in
 * the next eight weeks. Each series in its own transaction; a failure in one does not stop the others.
 */
export async function keepSeries(db: Database, pageUrl: (eventId: string) => string, now: Date): Promise<number> {
  let made = 0;
  for (const id of await listOpenSeries(db, localDayKey(now, "UTC"))) {
    try {
      made += await db.transaction((tx) => makeDue(tx, id, now, pageUrl));
    } catch (error) {
      log.error("making a series' events failed", { error, seriesId: id });
    }
  }
  return made;
}

/**
 * 'Use for the following events' (the questions or the messages page of an occurrence): the
 * following occurrences take this one's questions, or its decision messages. Questions replace
 * those of occurrences without applications only (answers refer to them); the others are counted.
 */
export async function copyToFollowing(db: Database, eventId: string, what: "questions" | "messages"): Promise<{ copied: number; kept: number } | null> {
  const stored = await getEvent(db, eventId);
  if (!stored?.seriesId || stored.seriesIndex === null) return null;
  const done = await db.transaction(async (tx) => {
    const following = await lockOccurrencesAfter(tx, stored.seriesId!, stored.seriesIndex!);
    const taken = what === "questions" ? await eventsWithApplications(tx, following.map((event) => event.id)) : new Set<string>();
    let copied = 0;
    for (const event of following) {
      if (taken.has(event.id)) continue;
      if (what === "questions") await copyEventQuestions(tx, stored.id, event.id);
      else await copyEventMessages(tx, stored.id, event.id);
      copied++;
    }
    return { copied, kept: taken.size };
  });
  // The public forms of those events read their questions afresh.
  formQuestionsMemo.forget(db);
  return done;
}

