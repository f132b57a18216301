/**
 * The VRChat endpoints the site reads, their answers checked with zod, and the mapping into the
 * group data the site serves. Fields VRChat may leave out are optional; unknown fields are dropped.
 */
import { z } from "zod";
import type { GroupData, Instance, Member, PlatformEvent, Post } from "./group-data";
import type { VRChatClient } from "./vrchat-client.server";

const text = z.string().nullish();
const count = z.number().int().nonnegative().nullish();

const GroupSchema = z.object({
  name: text,
  memberCount: count,
  onlineMemberCount: count,
});

const WorldSchema = z.object({
  name: text,
  authorName: text,
  capacity: count,
  recommendedCapacity: count,
});

/** The group-instances list: only the group's own members per instance (`memberCount`). */
const GroupInstanceSchema = z.object({
  instanceId: z.string(),
  location: z.string(),
  memberCount: count,
  world: WorldSchema.nullish(),
});

/** The instance endpoint: everyone in it, and its capacity, region and type. */
const InstanceSchema = z.object({
  id: z.string().nullish(),
  name: text,
  userCount: count,
  n_users: count,
  capacity: count,
  region: text,
  type: text,
  world: WorldSchema.nullish(),
});

const PostSchema = z.object({
  id: z.string(),
  title: text,
  text: text,
  imageUrl: text,
  createdAt: z.string(),
});

const CalendarEventSchema = z.object({
  id: z.string(),
  title: text,
  description: text,
  imageUrl: text,
  startsAt: z.string().nullish(),
  endsAt: z.string().nullish(),
  interestedUserCount: count,
  isDraft: z.boolean().nullish(),
  deletedAt: z.string().nullish(),
});

const CalendarPageSchema = z.object({
  results: z.array(CalendarEventSchema),
  hasNext: z.boolean().nullish(),
});

const MemberSchema = z.object({
  userId: z.string(),
  isRepresenting: z.boolean().nullish(),
  user: z
    .object({
      id: z.string().nullish(),
      displayName: text,
      // No longer returned for other users; read when present.
      username: text,
      currentAvatarThumbnailImageUrl: text,
      iconUrl: text,
      profilePicOverride: text,
    })
    .nullish(),
});

/** Pages of the members list; VRChat serves at most 100 per call. */
const MEMBER_PAGE = 100;
/** Instances read one by one after the group-instances list. */
const MAX_INSTANCES = 20;
const MAX_POSTS = 50;
/** Calendar events per page (VRChat's default is 60) and pages per refresh. */
const CALENDAR_PAGE = 60;
const MAX_CALENDAR_PAGES = 3;

const clean = (value: string | null | undefined) => (value && value.trim() !== "" ? value : null);

function mapWorld(world: z.infer<typeof WorldSchema> | null | undefined): Instance["world"] {
  return {
    name: clean(world?.name),
    authorName: clean(world?.authorName),
    capacity: world?.capacity ?? null,
    recommendedCapacity: world?.recommendedCapacity ?? null,
  };
}

async function readInstances(client: VRChatClient, groupId: string): Promise<Instance[]> {
  const listed = await client.get(`/groups/${encodeURIComponent(groupId)}/instances`, z.array(GroupInstanceSchema));
  const instances: Instance[] = [];
  // One at a time: a handful of small calls, kept gentle on VRChat.
  for (const entry of listed.slice(0, MAX_INSTANCES)) {
    try {
      // A location is "worldId:instanceId"; VRChat wants the colon as it is.
      const [worldId, ...rest] = entry.location.split(":");
      const path = `/instances/${encodeURIComponent(worldId!)}:${encodeURIComponent(rest.join(":"))}`;
      const detail = await client.get(path, InstanceSchema);
      instances.push({
        id: entry.location,
        userCount: detail.userCount ?? detail.n_users ?? entry.memberCount ?? 0,
        name: clean(detail.name),
        region: clean(detail.region),
        type: clean(detail.type),
        capacity: detail.capacity ?? null,
        world: mapWorld(detail.world ?? entry.world),
      });
    } catch {
      // An instance that closed between the two calls: keep what the list said of it.
      instances.push({
        id: entry.location,
        userCount: entry.memberCount ?? 0,
        name: null,
        region: null,
        type: null,
        capacity: null,
        world: mapWorld(entry.world),
      });
    }
  }
  return instances.filter((instance) => instance.userCount > 0);
}

