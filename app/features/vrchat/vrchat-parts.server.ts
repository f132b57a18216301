/**
 * The group's parts as VRChat gives them, each read on its own (the refresh keeps going when one
 * fails): its name and counts, its live instances, its posts, one month of its calendar, and its
 * members. A fixed number of calls each, whatever the group holds.
 */
import { z } from "zod";
import { log } from "~/utils/log.server";
import { type GroupData, type Instance, type Member, type Post } from "./group-data";
import type { CallOptions, VRChatClient } from "./vrchat-client.server";
import { VRChatError } from "./vrchat-error";
import { instancePath } from "./vrchat-location";
import { GroupSchema, InstanceSchema, GroupInstanceSchema, PostSchema, CalendarEventSchema, MemberSchema, list, MEMBER_PAGE, MAX_POSTS, CALENDAR_PAGE, CALENDAR_PAGES_PER_MONTH, CALENDAR_MONTHS_AHEAD, LOOKBACK_MS, INSTANCE_DETAIL_TTL_MS, USER_INSTANCES_RETRY_MS, clean, usable, mapWorld, location, instanceKey, instanceDetail, type CalendarItem, type RefreshState } from "./vrchat-answers.server";

export const monthKey = (date: Date) => date.toISOString().slice(0, 7);

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

export interface Context {
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
export async function readGroup({ client, group, call }: Context, last: GroupData["group"]): Promise<GroupData["group"]> {
  const answer = await client.get(`/groups/${group}`, GroupSchema, undefined, call);
  return {
    name: answer.name ?? last.name ?? undefined,
    memberCount: answer.memberCount ?? last.memberCount ?? 0,
    onlineMemberCount: answer.onlineMemberCount ?? last.onlineMemberCount ?? 0,
  };
}

export async function readInstances(context: Context): Promise<{ instances: Instance[]; dropped: number }> {
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
export async function readInstancesFallback({ client, group, call, now, state }: Context): Promise<{ instances: Instance[]; dropped: number }> {
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

export function withoutNulls<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null)) as Partial<T>;
}

export async function readPosts({ client, group, call }: Context): Promise<{ posts: Post[]; membersOnly: Post[]; dropped: number }> {
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
export async function readCalendarMonth({ client, group, call }: Context, month: string): Promise<{ items: CalendarItem[]; dropped: number; cut: boolean }> {
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

export async function readMembers({ client, group, call }: Context, max: number): Promise<{ members: Member[]; dropped: number }> {
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
