/**
 * What VRChat answers, as Dwell reads it: its shapes (only what Dwell uses is checked), the items
 * kept from a list when some fail (logged once per kind of problem, never their content), and
 * instances and worlds as the site shows them. Also what a refresh keeps between runs.
 * Field facts come from the community's OpenAPI description of the VRChat API (vrchatapi/specification).
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { log } from "~/utils/log.server";
import { type GroupPart, type Instance, type PlatformEvent, type Post } from "./group-data";
import { type VRChatErrorKind } from "./vrchat-error";

export const text = z.string().nullish();
/** A count. The API description sets no minimum for most: below zero reads as zero. */
export const count = z
  .number()
  .nullish()
  .transform((value) => (typeof value === "number" && Number.isFinite(value) ? Math.max(0, Math.round(value)) : null));
export const idList = z.array(z.string()).nullish();

/** VRChat's description requires none of the group's fields: a count it leaves out is zero. */
export const GroupSchema = z.object({
  name: text,
  memberCount: count,
  onlineMemberCount: count,
});

export const WorldSchema = z.object({
  id: text,
  name: text,
  authorName: text,
  capacity: count,
  recommendedCapacity: count,
});

/** An Instance object (the bot's group instances, and `GET /instances/…`). */
export const InstanceSchema = z.object({
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
export const GroupInstanceSchema = z.object({
  instanceId: z.string(),
  location: text,
  memberCount: count,
  world: WorldSchema.nullish(),
});

export const PostSchema = z.object({
  id: text,
  title: text,
  text: text,
  imageUrl: text,
  createdAt: z.string().refine((value) => !Number.isNaN(Date.parse(value)), "not a date"),
  visibility: text,
  roleId: idList,
  roleIds: idList,
});

export const CalendarEventSchema = z.object({
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

export const MemberSchema = z.object({
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

export const list = z.array(z.unknown()).nullish();

/** Members per page (VRChat's most) and the posts read. */
export const MEMBER_PAGE = 100;
export const MAX_POSTS = 50;
/** Calendar events per page (VRChat's most) and pages per month; a month is cut there. */
export const CALENDAR_PAGE = 100;
export const CALENDAR_PAGES_PER_MONTH = 2;
/** The calendar months covered: the one 30 days back, up to this many after the current one. */
export const CALENDAR_MONTHS_AHEAD = 2;
export const LOOKBACK_MS = 30 * 24 * 60 * 60 * 1000;
/** The fallback's instance details are read again after this long, one instance per refresh. */
export const INSTANCE_DETAIL_TTL_MS = 10 * 60 * 1000;
/** After the bot's own instance list is refused, the fallback is used this long before trying again. */
export const USER_INSTANCES_RETRY_MS = 60 * 60 * 1000;

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

export type InstanceDetail = Pick<Instance, "userCount" | "name" | "region" | "type" | "capacity" | "world">;

export const clean = (value: string | null | undefined) => (value && value.trim() !== "" ? value.trim() : null);

export const reported = new Set<string>();

/**
 * The items of a list that Dwell can use. The others are counted, and each kind of problem logged
 * once per process with the field at fault, never the item (it may be private).
 */
export function usable<T>(part: GroupPart, items: readonly unknown[] | null | undefined, schema: z.ZodType<T>): { items: T[]; dropped: number } {
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

export function mapWorld(world: z.infer<typeof WorldSchema> | null | undefined): Instance["world"] {
  return {
    name: clean(world?.name),
    authorName: clean(world?.authorName),
    capacity: world?.capacity ?? null,
    recommendedCapacity: world?.recommendedCapacity ?? null,
  };
}

/** A location names a world and an instance ("wrld_…:…"); "offline" or "private" name neither. */
export const location = (value: string | null | undefined) => (value && value.includes(":") ? value : null);

/**
 * What visitors get to tell instances apart. A location names its creator's user id and the
 * instance's nonce: a short digest of it serves as a key and says nothing of either.
 */
export const instanceKey = (location: string) => createHash("sha256").update(location).digest("base64url").slice(0, 12);

/** VRChat's "unknown" region is no region at all to a visitor. */
export const region = (value: string | null | undefined) => (clean(value) && value !== "unknown" ? clean(value) : null);

export function instanceDetail(instance: z.infer<typeof InstanceSchema>): InstanceDetail {
  return {
    userCount: instance.userCount ?? instance.n_users ?? 0,
    name: clean(instance.displayName) ?? clean(instance.name),
    region: region(instance.region),
    type: clean(instance.type),
    capacity: instance.capacity ?? null,
    world: mapWorld(instance.world),
  };
}
