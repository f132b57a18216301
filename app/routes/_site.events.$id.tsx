import { data } from "react-router";
import { appContext } from "~/context";
import { EventDetailView, EventNotFound } from "~/features/events/event-detail";
import { getEvent, toEventDetail } from "~/features/events/events.server";
import { log } from "~/utils/log.server";
import type { Route } from "./+types/_site.events.$id";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { db } = context.get(appContext);
  const pageUrl = new URL(request.url).origin + new URL(request.url).pathname;
  try {
    const row = await getEvent(db, params.id);
    if (!row) return data({ event: null, pageUrl }, { status: 404 });
    return { event: toEventDetail(row, new Date()), pageUrl };
  } catch (error) {
    log.error("failed to read an event", { error, eventId: params.id });
    return data({ event: null, pageUrl }, { status: 503 });
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  const event = loaderData?.event;
  if (!event) return [{ title: "Event not found · Dwell" }];
  return [
    { title: `${event.title} · Dwell` },
    { name: "description", content: event.description.slice(0, 160) },
  ];
}

export default function EventPage({ loaderData }: Route.ComponentProps) {
  return loaderData.event ? <EventDetailView event={loaderData.event} pageUrl={loaderData.pageUrl} /> : <EventNotFound />;
}
