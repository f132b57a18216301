import { eventStart, type EventSchedule } from "./event-timing";

/** How long an event is taken to last where a calendar needs an end: events here have a start only. */
export const ASSUMED_EVENT_HOURS = 2;

const calendarTime = (instant: Date) => instant.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");

/** A link that opens Google Calendar with the event filled in (any calendar app can take it from there). */
export function addToCalendarUrl(event: EventSchedule & { title: string; worldName: string }, pageUrl: string): string {
  const start = eventStart(event);
  const end = new Date(start.getTime() + ASSUMED_EVENT_HOURS * 60 * 60 * 1000);
  const params = new URLSearchParams({
    action: "TEMPLATE",
    text: event.title,
    dates: `${calendarTime(start)}/${calendarTime(end)}`,
    details: pageUrl,
    location: `VRChat: ${event.worldName}`,
  });
  return `https://calendar.google.com/calendar/render?${params}`;
}
