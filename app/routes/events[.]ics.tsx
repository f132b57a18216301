import { appContext } from "~/context";
import { CALENDAR_HEADERS, calendarOf, listFeedEvents } from "~/features/events/calendar-feed.server";
import { m } from "~/paraglide/messages";
import { log } from "~/utils/log.server";
import type { Route } from "./+types/events[.]ics";

/** The feed's name, in the language it is asked in (`?lang=`, as the events page links it, or the app's language). */
export const FEED_NAME = m.feed_name;

/** /events.ics: the calendar feed a calendar app subscribes to ('Subscribe to calendar' on /events). */
export async function loader({ context }: Route.LoaderArgs) {
  const { db, config } = context.get(appContext);
  const now = new Date();
  try {
    const body = calendarOf(await listFeedEvents(db, now), { origin: config.PUBLIC_URL, name: FEED_NAME() }, now);
    return new Response(body, { headers: { ...CALENDAR_HEADERS, "Cache-Control": "public, max-age=300" } });
  } catch (error) {
    log.error("failed to make the calendar feed", { error });
    return new Response(m.feed_failed(), { status: 503, headers: { "Retry-After": "60", "Content-Type": "text/plain; charset=utf-8" } });
  }
}
