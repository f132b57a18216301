import { worldPageUrl } from "~/utils/vrchat-world-link";
import type { EventRoleState, InstanceState } from "~/db/enums";
import { formatEventDate, formatLongDateTime, zoneOf } from "./event-timing";
import { CalendarCheck, Inbox, ListChecks, Megaphone, Pencil, Repeat, Trash2 } from "lucide";
import { Icon } from "~/components/ui/icon";
import { describeRepeat, type SeriesSummary } from "./event-series";
import { Form, href, Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Interpolated } from "~/components/ui/interpolated";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { ApplicationRequiredBadge } from "./event-badges";
import { EventWhen } from "./event-when";
import type { AdminEventSummary } from "./events.server";
import type { ListedPublication } from "./vrchat-publication";
import { m } from "~/paraglide/messages";
import { counted, formatCount, sentenceGap } from "~/utils/language";
import { readProblem } from "~/utils/problem-text";

export function DeleteEventButton({ eventId, title, inSeries = false }: { eventId: string; title: string; inSeries?: boolean }) {
  const confirm = (
    <Form method="post" className="flex flex-wrap justify-end gap-3">
      <input type="hidden" name="intent" value="delete" />
      <input type="hidden" name="id" value={eventId} />
      {inSeries ? (
        <>
          <Button type="submit" variant="danger" name="applyTo" value="this">{m.aev_delete_this()}</Button>
          <Button type="submit" variant="danger" name="applyTo" value="following">{m.aev_delete_following()}</Button>
        </>
      ) : (
        <Button type="submit" variant="danger">{m.aev_delete()}</Button>
      )}
    </Form>
  );
  return (
    <ConfirmDialog
      trigger={
        <Button variant="outline" size="sm" aria-label={m.aev_delete_label({ title })}>
          <Icon node={Trash2} className="size-4" />
          {m.aev_delete()}
        </Button>
      }
      title={m.aev_delete_title({ title })}
      description={inSeries ? `${m.aev_delete_confirm()}${sentenceGap()}${m.aev_delete_series_note()}` : m.aev_delete_confirm()}
      action={confirm}
    />
  );
}

/** 'Weekly on Tuesday · event 2 of 10', or '… · until March 1, 2027'. */
function seriesText(series: SeriesSummary, eventDate: string): string {
  const repeat = describeRepeat(series.frequency, eventDate);
  const number = formatCount(series.index + 1);
  const line = series.occurrenceCount !== null ? m.aev_series_line_of({ repeat, number, count: formatCount(series.occurrenceCount) }) : m.aev_series_line({ repeat, number });
  return series.untilDate ? `${line} · ${m.aev_series_until({ date: formatEventDate(series.untilDate) })}` : line;
}

/** How the event stands on the group's VRChat calendar, with "Try again" after a refusal. */
function PublicationStatus({ eventId, publication }: { eventId: string; publication: ListedPublication }) {
  const { wanted, state, vrchatEventId, lastError, entryUrl } = publication;
  let text: string;
  const kept = publication.keptAccessType ? (publication.keptAccessType === "group" ? m.aev_pub_kept_members() : m.aev_pub_kept_everyone()) : null;
  if (state === "failed" && !wanted) text = m.aev_pub_remove_failed();
  else if (state === "failed" && kept) text = m.aev_pub_access_refused({ kept });
  else if (state === "failed") text = vrchatEventId ? m.aev_pub_changes_refused() : m.aev_pub_refused();
  else if (wanted && kept && !vrchatEventId) text = m.aev_pub_changing_access({ kept });
  else if (!wanted) text = state === "removed" ? m.aev_pub_removed() : m.aev_pub_removing();
  else if (state === "published") text = publication.accessType === "group" ? m.aev_pub_members_only() : m.aev_pub_published();
  else text = vrchatEventId ? m.aev_pub_updating() : m.aev_pub_publishing();
  return (
    <div className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-2 text-sm" data-testid="vrchat-publication">
      <Icon node={CalendarCheck} className="size-4 text-aurora-300" />
      <span className={state === "failed" ? "text-red-200" : "text-mist-200"}>{text}</span>
      {lastError ? <span className="text-mist-400">{state === "failed" ? lastError : m.aev_pub_last_try({ error: lastError })}</span> : null}
      {entryUrl ? (
        <a href={entryUrl} target="_blank" rel="noreferrer" className="text-aurora-300 underline-offset-4 hover:underline">
          {m.aev_pub_open()}
        </a>
      ) : null}
      {state === "failed" ? (
        <Form method="post">
          <input type="hidden" name="intent" value="retry-publication" />
          <input type="hidden" name="id" value={eventId} />
          <Button type="submit" variant="outline" size="sm">{m.aev_try_again()}</Button>
        </Form>
      ) : null}
    </div>
  );
}

/**
 * How many are interested in an event, side by side: in Discord's event list, on VRChat's calendar,
 * and how many applied here (null where it is not listed, or not read yet).
 */
export interface ListedInterest {
  discord: number | null;
  /** Its entry in Discord's list: where it stands, and why it failed. */
  discordState: { state: string; problem: string | null } | null;
  vrchat: number | null;
  applied: number | null;
}

