import { Plus } from "lucide";
import { Icon } from "~/components/ui/icon";
import { data, href, Link, redirect } from "react-router";
import { ErrorAlert, Notice } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { appContext } from "~/context";
import { AdminEventCard } from "~/features/events/admin-event-card";
import { AdminEventForm } from "~/features/events/admin-event-form";
import { EventInputSchema, firstEventInputError } from "~/features/events/event-input";
import { eventStart } from "~/features/events/event-timing";
import { createEvent, getEvent, type PublicationChange } from "~/features/events/events.server";
import { parsePublicationInput } from "~/features/events/vrchat-publication";
import { CalendarAllowanceError, publicationProblem, retryPublication } from "~/features/events/vrchat-publication.server";
import { requireOnEvent } from "~/utils/admin-guard.server";
import { requireStaff } from "~/routes/staff-guard.server";
import { allows } from "~/utils/roles";
import { chosenTeamMember } from "~/features/accounts/team.server";
import { log } from "~/utils/log.server";
import { checkEventWorld } from "~/flows/event-world.server";
import { readEventsPage } from "~/flows/events-page.server";
import { decideServices } from "~/flows/decide.server";
import { saveEventRefilling } from "~/flows/refill.server";
import { closeEventInstance, eventInstanceServices, openEventInstance } from "~/flows/event-instance.server";
import { deleteEventWithRole } from "~/flows/event-role.server";
import { createEventSeries, deleteFollowing, saveFollowing } from "~/flows/event-series.server";
import { RepeatInputSchema, repeatRuleOf, sameRepeat, SERIES_TEXTS } from "~/features/events/event-series";
import { listSeriesSummaries } from "~/features/events/event-series.server";
import { m } from "~/paraglide/messages";
import type { Route } from "./+types/_site.admin.events";


