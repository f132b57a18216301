/**
 * Everything about when an event happens, in one place: its start instant, whether it is past,
 * whether its applications are open, which calendar day it falls on for a viewer, and how its
 * dates read. Pure functions of their inputs (`now` and time zones are always passed in), so the
 * server and the browser compute the same thing. See docs/decisions/002-time-model.md.
 */
import { m } from "~/paraglide/messages";
import { currentLanguage, dateFormat } from "~/utils/language";

/** The zones an admin can choose for an event (spec section 9). */
export const EVENT_TIMEZONES = ["UTC", "PST", "EST", "CST", "MST"] as const;
export type EventTimezone = (typeof EVENT_TIMEZONES)[number];

/**
 * Abbreviations stand for regional zones, so daylight saving applies: an event at 19:00 "PST"
 * in July starts at 19:00 Pacific daylight time. MST is Mountain time with DST (Denver), the
 * zone most of the region keeps.
 */
export const ZONE_BY_ABBREVIATION = {
  UTC: "UTC",
  EST: "America/New_York",
  EDT: "America/New_York",
  CST: "America/Chicago",
  CDT: "America/Chicago",
  MST: "America/Denver",
  MDT: "America/Denver",
  PST: "America/Los_Angeles",
  PDT: "America/Los_Angeles",
} as const;

export type TimezoneAbbreviation = keyof typeof ZONE_BY_ABBREVIATION;
export const TIMEZONE_ABBREVIATIONS = Object.keys(ZONE_BY_ABBREVIATION) as TimezoneAbbreviation[];

export function isTimezoneAbbreviation(value: unknown): value is TimezoneAbbreviation {
  return typeof value === "string" && Object.hasOwn(ZONE_BY_ABBREVIATION, value);
}

/** The IANA zone of an event's timezone value; missing or unknown values are UTC. */
export function zoneOf(timezone: string | null | undefined): string {
  const key = timezone?.trim().toUpperCase();
  return isTimezoneAbbreviation(key) ? ZONE_BY_ABBREVIATION[key] : "UTC";
}

/** The fields of an event that decide its timing; the names are the table's. */
export interface EventSchedule {
  eventDate: string; // yyyy-MM-dd
  eventTime: string; // HH:mm or HH:mm:ss
  timezone?: string | null;
  /** Its end, on the clocks of the same zone; absent on events saved before ends were kept. */
  endDate?: string | null;
  endTime?: string | null;
}

