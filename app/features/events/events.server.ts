import { and, asc, eq, gte, isNull, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/db.server";
import type { InstanceAccess, InstanceRegion, WaitlistPromotion } from "~/db/enums";
import { eventApplications, events, type EventRow } from "~/db/schema";
import { log } from "~/utils/log.server";
import { MAX_EVENT_DAYS, type EventInput, type EventToSave } from "./event-input";
import type { PublicationChoice } from "./vrchat-publication";
import type { SeriesSummary } from "./event-series";
import { listSeriesSummaries } from "./event-series.server";
import { savePublication, withdrawPublication, type CalendarSaver } from "./vrchat-publication.server";
import { touchDiscordEvent } from "~/db/discord-event-jobs.server";
import {
  applicationDeadlineFor,
  applicationState,
  DEFAULT_EVENT_HOURS,
  eventEnd,
  eventPhase,
  eventStart,
  type EventPhase,
  ZONE_BY_ABBREVIATION,
  type ApplicationState,
} from "./event-timing";

/**
 * The start instant of an event in SQL, from the same abbreviation map as the time module, so
 * lists filtered and ordered here agree with what the pages compute from a row.
 */
const zone: SQL = sql`(case upper(${events.timezone}) ${sql.join(
  Object.entries(ZONE_BY_ABBREVIATION).map(([abbreviation, name]) => sql`when ${abbreviation} then ${name}`),
  sql` `,
)} else 'UTC' end)`;
export const startsAt: SQL = sql`((${events.eventDate} + ${events.eventTime}) at time zone ${zone})`;
/** The end instant: the stored one, else DEFAULT_EVENT_HOURS after the start (as `eventEnd`). */
export const endsAt: SQL = sql`coalesce((${events.endDate} + ${events.endTime}) at time zone ${zone}, ${startsAt} + make_interval(hours => ${DEFAULT_EVENT_HOURS}))`;

/** An event as the public pages need it: plain JSON, no internal columns. */
export interface EventSummary {
  id: string;
  title: string;
  description: string;
  eventDate: string;
  eventTime: string;
  timezone: string;
  worldName: string;
  applicationRequired: boolean;
  maxAttendees: number | null;
  featured: boolean;
  endDate: string | null;
  endTime: string | null;
  /** ISO instants of the start and the end. */
  startsAt: string;
  endsAt: string;
  /** Upcoming, live (started, not ended) or past (ended). */
  phase: EventPhase;
  isPast: boolean;
  /** The VRChat world, when the admins gave one, and its picture as VRChat last showed it. */
  worldId: string | null;
  worldImageUrl: string | null;
}

export interface EventDetail extends EventSummary {
  applicationDeadline: string | null;
  applicationInstructions: string | null;
  applicationState: ApplicationState;
}

export function toEventSummary(row: EventRow, now: Date): EventSummary {
  const start = eventStart(row);
  const phase = eventPhase(row, now);
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    eventDate: row.eventDate,
    eventTime: row.eventTime,
    timezone: row.timezone,
    worldName: row.worldName,
    applicationRequired: row.applicationRequired,
    maxAttendees: row.maxAttendees,
    featured: row.featured,
    endDate: row.endDate,
    endTime: row.endTime,
    startsAt: start.toISOString(),
    endsAt: eventEnd(row).toISOString(),
    phase,
    isPast: phase === "past",
    worldId: row.worldId,
    worldImageUrl: row.worldImageUrl,
  };
}

export function toEventDetail(row: EventRow, now: Date): EventDetail {
  return {
    ...toEventSummary(row, now),
    applicationDeadline: row.applicationDeadline?.toISOString() ?? null,
    applicationInstructions: row.applicationInstructions,
    applicationState: applicationState(row, now),
  };
}

/**
 * Events that have not ended yet (upcoming, or live now). The date bound lets the schedule index
 * narrow the scan: no zone is more than a day away from UTC and no event lasts more than
 * MAX_EVENT_DAYS, so nothing on now is dated before that (UTC).
 */