function InterestLine({ interest }: { interest: ListedInterest }) {
  const parts = [
    interest.discord === null ? null : m.aev_interest_discord({ count: formatCount(interest.discord) }),
    interest.vrchat === null ? null : m.aev_interest_vrchat({ count: formatCount(interest.vrchat) }),
    interest.applied === null ? null : m.aev_interest_applied({ count: formatCount(interest.applied) }),
  ].filter(Boolean);
  const state = interest.discordState;
  const problem = state?.state === "failed" ? discordEventProblem(state.problem) : state?.state === "gone" ? m.aev_discord_event_gone() : null;
  return (
    <div className="mt-3 text-sm text-mist-300" data-testid="event-interest">
      {parts.length > 0 ? <p>{m.aev_interested({ parts: parts.join(" · ") })}</p> : null}
      {problem ? <p className="text-red-300">{problem}</p> : state?.state === "published" ? <p className="text-xs text-mist-400">{m.aev_discord_event_listed()}</p> : null}
    </div>
  );
}

function discordEventProblem(problem: string | null): string {
  const { code, words } = readProblem(problem);
  if (code === "discord_events_forbidden") return m.aev_discord_event_forbidden();
  if (code === "discord_token") return m.aev_discord_event_token();
  return m.aev_discord_event_failed({ words: words || code });
}

import type { InstanceAttendance } from "./instance-attendance.server";

/** An event's instance as its card shows it (null state: none opened yet). */
export interface ListedInstance {
  state: InstanceState | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  /** While open: the link that opens it in VRChat, and how many are in it (as last read). */
  joinUrl: string | null;
  players: number | null;
  /** While open: whether the group's live data (as last read) lists it; null when that is not known. */
  listed: boolean | null;
  /** An event with applications: its attendees' own VRChat role, which its instance admits. */
  role: { state: EventRoleState; lastError: string | null } | null;
  /** Who came, as the instance showed it (once Dwell opened it). */
  attendance: InstanceAttendance | null;
}

/** Who came, read from the instance: the marks at the end, or the evening so far. */
function AttendanceLine({ eventId, attendance }: { eventId: string; attendance: InstanceAttendance }) {
  let text: string;
  if (attendance.unreadable) text = m.att_unreadable();
  else if (attendance.marked) text = m.att_marked({ attended: attendance.marked.attended, noShows: attendance.marked.noShows, seen: attendance.seen });
  else if (attendance.seen === 0 && attendance.now === null) return null;
  else text = m.att_so_far({ now: attendance.now ?? "?", seen: attendance.seen });
  return (
    <div className="mt-1 text-xs text-mist-400" data-testid="event-attendance">
      <p>{text}</p>
      {attendance.withoutApplying.length > 0 ? <p>{m.att_without_applying({ names: attendance.withoutApplying.join(", ") })}</p> : null}
      <Link to={href("/admin/events/:eventId/evening", { eventId })} className="text-aurora-300 underline hover:text-ember-300">
        {m.ev_link()}
      </Link>
    </div>
  );
}

const ROLE_TEXT: Record<Exclude<EventRoleState, "refused">, () => string> = {
  creating: m.aev_role_creating,
  ready: m.aev_role_ready,
  retiring: m.aev_role_retiring,
  deleted: m.aev_role_deleted,
};