export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context);
  const ctx = context.get(appContext);
  const url = new URL(request.url);
  // The editor itself is refused to a role that may not use it (the list stays open to all staff).
  if (url.searchParams.has("new")) await requireStaff(request, context, "events.create");
  const editing = url.searchParams.get("edit");
  if (editing) {
    const event = await getEvent(ctx.db, editing);
    if (event) requireOnEvent(viewer, "edit", event);
  }
  const page = await readEventsPage(ctx, viewer, { creating: url.searchParams.has("new"), editing, worldUnchecked: url.searchParams.has(WORLD_UNCHECKED_PARAM) }, new Date());
  return page;
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context);
  const ctx = context.get(appContext);
  const { db, vrchat, notifications, config } = ctx;
  const form = await request.formData().catch(() => null);
  if (!form) return data({ error: m.aev_form_unreadable() }, { status: 400 });
  const intent = form.get("intent");
  const id = String(form.get("id") ?? "");
  let stored = null;
  if (intent === "create") {
    await requireStaff(request, context, "events.create");
  } else {
    stored = await getEvent(db, id);
    if (!stored) return data({ error: m.event_not_found_admin() }, { status: 404 });
    requireOnEvent(viewer, "edit", stored);
  }
  // Only those who manage every event hand one to another host; a host's events stay theirs.
  const host = allows(viewer.role, "events.all") ? await chosenTeamMember(db, form.get("hostId")) : undefined;
  if (host === null) return data({ field: "hostId", error: m.aev_choose_host() }, { status: 400 });

  const repeat = RepeatInputSchema.safeParse(Object.fromEntries(form));
  if (!repeat.success) return data(firstEventInputError(repeat.error), { status: 400 });
  const following = Boolean(stored?.seriesId) && repeat.data.applyTo === "following";

  if (intent === "delete") {
    try {
      const deleted = following ? await deleteFollowing(db, id, new Date()) : await deleteEventWithRole(db, id, new Date());
      if (!deleted) return data({ error: m.event_not_found_admin() }, { status: 404 });
    } catch (error) {
      log.error("failed to delete an event", { error, eventId: id });
      return data({ error: m.aev_delete_failed() }, { status: 503 });
    }
    notifications.wake();
    return redirect(href("/admin/events"));
  }
  if (intent === "retry-publication") {
    if (!vrchat.calendar) return data({ error: m.aev_publishing_off() }, { status: 409 });
    try {
      if (!(await retryPublication(db, id, new Date()))) return data({ error: m.aev_nothing_to_retry() }, { status: 409 });
    } catch (error) {
      log.error("failed to retry a VRChat publication", { error, eventId: id });
      return data({ error: m.aev_save_failed() }, { status: 503 });
    }
    notifications.wake();
    return redirect(href("/admin/events"));
  }
  if (intent === "open-instance" || intent === "close-instance") {
    const services = eventInstanceServices(ctx);
    try {
      if (intent === "open-instance") {
        const opened = await openEventInstance(services, id, new Date(), { manual: true });
        if (opened.kind === "not-possible") return data({ error: opened.reason }, { status: 409 });
        if (opened.kind === "busy") return data({ error: m.aev_instance_busy() }, { status: 409 });
        if (opened.kind === "failed") return data({ error: m.aev_instance_open_failed({ error: opened.error }) }, { status: 409 });
      } else {
        const closed = await closeEventInstance(services, id, new Date());
        if (closed.kind === "none") return data({ error: m.aev_no_open_instance() }, { status: 409 });
        if (closed.kind === "failed") return data({ error: m.aev_instance_close_failed({ error: closed.error }) }, { status: 409 });
      }
    } catch (error) {
      log.error("failed to open or close an event's instance", { error, eventId: id });
      return data({ error: m.aev_save_failed() }, { status: 503 });
    }
    return redirect(href("/admin/events"));
  }
  if (intent !== "create" && intent !== "update") return data({ error: m.unknown_action() }, { status: 400 });

  const parsed = EventInputSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return data(firstEventInputError(parsed.error), { status: 400 });
  const world = await checkEventWorld(vrchat.worlds, parsed.data, stored, new Date());
  if (!world.ok) return data({ field: world.field, error: world.error }, { status: 400 });
  let publication: PublicationChange | undefined;
  if (vrchat.calendar) {
    const chosen = parsePublicationInput(form);
    if (!chosen.ok) return data({ field: chosen.field, error: chosen.error }, { status: 400 });
    // Telling every member of the group is the owners' and admins' to do, not a host's.
    if (chosen.choice?.notify && viewer.role === "host") return data({ field: "vrchatNotify", error: m.aev_host_notify_refused() }, { status: 403 });
    if (chosen.choice) {
      let problem;
      try {
        problem = await publicationProblem(db, {
          eventId: intent === "update" ? id : null,
          title: parsed.data.title,
          start: eventStart(parsed.data),
          choice: chosen.choice,
          now: new Date(),
          byHost: viewer.role === "host",
        });
      } catch (error) {
        log.error("failed to check VRChat's limits", { error });
        return data({ error: m.aev_save_failed() }, { status: 503 });
      }
      if (problem) return data(problem, { status: 400 });
    }
    const pageOrigin = config.PUBLIC_URL;
    publication = { choice: chosen.choice, pageUrl: (eventId) => `${pageOrigin}${href("/events/:id", { id: eventId })}`, byHost: viewer.role === "host" };
  }
  // 'Repeats': a new series, an event made into one, or a series changed from this event on.
  const series = stored?.seriesId ? ((await listSeriesSummaries(db, [stored])).get(stored.id) ?? null) : null;
  let rule = null;
  if (series && !following) {
    if (!sameRepeat(repeat.data, series)) return data({ field: "applyTo", error: SERIES_TEXTS.repeatsNeedFollowing }, { status: 400 });
  } else {
    const chosen = repeatRuleOf(repeat.data, parsed.data.eventDate, series?.index ?? 0);
    if (!chosen.ok) return data({ field: chosen.field, error: chosen.error }, { status: 400 });
    rule = chosen.rule;
  }
  const origin = config.PUBLIC_URL;
  try {
    if (intent === "create" && rule) {
      const saved = await createEventSeries(db, { siteOrigin: origin, input: world.event, rule, createdBy: viewer.id, hostId: host ?? viewer.id, publication }, new Date());
      if (saved.kind === "refused") return data({ field: saved.field, error: saved.error }, { status: 400 });
    } else if (intent === "create") {
      await createEvent(db, world.event, viewer.id, publication, host ?? viewer.id);
    } else if (following || (!series && rule)) {
      const saved = await saveFollowing(decideServices(ctx), id, world.event, rule, publication, host, new Date());
      if (saved.kind === "missing") return data({ error: m.event_not_found_admin() }, { status: 404 });
      if (saved.kind === "refused") return data({ field: saved.field, error: saved.error }, { status: 400 });
    } else if (!(await saveEventRefilling(decideServices(ctx), id, world.event, publication, host))) {
      return data({ error: m.event_not_found_admin() }, { status: 404 });
    }
  } catch (error) {
    // Counted again under the allowance's lock at the save: another save may have taken the room meanwhile.
    if (error instanceof CalendarAllowanceError) return data({ field: error.field, error: error.message }, { status: 400 });
    log.error("failed to save an event", { error, intent });
    return data({ error: m.aev_save_failed() }, { status: 503 });
  }
  notifications.wake();
  // Saved; the list says so when VRChat could not confirm the world.
  return redirect(world.unchecked ? `${href("/admin/events")}?${WORLD_UNCHECKED_PARAM}` : href("/admin/events"));
}


