/**
 * The VRChat endpoints the site reads, and the group data built from them, in five parts (group,
 * instances, posts, events, members) read one after another, each failing alone: a part that fails
 * keeps its last good value and its own age, and says why.
 *
 * - **A fixed number of calls per refresh**: the group; its live instances with their player counts
 *   in one call for the bot account (`/users/{bot}/instances/groups/{group}`); the posts; one month
 *   of the calendar (the months the site covers are read in turn); one page of members per 100.
 *   However many instances are open: ≤ 5 calls with up to 100 members.
 * - **Privacy**: members-only calendar events and posts (access `group`, or restricted to roles) are
 *   kept apart from what visitors are served; members whose membership is not `visible` are never
 *   kept at all. Anything not marked public is treated as members-only.
 * - **Tolerance**: what Dwell uses is checked; an item that fails is left out (logged once per kind
 *   of problem, never its content) and the rest kept. A whole answer in a refused shape fails only
 *   its part, reported as such.
 * Field facts come from the community's OpenAPI description of the VRChat API (vrchatapi/specification).
 */
import { failureText } from "~/utils/failure-text.server";
import { GROUP_PARTS, type GroupData, type GroupPart, type PlatformEvent } from "./group-data";
import type { VRChatClient } from "./vrchat-client.server";
import { VRChatError, type VRChatErrorKind } from "./vrchat-error";
import { MEMBER_PAGE, CALENDAR_PAGE, CALENDAR_PAGES_PER_MONTH, type CalendarItem, type MembersOnlyItems, type PartStatus, type RefreshState } from "./vrchat-answers.server";
import { calendarMonths, nextCalendarMonth, readGroup, readInstances, readPosts, readCalendarMonth, readMembers, type Context } from "./vrchat-parts.server";

export { CALENDAR_MONTHS_AHEAD, instanceKey, type CalendarItem, type MembersOnlyItems, type PartStatus, type RefreshState } from "./vrchat-answers.server";
export { calendarMonths, nextCalendarMonth } from "./vrchat-parts.server";
/**
 * The most calls one refresh can make, for the lease: the bot's user id once, the group, both
 * instance lists and one instance (the fallback), the posts, a month's two pages, the member pages.
 */
export function worstCaseCalls(maxMembers: number): number {
  return 1 + 1 + 3 + 1 + CALENDAR_PAGES_PER_MONTH + Math.ceil(maxMembers / MEMBER_PAGE);
}

export interface GroupSnapshot {
  data: GroupData;
  membersOnly: MembersOnlyItems;
  state: RefreshState;
}

export interface RefreshOutcome {
  snapshot: GroupSnapshot;
  /** Parts whose read failed this time (they kept their last good value). */
  failed: GroupPart[];
  /** VRChat asked us to slow down: no refresh before this many ms. */
  backOffMs: number | null;
}

export function emptyGroupData(): GroupData {
  return { group: { memberCount: 0, onlineMemberCount: 0 }, instances: [], posts: [], events: [], members: [] };
}

function emptyPart(): PartStatus {
  return { fetchedAt: null, lastError: null, lastErrorKind: null, lastErrorAt: null, dropped: 0, note: null };
}

function emptyState(): RefreshState {
  return {
    parts: Object.fromEntries(GROUP_PARTS.map((part) => [part, emptyPart()])) as Record<GroupPart, PartStatus>,
    calendarMonths: {},
    instanceDetails: {},
    userInstancesRefusedUntil: null,
  };
}

function toPlatformEvent(item: CalendarItem): PlatformEvent {
  const { membersOnly: _membersOnly, ...event } = item;
  return event;
}

const PERMISSION_HINT: Record<GroupPart, string> = {
  group: "the bot account must be a member of the group",
  instances: "the bot account must be a member of the group",
  posts: "the bot account must be a member of the group",
  events: "the bot account must be a member of the group",
  members: "the bot account must be a member of the group, in a role with the 'group-members-viewall' permission",
};

function describeFailure(part: GroupPart, error: unknown): { message: string; kind: VRChatErrorKind } {
  if (!(error instanceof VRChatError)) return { message: failureText(error), kind: "http" };
  if (error.kind === "forbidden") return { message: `${error.message} (${PERMISSION_HINT[part]})`, kind: error.kind };
  return { message: error.message, kind: error.kind };
}

/**
 * One refresh: each part read in turn, a failure recorded against its part only. A 429, a login
 * problem, or two parts in a row that VRChat did not answer stop the rest (VRChat asked to slow
 * down, every call would fail the same way, or VRChat is down); those parts keep their values too.
 */
