import { worldPageUrl } from "~/utils/vrchat-world-link";
import { CalendarDays, CalendarPlus, ChevronDown, Globe, Repeat, ScrollText } from "lucide";
import { Icon } from "~/components/ui/icon";
import type { ReactNode } from "react";
import { href, Link } from "react-router";
import { BackLink, Notice } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { m } from "~/paraglide/messages";
import { useViewerTimeZone } from "~/utils/viewer-time-zone";
import { ApplicationRequiredBadge, MaxAttendeesBadge } from "./event-badges";
import { applicationClosedNotice, eventNotFoundMessage } from "./application-notice";
import { addToCalendarUrl, outlookCalendarUrl } from "./calendar-link";
import { formatLongDateTime, formatShortDate, zoneOf } from "./event-timing";
import type { SeriesOnPage } from "./event-series";
import { EventWhen } from "./event-when";
import type { EventDetail } from "./events.server";

function BackToEvents() {
  return <BackLink to={href("/events")}>{m.event_back()}</BackLink>;
}

export function EventNotFound() {
  return (
    <div className="mx-auto max-w-4xl px-4 py-12 sm:px-6">
      <BackToEvents />
      <Card className="mt-8 p-10 text-center">
        <p className="font-display text-2xl text-mist-100">{eventNotFoundMessage()}</p>
      </Card>
    </div>
  );
}

/** 'Add to calendar': Google, Outlook, or the .ics file for Apple's and every other calendar. Works without JavaScript. */
function AddToCalendar({ event, pageUrl }: { event: EventDetail; pageUrl: string }) {
  const link = "block rounded-lg px-3 py-2 text-sm text-mist-100 hover:bg-white/5";
  return (
    <details className="group relative mt-3">
      <summary className="inline-flex cursor-pointer list-none items-center gap-1.5 rounded-lg text-sm font-semibold text-aurora-300 hover:text-ember-300">
        <Icon node={CalendarPlus} className="size-4" />
        {m.event_add_to_calendar()}
        <Icon node={ChevronDown} className="size-4 transition-transform group-open:rotate-180" />
      </summary>
      <ul className="mt-2 w-60 rounded-xl border border-aurora-400/20 bg-night-900 p-1 shadow-xl">
        <li>
          <a className={link} href={addToCalendarUrl(event, pageUrl)} target="_blank" rel="noopener noreferrer">
            Google Calendar<span className="sr-only"> {m.event_new_tab()}</span>
          </a>
        </li>
        <li>
          <a className={link} href={outlookCalendarUrl(event, pageUrl)} target="_blank" rel="noopener noreferrer">
            Outlook<span className="sr-only"> {m.event_new_tab()}</span>
          </a>
        </li>
        <li>
          <a className={link} href={href("/events/:id/calendar.ics", { id: event.id })} download>
            {m.event_apple_calendar()}
          </a>
        </li>
      </ul>
    </details>
  );
}

/** `places`: what is left of the event's places, in words ('7 of 20 places left', 'Full'), when it has a limit. */
/** `joinUrl`: the open 'Group Public' instance's link, while there is one. */
/** 'Repeats weekly on Tuesday', and the next dates, each its own event to apply to. */
function SeriesNote({ series }: { series: SeriesOnPage }) {
  return (
    <div className="mt-3 border-t border-mist-400/15 pt-3 text-sm text-mist-300" data-testid="event-series">
      <p className="flex items-center gap-2">
        <Icon node={Repeat} className="size-4 text-aurora-300" />
        {series.repeat}
      </p>
      {series.next.length > 0 ? (
        <p className="mt-1">
          {m.event_series_next()}{" "}
          {series.next.map((next, index) => (
            <span key={next.id}>
              {index > 0 ? " · " : null}
              <Link to={href("/events/:id", { id: next.id })} className="text-aurora-300 underline-offset-4 hover:underline">
                {formatShortDate(new Date(`${next.eventDate}T12:00:00Z`), "UTC")}
              </Link>
            </span>
          ))}
        </p>
      ) : null}
    </div>
  );
}