const WORLD_UNCHECKED_PARAM = "world-unchecked";



export function meta() {
  return [{ title: m.aev_title() }];
}

export default function AdminEvents({ loaderData, actionData }: Route.ComponentProps) {
  const { events, error, form } = loaderData;
  if (form) {
    return (
      <AdminEventForm
        key={form === "new" ? "new" : form.id}
        event={form === "new" ? null : form}
        failure={actionData}
        publishing={loaderData.calendarGroupId !== null}
        publication={form === "new" ? null : (loaderData.publications[form.id] ?? null)}
        hosts={loaderData.hosts}
        instances={loaderData.instancesOn}
        discordEvents={loaderData.discordEvents}
      />
    );
  }
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="font-display text-4xl text-mist-100">{m.aev_heading()}</h1>
        {loaderData.can.create ? (
          <Button asChild>
            <Link to={`${href("/admin/events")}?new`}>
              <Icon node={Plus} className="size-4" />
              {m.aev_create()}
            </Link>
          </Button>
        ) : null}
      </div>
      {error || actionData?.error ? (
        <ErrorAlert>{error ?? actionData?.error}</ErrorAlert>
      ) : null}
      {loaderData.worldUnchecked ? <Notice>{m.aev_world_unchecked()}</Notice> : null}
      {events.length === 0 && !error ? (
        <EmptyState title={m.aev_empty()} />
      ) : (
        <div className="grid gap-4">
          {events.map((event) => (
            <AdminEventCard
              key={event.id}
              event={event}
              places={loaderData.places[event.id] ?? null}
              publication={loaderData.publications[event.id] ?? null}
              interest={loaderData.interest[event.id]}
              instance={loaderData.instancesOn && (event.worldId || event.applicationRequired) ? (loaderData.instances[event.id] ?? { state: null, lastError: null, nextAttemptAt: null, joinUrl: null, players: null, listed: null, role: null, attendance: null }) : undefined}
              may={{
                edit: loaderData.can.all || event.hostId === loaderData.viewerId,
                review: loaderData.can.review || event.hostId === loaderData.viewerId,
                announce: loaderData.can.announce || event.hostId === loaderData.viewerId,
              }}
            />
          ))}
        </div>
      )}
    </div>
  );
}
