/**
 * The group's live data as the site serves it (spec section 3, "Group data response"), and the
 * rules the screens apply to it. Shared by the server, which builds it, and the browser.
 */

export interface GroupInfo {
  memberCount: number;
  onlineMemberCount: number;
  name?: string;
}

export interface InstanceWorld {
  name: string | null;
  authorName: string | null;
  capacity: number | null;
  recommendedCapacity: number | null;
}

export interface Instance {
  id: string;
  userCount: number;
  name: string | null;
  region: string | null;
  type: string | null;
  capacity: number | null;
  world: InstanceWorld;
}

/** A VRChat calendar event as the dashboard shows it. */
export interface PlatformEvent {
  id: string;
  title: string;
  description: string;
  imageUrl: string | null;
  startsAt: string;
  endsAt: string | null;
  /** VRChat's calendar has no location; null unless a source provides one. */
  location: string | null;
  /** VRChat has no attendee count: this is its "interested" count. */
  attendeeCount: number | null;
}

export interface Post {
  id: string;
  title: string;
  text: string;
  imageUrl: string | null;
  createdAt: string;
}

export interface Member {
  id: string;
  displayName: string | null;
  /** VRChat no longer returns other users' usernames; kept for sources that do. */
  username: string | null;
  isRepresenting: boolean;
  currentAvatarThumbnailImageUrl: string | null;
  iconUrl: string | null;
  profilePicOverride: string | null;
}

/** The parts of the group data, each read from VRChat on its own: one failing leaves the others. */
export const GROUP_PARTS = ["group", "instances", "posts", "events", "members"] as const;
export type GroupPart = (typeof GROUP_PARTS)[number];

/** When a part was last read, and whether the last attempt failed (for visitors: no error texts). */
export interface PartFreshness {
  fetchedAt: string | null;
  failing: boolean;
}

export interface GroupData {
  group: GroupInfo;
  instances: Instance[];
  posts: Post[];
  events: PlatformEvent[];
  members: Member[];
  /** Per part, when it is from VRChat (absent for the demo group). */
  parts?: Partial<Record<GroupPart, PartFreshness>>;
}

/** Where the data came from: the group's VRChat, or the example group shown before it is connected. */
export type GroupDataSource = "vrchat" | "demo";

/** What `/api/group-data` answers: the group data, flattened, with where and when it came from. */
export interface GroupDataResponse extends GroupData {
  source: GroupDataSource;
  fetchedAt: string;
  /** True when the data is older than one cache window because the last refresh failed as a whole. */
  stale: boolean;
}

/** What a page knows of the group data when it renders. */
export type GroupDataState =
  | { status: "ready"; data: GroupDataResponse }
  | { status: "loading" }
  | { status: "error"; message: string }
  /** VRChat is not configured and the demo is off: the statistics are not shown at all. */
  | { status: "off" };

export const GROUP_DATA_PATH = "/api/group-data";

/** The navigation bar and the dashboard refetch this often (spec section 9). */
export const GROUP_DATA_REFRESH_MS = 120_000;

/** The fallback message of a failed dashboard fetch (spec section 8). */
export const GROUP_DATA_FAILED = "Failed to load VRChat data";
/**
 * What a visitor may read of the state: an upstream or internal error's own text (it can name the
 * bot account, a host, a members-only item) goes to the log and the Sanctum, never to the public.
 */
export function forVisitors(state: GroupDataState): GroupDataState {
  return state.status === "error" ? { status: "error", message: GROUP_DATA_FAILED } : state;
}

/** The fallback message of a failed navigation-bar fetch (spec section 8). */
export const GROUP_DATA_FETCH_FAILED = "Failed to fetch VRChat group data";

export function totalInVr(instances: readonly Instance[]): number {
  return instances.reduce((sum, instance) => sum + instance.userCount, 0);
}

export type PlatformEventStatus = "live" | "upcoming" | "past";

/** Upcoming before the start, live between start and end, past after the end (spec section 4). */
export function platformEventStatus(event: Pick<PlatformEvent, "startsAt" | "endsAt">, now: Date): PlatformEventStatus {
  const start = Date.parse(event.startsAt);
  if (start > now.getTime()) return "upcoming";
  const end = event.endsAt ? Date.parse(event.endsAt) : Number.NaN;
  // Without an end time, an event counts as live only on its first few hours.
  const effectiveEnd = Number.isNaN(end) ? start + 3 * 60 * 60 * 1000 : end;
  return effectiveEnd > now.getTime() ? "live" : "past";
}

/** One calendar month back from `now` (the dashboard's "recent" window, spec section 9). */
export function oneMonthBefore(now: Date): Date {
  const then = new Date(now);
  then.setMonth(then.getMonth() - 1);
  return then;
}

/** Recent events: those starting within the last month, and every later one. */
export function isRecentEvent(event: Pick<PlatformEvent, "startsAt">, now: Date): boolean {
  return Date.parse(event.startsAt) >= oneMonthBefore(now).getTime();
}

export function isRecentPost(post: Pick<Post, "createdAt">, now: Date): boolean {
  return Date.parse(post.createdAt) >= oneMonthBefore(now).getTime();
}

/** Representing members first, each part in the source's order. */
export function orderMembers(members: readonly Member[]): Member[] {
  return [...members.filter((m) => m.isRepresenting), ...members.filter((m) => !m.isRepresenting)];
}

/** The members shown before 'Load More Members': every representing one, plus ten (spec section 9). */
export function initialMemberCount(members: readonly Member[]): number {
  return Math.min(members.length, members.filter((m) => m.isRepresenting).length + 10);
}

/** Display name, falling back to the username and then 'Unknown Member' (spec section 2). */
export function memberName(member: Member): string {
  return member.displayName?.trim() || member.username?.trim() || "Unknown Member";
}

/** The avatar images to try, in the spec's order: avatar thumbnail, icon, profile override. */
export function memberImageCandidates(member: Member): string[] {
  return [member.currentAvatarThumbnailImageUrl, member.iconUrl, member.profilePicOverride].filter(
    (url): url is string => typeof url === "string" && url.trim() !== "",
  );
}

/** "1 player" / "2 players": the spec's singular/plural texts. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? singular : pluralForm}`;
}
