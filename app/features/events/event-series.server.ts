/**
 * A series' rows: its template (what its next occurrences are made from), the event a template
 * becomes on a given date, and the reads the Sanctum and the public pages need.
 */
import { and, asc, eq, gt, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import type { SeriesFrequency } from "~/db/enums";
import { eventApplications, eventSeries, events, profiles, type EventRow, type EventSeriesRow, type SeriesTemplate } from "~/db/schema";
import type { EventToSave } from "./event-input";
import { addDays, daysBetween, describeRepeat, type SeriesOnPage, type SeriesRule, type SeriesSummary } from "./event-series";
import { deadlineDateOf, defaultEndFor } from "./event-editor-times";
import { localDayKey, type EventTimezone } from "./event-timing";
import type { PublicationChoice } from "./vrchat-publication";

type Reader = Pick<Database, "select" | "selectDistinct">;

/** What an event's next occurrences are made from: the event as saved, and its VRChat calendar choice. */
export function templateOf(row: EventRow, publication: PublicationChoice | null): SeriesTemplate {
  const end = row.endDate && row.endTime ? { endDate: row.endDate, endTime: row.endTime } : defaultEndFor(row.eventDate, row.eventTime, row.timezone);
  const deadline = row.applicationDeadline ? deadlineDateOf(row.applicationDeadline, row.timezone) : null;
  return {
    title: row.title,
    description: row.description,
    eventTime: row.eventTime.slice(0, 5),
    timezone: row.timezone,
    endDays: daysBetween(row.eventDate, end.endDate),
    endTime: end.endTime.slice(0, 5),
    worldName: row.worldName,
    worldId: row.worldId,
    worldImageUrl: row.worldImageUrl,
    worldChecked: row.worldCheckedAt !== null,
    applicationRequired: row.applicationRequired,
    requiresProof: row.requiresProof,
    deadlineDays: deadline ? Math.max(0, daysBetween(deadline, row.eventDate)) : null,
    maxAttendees: row.maxAttendees,
    applicationInstructions: row.applicationInstructions,
    waitlistPromotion: row.waitlistPromotion,
    instanceLeadMinutes: row.instanceLeadMinutes,
    instanceRegion: row.instanceRegion,
    instanceAccess: row.instanceAccess,
    featured: row.featured,
    discordEvent: row.discordEvent,
    hostId: row.hostId,
    createdBy: row.createdBy,
    publication: publication ? { ...publication } : null,
  };
}

/** The event a template makes on `date`. */
export function occurrenceInput(template: SeriesTemplate, date: string, now: Date): EventToSave {
  return {
    title: template.title,
    description: template.description,
    eventDate: date,
    eventTime: template.eventTime,
    timezone: template.timezone as EventTimezone,
    endDate: addDays(date, template.endDays),
    endTime: template.endTime,
    worldName: template.worldName,
    worldId: template.worldId,
    worldImageUrl: template.worldImageUrl,
    worldCheckedAt: template.worldChecked ? now : null,
    applicationRequired: template.applicationRequired,
    requiresProof: template.applicationRequired && (template.requiresProof ?? false),
    applicationDeadline: template.applicationRequired && template.deadlineDays !== null ? addDays(date, -template.deadlineDays) : undefined,
    maxAttendees: template.applicationRequired ? (template.maxAttendees ?? undefined) : undefined,
    applicationInstructions: template.applicationRequired ? (template.applicationInstructions ?? undefined) : undefined,
    waitlistPromotion: template.waitlistPromotion,
    instanceLeadMinutes: template.instanceLeadMinutes,
    instanceRegion: template.instanceRegion,
    instanceAccess: template.instanceAccess,
    featured: template.featured,
    discordEvent: template.discordEvent ?? false,
  };
}

export function ruleOf(series: EventSeriesRow): SeriesRule {
  return {
    frequency: series.frequency,
    anchorIndex: series.anchorIndex,
    anchorDate: series.anchorDate,
    untilDate: series.untilDate,
    occurrenceCount: series.occurrenceCount,
  };
}

/** A series, locked for the caller's transaction (one maker at a time, whatever the processes). */
export async function lockSeries(tx: Reader, id: string): Promise<EventSeriesRow | null> {
  const [row] = await tx.select().from(eventSeries).where(eq(eventSeries.id, id)).for("update");
  return row ?? null;
}

/** Series that may still have occurrences to make. */
export async function listOpenSeries(db: Reader, today: string): Promise<string[]> {
  const rows = await db
    .select({ id: eventSeries.id })
    .from(eventSeries)
    .where(
      and(
        or(isNull(eventSeries.occurrenceCount), lt(eventSeries.madeCount, eventSeries.occurrenceCount)),
        or(isNull(eventSeries.untilDate), sql`${eventSeries.untilDate} >= ${addDays(today, -1)}`),
      ),
    );
  return rows.map((row) => row.id);
}

/** The series' occurrences from `afterIndex` on (exclusive), locked, earliest first. */
export async function lockOccurrencesAfter(tx: Reader, seriesId: string, afterIndex: number): Promise<EventRow[]> {
  return tx
    .select()
    .from(events)
    .where(and(eq(events.seriesId, seriesId), gt(events.seriesIndex, afterIndex)))
    .orderBy(asc(events.seriesIndex))
    .for("update");
}

/** The series' latest occurrence that still exists (what the next one copies its questions from). */
export async function latestOccurrence(tx: Reader, seriesId: string): Promise<EventRow | null> {
  const [row] = await tx
    .select()
    .from(events)
    .where(eq(events.seriesId, seriesId))
    .orderBy(sql`${events.seriesIndex} desc`)
    .limit(1);
  return row ?? null;
}

/** Which of these events have applications (any status): their questions and places are someone's. */
export async function eventsWithApplications(tx: Reader, eventIds: string[]): Promise<Set<string>> {
  if (eventIds.length === 0) return new Set();
  const rows = await tx
    .selectDistinct({ eventId: eventApplications.eventId })
    .from(eventApplications)
    .where(inArray(eventApplications.eventId, eventIds));
  return new Set(rows.map((row) => row.eventId));
}

/** Whether a staff member still exists (a template's host or creator may have left the team). */
export async function profileExists(tx: Reader, id: string | null): Promise<boolean> {
  if (!id) return false;
  const [row] = await tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.id, id)).limit(1);
  return Boolean(row);
}