function notEndedBy(now: Date): SQL {
  const earliest = new Date(now.getTime() - (MAX_EVENT_DAYS + 1) * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  return and(gte(events.eventDate, earliest), sql`${endsAt} > ${now.toISOString()}::timestamptz`)!;
}

/** The featured event: the earliest featured one that has not ended yet. */
export async function getFeaturedEvent(db: Database, now: Date): Promise<EventSummary | null> {
  const [row] = await db
    .select()
    .from(events)
    .where(and(eq(events.featured, true), notEndedBy(now)))
    .orderBy(asc(startsAt), asc(events.id))
    .limit(1);
  return row ? toEventSummary(row, now) : null;
}

export async function listUpcomingEvents(
  db: Database,
  now: Date,
  limit?: number,
): Promise<EventSummary[]> {
  const query = db
    .select()
    .from(events)
    .where(notEndedBy(now))
    .orderBy(asc(startsAt), asc(events.id));
  const rows = limit === undefined ? await query : await query.limit(limit);
  return rows.map((row) => toEventSummary(row, now));
}

/** Every event, earliest first (the events page and the home calendar). */
export async function listEvents(db: Database, now: Date): Promise<EventSummary[]> {
  const rows = await db.select().from(events).orderBy(asc(startsAt), asc(events.id));
  return rows.map((row) => toEventSummary(row, now));
}

const EventIdSchema = z.uuid();

/** One event, or null when the id is unknown or not an id at all. */
export async function getEvent(db: Database, id: string): Promise<EventRow | null> {
  if (!EventIdSchema.safeParse(id).success) return null;
  const [row] = await db.select().from(events).where(eq(events.id, id)).limit(1);
  return row ?? null;
}

/**
 * A read for a public page that must render even when the database does not answer: the
 * failure is logged and the page shows its empty state (spec section 8).
 */
export async function orEmpty<T>(read: Promise<T[]>, what: string): Promise<T[]> {
  try {
    return await read;
  } catch (error) {
    log.error(`failed to read ${what}`, { error });
    return [];
  }
}

export interface EventCounts {
  total: number;
  upcoming: number;
  requiringApplications: number;
}

/** The dashboard's event figures, counted in SQL. */
export async function countEvents(db: Database, now: Date): Promise<EventCounts> {
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      upcoming: sql<number>`count(*) filter (where ${endsAt} > ${now.toISOString()}::timestamptz)::int`,
      requiringApplications: sql<number>`count(*) filter (where ${events.applicationRequired})::int`,
    })
    .from(events);
  return row!;
}

export interface AdminEventSummary extends EventSummary {
  applicationDeadline: string | null;
  applicationInstructions: string | null;
  applicationCount: number;
  pendingApplications: number;
  waitlistApplications: number;
  /** The staff member who hosts it. */
  hostId: string | null;
  /** VRChat confirmed its world (false when it has none, or it was not checked). */
  worldChecked: boolean;
  waitlistPromotion: WaitlistPromotion;
  /** Approvals wait for a proven VRChat account. */
  requiresProof: boolean;
  instanceLeadMinutes: number | null;
  instanceRegion: InstanceRegion;
  instanceAccess: InstanceAccess;
  /** The series it is an occurrence of ('Repeats'), or null. */
  series: SeriesSummary | null;
  /** Listed among the Discord server's events. */
  discordEvent: boolean;
  /** The VRChat calendar entry it was imported from. */
  vrchatEventId: string | null;
}

/**
 * Every event for the Sanctum, soonest first, with how many applications each has; with
 * `hostedBy`, only that staff member's events (what a host manages).
 */
export async function listEventsForAdmin(db: Database, now: Date, { hostedBy }: { hostedBy?: string } = {}): Promise<AdminEventSummary[]> {
  // Counted per event in one pass and joined: a correlated subquery written as SQL text would
  // meet drizzle's unqualified column names and count against itself.
  const counts = db
    .select({
      eventId: eventApplications.eventId,
      total: sql<number>`count(*)::int`.as("total"),
      pending: sql<number>`(count(*) filter (where ${eventApplications.status} = 'pending'))::int`.as("pending"),
      waitlist: sql<number>`(count(*) filter (where ${eventApplications.status} = 'waitlist'))::int`.as("waitlist"),
    })
    .from(eventApplications)
    .where(isNull(eventApplications.spamAt))
    .groupBy(eventApplications.eventId)
    .as("counts");
  const rows = await db
    .select({
      event: events,
      applicationCount: sql<number>`coalesce(${counts.total}, 0)`.mapWith(Number),
      pendingApplications: sql<number>`coalesce(${counts.pending}, 0)`.mapWith(Number),
      waitlistApplications: sql<number>`coalesce(${counts.waitlist}, 0)`.mapWith(Number),
    })
    .from(events)
    .leftJoin(counts, eq(counts.eventId, events.id))
    .where(hostedBy ? eq(events.hostId, hostedBy) : undefined)
    .orderBy(asc(events.eventDate), asc(events.eventTime), asc(events.id));
  const series = await listSeriesSummaries(db, rows.map(({ event }) => event));
  return rows.map(({ event, applicationCount, pendingApplications, waitlistApplications }) => ({
    ...toEventSummary(event, now),
    applicationDeadline: event.applicationDeadline?.toISOString() ?? null,
    applicationInstructions: event.applicationInstructions,
    applicationCount,
    pendingApplications,
    waitlistApplications,
    hostId: event.hostId,
    worldChecked: event.worldCheckedAt !== null,
    waitlistPromotion: event.waitlistPromotion,
    requiresProof: event.requiresProof,
    instanceLeadMinutes: event.instanceLeadMinutes,
    instanceRegion: event.instanceRegion,
    instanceAccess: event.instanceAccess,
    series: series.get(event.id) ?? null,
    discordEvent: event.discordEvent,
    vrchatEventId: event.vrchatEventId,
  }));
}

