/**
 * The Sanctum's events page, read for the staff member looking (reads only): the events they may
 * manage, each with its places, its VRChat calendar entry, its instance and its role, and the form
 * when one is being written.
 */
import type { AppContext } from "~/context";
import type { StaffRole } from "~/db/enums";
import { listTeam } from "~/features/accounts/team.server";
import { listPlaces } from "~/features/applications/capacity.server";
import { placesTakenText } from "~/features/applications/places";
import type { ListedInstance, ListedInterest } from "~/features/events/admin-event-card";
import { listDiscordEvents } from "~/features/events/discord-events.server";
import { listEventInstances } from "~/features/events/event-instances.server";
import { listInstanceAttendance } from "~/features/events/instance-attendance.server";
import { listEventRoles } from "~/features/events/event-roles.server";
import { listEventsForAdmin, type AdminEventSummary } from "~/features/events/events.server";
import type { ListedPublication, PublicationSummary } from "~/features/events/vrchat-publication";
import { listPublications } from "~/features/events/vrchat-publication.server";
import { calendarEntryUrl } from "~/features/vrchat/calendar-publisher.server";
import type { GroupDataService } from "~/features/vrchat/group-data.server";
import { instanceKey } from "~/features/vrchat/vrchat-api.server";
import { joinLinkOf } from "~/features/vrchat/vrchat-location";
import { m } from "~/paraglide/messages";
import { log } from "~/utils/log.server";
import { allows } from "~/utils/roles";

/** The entry's page on VRChat's website, once it has one (and publishing is still configured). */
function withEntryUrl(publication: PublicationSummary, groupId: string | null): ListedPublication {
  const live = publication.vrchatEventId && groupId && publication.wanted;
  return { ...publication, entryUrl: live ? calendarEntryUrl(groupId, publication.vrchatEventId!) : null };
}

/**
 * Each event's instance as its card shows it: where it stands, its join link while open, and how many
 * are in it (from the group's live data as last read: no call to VRChat for a page).
 */
async function listedInstances(db: Parameters<typeof listEventInstances>[0], groupData: GroupDataService, eventIds: string[]) {
  const [rows, roles, attendance] = await Promise.all([listEventInstances(db, eventIds), listEventRoles(db, eventIds), listInstanceAttendance(db, eventIds)]);
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
      listed: open && live?.status === "ready" ? counts.has(instanceKey(row.location!)) : null,
      role: role ? { state: role.state, lastError: role.lastError } : null,
      attendance: attendance.get(eventId) ?? null,
    };
  }
  return listed;
}

/**
 * How many are interested in each event, where it is listed: Discord's count (read every ten minutes),
 * VRChat's calendar (the group data as last read: no call for a page), and the applications here.
 */
async function listedInterest(db: Parameters<typeof listDiscordEvents>[0], groupData: GroupDataService, events: AdminEventSummary[], publications: Map<string, PublicationSummary>) {
  const [discord, live] = await Promise.all([listDiscordEvents(db, events.map((event) => event.id)), groupData.peek().catch(() => null)]);
  const vrchatCounts = new Map(live?.status === "ready" ? live.data.events.map((entry) => [entry.id, entry.attendeeCount]) : []);
  const listed: Record<string, ListedInterest> = {};
  for (const event of events) {
    const row = discord.get(event.id);
    const entryId = publications.get(event.id)?.vrchatEventId ?? event.vrchatEventId;
    const vrchat = entryId ? (vrchatCounts.get(entryId) ?? null) : null;
    const interest: ListedInterest = {
      discord: row?.discordEventId ? (row.userCount ?? null) : null,
      discordState: row && (row.discordEventId || row.state === "failed" || row.state === "gone") ? { state: row.state, problem: row.lastError } : null,
      vrchat,
      applied: event.applicationRequired ? event.applicationCount : null,
    };
    if (interest.discord !== null || interest.discordState || interest.vrchat !== null) listed[event.id] = interest;
  }
  return listed;
}

export async function readEventsPage(
  { db, vrchat, discord }: Pick<AppContext, "db" | "vrchat" | "discord">,
  viewer: { id: string; role: StaffRole },
  { creating, editing, worldUnchecked }: { creating: boolean; editing: string | null; worldUnchecked: boolean },
  now: Date,
) {
  const calendarGroupId = vrchat.calendar?.groupId ?? null;
  // Who may do what here: the page shows only what the server would allow.
  const can = { create: allows(viewer.role, "events.create"), all: allows(viewer.role, "events.all"), review: allows(viewer.role, "events.review"), announce: allows(viewer.role, "announcements") };
  const hosts = can.all ? (await listTeam(db)).map(({ id, username }) => ({ id, username })) : [];
  const base = { calendarGroupId, instancesOn: vrchat.instances !== null, can, viewerId: viewer.id, hosts };
  try {
    // A host manages the events they host, and sees only those.
    const events = await listEventsForAdmin(db, now, viewer.role === "host" ? { hostedBy: viewer.id } : {});
    const places = await listPlaces(db, events.filter((event) => event.maxAttendees !== null).map((event) => event.id));
    const publications = await listPublications(db, events.map((event) => event.id));
    const instances = vrchat.instances ? await listedInstances(db, vrchat.groupData, events.map((event) => event.id)) : {};
    const interest = await listedInterest(db, vrchat.groupData, events, publications);
    const form = creating && can.create ? ("new" as const) : (events.find((e) => e.id === editing && (can.all || e.hostId === viewer.id)) ?? null);
    // The Discord event list is offered once the bot is set up; ticked at first when it may manage events.
    const discordEvents = form && discord ? { byDefault: await discord.scheduledEvents.allowed().catch(() => false) } : null;
    return {
      ...base,
      interest,
      discordEvents,
      events,
      places: Object.fromEntries([...places].map(([id, p]) => [id, placesTakenText(p)])) as Record<string, string>,
      publications: Object.fromEntries([...publications].map(([id, publication]) => [id, withEntryUrl(publication, calendarGroupId)])) as Record<string, ListedPublication>,
      instances,
      error: null,
      worldUnchecked,
      form,
    };
  } catch (error) {
    log.error("failed to list events for the Sanctum", { error });
    const empty = { places: {} as Record<string, string>, publications: {} as Record<string, ListedPublication> };
    return { ...base, events: [], ...empty, instances: {} as Record<string, ListedInstance>, interest: {} as Record<string, ListedInterest>, discordEvents: null, error: m.aev_load_failed(), worldUnchecked: false, form: null };
  }
}
