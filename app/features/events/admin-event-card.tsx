import { worldPageUrl } from "~/utils/vrchat-world-link";
import type { EventRoleState, InstanceState } from "~/db/enums";
import { formatEventDate, formatLongDateTime, zoneOf } from "./event-timing";
import { CalendarCheck, Inbox, ListChecks, Pencil, Repeat, Trash2 } from "lucide-react";
import { describeRepeat, type SeriesSummary } from "./event-series";
import { Form, href, Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { ApplicationRequiredBadge } from "./event-badges";
import { EventWhen } from "./event-when";
import type { AdminEventSummary } from "./events.server";
import type { ListedPublication } from "./vrchat-publication";

export const DELETE_EVENT_CONFIRMATION = "Are you sure you want to delete this prophecy? This action cannot be undone.";

export function DeleteEventButton({ eventId, title, inSeries = false }: { eventId: string; title: string; inSeries?: boolean }) {
  const confirm = (
    <Form method="post" className="flex flex-wrap justify-end gap-3">
      <input type="hidden" name="intent" value="delete" />
      <input type="hidden" name="id" value={eventId} />
      {inSeries ? (
        <>
          <Button type="submit" variant="danger" name="applyTo" value="this">Delete this event</Button>
          <Button type="submit" variant="danger" name="applyTo" value="following">Delete this and the following events</Button>
        </>
      ) : (
        <Button type="submit" variant="danger">Delete</Button>
      )}
    </Form>
  );
  return (
    <ConfirmDialog
      trigger={
        <Button variant="outline" size="sm" aria-label={`Delete ${title}`}>
          <Trash2 aria-hidden="true" className="size-4" />
          Delete
        </Button>
      }
      title={`Delete ${title}?`}
      description={inSeries ? `${DELETE_EVENT_CONFIRMATION} Deleting this and the following events ends the series here, and deletes their applications too.` : DELETE_EVENT_CONFIRMATION}
      action={confirm}
    />
  );
}

/** 'Weekly on Tuesday · event 2 of 10', or '… · until March 1, 2027'. */
function seriesText(series: SeriesSummary, eventDate: string): string {
  const end = series.occurrenceCount !== null ? ` of ${series.occurrenceCount}` : "";
  const until = series.untilDate ? ` · until ${formatEventDate(series.untilDate)}` : "";
  return `${describeRepeat(series.frequency, eventDate)} · event ${series.index + 1}${end}${until}`;
}

/** How the event stands on the group's VRChat calendar, with "Try again" after a refusal. */
function PublicationStatus({ eventId, publication }: { eventId: string; publication: ListedPublication }) {
  const { wanted, state, vrchatEventId, lastError, entryUrl } = publication;
  const membersOnly = publication.accessType === "group" ? " (members only)" : "";
  let text: string;
  const kept = publication.keptAccessType ? (publication.keptAccessType === "group" ? "for the group's members only" : "for everyone") : null;
  if (state === "failed" && !wanted) text = "Could not be removed from VRChat's calendar.";
  else if (state === "failed" && kept) text = `VRChat refused the change of who may see it: its calendar still shows the event as before, ${kept}.`;
  else if (state === "failed") text = vrchatEventId ? "VRChat refused the latest changes; its calendar still shows the event as it was." : "Not on VRChat's calendar: VRChat refused it.";
  else if (wanted && kept && !vrchatEventId) text = `Changing who may see it on VRChat's calendar: the entry ${kept} stays until the new one is there.`;
  else if (!wanted) text = state === "removed" ? "Removed from VRChat's calendar." : "Being removed from VRChat's calendar…";
  else if (state === "published") text = `On VRChat's calendar${membersOnly}.`;
  else text = vrchatEventId ? "Updating on VRChat's calendar…" : "Being published to VRChat's calendar…";
  return (
    <div className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-2 text-sm" data-testid="vrchat-publication">
      <CalendarCheck aria-hidden="true" className="size-4 text-aurora-300" />
      <span className={state === "failed" ? "text-red-200" : "text-mist-200"}>{text}</span>
      {lastError ? <span className="text-mist-400">{state === "failed" ? lastError : `Last try: ${lastError}`}</span> : null}
      {entryUrl ? (
        <a href={entryUrl} target="_blank" rel="noreferrer" className="text-aurora-300 underline-offset-4 hover:underline">
          Open in VRChat
        </a>
      ) : null}
      {state === "failed" ? (
        <Form method="post">
          <input type="hidden" name="intent" value="retry-publication" />
          <input type="hidden" name="id" value={eventId} />
          <Button type="submit" variant="outline" size="sm">Try again</Button>
        </Form>
      ) : null}
    </div>
  );
}

/** An event's instance as its card shows it (null state: none opened yet). */
export interface ListedInstance {
  state: InstanceState | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  /** While open: the link that opens it in VRChat, and how many are in it (as last read). */
  joinUrl: string | null;
  players: number | null;
  /** An event with applications: its attendees' own VRChat role, which its instance admits. */
  role: { state: EventRoleState; lastError: string | null } | null;
}

const ROLE_TEXT: Record<EventRoleState, string> = {
  creating: "Making the attendees' VRChat role…",
  ready: "The attendees' VRChat role is made: each approved attendee gets it, and only they can enter the instance.",
  refused: "VRChat refused to make the attendees' role",
  retiring: "After the event: taking the attendees' role away, then deleting it.",
  deleted: "The attendees' role was deleted after the event.",
};

/** Where the attendees' role stands, in words. */
function roleText(role: ListedInstance["role"]): string {
  if (!role) return "The attendees' VRChat role is made when the first attendee is approved (or the instance opens); only its holders can enter.";
  if (role.state === "refused") return `${ROLE_TEXT.refused}: ${role.lastError ?? "no reason given"}. 'Retry' asks again.`;
  // What happened, in VRChat's terms: not reached, an answer that could not be read, asked to slow down.
  if (role.state === "creating" && role.lastError) return `The attendees' role is not made yet (${role.lastError}): it is tried again.`;
  return ROLE_TEXT[role.state];
}

function InstanceButton({ eventId, intent, children }: { eventId: string; intent: "open-instance" | "close-instance"; children: React.ReactNode }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={eventId} />
      <Button type="submit" variant="outline" size="sm">{children}</Button>
    </Form>
  );
}