export async function refreshGroupData(
  client: VRChatClient,
  groupId: string,
  options: { maxMembers: number; now: Date; deadline: number; previous: Partial<GroupSnapshot> | null },
): Promise<RefreshOutcome> {
  const { now, previous } = options;
  const data: GroupData = structuredClone(previous?.data ?? emptyGroupData());
  const membersOnly: MembersOnlyItems = structuredClone(previous?.membersOnly ?? { events: [], posts: [] });
  const state: RefreshState = { ...emptyState(), ...structuredClone(previous?.state ?? {}) };
  for (const part of GROUP_PARTS) state.parts[part] ??= emptyPart();
  const context: Context = { client, groupId, now, state, call: { deadline: options.deadline }, group: encodeURIComponent(groupId) };

  const months = calendarMonths(now);
  for (const month of Object.keys(state.calendarMonths)) if (!months.includes(month)) delete state.calendarMonths[month];

  const reads: Record<GroupPart, () => Promise<{ dropped: number; note?: string | null }>> = {
    group: async () => {
      data.group = await readGroup(context, data.group);
      return { dropped: 0 };
    },
    instances: async () => {
      const { instances, dropped } = await readInstances(context);
      data.instances = instances;
      return { dropped };
    },
    posts: async () => {
      const read = await readPosts(context);
      data.posts = read.posts;
      membersOnly.posts = read.membersOnly;
      return { dropped: read.dropped };
    },
    events: async () => {
      const month = nextCalendarMonth(months, state.calendarMonths);
      const read = await readCalendarMonth(context, month);
      state.calendarMonths[month] = { fetchedAt: now.toISOString(), items: read.items };
      return { dropped: read.dropped, note: read.cut ? `more than ${CALENDAR_PAGE * CALENDAR_PAGES_PER_MONTH} events in ${month}: the rest were not read` : null };
    },
    members: async () => {
      const read = options.maxMembers > 0 ? await readMembers(context, options.maxMembers) : { members: [], dropped: 0 };
      data.members = read.members;
      return { dropped: read.dropped };
    },
  };

  const failed: GroupPart[] = [];
  let stop: { message: string; kind: VRChatErrorKind; backOffMs: number | null } | null = null;
  // Two parts in a row VRChat did not answer (refused, timed out, 5xx): it is down; ask no more.
  let silentInARow = 0;
  for (const part of GROUP_PARTS) {
    const status = state.parts[part];
    if (stop) {
      failed.push(part);
      Object.assign(status, { lastError: `not asked: ${stop.message}`, lastErrorKind: stop.kind, lastErrorAt: now.toISOString() });
      continue;
    }
    try {
      const { dropped, note } = await reads[part]();
      Object.assign(status, { fetchedAt: now.toISOString(), lastError: null, lastErrorKind: null, lastErrorAt: null, dropped, note: note ?? null });
      silentInARow = 0;
    } catch (error) {
      failed.push(part);
      const { message, kind } = describeFailure(part, error);
      Object.assign(status, { lastError: message, lastErrorKind: kind, lastErrorAt: now.toISOString() });
      silentInARow = kind === "unreachable" ? silentInARow + 1 : 0;
      if (kind === "rate-limited" || kind === "auth" || silentInARow >= 2) {
        const asked = error instanceof VRChatError ? error.retryAfterMs : null;
        stop = { message, kind, backOffMs: kind === "rate-limited" ? (asked ?? 60_000) : asked };
      }
    }
  }

  // The calendar is the union of the months read; what members alone may see goes to the Sanctum.
  const seen = new Set<string>();
  const calendar = Object.values(state.calendarMonths)
    .flatMap((month) => month.items)
    .filter((item) => !seen.has(item.id) && seen.add(item.id))
    .sort((a, b) => Date.parse(b.startsAt) - Date.parse(a.startsAt));
  data.events = calendar.filter((item) => !item.membersOnly).map(toPlatformEvent);
  membersOnly.events = calendar.filter((item) => item.membersOnly).map(toPlatformEvent);
  data.parts = Object.fromEntries(
    GROUP_PARTS.map((part) => [part, { fetchedAt: state.parts[part].fetchedAt, failing: state.parts[part].lastError !== null }]),
  );

  return { snapshot: { data, membersOnly, state }, failed, backOffMs: stop?.backOffMs ?? null };
}