/** Where the attendees' role stands, in words. */
function roleText(role: ListedInstance["role"]): string {
  if (!role) return m.aev_role_none();
  if (role.state === "refused") return m.aev_role_refused({ reason: role.lastError ?? m.aev_no_reason() });
  // What happened, in VRChat's terms: not reached, an answer that could not be read, asked to slow down.
  if (role.state === "creating" && role.lastError) return m.aev_role_pending({ error: role.lastError });
  return ROLE_TEXT[role.state]();
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
      text = m.aev_inst_no_world();
      break;
    case "open":
      // After the event, an instance VRChat no longer lists has emptied: there is nothing left to join or close.
      if (ended && instance.listed === false) {
        text = m.aev_inst_emptied();
        break;
      }
      text = (
        <>
          {(ended ? m.aev_inst_open_after : m.aev_inst_open)({ people: counted(instance.players ?? 0, m.aev_inst_people_one, m.aev_inst_people) })}{" "}
          <a href={instance.joinUrl ?? undefined} target="_blank" rel="noreferrer" className="text-aurora-300 underline hover:text-ember-300">{m.aev_inst_join()}</a>
        </>
      );
      button = <InstanceButton eventId={event.id} intent="close-instance">{m.aev_inst_close()}</InstanceButton>;
      break;
    case "opening":
      text = m.aev_inst_opening();
      break;
    case "failed":
      text = m.aev_inst_failed({ error: instance.lastError ?? m.aev_inst_no_answer() });
      button = <InstanceButton eventId={event.id} intent="open-instance">{m.review_retry()}</InstanceButton>;
      break;
    case "refused":
      text = m.aev_inst_refused({ reason: instance.lastError ?? m.aev_no_reason() });
      button = <InstanceButton eventId={event.id} intent="open-instance">{m.review_retry()}</InstanceButton>;
      break;
    case "missed":
      text = instance.lastError ? m.aev_inst_missed_error({ error: instance.lastError }) : m.aev_inst_missed();
      break;
    case "closed":
      text = m.aev_inst_closed();
      if (!ended) button = <InstanceButton eventId={event.id} intent="open-instance">{m.aev_inst_open_now()}</InstanceButton>;
      break;
    default:
      text = ended
          ? m.aev_inst_never_opened()
          : opensAt
            ? <Interpolated message={m.aev_inst_opens_at} parts={{ time: <time dateTime={opensAt.toISOString()}>{formatLongDateTime(opensAt, zoneOf(event.timezone))}</time> }} />
            : m.aev_inst_by_hand();
      if (!ended) button = <InstanceButton eventId={event.id} intent="open-instance">{m.aev_inst_open_now()}</InstanceButton>;
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
  interest,
  may = { edit: true, review: true, announce: false },
}: {
  event: AdminEventSummary;
  places: string | null;
  publication: ListedPublication | null;
  /** Its group instance, when Dwell opens instances and the event has a world. */
  instance?: ListedInstance;
  /** How many are interested, where it is listed. */
  interest?: ListedInterest;
  /** What the viewer's role lets them do with this event (the server checks again). */
  may?: { edit: boolean; review: boolean; announce: boolean };
}) {
  const headingId = `event-${event.id}-title`;
  return (
    <article aria-labelledby={headingId}>
    <Card className="p-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={headingId} className="font-display text-xl text-mist-100">{event.title}</h2>
          <div className="mt-2 flex flex-wrap gap-2">
            {event.phase === "past" ? <Badge tone="muted">{m.aev_badge_past()}</Badge> : event.phase === "live" ? <Badge tone="live">{m.aev_badge_live()}</Badge> : <Badge tone="live">{m.aev_badge_upcoming()}</Badge>}
            {event.featured ? <Badge tone="gold">{m.aev_badge_featured()}</Badge> : null}
            {event.applicationRequired ? <ApplicationRequiredBadge /> : null}
          </div>
        </div>
        {event.applicationRequired ? (
          <p className="text-right text-sm text-mist-300">
            <span className="block font-semibold text-mist-100">
              {counted(event.applicationCount, m.aev_applications_one, m.aev_applications)}
            </span>
            {m.aev_pending({ count: formatCount(event.pendingApplications) })}
            {event.waitlistApplications > 0 ? ` · ${m.aev_waitlist({ count: formatCount(event.waitlistApplications) })}` : null}
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
          {event.worldId && !event.worldChecked ? <span className="block text-xs text-ember-300">{m.aev_world_unchecked_card()}</span> : null}
        </p>
      </div>
      {event.series ? (
        <p className="mt-3 flex items-center gap-2 text-sm text-mist-300" data-testid="event-series">
          <Icon node={Repeat} className="size-4 text-aurora-300" />
          {seriesText(event.series, event.eventDate)}
        </p>
      ) : null}
      {publication ? <PublicationStatus eventId={event.id} publication={publication} /> : null}
      {instance ? <InstanceStatus event={event} instance={instance} may={may.edit} /> : null}
      {instance?.attendance ? <AttendanceLine eventId={event.id} attendance={instance.attendance} /> : null}
      {interest ? <InterestLine interest={interest} /> : null}
      <div className="mt-4 flex flex-wrap gap-2">
        {may.edit ? (
          <Button asChild variant="outline" size="sm">
            <Link to={`${href("/admin/events")}?edit=${event.id}`} aria-label={m.aev_edit_label({ title: event.title })}>
              <Icon node={Pencil} className="size-4" />
              {m.aev_edit()}
            </Link>
          </Button>
        ) : null}
        {event.applicationRequired && may.review ? (
          <Button asChild variant="outline" size="sm">
            <Link to={href("/admin/events/:eventId/applications", { eventId: event.id })} aria-label={m.aev_view_applications_label({ title: event.title })}>
              <Icon node={Inbox} className="size-4" />
              {m.aev_view_applications()}
            </Link>
          </Button>
        ) : null}
        {event.applicationRequired && may.edit ? (
          <Button asChild variant="outline" size="sm">
            <Link to={href("/admin/events/:eventId/questions", { eventId: event.id })} aria-label={m.aev_edit_questions_label({ title: event.title })}>
              <Icon node={ListChecks} className="size-4" />
              {m.aev_edit_questions()}
            </Link>
          </Button>
        ) : null}
        {may.announce && !event.isPast ? (
          <Button asChild variant="outline" size="sm">
            <Link to={`${href("/admin/announcements/new")}?event=${event.id}`} aria-label={m.aev_announce_label({ title: event.title })}>
              <Icon node={Megaphone} className="size-4" />
              {m.aev_announce()}
            </Link>
          </Button>
        ) : null}
        {may.edit ? <DeleteEventButton eventId={event.id} title={event.title} inSeries={event.series !== null} /> : null}
      </div>
    </Card>
    </article>
  );
}
