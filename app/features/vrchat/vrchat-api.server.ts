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
import { createHash } from "node:crypto";
import { z } from "zod";
import { failureText } from "~/utils/failure-text.server";
import { log } from "~/utils/log.server";
import { GROUP_PARTS, type GroupData, type GroupPart, type Instance, type Member, type PlatformEvent, type Post } from "./group-data";
import { VRChatError, type CallOptions, type VRChatClient, type VRChatErrorKind } from "./vrchat-client.server";
import { instancePath } from "./vrchat-location";

const text = z.string().nullish();
/** A count. The API description sets no minimum for most: below zero reads as zero. */
const count = z
  .number()
  .nullish()
  .transform((value) => (typeof value === "number" && Number.isFinite(value) ? Math.max(0, Math.round(value)) : null));
const idList = z.array(z.string()).nullish();

/** VRChat's description requires none of the group's fields: a count it leaves out is zero. */
const GroupSchema = z.object({
  name: text,
  memberCount: count,
  onlineMemberCount: count,
});

const WorldSchema = z.object({
  id: text,
  name: text,
  authorName: text,
  capacity: count,
  recommendedCapacity: count,
});

/** An Instance object (the bot's group instances, and `GET /instances/…`). */
const InstanceSchema = z.object({
  id: text,
  instanceId: text,
  location: text,
  worldId: text,
  name: text,
  displayName: text,
  userCount: count,
  n_users: count,
  capacity: count,
  region: text,
  type: text,
  world: WorldSchema.nullish(),
});

/** An entry of `GET /groups/{group}/instances`: the fallback when the bot's own list is refused. */
const GroupInstanceSchema = z.object({
  instanceId: z.string(),
  location: text,
  memberCount: count,
  world: WorldSchema.nullish(),
});

const PostSchema = z.object({
  id: text,
  title: text,
  text: text,
  imageUrl: text,
  createdAt: z.string().refine((value) => !Number.isNaN(Date.parse(value)), "not a date"),
  visibility: text,
  roleId: idList,
  roleIds: idList,
});

const CalendarEventSchema = z.object({
  id: z.string(),
  title: text,
  description: text,
  imageUrl: text,
  startsAt: z.string().refine((value) => !Number.isNaN(Date.parse(value)), "not a date"),
  endsAt: text,
  interestedUserCount: count,
  isDraft: z.boolean().nullish(),
  deletedAt: text,
  accessType: text,
  occurrenceKind: text,
  roleIds: idList,
});

const MemberSchema = z.object({
  userId: z.string(),
  isRepresenting: z.boolean().nullish(),
  visibility: text,
  membershipStatus: text,
  user: z
    .object({
      displayName: text,
      currentAvatarThumbnailImageUrl: text,
      thumbnailUrl: text,
      iconUrl: text,
      profilePicOverride: text,
    })
    .nullish(),
});

const list = z.array(z.unknown()).nullish();

/** Members per page (VRChat's most) and the posts read. */
const MEMBER_PAGE = 100;
const MAX_POSTS = 50;
/** Calendar events per page (VRChat's most) and pages per month; a month is cut there. */
const CALENDAR_PAGE = 100;
const CALENDAR_PAGES_PER_MONTH = 2;
/** The calendar months covered: the one 30 days back, up to this many after the current one. */
export const CALENDAR_MONTHS_AHEAD = 2;
const LOOKBACK_MS = 30 * 24 * 60 * 60 * 1000;
/** The fallback's instance details are read again after this long, one instance per refresh. */
const INSTANCE_DETAIL_TTL_MS = 10 * 60 * 1000;
/** After the bot's own instance list is refused, the fallback is used this long before trying again. */
const USER_INSTANCES_RETRY_MS = 60 * 60 * 1000;

/**
 * The most calls one refresh can make, for the lease: the bot's user id once, the group, both
 * instance lists and one instance (the fallback), the posts, a month's two pages, the member pages.
 */
export function worstCaseCalls(maxMembers: number): number {
  return 1 + 1 + 3 + 1 + CALENDAR_PAGES_PER_MONTH + Math.ceil(maxMembers / MEMBER_PAGE);
}

/** A calendar event as kept between refreshes: the site's fields, and whether members only may see it. */
export interface CalendarItem extends PlatformEvent {
  membersOnly: boolean;
}

/** What VRChat shows only to the group's members: shown in the Sanctum, never to visitors. */
export interface MembersOnlyItems {
  events: PlatformEvent[];
  posts: Post[];
}

