import { data, href } from "react-router";
import { appContext } from "~/context";
import { listPlaces } from "~/features/applications/capacity.server";
import { placesLeftText } from "~/features/applications/places";
import { cardVersion } from "~/features/events/event-card-image.server";
import { EventDetailView, EventNotFound } from "~/features/events/event-detail";
import { eventPreviewLine, eventStructuredData } from "~/features/events/event-preview.server";
import { getEvent, toEventDetail } from "~/features/events/events.server";
import { seriesOnPage } from "~/features/events/event-series.server";
import { getOpenInstance } from "~/features/events/event-instances.server";
import { shortJoinLink } from "~/features/vrchat/vrchat-location";
import { previewMeta } from "~/utils/preview-meta.server";
import { log } from "~/utils/log.server";
import type { Route } from "./+types/_site.events.$id";
import { m } from "~/paraglide/messages";
import { truncate } from "~/utils/text";
import { currentLanguage } from "~/utils/language";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { db, config } = context.get(appContext);
  const origin = config.PUBLIC_URL;
  const pageUrl = origin + new URL(request.url).pathname;
  try {
    const row = await getEvent(db, params.id);
    if (!row) return data({ event: null, pageUrl, meta: null }, { status: 404 });
    const line = eventPreviewLine(row);
    // The picture speaks the page's language (its address names it, so each language is its own picture).
    const language = currentLanguage() === config.SITE_LANGUAGES[0] ? "" : `&lang=${currentLanguage()}`;
    const image = `${origin}${href("/events/:id/card.jpg", { id: row.id })}?v=${cardVersion(row)}${language}`;
    const meta = previewMeta(origin, {
      image: { url: image, alt: `${row.title}: ${line}` },
      title: `${row.title} · Dwell`,
      previewTitle: row.title,
      description: truncate([line, row.description.trim()].filter(Boolean).join(". "), 300),
      path: new URL(request.url).pathname,
      structuredData: eventStructuredData(row, { origin, image }),
    });
    const places = row.maxAttendees !== null ? (await listPlaces(db, [row.id])).get(row.id) : undefined;
    const event = toEventDetail(row, new Date());
    // A 'Group Public' instance is open to anyone: its short link (which names neither its owner nor
    // its nonce) is for everyone. Any other instance's link is never shown here.
    const open = row.instanceAccess === "public" && !row.applicationRequired && !event.isPast ? await getOpenInstance(db, row.id) : null;
    const joinUrl = open?.shortName ? shortJoinLink(open.shortName) : null;
    const series = await seriesOnPage(db, row, new Date());
    return { event, pageUrl, meta, places: places ? placesLeftText(places) : null, joinUrl, series };
  } catch (error) {
    log.error("failed to read an event", { error, eventId: params.id });
    return data({ event: null, pageUrl, meta: null }, { status: 503 });
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData?.meta ?? [{ title: m.event_not_found_title() }];
}

export default function EventPage({ loaderData }: Route.ComponentProps) {
  return loaderData.event ? <EventDetailView event={loaderData.event} pageUrl={loaderData.pageUrl} places={loaderData.places} joinUrl={loaderData.joinUrl} series={loaderData.series} /> : <EventNotFound />;
}
