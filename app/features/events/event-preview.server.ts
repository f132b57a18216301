/** How an event's page reads where its link is pasted: a line for previews, and schema.org Event data. */
import type { EventRow } from "~/db/schema";
import { m } from "~/paraglide/messages";
import { eventEnd, eventStart, formatLongDateTime, zoneOf } from "./event-timing";

/** "2026-11-28T20:00:00-05:00": the instant in the event's own zone, with its offset then. */
export function isoWithOffset(instant: Date, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      timeZoneName: "longOffset",
    })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  const offset = parts.timeZoneName === "GMT" ? "+00:00" : String(parts.timeZoneName).replace("GMT", "");
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}

/** "Saturday, November 28, 2026 at 8:00 PM EST · in The Black Cat · Application Required", in the page's language */
export function eventPreviewLine(event: EventRow): string {
  const when = formatLongDateTime(eventStart(event), zoneOf(event.timezone));
  return [when, m.preview_in_world({ world: event.worldName }), event.applicationRequired ? m.preview_application_required() : null].filter(Boolean).join(" · ");
}

/** schema.org Event, for search engines and link previews that read it. */
export function eventStructuredData(event: EventRow, site: { origin: string; image: string }): Record<string, unknown> {
  const zone = zoneOf(event.timezone);
  const start = eventStart(event);
  const end = eventEnd(event);
  const url = `${site.origin}/events/${event.id}`;
  return {
    "@context": "https://schema.org",
    "@type": "Event",
    name: event.title,
    description: event.description,
    startDate: isoWithOffset(start, zone),
    endDate: isoWithOffset(end, zone),
    eventStatus: "https://schema.org/EventScheduled",
    eventAttendanceMode: "https://schema.org/OnlineEventAttendanceMode",
    location: { "@type": "VirtualLocation", name: `VRChat: ${event.worldName}`, url },
    organizer: { "@type": "Organization", name: "The Dwellers", url: site.origin },
    image: [site.image],
    url,
  };
}