export function EventDetailView({
  event,
  pageUrl,
  places = null,
  joinUrl = null,
  series = null,
}: {
  event: EventDetail;
  pageUrl: string;
  places?: string | null;
  joinUrl?: string | null;
  /** How it repeats, and the series' next events (links to their own pages). */
  series?: SeriesOnPage | null;
}) {
  const viewerTimeZone = useViewerTimeZone();
  const open = event.applicationState === "open";
  const notice = applicationClosedNotice(event.applicationState);
  const applyPath = href("/events/:id/apply", { id: event.id });
  const deadline = event.applicationDeadline ? new Date(event.applicationDeadline) : null;
  const eventZone = zoneOf(event.timezone);

  return (
    <div className="mx-auto max-w-4xl px-4 py-12 sm:px-6">
      <BackToEvents />

      <header className="mt-6 flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h1 className="font-display text-4xl text-mist-100 sm:text-5xl">{event.title}</h1>
          <div className="mt-3 flex flex-wrap gap-2">
            {event.isPast ? <Badge tone="muted">{m.event_past_badge()}</Badge> : null}
            {event.phase === "live" ? <Badge tone="live">{m.event_live_now()}</Badge> : null}
            {event.applicationRequired ? <ApplicationRequiredBadge /> : null}
            {event.maxAttendees ? (
              <MaxAttendeesBadge label={m.event_max_dwellers({ count: event.maxAttendees })} />
            ) : null}
            {places && !event.isPast ? (
              <Badge tone="gold" data-testid="places-left">
                {places}
              </Badge>
            ) : null}
          </div>
        </div>
        {open ? (
          <Button asChild size="lg" className="shrink-0">
            <Link to={applyPath}>{m.event_apply_now()}</Link>
          </Button>
        ) : null}
        {joinUrl ? (
          <Button asChild size="lg" variant="gold" className="shrink-0">
            <a href={joinUrl} target="_blank" rel="noopener noreferrer">{m.event_join_in_vrchat()}</a>
          </Button>
        ) : null}
      </header>

      {notice ? (
        <div className="mt-6">
          <Notice>{notice}</Notice>
        </div>
      ) : null}

      <div className="mt-8 grid gap-4 sm:grid-cols-2">
        <InfoCard icon={<Icon node={CalendarDays} className="size-5" />} title={m.event_when()}>
          <EventWhen event={event} />
          {event.isPast ? null : <AddToCalendar event={event} pageUrl={pageUrl} />}
          {series ? <SeriesNote series={series} /> : null}
        </InfoCard>
        <InfoCard icon={<Icon node={Globe} className="size-5" />} title={m.event_world()}>
          {event.worldImageUrl ? (
            <img src={event.worldImageUrl} alt="" width={320} height={240} loading="lazy" referrerPolicy="no-referrer" className="mb-3 aspect-video w-full rounded-lg object-cover" />
          ) : null}
          {event.worldId ? (
            <a href={worldPageUrl(event.worldId)} target="_blank" rel="noopener noreferrer" className="text-mist-100 underline decoration-aurora-400/50 hover:text-aurora-200">{event.worldName}</a>
          ) : (
            <p className="text-mist-100">{event.worldName}</p>
          )}
        </InfoCard>
      </div>

      <Tabs defaultValue="details" className="mt-10">
        <TabsList>
          <TabsTrigger value="details">{m.home_event_details()}</TabsTrigger>
          {event.applicationRequired ? (
            <TabsTrigger value="application">{m.event_application_info()}</TabsTrigger>
          ) : null}
        </TabsList>

        <TabsContent value="details" className="space-y-6">
          <Card className="p-6">
            <h2 className="font-display text-2xl text-mist-100">{m.event_about()}</h2>
            <p className="mt-3 whitespace-pre-line text-mist-300">{event.description}</p>
          </Card>
          <Card className="p-6">
            <h2 className="font-display text-2xl text-mist-100">{m.event_information()}</h2>
            <dl className="mt-4 grid gap-4 sm:grid-cols-2">
              <Fact term={m.event_status()}>
                {event.isPast ? m.event_completed() : event.phase === "live" ? m.stats_live_now() : m.event_upcoming()}
              </Fact>
              {event.timezone ? (
                <Fact term={m.event_timezone()}>
                  {event.timezone}
                  {eventZone !== "UTC" ? (
                    <span className="text-mist-400"> ({eventZone})</span>
                  ) : null}
                </Fact>
              ) : null}
            </dl>
          </Card>
        </TabsContent>

        {event.applicationRequired ? (
          <TabsContent value="application">
            <Card className="space-y-6 p-6">
              <dl className="grid gap-6 sm:grid-cols-2">
                <Fact term={m.event_deadline()}>
                  {deadline ? (
                    <>
                      <span className="block">{formatLongDateTime(deadline, eventZone)}</span>
                      {viewerTimeZone !== eventZone ? (
                        <span className="block text-sm text-mist-400">
                          {m.event_your_time_plain({ time: formatLongDateTime(deadline, viewerTimeZone) })}
                        </span>
                      ) : null}
                      {event.applicationState === "deadline-passed" ? (
                        <span className="mt-1 block text-sm font-semibold text-red-400">
                          {m.event_deadline_passed()}
                        </span>
                      ) : null}
                    </>
                  ) : (
                    m.event_no_deadline()
                  )}
                </Fact>
                <Fact term={m.event_max_attendees_term()}>{event.maxAttendees ?? m.event_unlimited()}</Fact>
              </dl>
              {event.applicationInstructions ? (
                <div>
                  <h2 className="flex items-center gap-2 font-display text-xl text-mist-100">
                    <Icon node={ScrollText} className="size-5 text-aurora-300" />
                    {m.event_instructions()}
                  </h2>
                  <p className="mt-2 whitespace-pre-line text-mist-300">
                    {event.applicationInstructions}
                  </p>
                </div>
              ) : null}
              {open ? (
                <Button asChild size="lg">
                  <Link to={applyPath}>{m.event_submit_application()}</Link>
                </Button>
              ) : null}
            </Card>
          </TabsContent>
        ) : null}
      </Tabs>
    </div>
  );
}

function InfoCard({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <Card className="p-5">
      <h2 className="flex items-center gap-2 text-sm font-semibold tracking-widest text-aurora-300 uppercase">
        <span aria-hidden="true">{icon}</span>
        {title}
      </h2>
      <div className="mt-3">{children}</div>
    </Card>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-sm font-semibold tracking-wide text-mist-400">{term}</dt>
      <dd className="mt-1 text-mist-100">{children}</dd>
    </div>
  );
}
