import { Plus } from "lucide";
import { Icon } from "~/components/ui/icon";
import { data, href, Link, redirect } from "react-router";
import { ErrorAlert, Notice } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { appContext } from "~/context";
import { listPlaces } from "~/features/applications/capacity.server";
import { placesTakenText } from "~/features/applications/places";
import { AdminEventCard } from "~/features/events/admin-event-card";
import { AdminEventForm } from "~/features/events/admin-event-form";
import { EventInputSchema, firstEventInputError } from "~/features/events/event-input";
import { eventStart } from "~/features/events/event-timing";
import { createEvent, getEvent, listEventsForAdmin, type PublicationChange } from "~/features/events/events.server";
import { parsePublicationInput, type ListedPublication, type PublicationSummary } from "~/features/events/vrchat-publication";
import { CalendarAllowanceError, listPublications, publicationProblem, retryPublication } from "~/features/events/vrchat-publication.server";

import { calendarEntryUrl } from "~/features/vrchat/calendar-publisher.server";
import { requireOnEvent, requireStaff } from "~/utils/admin-guard.server";
import { allows } from "~/utils/roles";
import { listTeam } from "~/features/accounts/team.server";
import { log } from "~/utils/log.server";
import { checkEventWorld } from "~/flows/event-world.server";
import { decideServices } from "~/flows/decide.server";
import { saveEventRefilling } from "~/flows/refill.server";
import { closeEventInstance, eventInstanceServices, openEventInstance } from "~/flows/event-instance.server";
import { listEventInstances } from "~/features/events/event-instances.server";
import { listEventRoles } from "~/features/events/event-roles.server";
import { deleteEventWithRole } from "~/flows/event-role.server";
import { createEventSeries, deleteFollowing, saveFollowing } from "~/flows/event-series.server";
import { RepeatInputSchema, repeatRuleOf, SERIES_TEXTS, type RepeatInput, type SeriesSummary } from "~/features/events/event-series";
import { listSeriesSummaries } from "~/features/events/event-series.server";
import type { ListedInstance } from "~/features/events/admin-event-card";
import { instanceKey } from "~/features/vrchat/vrchat-api.server";
import type { GroupDataService } from "~/features/vrchat/group-data.server";
import { joinLinkOf } from "~/features/vrchat/vrchat-location";
import { m } from "~/paraglide/messages";
import type { Route } from "./+types/_site.admin.events";

/** The entry's page on VRChat's website, once it has one (and publishing is still configured). */
function withEntryUrl(publication: PublicationSummary, groupId: string | null): ListedPublication {
  const live = publication.vrchatEventId && groupId && publication.wanted;
  return { ...publication, entryUrl: live ? calendarEntryUrl(groupId, publication.vrchatEventId!) : null };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context);
  const { db, vrchat } = context.get(appContext);
  const url = new URL(request.url);
  const calendarGroupId = vrchat.calendar?.groupId ?? null;
  // Who may do what here: the page shows only what the server would allow.
  const can = { create: allows(viewer.role, "events.create"), all: allows(viewer.role, "events.all"), review: allows(viewer.role, "events.review") };
  // The editor itself is refused to a role that may not use it (the list stays open to all staff).
  if (url.searchParams.has("new")) await requireStaff(request, context, "events.create");
  const editing = url.searchParams.get("edit");
  if (editing) {
    const event = await getEvent(db, editing);
    if (event) requireOnEvent(viewer, "edit", event);
  }
  const hosts = can.all ? (await listTeam(db)).map(({ id, username }) => ({ id, username })) : [];
  try {
    // A host manages the events they host, and sees only those.
    const events = await listEventsForAdmin(db, new Date(), viewer.role === "host" ? { hostedBy: viewer.id } : {});
    const places = await listPlaces(db, events.filter((event) => event.maxAttendees !== null).map((event) => event.id));
    const publications = await listPublications(db, events.map((event) => event.id));
    const instances = vrchat.instances ? await listedInstances(db, vrchat.groupData, events.map((event) => event.id)) : {};
    return {
      events,
      places: Object.fromEntries([...places].map(([id, p]) => [id, placesTakenText(p)])) as Record<string, string>,
      publications: Object.fromEntries(
        [...publications].map(([id, publication]) => [id, withEntryUrl(publication, calendarGroupId)]),
      ) as Record<string, ListedPublication>,
      calendarGroupId,
      instances,
      instancesOn: vrchat.instances !== null,
      error: null,
      worldUnchecked: url.searchParams.has(WORLD_UNCHECKED_PARAM),
      form: url.searchParams.has("new") && can.create ? ("new" as const) : (events.find((e) => e.id === editing && (can.all || e.hostId === viewer.id)) ?? null),
      can,
      viewerId: viewer.id,
      hosts,
    };
  } catch (error) {
    log.error("failed to list events for the Sanctum", { error });
    const empty = { places: {} as Record<string, string>, publications: {} as Record<string, ListedPublication> };
    return { events: [], ...empty, calendarGroupId, instances: {} as Record<string, ListedInstance>, instancesOn: vrchat.instances !== null, error: m.aev_load_failed(), worldUnchecked: false, form: null, can, viewerId: viewer.id, hosts };
  }
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
  const host = allows(viewer.role, "events.all") ? await chosenHost(db, form.get("hostId")) : undefined;
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

