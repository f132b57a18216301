import { eventEnd, eventStart, type EventSchedule } from "./event-timing";

const calendarTime = (instant: Date) => instant.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");

/** A link that opens Google Calendar with the event filled in (any calendar app can take it from there). */
export function addToCalendarUrl(event: EventSchedule & { title: string; worldName: string }, pageUrl: string): string {
  const start = eventStart(event);
  const end = eventEnd(event);
  const params = new URLSearchParams({
    action: "TEMPLATE",
    text: event.title,
    dates: `${calendarTime(start)}/${calendarTime(end)}`,
    details: pageUrl,
    location: `VRChat: ${event.worldName}`,
  });
  return `https://calendar.google.com/calendar/render?${params}`;
}

/** A link that opens Outlook on the web with the event filled in. */
export function outlookCalendarUrl(event: EventSchedule & { title: string; worldName: string }, pageUrl: string): string {
  const start = eventStart(event);
  const end = eventEnd(event);
  const params = new URLSearchParams({
    path: "/calendar/action/compose",
    rru: "addevent",
    subject: event.title,
    startdt: start.toISOString(),
    enddt: end.toISOString(),
    body: pageUrl,
    location: `VRChat: ${event.worldName}`,
  });
  return `https://outlook.live.com/calendar/0/action/compose?${params}`;
}
