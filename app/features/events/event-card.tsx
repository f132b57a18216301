import { Badge } from "~/components/ui/badge";
import { Globe } from "lucide";
import { Icon } from "~/components/ui/icon";
import { href, Link } from "react-router";
import { clsx } from "clsx";
import { m } from "~/paraglide/messages";
import { ApplicationRequiredBadge, MaxAttendeesBadge } from "./event-badges";
import { EventWhen } from "./event-when";
import type { EventSummary } from "./events.server";

export function EventCard({
  event,
  past = false,
  headingLevel: Heading = "h3",
}: {
  event: EventSummary;
  past?: boolean;
  headingLevel?: "h2" | "h3";
}) {
  return (
    <Link
      to={href("/events/:id", { id: event.id })}
      className={clsx(
        "group flex h-full flex-col gap-3 rounded-2xl border border-aurora-400/20 bg-night-900/70 shadow-xl shadow-black/30 transition hover:-translate-y-0.5 hover:border-aurora-300/60",
        past ? "p-4 opacity-80 hover:opacity-100" : "p-6",
      )}
    >
      <Heading
        className={clsx(
          "font-display text-mist-100 group-hover:text-ember-300",
          past ? "text-lg" : "text-2xl",
        )}
      >
        {event.title}
      </Heading>
      {event.applicationRequired || event.maxAttendees || event.phase === "live" ? (
        <div className="flex flex-wrap gap-2">
          {event.phase === "live" ? <Badge tone="live">{m.event_live_now()}</Badge> : null}
          {event.applicationRequired ? <ApplicationRequiredBadge /> : null}
          {event.maxAttendees ? <MaxAttendeesBadge label={m.event_max_attendees({ count: event.maxAttendees })} /> : null}
        </div>
      ) : null}
      <EventWhen event={event} compact />
      <p className="flex items-center gap-2 text-sm text-mist-100">
        <Icon node={Globe} className="size-4 shrink-0 text-aurora-300" />
        {event.worldName}
      </p>
      {event.description ? (
        <p className={clsx("text-sm text-mist-300", past ? "line-clamp-2" : "line-clamp-3")}>
          {event.description}
        </p>
      ) : null}
    </Link>
  );
}