/** Where the event's group instance stands, with 'Open now', 'Retry' or 'Close'. */
function InstanceStatus({ event, instance, may }: { event: AdminEventSummary; instance: ListedInstance; may: boolean }) {
  const ended = event.phase === "past";
  const opensAt = event.instanceLeadMinutes === null ? null : new Date(new Date(event.startsAt).getTime() - event.instanceLeadMinutes * 60_000);
  let text: React.ReactNode;
  let button: React.ReactNode = null;
  switch (event.worldId ? instance.state : "no-world") {
    case "no-world":
      // Its attendees' role is still kept (for an instance opened by hand with it): its state is below.
      text = "No VRChat world given: no instance opens for it by itself.";
      break;
    case "open":
      text = (
        <>
          Instance open in VRChat · {instance.players === 1 ? "1 person" : `${instance.players ?? 0} people`} in it ·{" "}
          <a href={instance.joinUrl ?? undefined} target="_blank" rel="noreferrer" className="text-aurora-300 underline hover:text-ember-300">Join</a>
        </>
      );
      button = <InstanceButton eventId={event.id} intent="close-instance">Close</InstanceButton>;
      break;
    case "opening":
      text = "Opening the instance in VRChat…";
      break;
    case "failed":
      text = `Not open yet (${instance.lastError ?? "VRChat did not answer"}): trying again every minute until the event ends.`;
      button = <InstanceButton eventId={event.id} intent="open-instance">Retry</InstanceButton>;
      break;
    case "refused":
      text = `VRChat refused to open the instance: ${instance.lastError ?? "no reason given"}`;
      button = <InstanceButton eventId={event.id} intent="open-instance">Retry</InstanceButton>;
      break;
    case "missed":
      text = `Missed: the instance could not be opened before the event ended${instance.lastError ? ` (last try: ${instance.lastError})` : ""}.`;
      break;
    case "closed":
      text = "The instance was closed.";
      if (!ended) button = <InstanceButton eventId={event.id} intent="open-instance">Open now</InstanceButton>;
      break;
    default:
      text = ended
          ? "No instance was opened."
          : opensAt
            ? <>The instance opens itself at <time dateTime={opensAt.toISOString()}>{formatLongDateTime(opensAt, zoneOf(event.timezone))}</time>.</>
            : "Opened by hand ('Open the instance': never).";
      if (!ended) button = <InstanceButton eventId={event.id} intent="open-instance">Open now</InstanceButton>;
  }
  return (
    <div className="mt-3 rounded-lg border border-mist-400/15 px-3 py-2 text-sm text-mist-300" data-testid="event-instance">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p>{text}</p>
        {may ? button : null}
      </div>
      {event.applicationRequired ? (
        <p className="mt-1 text-xs text-mist-400" data-testid="event-role">
          {roleText(instance.role)}
        </p>
      ) : null}
    </div>
  );
}