async function readPosts(client: VRChatClient, groupId: string): Promise<Post[]> {
  const { posts } = await client.get(
    `/groups/${encodeURIComponent(groupId)}/posts`,
    z.object({ posts: z.array(PostSchema).nullish() }),
    { n: MAX_POSTS, offset: 0, publicOnly: true },
  );
  return (posts ?? []).map((post) => ({
    id: post.id,
    title: post.title?.trim() || "Untitled post",
    text: post.text ?? "",
    imageUrl: clean(post.imageUrl),
    createdAt: post.createdAt,
  }));
}

/**
 * The group's calendar. VRChat's calendar events have no location and no attendee count: the
 * dashboard's attendee figure is VRChat's "interested" count, and the location stays empty.
 */
async function readEvents(client: VRChatClient, groupId: string): Promise<PlatformEvent[]> {
  const events: PlatformEvent[] = [];
  for (let page = 0; page < MAX_CALENDAR_PAGES; page++) {
    const result = await client.get(`/calendar/${encodeURIComponent(groupId)}`, CalendarPageSchema, {
      n: CALENDAR_PAGE,
      offset: page * CALENDAR_PAGE,
    });
    for (const event of result.results) {
      if (event.isDraft || event.deletedAt || !event.startsAt) continue;
      events.push({
        id: event.id,
        title: event.title?.trim() || "Untitled event",
        description: event.description ?? "",
        imageUrl: clean(event.imageUrl),
        startsAt: event.startsAt,
        endsAt: event.endsAt ?? null,
        location: null,
        attendeeCount: event.interestedUserCount ?? null,
      });
    }
    if (!result.hasNext || result.results.length < CALENDAR_PAGE) break;
  }
  return events.sort((a, b) => Date.parse(b.startsAt) - Date.parse(a.startsAt));
}

async function readMembers(client: VRChatClient, groupId: string, max: number): Promise<Member[]> {
  const members: Member[] = [];
  for (let offset = 0; offset < max; offset += MEMBER_PAGE) {
    const n = Math.min(MEMBER_PAGE, max - offset);
    const page = await client.get(`/groups/${encodeURIComponent(groupId)}/members`, z.array(MemberSchema), {
      n,
      offset,
      sort: "joinedAt:desc",
    });
    for (const entry of page) {
      members.push({
        id: entry.userId,
        displayName: clean(entry.user?.displayName),
        username: clean(entry.user?.username),
        isRepresenting: entry.isRepresenting ?? false,
        currentAvatarThumbnailImageUrl: clean(entry.user?.currentAvatarThumbnailImageUrl),
        iconUrl: clean(entry.user?.iconUrl),
        profilePicOverride: clean(entry.user?.profilePicOverride),
      });
    }
    if (page.length < n) break;
  }
  return members;
}

/** Reads everything the site shows of the group: each endpoint once (members and calendar paged). */
export async function fetchGroupData(
  client: VRChatClient,
  groupId: string,
  options: { maxMembers: number },
): Promise<GroupData> {
  const group = await client.get(`/groups/${encodeURIComponent(groupId)}`, GroupSchema);
  const instances = await readInstances(client, groupId);
  const posts = await readPosts(client, groupId);
  const events = await readEvents(client, groupId);
  const members = options.maxMembers > 0 ? await readMembers(client, groupId, options.maxMembers) : [];
  return {
    group: {
      name: group.name ?? undefined,
      memberCount: group.memberCount ?? 0,
      onlineMemberCount: group.onlineMemberCount ?? 0,
    },
    instances,
    posts,
    events,
    members,
  };
}