function eventValues(input: EventInput | EventToSave) {
  return {
    endDate: input.endDate,
    endTime: input.endTime,
    worldId: input.worldId,
    worldImageUrl: "worldImageUrl" in input ? input.worldImageUrl : null,
    worldCheckedAt: "worldCheckedAt" in input ? input.worldCheckedAt : null,
    title: input.title,
    description: input.description,
    eventDate: input.eventDate,
    eventTime: input.eventTime,
    timezone: input.timezone,
    worldName: input.worldName,
    applicationRequired: input.applicationRequired,
    requiresProof: input.requiresProof,
    applicationDeadline: input.applicationDeadline ? applicationDeadlineFor(input.applicationDeadline, input.timezone) : null,
    maxAttendees: input.maxAttendees ?? null,
    applicationInstructions: input.applicationInstructions ?? null,
    waitlistPromotion: input.waitlistPromotion,
    instanceLeadMinutes: input.instanceLeadMinutes,
    instanceRegion: input.instanceRegion,
    instanceAccess: input.instanceAccess,
    featured: input.featured,
    discordEvent: input.discordEvent,
  };
}

/**
 * What the admins want on the group's VRChat calendar, when publishing is on: the choices (null:
 * not there) and the event page's address for an event id. Absent: the calendar is left as it is.
 */
export interface PublicationChange extends CalendarSaver {
  choice: PublicationChoice | null;
  pageUrl: (eventId: string) => string;
}

/** Creates an event hosted by `hostId` (by default its creator). */
export async function createEvent(db: Database, input: EventInput | EventToSave, createdBy: string, publication?: PublicationChange, hostId: string = createdBy): Promise<string> {
  return db.transaction(async (tx) => (await createEventIn(tx, input, createdBy, publication, hostId)).id);
}

export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** createEvent inside a caller's transaction; `series`: the occurrence of a series it is. */
export async function createEventIn(
  tx: Transaction,
  input: EventInput | EventToSave,
  createdBy: string | null,
  publication: PublicationChange | undefined,
  hostId: string | null,
  series?: { seriesId: string; seriesIndex: number },
): Promise<EventRow> {
  const [row] = await tx.insert(events).values({ ...eventValues(input), createdBy, hostId, ...series }).returning();
  if (publication?.choice) await savePublication(tx, row!, publication.choice, publication.pageUrl(row!.id), new Date(), publication);
  await touchDiscordEvent(tx, row!.id, row!, new Date());
  return row!;
}

/**
 * Whether the event existed. `hostId` (when given) hands it to another staff member; `afterSave`
 * runs in the same transaction, with the event's row locked (its freed places filled from the
 * waitlist, when it has more now).
 */
export async function updateEvent(
  db: Database,
  id: string,
  input: EventInput | EventToSave,
  publication?: PublicationChange,
  hostId?: string,
  afterSave?: (tx: Transaction, row: EventRow) => Promise<void>,
): Promise<boolean> {
  if (!EventIdSchema.safeParse(id).success) return false;
  return db.transaction(async (tx) => (await updateEventIn(tx, id, input, publication, hostId, afterSave)) !== null);
}

/** updateEvent inside a caller's transaction: the event as saved, or null when it does not exist. */
export async function updateEventIn(
  tx: Transaction,
  id: string,
  input: EventInput | EventToSave,
  publication?: PublicationChange,
  hostId?: string,
  afterSave?: (tx: Transaction, row: EventRow) => Promise<void>,
): Promise<EventRow | null> {
  const [row] = await tx.update(events).set({ ...eventValues(input), ...(hostId ? { hostId } : {}) }).where(eq(events.id, id)).returning();
  if (!row) return null;
  if (publication) await savePublication(tx, row, publication.choice, publication.pageUrl(row.id), new Date(), publication);
  await touchDiscordEvent(tx, row.id, row, new Date());
  await afterSave?.(tx, row);
  return row;
}

/**
 * Deletes an event with its questions and applications; whether it existed. Its entry on VRChat's
 * calendar, if it has one, is queued for removal in the same transaction.
 */
/** Whether the event's applicants may edit their answers while they wait (the owner's choice, per form). */
export async function setEventApplicantEdits(db: Database, id: string, allowed: boolean): Promise<boolean> {
  const rows = await db.update(events).set({ applicantEdits: allowed }).where(eq(events.id, id)).returning({ id: events.id });
  return rows.length > 0;
}

export async function deleteEvent(db: Database, id: string, beforeDelete?: (tx: Transaction, id: string) => Promise<void>): Promise<boolean> {
  if (!EventIdSchema.safeParse(id).success) return false;
  return db.transaction((tx) => deleteEventIn(tx, id, beforeDelete));
}

/** deleteEvent inside a caller's transaction. */
export async function deleteEventIn(tx: Transaction, id: string, beforeDelete?: (tx: Transaction, id: string) => Promise<void>): Promise<boolean> {
  await withdrawPublication(tx, id, new Date());
  await touchDiscordEvent(tx, id, null, new Date());
  await beforeDelete?.(tx, id);
  const rows = await tx.delete(events).where(eq(events.id, id)).returning({ id: events.id });
  return rows.length > 0;
}