export interface PartStatus {
  /** The last successful read. */
  fetchedAt: string | null;
  lastError: string | null;
  lastErrorKind: VRChatErrorKind | null;
  lastErrorAt: string | null;
  /** Items the last read left out because they could not be used. */
  dropped: number;
  /** Anything else worth knowing (a calendar month cut short). */
  note: string | null;
}

export interface RefreshState {
  parts: Record<GroupPart, PartStatus>;
  /** Calendar months read so far ("2026-11"), each with when and what. */
  calendarMonths: Record<string, { fetchedAt: string; items: CalendarItem[] }>;
  /** The fallback's instance details, by "world:instance" (null: the instance had closed). */
  instanceDetails: Record<string, { fetchedAt: string; detail: InstanceDetail | null }>;
  /** While set and in the future, the bot's own instance list is not asked for. */
  userInstancesRefusedUntil: string | null;
}

type InstanceDetail = Pick<Instance, "userCount" | "name" | "region" | "type" | "capacity" | "world">;

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

const clean = (value: string | null | undefined) => (value && value.trim() !== "" ? value.trim() : null);

const reported = new Set<string>();

/**
 * The items of a list that Dwell can use. The others are counted, and each kind of problem logged
 * once per process with the field at fault, never the item (it may be private).
 */
function usable<T>(part: GroupPart, items: readonly unknown[] | null | undefined, schema: z.ZodType<T>): { items: T[]; dropped: number } {
  const kept: T[] = [];
  let dropped = 0;
  for (const item of items ?? []) {
    const parsed = schema.safeParse(item);
    if (parsed.success) {
      kept.push(parsed.data);
      continue;
    }
    dropped++;
    const issue = parsed.error.issues[0];
    const field = issue?.path.join(".") || "item";
    const key = `${part}|${field}|${issue?.code}`;
    if (!reported.has(key) && reported.size < 200) {
      reported.add(key);
      log.warn("VRChat sent an item Dwell cannot use; it is left out", { part, field, problem: issue?.message });
    }
  }
  return { items: kept, dropped };
}

function mapWorld(world: z.infer<typeof WorldSchema> | null | undefined): Instance["world"] {
  return {
    name: clean(world?.name),
    authorName: clean(world?.authorName),
    capacity: world?.capacity ?? null,
    recommendedCapacity: world?.recommendedCapacity ?? null,
  };
}

/** A location names a world and an instance ("wrld_…:…"); "offline" or "private" name neither. */
const location = (value: string | null | undefined) => (value && value.includes(":") ? value : null);

/**
 * What visitors get to tell instances apart. A location names its creator's user id and the
 * instance's nonce: a short digest of it serves as a key and says nothing of either.
 */
export const instanceKey = (location: string) => createHash("sha256").update(location).digest("base64url").slice(0, 12);

/** VRChat's "unknown" region is no region at all to a visitor. */
const region = (value: string | null | undefined) => (clean(value) && value !== "unknown" ? clean(value) : null);

function instanceDetail(instance: z.infer<typeof InstanceSchema>): InstanceDetail {
  return {
    userCount: instance.userCount ?? instance.n_users ?? 0,
    name: clean(instance.displayName) ?? clean(instance.name),
    region: region(instance.region),
    type: clean(instance.type),
    capacity: instance.capacity ?? null,
    world: mapWorld(instance.world),
  };
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

const monthKey = (date: Date) => date.toISOString().slice(0, 7);

/** The calendar months the site covers, the ones that matter most first: this one, the next, the past. */
export function calendarMonths(now: Date): string[] {
  const shift = (months: number) => monthKey(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + months, 1)));
  const earliest = monthKey(new Date(now.getTime() - LOOKBACK_MS));
  const back: string[] = [];
  for (let months = -1; shift(months) >= earliest; months--) back.push(shift(months));
  const ahead = Array.from({ length: CALENDAR_MONTHS_AHEAD }, (_, i) => shift(i + 1));
  return [shift(0), ...ahead.slice(0, 1), ...back, ...ahead.slice(1)];
}

/** The month to read this refresh: one never read (most important first), else the longest unread. */
export function nextCalendarMonth(months: readonly string[], read: RefreshState["calendarMonths"]): string {
  const unread = months.find((month) => !read[month]);
  if (unread) return unread;
  return [...months].sort((a, b) => Date.parse(read[a]!.fetchedAt) - Date.parse(read[b]!.fetchedAt))[0]!;
}

function toPlatformEvent(item: CalendarItem): PlatformEvent {
  const { membersOnly: _membersOnly, ...event } = item;
  return event;
}