/** The form's 'Repeats' fields say what the series says (an edit of one occurrence leaves the series alone). */
function sameRepeat(input: RepeatInput, series: SeriesSummary): boolean {
  return input.repeats === series.frequency && (input.repeatUntil ?? null) === series.untilDate && (input.repeatCount ?? null) === series.occurrenceCount;
}

const WORLD_UNCHECKED_PARAM = "world-unchecked";

/**
 * Each event's instance as its card shows it: where it stands, its join link while open, and how many
 * are in it (from the group's live data as last read: no call to VRChat for a page).
 */
async function listedInstances(db: Parameters<typeof listEventInstances>[0], groupData: GroupDataService, eventIds: string[]) {
  const [rows, roles] = await Promise.all([listEventInstances(db, eventIds), listEventRoles(db, eventIds)]);
  const live = await groupData.peek().catch(() => null);
  const counts = new Map(live?.status === "ready" ? live.data.instances.map((instance) => [instance.id, instance.userCount]) : []);
  const listed: Record<string, ListedInstance> = {};
  for (const eventId of eventIds) {
    const row = rows.get(eventId);
    const role = roles.get(eventId);
    if (!row && !role) continue;
    const open = row?.state === "open" && row.location && row.worldId && row.instanceId;
    listed[eventId] = {
      state: row?.state ?? null,
      lastError: row?.lastError ?? null,
      nextAttemptAt: row?.nextAttemptAt ?? null,
      joinUrl: open ? joinLinkOf(row) : null,
      players: open ? (counts.get(instanceKey(row.location!)) ?? 0) : null,
      role: role ? { state: role.state, lastError: role.lastError } : null,
    };
  }
  return listed;
}

/** The host chosen on the form: undefined when none was chosen, null when it is not a staff member. */
async function chosenHost(db: Parameters<typeof listTeam>[0], value: FormDataEntryValue | null): Promise<string | undefined | null> {
  if (value === null || value === "") return undefined;
  const team = await listTeam(db);
  return team.some((member) => member.id === value) ? String(value) : null;
}

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
              instance={loaderData.instancesOn && (event.worldId || event.applicationRequired) ? (loaderData.instances[event.id] ?? { state: null, lastError: null, nextAttemptAt: null, joinUrl: null, players: null, role: null }) : undefined}
              may={{
                edit: loaderData.can.all || event.hostId === loaderData.viewerId,
                review: loaderData.can.review || event.hostId === loaderData.viewerId,
              }}
            />
          ))}
        </div>
      )}
    </div>
  );
}
