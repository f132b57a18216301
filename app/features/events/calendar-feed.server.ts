/**
 * The events as iCalendar (RFC 5545), for calendar apps: the feed of every upcoming event and those
 * of the last 30 days, and one event on its own. ical-generator writes the format (escaping, line
 * folding at 75 octets, DTSTAMP); times are given in UTC, which every calendar shows in its own
 * zone. An event ends at its stored end (two hours after its start for events saved before ends were kept).
 */
import ical, { ICalCalendarMethod } from "ical-generator";
import { asc, gte } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { events, type EventRow } from "~/db/schema";
import { singleLine } from "~/utils/text";
import { m } from "~/paraglide/messages";
import { currentLanguage } from "~/utils/language";
import { eventEnd, eventStart } from "./event-timing";

/** How far back the feed reaches: past events stay in calendars a while, as on the events page. */
export const FEED_LOOKBACK_DAYS = 30;

const DAY = 24 * 60 * 60 * 1000;

/** The feed's events: those starting from 30 days ago on, earliest first. */
export async function listFeedEvents(db: Database, now: Date): Promise<EventRow[]> {
  const from = new Date(now.getTime() - FEED_LOOKBACK_DAYS * DAY);
  // A day's margin on the date: no zone is more than a day from UTC.
  const fromDate = new Date(from.getTime() - DAY).toISOString().slice(0, 10);
  const rows = await db.select().from(events).where(gte(events.eventDate, fromDate)).orderBy(asc(events.eventDate), asc(events.eventTime), asc(events.id));
  return rows.filter((row) => eventStart(row).getTime() >= from.getTime());
}

export interface FeedSite {
  /** The site's origin, for the events' links and their UIDs. */
  origin: string;
  name: string;
}

/** A calendar of these events, as text/calendar. */
export function calendarOf(rows: readonly EventRow[], site: FeedSite, now: Date): string {
  const calendar = ical({
    // A calendar's name and an event's one-line fields never carry a line break (they would start a property).
    name: singleLine(site.name),
    prodId: { company: "Dwell", product: "events", language: currentLanguage().toUpperCase() },
    method: ICalCalendarMethod.PUBLISH,
    url: `${site.origin}/events`,
    // Calendar apps poll a subscription; an hour is often enough for a group's events.
    ttl: 60 * 60,
  });
  for (const row of rows) {
    const start = eventStart(row);
    const page = `${site.origin}/events/${row.id}`;
    const notes = [row.description.trim(), row.applicationRequired ? m.feed_application_required({ link: `${page}/apply` }) : null, page].filter(Boolean);
    calendar.createEvent({
      // Stable for the event whatever changes in it, and whatever address the feed was asked at
      // (a forged Host header cannot change it): the event's id is unique on its own.
      id: `${row.id}@dwell`,
      start,
      end: eventEnd(row),
      stamp: now,
      lastModified: row.updatedAt,
      summary: singleLine(row.title),
      description: notes.join("\n\n"),
      location: `VRChat: ${singleLine(row.worldName)}`,
      url: page,
    });
  }
  return calendar.toString();
}

/** A file name for one event's .ics: its title, reduced to plain letters. */
export function calendarFileName(title: string): string {
  const base = title.normalize("NFKD").replace(/[^\w\s-]/g, "").trim().replace(/\s+/g, "-").toLowerCase().slice(0, 60);
  return `${base || "event"}.ics`;
}

export const CALENDAR_HEADERS = { "Content-Type": "text/calendar; charset=utf-8" } as const;

