import { appContext } from "~/context";
import { CALENDAR_HEADERS, calendarFileName, calendarOf } from "~/features/events/calendar-feed.server";
import { getEvent } from "~/features/events/events.server";
import { m } from "~/paraglide/messages";
import { log } from "~/utils/log.server";
import type { Route } from "./+types/events.$id.calendar[.]ics";

/** /events/{id}/calendar.ics: one event, to open in a calendar app ('Add to calendar' on its page). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { db, config } = context.get(appContext);
  try {
    const event = await getEvent(db, params.id);
    if (!event) return new Response(m.feed_no_event(), { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    const body = calendarOf([event], { origin: config.PUBLIC_URL, name: event.title }, new Date());
    return new Response(body, {
      headers: { ...CALENDAR_HEADERS, "Content-Disposition": `attachment; filename="${calendarFileName(event.title)}"`, "Cache-Control": "public, max-age=300" },
    });
  } catch (error) {
    log.error("failed to make an event's calendar file", { error, eventId: params.id });
    return new Response(m.feed_event_failed(), { status: 503, headers: { "Retry-After": "60", "Content-Type": "text/plain; charset=utf-8" } });
  }
}
