import { ArrowRight, Globe, MessageCircle } from "lucide";
import { Icon } from "~/components/ui/icon";
import { href, Link, useRouteLoaderData } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { appContext } from "~/context";
import { EventCalendar } from "~/features/events/event-calendar";
import { EventCard } from "~/features/events/event-card";
import { EventWhen } from "~/features/events/event-when";
import {
  getFeaturedEvent,
  listEvents,
  listUpcomingEvents,
  orEmpty,
  type EventSummary,
} from "~/features/events/events.server";
import { HeroVideo } from "~/features/site/hero-video";
import { LatestNews } from "~/features/announcements/latest-news";
import { listNews } from "~/features/announcements/announcements.server";
import { summaryOf } from "~/features/announcements/announcement-text";
import { forVisitors, GROUP_DATA_FAILED, type GroupDataState } from "~/features/vrchat/group-data";
import { GroupStats } from "~/features/vrchat/group-stats";
import { m } from "~/paraglide/messages";
import { currentLanguage } from "~/utils/language";
import { log } from "~/utils/log.server";
import type { loader as rootLoader } from "../root";
import type { Route } from "./+types/_site._index";

/** Upcoming events shown on the home page (spec section 9). */
const HOME_UPCOMING_LIMIT = 3;

/** The latest public announcement, shortened for the home page; none when it cannot be read. */
async function latestNews(db: Parameters<typeof listNews>[0], now: Date, language: string, defaultLanguage: string) {
  try {
    const { items } = await listNews(db, { now, language, defaultLanguage, limit: 1 });
    const item = items[0];
    return item ? { id: item.id, title: item.title, summary: summaryOf(item.text, 240), publishedAt: item.publishedAt, language: item.language } : null;
  } catch (error) {
    log.error("failed to read the latest announcement", { error });
    return null;
  }
}

export async function loader({ context }: Route.LoaderArgs) {
  const { db, vrchat, config, language } = context.get(appContext);
  const now = new Date();
  // Opening the home page asks for an event sync (spec section 7): throttled, in the background.
  vrchat.eventSync.runInBackground();
  const [featured, upcoming, calendar, groupData, news] = await Promise.all([
    getFeaturedEvent(db, now).catch((error: unknown) => {
      log.error("failed to read the featured event", { error });
      return null;
    }),
    orEmpty(listUpcomingEvents(db, now, HOME_UPCOMING_LIMIT), "upcoming events"),
    orEmpty(listEvents(db, now), "events"),
    vrchat.groupData.peek().then(forVisitors, (error: unknown): GroupDataState => {
      log.error("reading the group data failed", { error });
      return { status: "error", message: GROUP_DATA_FAILED };
    }),
    latestNews(db, now, language, config.SITE_LANGUAGES[0]!),
  ]);
  return { featured, upcoming, calendar, groupData, news, now: now.toISOString() };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { featured, upcoming, calendar, groupData, news, now } = loaderData;
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const { heroVideoUrl, discordInviteUrl } = root?.publicConfig ?? {
    heroVideoUrl: null,
    discordInviteUrl: null,
  };

  return (
    <>
      <section className="mx-auto grid max-w-6xl items-center gap-10 px-4 pt-12 pb-16 sm:px-6 lg:grid-cols-2 lg:pt-20">
        <div>
          <p className="text-sm font-semibold tracking-[0.3em] text-aurora-300 uppercase">
            {m.home_kicker()}
          </p>
          <h1 className="mt-3 font-display text-5xl leading-tight text-mist-100 sm:text-6xl">
            The <span className="text-ember-300">Dwellers</span>
          </h1>
          <p className="mt-4 max-w-prose text-lg text-mist-300">
            {m.home_lede()}
          </p>
          {featured ? <FeaturedEvent event={featured} /> : null}
          <HeroButtons featured={featured} />
        </div>
        <HeroVideo url={heroVideoUrl} picture={featured ? featuredPicture(featured) : null} />
      </section>

      {calendar.length > 0 ? (
        <section aria-labelledby="calendar-heading" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
          <h2 id="calendar-heading" className="mb-6 font-display text-3xl tracking-widest text-mist-100">
            {m.home_calendar_heading()}
          </h2>
          <EventCalendar events={calendar} now={now} />
        </section>
      ) : null}

      <section aria-labelledby="upcoming-heading" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
        <h2 id="upcoming-heading" className="mb-6 font-display text-3xl text-mist-100">
          {m.home_upcoming_heading()}
        </h2>
        {upcoming.length === 0 ? (
          <p className="rounded-2xl border border-dashed border-aurora-400/25 px-6 py-12 text-center text-mist-300">
            {m.home_upcoming_empty()}
          </p>
        ) : (
          <div className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
            {upcoming.map((event) => (
              <EventCard key={event.id} event={event} />
            ))}
          </div>
        )}
      </section>

      {news ? <LatestNews item={news} /> : null}

      <GroupStats state={groupData} now={now} />

      <section className="mx-auto max-w-4xl px-4 py-16 text-center sm:px-6">
        <Card className="px-6 py-12">
          <h2 className="font-display text-3xl text-mist-100 sm:text-4xl">
            {m.home_join_heading()}
          </h2>
          <p className="mx-auto mt-4 max-w-xl text-mist-300">
            {m.home_join_text()}
          </p>
          {discordInviteUrl ? (
            <Button asChild variant="gold" size="lg" className="mt-8">
              <a href={discordInviteUrl} target="_blank" rel="noopener noreferrer">
                <Icon node={MessageCircle} className="size-5" />
                {m.home_join_discord()}
              </a>
            </Button>
          ) : null}
        </Card>
      </section>
    </>
  );
}