/**
 * `places`: how many of the event's places are taken, in words (events with a limit);
 * `publication`: its entry on VRChat's calendar, when it was published there.
 */
export function AdminEventCard({
  event,
  places,
  publication,
  instance,
  may = { edit: true, review: true },
}: {
  event: AdminEventSummary;
  places: string | null;
  publication: ListedPublication | null;
  /** Its group instance, when Dwell opens instances and the event has a world. */
  instance?: ListedInstance;
  /** What the viewer's role lets them do with this event (the server checks again). */
  may?: { edit: boolean; review: boolean };
}) {
  const headingId = `event-${event.id}-title`;
  return (
    <article aria-labelledby={headingId}>
    <Card className="p-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={headingId} className="font-display text-xl text-mist-100">{event.title}</h2>
          <div className="mt-2 flex flex-wrap gap-2">
            {event.phase === "past" ? <Badge tone="muted">Past Event</Badge> : event.phase === "live" ? <Badge tone="live">Live Now</Badge> : <Badge tone="live">Upcoming</Badge>}
            {event.featured ? <Badge tone="gold">Featured</Badge> : null}
            {event.applicationRequired ? <ApplicationRequiredBadge /> : null}
          </div>
        </div>
        {event.applicationRequired ? (
          <p className="text-right text-sm text-mist-300">
            <span className="block font-semibold text-mist-100">
              {event.applicationCount.toLocaleString("en-US")} {event.applicationCount === 1 ? "application" : "applications"}
            </span>
            {event.pendingApplications.toLocaleString("en-US")} pending
            {event.waitlistApplications > 0 ? ` · ${event.waitlistApplications.toLocaleString("en-US")} on the waitlist` : null}
            {places ? <span className="block" data-testid="places-taken">{places}</span> : null}
          </p>
        ) : null}
      </div>
      <div className="mt-3 grid gap-1 text-sm sm:grid-cols-2">
        <EventWhen event={event} compact />
        <p className="text-mist-300">
          {event.worldId ? (
            <a href={worldPageUrl(event.worldId)} target="_blank" rel="noreferrer" className="underline decoration-mist-400/50 hover:text-mist-100">{event.worldName}</a>
          ) : (
            event.worldName
          )}
          {event.worldId && !event.worldChecked ? <span className="block text-xs text-ember-300">World not checked with VRChat: save the event again to check it.</span> : null}
        </p>
      </div>
      {event.series ? (
        <p className="mt-3 flex items-center gap-2 text-sm text-mist-300" data-testid="event-series">
          <Repeat aria-hidden="true" className="size-4 text-aurora-300" />
          {seriesText(event.series, event.eventDate)}
        </p>
      ) : null}
      {publication ? <PublicationStatus eventId={event.id} publication={publication} /> : null}
      {instance ? <InstanceStatus event={event} instance={instance} may={may.edit} /> : null}
      <div className="mt-4 flex flex-wrap gap-2">
        {may.edit ? (
          <Button asChild variant="outline" size="sm">
            <Link to={`${href("/admin/events")}?edit=${event.id}`} aria-label={`Edit Event ${event.title}`}>
              <Pencil aria-hidden="true" className="size-4" />
              Edit Event
            </Link>
          </Button>
        ) : null}
        {event.applicationRequired && may.review ? (
          <Button asChild variant="outline" size="sm">
            <Link to={href("/admin/events/:eventId/applications", { eventId: event.id })} aria-label={`View Applications of ${event.title}`}>
              <Inbox aria-hidden="true" className="size-4" />
              View Applications
            </Link>
          </Button>
        ) : null}
        {event.applicationRequired && may.edit ? (
          <Button asChild variant="outline" size="sm">
            <Link to={href("/admin/events/:eventId/questions", { eventId: event.id })} aria-label={`Edit Questions of ${event.title}`}>
              <ListChecks aria-hidden="true" className="size-4" />
              Edit Questions
            </Link>
          </Button>
        ) : null}
        {may.edit ? <DeleteEventButton eventId={event.id} title={event.title} inSeries={event.series !== null} /> : null}
      </div>
    </Card>
    </article>
  );
}