/** Each series' rule, for the Sanctum's cards and the form. */
export async function listSeriesSummaries(db: Reader, rows: { id: string; seriesId: string | null; seriesIndex: number | null }[]): Promise<Map<string, SeriesSummary>> {
  const ids = [...new Set(rows.flatMap((row) => (row.seriesId ? [row.seriesId] : [])))];
  if (ids.length === 0) return new Map();
  const series = await db.select().from(eventSeries).where(inArray(eventSeries.id, ids));
  const byId = new Map(series.map((row) => [row.id, row]));
  const summaries = new Map<string, SeriesSummary>();
  for (const row of rows) {
    const found = row.seriesId ? byId.get(row.seriesId) : undefined;
    if (!found || row.seriesIndex === null) continue;
    summaries.set(row.id, {
      id: found.id,
      index: row.seriesIndex,
      frequency: found.frequency as SeriesFrequency,
      untilDate: found.untilDate,
      occurrenceCount: found.occurrenceCount,
    });
  }
  return summaries;
}

/** What the event's page says of its series: how it repeats, and its next few events after this one. */
export async function seriesOnPage(db: Reader, row: EventRow, now: Date, limit = 3): Promise<SeriesOnPage | null> {
  if (!row.seriesId || row.seriesIndex === null) return null;
  const [series] = await db.select({ frequency: eventSeries.frequency }).from(eventSeries).where(eq(eventSeries.id, row.seriesId)).limit(1);
  if (!series) return null;
  const next = await db
    .select({ id: events.id, eventDate: events.eventDate })
    .from(events)
    .where(and(eq(events.seriesId, row.seriesId), gt(events.seriesIndex, row.seriesIndex), sql`${events.eventDate} >= ${localDayKey(now, "UTC")}::date - 1`))
    .orderBy(asc(events.seriesIndex))
    .limit(limit);
  return { repeat: describeRepeat(series.frequency as SeriesFrequency, row.eventDate), next };
}
