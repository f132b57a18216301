import { CalendarSync, CalendarX } from "lucide";
import { Icon } from "~/components/ui/icon";
import { clsx } from "clsx";
import { EmptyState } from "~/components/ui/empty-state";
import { appContext } from "~/context";
import { EventCard } from "~/features/events/event-card";
import { listEvents, orEmpty } from "~/features/events/events.server";
import { m } from "~/paraglide/messages";
import { previewMeta } from "~/utils/preview-meta.server";
import type { Route } from "./+types/_site.events._index";

export async function loader({ context }: Route.LoaderArgs) {
  const { db, vrchat, config, language } = context.get(appContext);
  // The spec syncs before reading the list; here the sync is throttled and runs in the background
  // (and on a schedule), so a slow VRChat never holds the page.
  vrchat.eventSync.runInBackground();
  const events = await orEmpty(listEvents(db, new Date()), "events");
  const feed = new URL("/events.ics", config.PUBLIC_URL);
  // A calendar app asks in its own language: the feed is subscribed to in the page's, unless that is the default.
  if (language !== config.SITE_LANGUAGES[0]) feed.searchParams.set("lang", language);
  return {
    meta: previewMeta(config.PUBLIC_URL, {
      title: m.events_title(),
      previewTitle: m.events_preview_title(),
      description: m.events_intro(),
      path: "/events",
    }),
    // Calendar apps subscribe to webcal:// links (the same address, fetched over http(s)).
    subscribeUrl: `webcal://${feed.host}${feed.pathname}${feed.search}`,
    downloadUrl: `${feed.pathname}${feed.search}`,
    upcoming: events.filter((event) => !event.isPast),
    // Most recent first: the past section reads backwards from today.
    past: events.filter((event) => event.isPast).reverse(),
  };
}

// A route's meta replaces the root's: the loader gives the whole set, preview tags included.
export function meta({ loaderData }: Route.MetaArgs) {
  return loaderData?.meta ?? [{ title: m.events_title() }];
}

/** One column for one upcoming event, two for two, three on large screens for more. */
function upcomingGrid(count: number) {
  if (count === 1) return "grid-cols-1 max-w-2xl";
  if (count === 2) return "grid-cols-1 md:grid-cols-2";
  return "grid-cols-1 md:grid-cols-2 lg:grid-cols-3";
}

export default function EventsPage({ loaderData }: Route.ComponentProps) {
  const { upcoming, past, subscribeUrl, downloadUrl } = loaderData;
  const none = upcoming.length === 0 && past.length === 0;
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <h1 className="font-display text-5xl text-mist-100">{m.nav_prophecies()}</h1>
      <p className="mt-3 max-w-2xl text-mist-300">
        {m.events_intro()}
      </p>
      <p className="mt-4 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <a href={subscribeUrl} className="inline-flex items-center gap-1.5 font-semibold text-aurora-300 underline hover:text-ember-300">
          <Icon node={CalendarSync} className="size-4" />
          {m.events_subscribe()}
        </a>
        <span className="text-mist-400">
          {m.events_or()}{" "}
          <a href={downloadUrl} className="text-aurora-300 underline hover:text-ember-300">
            {m.events_download()}
          </a>
        </span>
      </p>

      {none ? (
        <EmptyState
          className="mt-10"
          icon={<Icon node={CalendarX} className="size-10" />}
          title={m.calendar_none_title()}
          description={m.events_none_text()}
        />
      ) : (
        <>
          <section aria-labelledby="upcoming-heading" className="mt-10">
            <h2 id="upcoming-heading" className="mb-6 font-display text-3xl text-ember-300">
              {m.events_upcoming_heading()}
            </h2>
            {upcoming.length === 0 ? (
              <EmptyState
                title={m.calendar_none_title()}
                description={m.events_none_text()}
              />
            ) : (
              <div className={clsx("grid gap-6", upcomingGrid(upcoming.length))}>
                {upcoming.map((event) => (
                  <EventCard key={event.id} event={event} />
                ))}
              </div>
            )}
          </section>
          {past.length > 0 ? (
            <section aria-labelledby="past-heading" className="mt-16">
              <h2 id="past-heading" className="mb-6 font-display text-2xl text-mist-400">
                {m.stats_past_events()}
              </h2>
              <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
                {past.map((event) => (
                  <EventCard key={event.id} event={event} past />
                ))}
              </div>
            </section>
          ) : null}
        </>
      )}
    </div>
  );
}