export interface EventApplicationRules extends EventSchedule {
  applicationRequired: boolean;
  applicationDeadline: Date | null;
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_PATTERN = /^(\d{2}):(\d{2})(?::(\d{2}))?/;

function parseDate(date: string): [number, number, number] {
  const match = DATE_PATTERN.exec(date);
  if (!match) throw new RangeError(`Not a calendar date: ${date}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

function parseTime(time: string): [number, number, number] {
  const match = TIME_PATTERN.exec(time);
  if (!match) throw new RangeError(`Not a time of day: ${time}`);
  return [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
}

const DAY_MS = 86_400_000;

/**
 * The instant a wall-clock time happens in a zone. A time skipped by a DST change (02:30 on the
 * spring-forward night) resolves to the same clock time an hour later (03:30); a time
 * that happens twice (01:30 on the fall-back night) resolves to the first of the two.
 */
export function wallTimeToInstant(date: string, time: string, zone: string): Date {
  const [year, month, day] = parseDate(date);
  const [hours, minutes, seconds] = parseTime(time);
  const wall = Date.UTC(year, month - 1, day, hours, minutes, seconds);
  // A zone changes its offset at most once in any two days, so the offsets a day either side
  // are the only candidates: the wall time is real under one of them, or both (it repeats), or
  // neither (it was skipped, and the offset before the change carries it past the gap).
  const before = wall - zoneOffset(wall - DAY_MS, zone);
  const after = wall - zoneOffset(wall + DAY_MS, zone);
  const real = [before, after].filter((instant) => instant + zoneOffset(instant, zone) === wall);
  return new Date(real.length > 0 ? Math.min(...real) : before);
}

/** How far a zone's clocks are ahead of UTC at an instant, in milliseconds. */
function zoneOffset(instant: number, zone: string): number {
  const clock = wallClock(instant, zone);
  const wholeSecond = Math.floor(instant / 1000) * 1000;
  return Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second) - wholeSecond;
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The date and time a zone's clocks show at an instant. */
export function wallClock(instant: number, zone: string): WallClock {
  const parts = formatter({
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  }).formatToParts(new Date(instant));
  const clock: WallClock = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const part of parts) {
    if (part.type in clock) clock[part.type as keyof WallClock] = Number(part.value);
  }
  return clock;
}

export function eventStart(event: EventSchedule): Date {
  return wallTimeToInstant(event.eventDate, event.eventTime, zoneOf(event.timezone));
}

/** How long an event without a stored end is taken to last, and the form's default length. */
export const DEFAULT_EVENT_HOURS = 2;
export const HOUR_MS = 60 * 60 * 1000;

/** The end instant: the stored one, else DEFAULT_EVENT_HOURS after the start. */
export function eventEnd(event: EventSchedule): Date {
  if (event.endDate && event.endTime) return wallTimeToInstant(event.endDate, event.endTime, zoneOf(event.timezone));
  return new Date(eventStart(event).getTime() + DEFAULT_EVENT_HOURS * HOUR_MS);
}

export type EventPhase = "upcoming" | "live" | "past";

/** Upcoming before its start, live until its end, past ("Completed") from then on. */
export function eventPhase(event: EventSchedule, now: Date): EventPhase {
  if (now.getTime() < eventStart(event).getTime()) return "upcoming";
  return now.getTime() < eventEnd(event).getTime() ? "live" : "past";
}

/** Whether the event has ended. */
export function isEventPast(event: EventSchedule, now: Date): boolean {
  return eventPhase(event, now) === "past";
}

/** Whether the event has started (applications close then: nobody is admitted to a night under way). */
export function hasEventStarted(event: EventSchedule, now: Date): boolean {
  return eventStart(event).getTime() <= now.getTime();
}

/** The deadline an admin means by choosing a date: that day's 23:59:59 in the event's zone. */
export function applicationDeadlineFor(date: string, timezone: string | null | undefined): Date {
  return wallTimeToInstant(date, "23:59:59", zoneOf(timezone));
}

export const APPLICATION_STATES = [
  "open",
  "not-required",
  "event-past",
  "deadline-passed",
] as const;
export type ApplicationState = (typeof APPLICATION_STATES)[number];

/** Open only when required, the event has not started, and the deadline (if any) has not passed. */
export function applicationState(event: EventApplicationRules, now: Date): ApplicationState {
  if (!event.applicationRequired) return "not-required";
  if (hasEventStarted(event, now)) return "event-past";
  if (event.applicationDeadline && event.applicationDeadline.getTime() < now.getTime()) {
    return "deadline-passed";
  }
  return "open";
}

export function isDeadlinePassed(deadline: Date | null, now: Date): boolean {
  return deadline !== null && deadline.getTime() < now.getTime();
}

/** The viewer's calendar day (yyyy-MM-dd) of an instant. */
export function localDayKey(instant: Date, timeZone: string): string {
  const { year, month, day } = wallClock(instant.getTime(), timeZone);
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** The first instant of the viewer's today: days before it cannot be chosen on the calendar. */
export function startOfLocalDay(now: Date, timeZone: string): Date {
  return wallTimeToInstant(localDayKey(now, timeZone), "00:00:00", timeZone);
}

/** A time zone name the runtime knows, or null. Guards the viewer's zone read from a cookie. */
export function validTimeZone(value: string | null | undefined): string | null {
  if (!value || value.length > 64) return null;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    // RangeError: not a zone this runtime knows.
    return null;
  }
}

// Dates read in the page's language: en-US for English (spec section 9), the language's own way
// otherwise; a zone's short name is always the English one ("EST"), as events are set in them.
// Formatters are made once (utils/language): building one is costly.
function formatter(options: Intl.DateTimeFormatOptions, language = currentLanguage()) {
  const intl = dateFormat(options, language);
  return {
    // ICU versions disagree on the space before AM/PM (U+202F or a plain one); a server and a
    // browser that disagreed would break hydration, so it is always a plain space.
    format: (instant: Date) => intl.format(instant).replace(/[\u202f\u00a0]/g, " "),
    formatToParts: (instant: Date) => intl.formatToParts(instant),
  };
}

/** A day with its weekday, the way each language writes it in full. */
const LONG_DATE: Record<string, Intl.DateTimeFormatOptions> = {
  en: { dateStyle: "full" },
  ja: { year: "numeric", month: "long", day: "numeric", weekday: "short" },
};
const longDateOptions = () => LONG_DATE[currentLanguage()] ?? { dateStyle: "full" };

/** "Saturday, November 28, 2026"; "2026年11月28日(土)" */
export function formatLongDate(instant: Date, timeZone: string): string {
  return formatter({ ...longDateOptions(), timeZone }).format(instant);
}

/** "Nov 28, 2026" */
export function formatShortDate(instant: Date, timeZone: string): string {
  return formatter({ dateStyle: "medium", timeZone }).format(instant);
}

/** "7:00 PM" */
export function formatTime(instant: Date, timeZone: string): string {
  return formatter({ hour: "numeric", minute: "2-digit", timeZone }).format(instant);
}

/** "PST", "EDT", "GMT+1": the zone's short name at that instant. */
export function formatZoneName(instant: Date, timeZone: string): string {
  const parts = formatter({ timeZoneName: "short", timeZone }, "en").formatToParts(instant);
  return parts.find((part) => part.type === "timeZoneName")?.value ?? timeZone;
}

/** "Saturday, November 28, 2026 at 11:59 PM PST"; "2026年11月28日(土) 23:59 PST" */
export function formatLongDateTime(instant: Date, timeZone: string): string {
  return m.date_at_time({ date: formatLongDate(instant, timeZone), time: formatTime(instant, timeZone), zone: formatZoneName(instant, timeZone) });
}

/** The event's own date (long US style), read from its stored date without any zone shift. */
export function formatEventDate(eventDate: string): string {
  const [year, month, day] = parseDate(eventDate);
  return formatLongDate(new Date(Date.UTC(year, month - 1, day, 12)), "UTC");
}

export interface EventTimeLabels {
  /** "7:00 PM PST": the time where the event happens. */
  eventTime: string;
  /** "10:00 PM EST, Sat, Nov 28": the same moment for the viewer, or null when it reads the same. */
  viewerTime: string | null;
}

export function eventTimeLabels(event: EventSchedule, viewerTimeZone: string): EventTimeLabels {
  const start = eventStart(event);
  const zone = zoneOf(event.timezone);
  const eventTime = `${formatTime(start, zone)} ${formatZoneName(start, zone)}`;
  const viewerClock = `${formatTime(start, viewerTimeZone)} ${formatZoneName(start, viewerTimeZone)}`;
  if (viewerClock === eventTime) return { eventTime, viewerTime: null };
  const sameDay = localDayKey(start, viewerTimeZone) === localDayKey(start, zone);
  if (sameDay) return { eventTime, viewerTime: viewerClock };
  const day = formatter({ weekday: "short", month: "short", day: "numeric", timeZone: viewerTimeZone }).format(start);
  return { eventTime, viewerTime: m.time_on_day({ time: viewerClock, day }) };
}

/** "until 9:00 PM PST", or "until 1:00 AM PST, Sun, Nov 29" when it ends on a later day: where the event happens. */
export function eventEndLabel(event: EventSchedule): string {
  const zone = zoneOf(event.timezone);
  const start = eventStart(event);
  const end = eventEnd(event);
  const clock = `${formatTime(end, zone)} ${formatZoneName(end, zone)}`;
  if (localDayKey(end, zone) === localDayKey(start, zone)) return m.event_until({ time: clock });
  return m.event_until_day({ time: clock, day: formatter({ weekday: "short", month: "short", day: "numeric", timeZone: zone }).format(end) });
}