interface Context {
  client: VRChatClient;
  groupId: string;
  now: Date;
  call: CallOptions;
  state: RefreshState;
  group: string;
}

/**
 * The group's name and counts. A field VRChat leaves out (its description requires none) keeps the
 * value the last refresh had, and is zero when there was none: a sparse answer neither fails the
 * part nor blanks a figure visitors saw a minute ago.
 */
async function readGroup({ client, group, call }: Context, last: GroupData["group"]): Promise<GroupData["group"]> {
  const answer = await client.get(`/groups/${group}`, GroupSchema, undefined, call);
  return {
    name: answer.name ?? last.name ?? undefined,
    memberCount: answer.memberCount ?? last.memberCount ?? 0,
    onlineMemberCount: answer.onlineMemberCount ?? last.onlineMemberCount ?? 0,
  };
}

async function readInstances(context: Context): Promise<{ instances: Instance[]; dropped: number }> {
  const { client, groupId, call, now, state } = context;
  const refusedUntil = state.userInstancesRefusedUntil ? Date.parse(state.userInstancesRefusedUntil) : 0;
  if (refusedUntil <= now.getTime()) {
    try {
      const bot = await client.botUserId(call);
      const answer = await client.get(
        `/users/${encodeURIComponent(bot)}/instances/groups/${encodeURIComponent(groupId)}`,
        z.object({ instances: list }),
        undefined,
        call,
      );
      state.userInstancesRefusedUntil = null;
      const { items, dropped } = usable("instances", answer.instances, InstanceSchema);
      const instances = items.flatMap((item) => {
        const worldId = clean(item.worldId) ?? clean(item.world?.id);
        const id = location(item.location) ?? (worldId && clean(item.instanceId) ? `${worldId}:${item.instanceId}` : clean(item.id));
        return id ? [{ id: instanceKey(id), ...instanceDetail(item) }] : [];
      });
      return { instances: instances.filter((instance) => instance.userCount > 0), dropped };
    } catch (error) {
      if (!(error instanceof VRChatError) || !(error.kind === "forbidden" || error.status === 404)) throw error;
      state.userInstancesRefusedUntil = new Date(now.getTime() + USER_INSTANCES_RETRY_MS).toISOString();
      log.warn("VRChat refused the bot account's own list of the group's instances; reading the group's list instead", { status: error.status });
    }
  }
  return readInstancesFallback(context);
}

/**
 * The group's instance list (who of the group is where), completed from cached instance details:
 * at most one instance is read per refresh, and each is kept ten minutes.
 */
async function readInstancesFallback({ client, group, call, now, state }: Context): Promise<{ instances: Instance[]; dropped: number }> {
  const answer = await client.get(`/groups/${group}/instances`, z.array(z.unknown()), undefined, call);
  const { items, dropped } = usable("instances", answer, GroupInstanceSchema);
  const keyOf = (item: (typeof items)[number]) => (item.world?.id ? `${item.world.id}:${item.instanceId}` : null);
  const fresh = (key: string) => {
    const cached = state.instanceDetails[key];
    return cached && now.getTime() - Date.parse(cached.fetchedAt) < INSTANCE_DETAIL_TTL_MS;
  };
  const due = items
    .map(keyOf)
    .filter((key): key is string => key !== null && !fresh(key))
    .sort((a, b) => Date.parse(state.instanceDetails[a]?.fetchedAt ?? "1970-01-01") - Date.parse(state.instanceDetails[b]?.fetchedAt ?? "1970-01-01"))[0];
  if (due) {
    const [worldId, instanceId] = [due.slice(0, due.indexOf(":")), due.slice(due.indexOf(":") + 1)];
    // VRChat answers an instance that has just closed with 200 and null.
    const detail = await client.get(instancePath(`${worldId}:${instanceId}`), InstanceSchema.nullable(), undefined, call);
    state.instanceDetails[due] = { fetchedAt: now.toISOString(), detail: detail ? instanceDetail(detail) : null };
  }
  const listed = new Set(items.map(keyOf));
  for (const key of Object.keys(state.instanceDetails)) if (!listed.has(key)) delete state.instanceDetails[key];

  const instances = items.flatMap((item): Instance[] => {
    const key = keyOf(item);
    const cached = key ? state.instanceDetails[key] : undefined;
    if (cached && cached.detail === null) return [];
    const id = instanceKey(location(item.location) ?? key ?? item.instanceId);
    if (cached?.detail) return [{ id, ...cached.detail, world: { ...mapWorld(item.world), ...withoutNulls(cached.detail.world) } }];
    return [{ id, userCount: item.memberCount ?? 0, name: null, region: null, type: null, capacity: null, world: mapWorld(item.world) }];
  });
  return { instances: instances.filter((instance) => instance.userCount > 0), dropped };
}