/** The featured event's picture: its world's, else its own preview picture. */
function featuredPicture(event: EventSummary) {
  if (event.worldImageUrl) return { src: event.worldImageUrl, alt: m.home_world_of_event({ world: event.worldName, event: event.title }) };
  return { src: `${href("/events/:id/card.jpg", { id: event.id })}?lang=${currentLanguage()}`, alt: event.title };
}

function FeaturedEvent({ event }: { event: EventSummary }) {
  return (
    <Card className="mt-8 p-6">
      <p className="text-xs font-semibold tracking-[0.25em] text-ember-400 uppercase">
        {event.phase === "live" ? m.home_happening_now() : m.home_next_gathering()}
      </p>
      <h2 className="mt-2 font-display text-2xl text-mist-100">{event.title}</h2>
      {event.description ? (
        <p className="mt-2 line-clamp-3 text-mist-300">{event.description}</p>
      ) : null}
      <div className="mt-4 space-y-2">
        <EventWhen event={event} compact />
        <p className="flex items-center gap-2 text-sm text-mist-100">
          <Icon node={Globe} className="size-4 shrink-0 text-aurora-300" />
          {event.worldName}
        </p>
      </div>
    </Card>
  );
}

function HeroButtons({ featured }: { featured: EventSummary | null }) {
  if (!featured) {
    return (
      <div className="mt-8 flex flex-wrap gap-3">
        <Button asChild size="lg">
          <Link to={href("/apply")}>
            {m.home_seek_entry()} <Icon node={ArrowRight} className="size-4" />
          </Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link to={href("/events")}>{m.home_view_prophecies()}</Link>
        </Button>
      </div>
    );
  }
  return (
    <div className="mt-6 flex flex-wrap gap-3">
      {featured.applicationRequired ? (
        <Button asChild size="lg">
          <Link to={href("/events/:id/apply", { id: featured.id })}>
            {m.home_apply_to_event()} <Icon node={ArrowRight} className="size-4" />
          </Link>
        </Button>
      ) : (
        <Button asChild size="lg">
          <Link to={href("/events/:id", { id: featured.id })}>
            {m.home_event_details()} <Icon node={ArrowRight} className="size-4" />
          </Link>
        </Button>
      )}
      <Button asChild size="lg" variant="outline">
        <Link to={href("/events")}>{m.home_view_all_events()}</Link>
      </Button>
    </div>
  );
}