function withoutNulls<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null)) as Partial<T>;
}

async function readPosts({ client, group, call }: Context): Promise<{ posts: Post[]; membersOnly: Post[]; dropped: number }> {
  const answer = await client.get(`/groups/${group}/posts`, z.object({ posts: list }), { n: MAX_POSTS, offset: 0 }, call);
  const { items, dropped } = usable("posts", answer.posts, PostSchema);
  const posts: Post[] = [];
  const membersOnly: Post[] = [];
  for (const [index, post] of items.entries()) {
    const mapped: Post = {
      id: clean(post.id) ?? `post-${index}-${Date.parse(post.createdAt)}`,
      title: clean(post.title) ?? "Untitled post",
      text: post.text ?? "",
      imageUrl: clean(post.imageUrl),
      createdAt: new Date(post.createdAt).toISOString(),
    };
    const restricted = (post.roleId?.length ?? 0) > 0 || (post.roleIds?.length ?? 0) > 0;
    (post.visibility === "public" && !restricted ? posts : membersOnly).push(mapped);
  }
  return { posts, membersOnly, dropped };
}

/**
 * One month of the calendar (VRChat lists by month). Series parents are left out: their
 * occurrences are listed themselves. A month with more than two pages is cut, and says so.
 */
async function readCalendarMonth({ client, group, call }: Context, month: string): Promise<{ items: CalendarItem[]; dropped: number; cut: boolean }> {
  const items: CalendarItem[] = [];
  let dropped = 0;
  let cut = false;
  for (let page = 0; page < CALENDAR_PAGES_PER_MONTH; page++) {
    const answer = await client.get(
      `/calendar/${group}`,
      z.object({ results: list, hasNext: z.boolean().nullish() }),
      { date: `${month}-01T00:00:00.000Z`, n: CALENDAR_PAGE, offset: page * CALENDAR_PAGE },
      call,
    );
    const found = usable("events", answer.results, CalendarEventSchema);
    dropped += found.dropped;
    for (const event of found.items) {
      if (event.isDraft || event.deletedAt || event.occurrenceKind === "series") continue;
      items.push({
        id: event.id,
        title: clean(event.title) ?? "Untitled event",
        description: event.description ?? "",
        imageUrl: clean(event.imageUrl),
        startsAt: new Date(event.startsAt).toISOString(),
        endsAt: event.endsAt && !Number.isNaN(Date.parse(event.endsAt)) ? new Date(event.endsAt).toISOString() : null,
        location: null,
        attendeeCount: event.interestedUserCount ?? null,
        membersOnly: event.accessType !== "public" || (event.roleIds?.length ?? 0) > 0,
      });
    }
    if (!answer.hasNext || (answer.results?.length ?? 0) < CALENDAR_PAGE) return { items, dropped, cut };
    cut = page === CALENDAR_PAGES_PER_MONTH - 1;
  }
  return { items, dropped, cut };
}

async function readMembers({ client, group, call }: Context, max: number): Promise<{ members: Member[]; dropped: number }> {
  const members: Member[] = [];
  let dropped = 0;
  for (let offset = 0; offset < max; offset += MEMBER_PAGE) {
    const n = Math.min(MEMBER_PAGE, max - offset);
    const page = await client.get(`/groups/${group}/members`, z.array(z.unknown()), { n, offset, sort: "joinedAt:desc" }, call);
    const found = usable("members", (page ?? []).filter((entry) => entry !== null), MemberSchema);
    dropped += found.dropped;
    for (const entry of found.items) {
      // Members who hide their membership (or show it to friends only) are never shown or counted.
      if (entry.visibility !== "visible") continue;
      if (entry.membershipStatus && entry.membershipStatus !== "member") continue;
      members.push({
        id: entry.userId,
        displayName: clean(entry.user?.displayName),
        // Not in VRChat's answers for other users; kept for sources that have it.
        username: null,
        isRepresenting: entry.isRepresenting ?? false,
        currentAvatarThumbnailImageUrl: clean(entry.user?.currentAvatarThumbnailImageUrl) ?? clean(entry.user?.thumbnailUrl),
        iconUrl: clean(entry.user?.iconUrl),
        profilePicOverride: clean(entry.user?.profilePicOverride),
      });
    }
    if ((page?.length ?? 0) < n) break;
  }
  return { members, dropped };
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
