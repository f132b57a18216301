/**
 * The VRChat API, played on loopback, as the community's OpenAPI description says it answers
 * (tests/fakes/vrchat-contract.ts holds those facts; app/features/vrchat/vrchat-contract.test.ts checks this fake
 * against them): Basic-auth login with a TOTP second factor and cookies, the current user, and the
 * group endpoints the site reads, with what only members may see marked as such:
 *
 * - calendar events with `accessType` public or group (members only), listed by month (`date`),
 *   with recurring series (a `series` parent and its `occurrence`s);
 * - posts with `visibility` public or group, or restricted to roles (`roleId`);
 * - members whose membership `visibility` is visible, hidden or friends, and `null` entries;
 * - the bot's own list of the group's instances (full instance objects; 403 for another user id),
 *   the group's instance list, and single instances (200 with `null` once one has closed);
 * - people in VRChat (`people`): a user search, a user by id, the group's join requests, one
 *   user's membership (200 with `null` when there is none), and the actions on them: answering a
 *   join request (accept, or reject and perhaps block) and inviting, refused as VRChat refuses them
 *   (already a member, already invited, no request). Every action taken is kept in `actions`;
 * - the group's calendar written to: entries created (checked against CreateCalendarEventRequest,
 *   refused when they start in the past or the month already holds 100), updated and deleted,
 *   answering 404 "Calendar Entry not foundǃ" for an unknown id. Each write is kept in `calendarWrites`;
 * - the group's posts written to (created, edited, deleted: checked against CreateGroupPostRequest,
 *   each kept in `postWrites`), and pictures uploaded (`POST /file/image`, multipart, kept in `files`).
 *
 * Like VRChat, it answers 401 to calls without a valid session. Failures can be switched on for
 * every call (down, rate limited, garbage, wrong shape, refused, the next N calls) or for one
 * endpoint alone (any status, a wrong shape, `null`, or no answer at all), sessions expired, or
 * answers slowed. Every request is recorded, and every call counted per endpoint.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createCanvas } from "@napi-rs/canvas";
import { Secret, TOTP } from "otpauth";
import { listenOnLoopback, portSwitch } from "./fake-server.ts";
import { CreateCalendarEventRequestSchema, CreateGroupPostRequestSchema, UploadImageRequestSchema, UpdateCalendarEventRequestSchema, type RecordedRequest } from "./vrchat-contract.ts";

export const FAKE_GROUP_ID = "grp_5f3c9a1e-2b4d-4c6e-8f70-1a2b3c4d5e6f";
/** A world the fake knows (`GET /worlds/{id}`), with a picture the tests can fetch from the fake itself. */
export const FAKE_WORLD_ID = "wrld_4432ea9b-729c-46e3-8eaf-846aa0a37fdd";
export const FAKE_WORLD_NAME = "The Lantern Garden";
export const FAKE_BOT_USER_ID = "usr_0b0b0b0b-1c1c-4d2d-8e3e-4f4f4f4f4f4f";
export const FAKE_USERNAME = "dwell-bot@example.org";
/** The secret the tests' session stores seal the bot's cookies with (the site uses AUTH_SECRET). */
export const FAKE_SESSION_SECRET = "a-test-secret-for-the-vrchat-session-cookies";
export const FAKE_PASSWORD = "p@ss word:with&symbols";
/** A base32 secret, as VRChat shows it when an authenticator is set up. */
export const FAKE_TOTP_SECRET = new Secret({ size: 20 }).base32;

/** The server's VRChat settings pointing at a fake. */
export function fakeVRChatEnv(fake: { url: string }): Record<string, string> {
  return {
    VRCHAT_API_URL: fake.url,
    VRCHAT_GROUP_ID: FAKE_GROUP_ID,
    VRCHAT_USERNAME: FAKE_USERNAME,
    VRCHAT_PASSWORD: FAKE_PASSWORD,
    VRCHAT_TOTP_SECRET: FAKE_TOTP_SECRET,
    VRCHAT_CONTACT: "admins@dwell.example",
  };
}

/** A client's account settings for a fake (the client's own options, without its store). */
export function fakeVRChatAccount(fake: { url: string }) {
  return {
    apiUrl: fake.url,
    username: FAKE_USERNAME,
    password: FAKE_PASSWORD,
    totpSecret: FAKE_TOTP_SECRET,
    contact: "admins@dwell.example",
  };
}

export interface FakeWorld {
  name?: string;
  authorName?: string;
  capacity?: number;
  recommendedCapacity?: number;
}

export interface FakeInstance {
  /** "worldId:instanceId", as VRChat writes a location. */
  location: string;
  /** Group members in it (the group's instance list). */
  memberCount: number;
  /** Everyone in it (instance objects). */
  userCount: number;
  capacity?: number;
  region?: string;
  type?: string;
  name?: string;
  world: FakeWorld;
  /** Just closed: the instance endpoint answers 200 with null. */
  closed?: boolean;
  /** What its creator set (an instance made through `POST /instances`, or one a member opened). */
  ownerId?: string | null;
  creatorId?: string;
  groupAccessType?: string;
  roleIds?: string[];
  calendarEntryId?: string | null;
  closedAt?: string | null;
  shortName?: string | null;
  /**
   * Who is in it: VRChat lists them (`users`) to the instance's creator only, so only on an instance
   * the bot made (`creatorId`). Tests move people in and out over the evening.
   */
  users?: { id: string; displayName: string }[];
}

export interface FakeCalendarEvent {
  id: string;
  title: string;
  description?: string;
  imageUrl?: string | null;
  startsAt?: string;
  endsAt?: string;
  interestedUserCount?: number;
  isDraft?: boolean;
  /** Who may see it on VRChat: everyone, or the group's members (VRChat's default is public). */
  accessType?: "public" | "group";
  occurrenceKind?: "single" | "series" | "occurrence";
  roleIds?: string[] | null;
  category?: string;
  languages?: string[];
  platforms?: string[];
}

export interface FakePostWrite {
  kind: "create" | "update" | "delete";
  id: string;
  body?: unknown;
  at: number;
}

export interface FakeCalendarWrite {
  kind: "create" | "update" | "delete";
  id: string;
  title?: string;
  at: number;
}

export interface FakePost {
  id?: string;
  authorId?: string;
  imageId?: string | null;
  title?: string;
  text?: string;
  imageUrl?: string | null;
  createdAt?: string;
  visibility?: "public" | "group";
  roleId?: string[];
}

export type FakeMember = {
  userId: string;
  isRepresenting?: boolean;
  /** How the member shows their membership: to everyone, friends only, or nobody. */
  visibility?: "visible" | "hidden" | "friends";
  user: {
    displayName?: string;
    currentAvatarThumbnailImageUrl?: string | null;
    thumbnailUrl?: string | null;
    iconUrl?: string;
    profilePicOverride?: string;
  } | null;
} | null;

/** Someone in VRChat, and where they stand with the group. */
export interface FakePerson {
  id: string;
  displayName: string;
  thumbnailUrl?: string | null;
  /** VRChat's membershipStatus; none: no membership at all. */
  status: "none" | "requested" | "invited" | "member" | "banned" | "userblocked";
  /** Their join request was rejected with a block: they cannot ask again. */
  blocked?: boolean;
  /** What they wrote about themselves, and their status line (`GET /users/{userId}`). */
  bio?: string;
  statusDescription?: string;
  /** What screening reads: trust tags (`system_trust_*`), `date_joined`, `ageVerificationStatus`. */
  tags?: string[];
  dateJoined?: string;
  ageVerificationStatus?: "18+" | "hidden" | "verified";
  /** When they asked to join (the GroupMember's `createdAt`). */
  requestedAt?: string;
  /** When they were banned (the GroupMember's `bannedAt`). */
  bannedAt?: string;
  /** The groups they are a member of (`GET /users/{userId}/groups`). */
  groups?: string[];
}

/** An entry of the group's audit log (a GroupAuditLogEntry). */
export interface FakeAuditLogEntry {
  id: string;
  created_at: string;
  eventType: string;
  actorId: string;
  actorDisplayName: string;
  targetId: string;
  description: string;
  data: Record<string, unknown>;
  groupId: string;
}

/** An action VRChat carried out, with when it arrived. */
export interface FakeAction {
  kind: "accept" | "reject" | "invite" | "ban" | "unban";
  userId: string;
  block?: boolean;
  /** An invite sent over the user's own block of the group (VRChat's default when the caller does not say). */
  overrodeBlock?: boolean;
  at: number;
}

/** A world VRChat knows: its name and (a path on the fake for) its picture. */
export interface FakeWorldEntry {
  id: string;
  name: string;
  /** Served by the fake at this path (a small PNG); absent: the world has no picture. */
  imagePath?: string;
}

export interface FakeInstanceWrite {
  kind: "create" | "close";
  location: string;
  /** The create request's body, as sent. */
  body?: Record<string, unknown>;
  at: number;
}

/** A role of the group, and who holds it. */
export interface FakeRole {
  id: string;
  name: string;
  description: string;
  /** The user ids of the members holding it. */
  holders: string[];
  /** A management role (VRChat's own: only the group's owner gives it). */
  management?: boolean;
}

export interface FakeRoleWrite {
  kind: "create" | "delete" | "give" | "take";
  roleId: string;
  userId?: string;
  /** The create request's body, as sent. */
  body?: Record<string, unknown>;
  at: number;
}

export interface FakeGroup {
  name: string;
  /** Other groups VRChat knows (`GET /groups/{groupId}` for another id); any other id is 404. */
  otherGroups?: { id: string; name: string }[];
  /** The group's roles (`GET /groups/{groupId}/roles`), and the ones made and deleted. */
  roles: FakeRole[];
  /**
   * Roles made from now on get ids without the `grol_` prefix (`bare`), or with a space and a slash in
   * them (`odd`): GroupRoleID sets no pattern. `true` is `bare`.
   */
  bareRoleIds?: boolean | "odd";
  /** The worlds `GET /worlds/{id}` knows. */
  worlds: FakeWorldEntry[];
  people: FakePerson[];
  memberCount: number;
  onlineMemberCount: number;
  instances: FakeInstance[];
  posts: FakePost[];
  calendar: FakeCalendarEvent[];
  members: FakeMember[];
  /**
   * The permissions of the bot account's own role in the group (a management role the group's owner
   * gave it); `null`: the bot is not a member. Default: everything Dwell asks of it.
   */
  botPermissions?: string[] | null;
}

/** Everything Dwell asks of its bot account in the group (the Connections page's checks). */
export const FAKE_BOT_PERMISSIONS = [
  "group-announcement-manage",
  "group-audit-view",
  "group-bans-manage",
  "group-calendar-manage",
  "group-instance-manage",
  "group-instance-open-create",
  "group-invites-manage",
  "group-members-manage",
  "group-members-remove",
  "group-roles-assign",
  "group-roles-manage",
];
/** The bot account's role in the group. */
export const FAKE_BOT_ROLE_ID = "grol_dwell_bot";

const DAY = 24 * 60 * 60 * 1000;

/** A group as VRChat shows it to its bot account: public items, and some only members may see. */
export function fakeGroup(now = new Date()): FakeGroup {
  const at = (offset: number) => new Date(now.getTime() + offset).toISOString();
  return {
    name: "The Dwellers",
    roles: [{ id: "grol_hosts", name: "Hosts", description: "Who hosts the group's events", holders: [] }],
    worlds: [{ id: FAKE_WORLD_ID, name: FAKE_WORLD_NAME, imagePath: "/file/file_lantern/1/file" }],
    people: [],
    memberCount: 2451,
    onlineMemberCount: 88,
    instances: [
      {
        location: "wrld_aaaa:111~group(grp_x)",
        memberCount: 5,
        userCount: 9,
        capacity: 40,
        region: "use",
        type: "group",
        name: "111",
        world: { name: "Hearth Hall", authorName: "Ember", capacity: 40, recommendedCapacity: 20 },
      },
      {
        location: "wrld_bbbb:222",
        memberCount: 2,
        userCount: 4,
        capacity: 16,
        region: "jp",
        type: "public",
        name: "222",
        world: { name: "Tide Pools", authorName: "Wave", capacity: 16, recommendedCapacity: 8 },
      },
    ],
    posts: [
      { id: "not_1", title: "Fresh post", text: "Hello from VRChat", imageUrl: null, createdAt: at(-3 * DAY), visibility: "public" },
      { id: "not_2", title: "Old post", text: "From long ago", imageUrl: null, createdAt: at(-90 * DAY), visibility: "public" },
      { id: "not_3", title: "Members' notice", text: "For the Dwellers only", imageUrl: null, createdAt: at(-2 * DAY), visibility: "group" },
      { id: "not_4", title: "Hosts' notice", text: "For the hosts' role", imageUrl: null, createdAt: at(-1 * DAY), visibility: "public", roleId: ["grol_hosts"] },
    ],
    calendar: [
      {
        id: "cal_11111111-1111-4111-8111-111111111111",
        title: "Upcoming gathering",
        description: "Soon",
        startsAt: at(2 * DAY),
        endsAt: at(2 * DAY + 2 * 60 * 60 * 1000),
        interestedUserCount: 12,
        accessType: "public",
      },
      {
        id: "cal_22222222-2222-4222-8222-222222222222",
        title: "Last week's dance",
        description: "Done",
        startsAt: at(-7 * DAY),
        endsAt: at(-7 * DAY + 2 * 60 * 60 * 1000),
        interestedUserCount: 1,
        accessType: "public",
      },
      {
        id: "cal_33333333-3333-4333-8333-333333333333",
        title: "Long ago",
        description: "Ancient",
        startsAt: at(-60 * DAY),
        endsAt: at(-60 * DAY + 60 * 60 * 1000),
        accessType: "public",
      },
      {
        id: "cal_44444444-4444-4444-8444-444444444444",
        title: "Members' circle",
        description: "Only for the group",
        startsAt: at(3 * DAY),
        endsAt: at(3 * DAY + 60 * 60 * 1000),
        accessType: "group",
      },
    ],
    members: [
      { userId: "usr_1", isRepresenting: true, visibility: "visible", user: { displayName: "Captain", currentAvatarThumbnailImageUrl: null } },
      { userId: "usr_2", isRepresenting: false, visibility: "visible", user: { displayName: "Deckhand" } },
      { userId: "usr_3", isRepresenting: false, visibility: "hidden", user: { displayName: "Stowaway" } },
      { userId: "usr_4", isRepresenting: false, visibility: "friends", user: { displayName: "Lookout" } },
    ],
  };
}

/** Months of the calendar from `from` on, each a start and end like VRChat's weekly series. */
export function weeklyCalendar(from: Date, weeks: number, accessType: "public" | "group" = "public"): FakeCalendarEvent[] {
  return Array.from({ length: weeks }, (_, i) => {
    const start = new Date(from.getTime() + i * 7 * DAY);
    return {
      id: `cal_${String(i).padStart(8, "0")}-0000-4000-8000-${String(i).padStart(12, "0")}`,
      title: `Week ${i + 1}`,
      description: "",
      startsAt: start.toISOString(),
      endsAt: new Date(start.getTime() + 60 * 60 * 1000).toISOString(),
      accessType,
      occurrenceKind: "occurrence",
    };
  });
}

export type FakeVRChatMode = "normal" | "down" | "rate-limited" | "garbage" | "wrong-shape" | "refused";

/** The endpoints, as counted in `calls` and switched by `setEndpoint`. */
export type FakeEndpoint =
  | "login"
  | "totp"
  | "currentUser"
  | "group"
  | "otherGroup"
  | "userGroupInstances"
  | "groupInstances"
  | "instance"
  | "posts"
  | "calendar"
  | "members"
  | "joinRequests"
  | "membership"
  | "searchUsers"
  | "user"
  | "userGroups"
  | "respondRequest"
  | "bans"
  | "ban"
  | "unban"
  | "invite"
  | "createCalendarEvent"
  | "updateCalendarEvent"
  | "deleteCalendarEvent"
  | "world"
  | "worldPicture"
  | "createInstance"
  | "closeInstance"
  | "instanceShortName"
  | "roles"
  | "auditLogs"
  | "createRole"
  | "deleteRole"
  | "giveRole"
  | "takeRole"
  | "createPost"
  | "updatePost"
  | "deletePost"
  | "uploadImage";

/** One endpoint's own failure: a status (with VRChat's error body), a wrong shape, null, or silence. */
export type EndpointBehaviour =
  | "normal"
  | "wrong-shape"
  | "null"
  | "hang"
  /** Does what was asked, then answers in a shape the caller cannot read (its answer is lost to it). */
  | "acts-unreadably"
  | { status: number; message?: string; retryAfterSeconds?: number }
  /** 200 with this body (an answer the API description allows that the fake's own model never gives). */
  | { body: unknown };

export interface FakeVRChat {
  url: string;
  group: FakeGroup;
  /** Requests per endpoint (see FakeEndpoint), and "unknown". */
  calls: Record<string, number>;
  /** Every request, as the API description would read it. */
  requests: RecordedRequest[];
  /** Every JSON answer this fake gave with 200, by endpoint (the most recent 500). */
  answers: { endpoint: FakeEndpoint; body: unknown }[];
  userAgents: Set<string>;
  /** Every code the TOTP endpoint received. */
  totpCodes: string[];
  /** The Cookie header of each login request (undefined: none was sent). */
  loginCookieHeaders: (string | undefined)[];
  /** Every join request answered and invite sent, in order. */
  actions: FakeAction[];
  /** Every calendar entry created, updated or deleted, in order. */
  calendarWrites: FakeCalendarWrite[];
  /** Every instance created (with the request's body) or closed, in order. */
  instanceWrites: FakeInstanceWrite[];
  /** Every role made or deleted, given to a member or taken away, in order. */
  roleWrites: FakeRoleWrite[];
  /** Every post created, edited or deleted, in order (with the body VRChat received). */
  postWrites: FakePostWrite[];
  /** Every picture uploaded: its file id, type, size and tag. */
  files: { id: string; type: string; size: number; tag: string }[];
  /** The group's audit log, oldest first (VRChat lists it newest first): the bot's own acts included. */
  auditLog: FakeAuditLogEntry[];
  /** A moderator's act in VRChat itself (not through Dwell): the group changes, and the audit log says so. */
  moderate(act: { kind: "ban" | "unban" | "kick" | "role_add" | "role_remove"; actorId: string; actorName: string; targetId: string; roleId?: string; at?: Date }): void;
  /** A member leaves the group by themselves (the audit log's `group.member.leave`). */
  leave(userId: string): void;
  /** Resolves once the mode is in effect (for "refused", once the port is closed or open again). */
  setMode(mode: FakeVRChatMode, options?: { retryAfterSeconds?: number }): Promise<void>;
  /** One endpoint answers otherwise, while the others go on as normal. */
  setEndpoint(endpoint: FakeEndpoint, behaviour: EndpointBehaviour): void;
  /** The next `times` data calls answer `status` (429 carries Retry-After). */
  failNext(times: number, status: number, retryAfterSeconds?: number): void;
  /** Forgets every session: the next data call answers 401. */
  expireSessions(): void;
  /** Delays every data answer (to hold a refresh open while others arrive). */
  setDelay(ms: number): void;
  close(): Promise<void>;
}

interface SessionState {
  verified: boolean;
}

const ISO_EPOCH = "2024-01-01T00:00:00.000Z";

/** A World object with every field the API description requires. */
function fullWorld(worldId: string, world: FakeWorld) {
  return {
    authorId: "usr_4a4a4a4a-0000-4000-8000-000000000001",
    ...(world.authorName === undefined ? {} : { authorName: world.authorName }),
    ...(world.capacity === undefined ? {} : { capacity: world.capacity }),
    created_at: ISO_EPOCH,
    description: "",
    featured: false,
    heat: 3,
    id: worldId,
    imageUrl: "",
    labsPublicationDate: "none",
    ...(world.name === undefined ? {} : { name: world.name }),
    organization: "vrchat",
    popularity: 5,
    publicationDate: ISO_EPOCH,
    ...(world.recommendedCapacity === undefined ? {} : { recommendedCapacity: world.recommendedCapacity }),
    releaseStatus: "public",
    tags: [],
    thumbnailImageUrl: "",
    updated_at: ISO_EPOCH,
    version: 1,
    visits: 100,
  };
}

/** A world's picture: 64 × 36 of lantern orange, drawn once. */
const WORLD_PICTURE = (() => {
  const canvas = createCanvas(64, 36);
  const context = canvas.getContext("2d");
  context.fillStyle = "#ff7a00";
  context.fillRect(0, 0, 64, 36);
  return canvas.encodeSync("png");
})();

function split(location: string) {
  const colon = location.indexOf(":");
  return { worldId: location.slice(0, colon), instanceId: location.slice(colon + 1) };
}

/** A LimitedUserInstance, as an instance's creator reads its `users`. */
function userInInstance(user: { id: string; displayName: string }) {
  return {
    ageVerificationStatus: "hidden",
    ageVerified: false,
    allowAvatarCopying: false,
    currentAvatarImageUrl: "",
    currentAvatarTags: [],
    currentAvatarThumbnailImageUrl: "",
    date_joined: "2024-01-01",
    developerType: "none",
    displayName: user.displayName,
    friendKey: "",
    id: user.id,
    isFriend: false,
    last_activity: ISO_EPOCH,
    last_platform: "standalonewindows",
    pronouns: "",
    status: "active",
    statusDescription: "",
    tags: [],
  };
}

function fullInstance(instance: FakeInstance) {
  const { worldId, instanceId } = split(instance.location);
  const count = instance.users ? instance.users.length : instance.userCount;
  return {
    clientNumber: "unknown",
    full: false,
    id: instance.location,
    instanceId,
    location: instance.location,
    n_users: count,
    name: instance.name ?? "12345",
    permanent: false,
    photonRegion: instance.region ?? "us",
    platforms: { android: 0, standalonewindows: count },
    queueEnabled: false,
    queueSize: 0,
    recommendedCapacity: instance.world.recommendedCapacity ?? 0,
    region: instance.region ?? "us",
    secureName: "s3cur3",
    strict: false,
    tags: [],
    type: instance.type ?? "public",
    userCount: count,
    world: fullWorld(worldId, instance.world),
    worldId,
    ...(instance.capacity === undefined ? {} : { capacity: instance.capacity }),
    ownerId: instance.ownerId ?? (instance.type === "group" ? FAKE_GROUP_ID : null),
    ...(instance.creatorId ? { creatorId: instance.creatorId } : {}),
    ...(instance.creatorId ? { users: (instance.users ?? []).map(userInInstance) } : {}),
    ...(instance.groupAccessType ? { groupAccessType: instance.groupAccessType } : {}),
    roleRestricted: (instance.roleIds?.length ?? 0) > 0,
    calendarEntryId: instance.calendarEntryId ?? null,
    closedAt: instance.closedAt ?? null,
    shortName: instance.shortName ?? null,
  };
}

function fullPost(post: FakePost) {
  return { authorId: "usr_4a4a4a4a-0000-4000-8000-000000000002", groupId: FAKE_GROUP_ID, editorId: null, ...post };
}

function fullCalendarEvent(event: FakeCalendarEvent) {
  const { accessType = "public", ...rest } = event;
  return { accessType, category: "hangout", description: "", ownerId: FAKE_GROUP_ID, isDraft: false, ...rest };
}

function fullMember(member: FakeMember, index: number) {
  if (member === null) return null;
  return {
    id: `gmem_${String(index).padStart(8, "0")}-0000-4000-8000-000000000000`,
    groupId: FAKE_GROUP_ID,
    userId: member.userId,
    isRepresenting: member.isRepresenting ?? false,
    isSubscribedToAnnouncements: false,
    joinedAt: ISO_EPOCH,
    lastPostReadAt: null,
    mRoleIds: [],
    membershipStatus: "member",
    roleIds: [],
    visibility: member.visibility ?? "visible",
    user: member.user === null ? null : { id: member.userId, ...member.user },
  };
}

/** The longest role name the fake takes (VRChat's own limit is not in the API description). */
export const FAKE_ROLE_NAME_MAX = 64;

/** A GroupRole, as `GET /groups/{groupId}/roles` lists it. */
function fullRole(role: FakeRole) {
  return {
    createdAt: ISO_EPOCH,
    description: role.description,
    groupId: FAKE_GROUP_ID,
    id: role.id,
    isManagementRole: role.management ?? false,
    isSelfAssignable: false,
    name: role.name,
    order: 5,
    permissions: [],
    requiresPurchase: false,
    requiresTwoFactor: false,
    updatedAt: ISO_EPOCH,
  };
}

/** The bot account's own role, as the roles' list shows it (a management role, with its permissions). */
function botRoleOf(group: FakeGroup) {
  return { ...fullRole({ id: FAKE_BOT_ROLE_ID, name: "Dwell Bot", description: "The site's bot", holders: [], management: true }), permissions: group.botPermissions ?? FAKE_BOT_PERMISSIONS };
}

/** A user id of VRChat's shape, from a number (tests name people by it). */
export const fakeUserId = (n: number) => `usr_${String(n).padStart(8, "0")}-aaaa-4bbb-8ccc-${String(n).padStart(12, "0")}`;

function groupMemberOf(person: FakePerson, withUser: boolean) {
  return {
    id: `gmem_${person.id.slice(4)}`,
    groupId: FAKE_GROUP_ID,
    userId: person.id,
    isRepresenting: false,
    isSubscribedToAnnouncements: false,
    joinedAt: person.status === "member" ? ISO_EPOCH : null,
    createdAt: person.requestedAt ?? ISO_EPOCH,
    bannedAt: person.status === "banned" ? (person.bannedAt ?? ISO_EPOCH) : null,
    lastPostReadAt: null,
    mRoleIds: [],
    membershipStatus: person.status === "none" ? "inactive" : person.status,
    roleIds: [],
    visibility: "visible",
    ...(withUser
      ? { user: { id: person.id, displayName: person.displayName, currentAvatarThumbnailImageUrl: person.thumbnailUrl ?? null, iconUrl: "", profilePicOverride: "" } }
      : {}),
  };
}

/** A LimitedUserSearch with the fields the API description requires. */
function searchedUser(person: FakePerson) {
  return {
    currentAvatarImageUrl: person.thumbnailUrl ?? "",
    currentAvatarTags: [],
    currentAvatarThumbnailImageUrl: person.thumbnailUrl ?? "",
    developerType: "none",
    displayName: person.displayName,
    id: person.id,
    isFriend: false,
    last_platform: "standalonewindows",
    status: "offline",
    statusDescription: person.statusDescription ?? "",
    tags: person.tags ?? [],
  };
}

/** Refused as VRChat refuses it: the status and VRChat's own message. */
class Refusal {
  readonly status: number;
  readonly message: string;
  constructor(status: number, message: string) {
    this.status = status;
    this.message = message;
  }
}

export async function startFakeVRChat(
  options: { group?: FakeGroup; requireTotp?: boolean; /** The bot account's id (a legacy account's has the old form). */ botUserId?: string } = {},
): Promise<FakeVRChat> {
  const botUserId = options.botUserId ?? FAKE_BOT_USER_ID;
  const group = options.group ?? fakeGroup();
  const requireTotp = options.requireTotp ?? true;
  const sessions = new Map<string, SessionState>();
  const twoFactorCookies = new Set<string>();
  const calls: Record<string, number> = {};
  const requests: RecordedRequest[] = [];
  const answers: { endpoint: FakeEndpoint; body: unknown }[] = [];
  const userAgents = new Set<string>();
  const totpCodes: string[] = [];
  const loginCookieHeaders: (string | undefined)[] = [];
  const actions: FakeAction[] = [];
  const calendarWrites: FakeCalendarWrite[] = [];
  const instanceWrites: FakeInstanceWrite[] = [];
  const roleWrites: FakeRoleWrite[] = [];
  const postWrites: FakePostWrite[] = [];
  const files: { id: string; type: string; size: number; tag: string }[] = [];
  const auditLog: FakeAuditLogEntry[] = [];
  const AUDIT_TYPES = { ban: "group.user.ban", unban: "group.user.unban", kick: "group.member.remove", role_add: "group.member.role.assign", role_remove: "group.member.role.unassign", leave: "group.member.leave" } as const;
  function audit(kind: keyof typeof AUDIT_TYPES, actorId: string, actorName: string, targetId: string, roleId?: string, at = new Date()) {
    const role = roleId ? group.roles.find((r) => r.id === roleId) : undefined;
    const name = person(targetId)?.displayName ?? targetId;
    auditLog.push({
      id: `gaud_${randomUUID()}`,
      created_at: at.toISOString(),
      eventType: AUDIT_TYPES[kind],
      actorId,
      actorDisplayName: actorName,
      targetId,
      description: role ? `${actorName} ${kind === "role_add" ? "assigned" : "unassigned"} the role ${role.name} to ${name}` : kind === "leave" ? `${name} left the group` : `${actorName} ${kind === "ban" ? "banned" : kind === "unban" ? "unbanned" : "removed"} ${name}`,
      data: roleId ? { roleId, roleName: role?.name ?? null } : {},
      groupId: FAKE_GROUP_ID,
    });
  }
  let instanceNumber = 10_000;
  const endpoints = new Map<FakeEndpoint, EndpointBehaviour>();
  let mode: FakeVRChatMode = "normal";
  let retryAfterSeconds = 1;
  let failures: { times: number; status: number; retryAfter: number } = { times: 0, status: 500, retryAfter: 0 };
  let delayMs = 0;
  const totp = new TOTP({ secret: Secret.fromBase32(FAKE_TOTP_SECRET), digits: 6, period: 30, algorithm: "SHA1" });

  const count = (key: string) => (calls[key] = (calls[key] ?? 0) + 1);
  const botRole = () => botRoleOf(group);

  function cookies(req: IncomingMessage): Record<string, string> {
    const jar: Record<string, string> = {};
    for (const part of (req.headers.cookie ?? "").split(";")) {
      const [name, ...rest] = part.trim().split("=");
      if (name) jar[name] = rest.join("=");
    }
    return jar;
  }

  function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string | string[]> = {}) {
    res.writeHead(status, { "Content-Type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  }

  const error = (res: ServerResponse, status: number, message: string, headers?: Record<string, string>) =>
    send(res, status, { error: { message, status_code: status } }, headers);

  function verifiedSession(req: IncomingMessage) {
    const session = sessions.get(cookies(req).auth ?? "");
    return session?.verified ? session : null;
  }

  function login(req: IncomingMessage, res: ServerResponse) {
    count("login");
    loginCookieHeaders.push(req.headers.cookie);
    const header = req.headers.authorization ?? "";
    const [user, pass] = Buffer.from(header.replace(/^Basic /, ""), "base64").toString().split(":").map(decodeURIComponent);
    if (!header.startsWith("Basic ") || user !== FAKE_USERNAME || pass !== FAKE_PASSWORD) {
      return error(res, 401, "Invalid Username/Email or Password");
    }
    const auth = `authcookie_${randomUUID()}`;
    const known2fa = twoFactorCookies.has(cookies(req).twoFactorAuth ?? "");
    const verified = !requireTotp || known2fa;
    sessions.set(auth, { verified });
    const setCookie = [`auth=${auth}; Max-Age=604800; Path=/; HttpOnly`];
    if (!verified) return send(res, 200, { requiresTwoFactorAuth: ["totp", "otp"] }, { "Set-Cookie": setCookie });
    return send(res, 200, { id: botUserId, displayName: "Dwell Bot" }, { "Set-Cookie": setCookie });
  }

  async function verifyTotp(req: IncomingMessage, res: ServerResponse, body: string) {
    count("totp");
    const session = sessions.get(cookies(req).auth ?? "");
    if (!session) return error(res, 401, "Missing Credentials");
    const { code } = JSON.parse(body || "{}") as { code?: string };
    totpCodes.push(String(code));
    if (totp.validate({ token: String(code), window: 1 }) === null) return send(res, 400, { verified: false });
    session.verified = true;
    const twoFactor = randomUUID();
    twoFactorCookies.add(twoFactor);
    return send(res, 200, { verified: true }, { "Set-Cookie": [`twoFactorAuth=${twoFactor}; Max-Age=2592000; Path=/; HttpOnly`] });
  }

  function page<T>(items: T[], url: URL): T[] {
    const n = Number(url.searchParams.get("n") ?? 60);
    const offset = Number(url.searchParams.get("offset") ?? 0);
    return items.slice(offset, offset + n);
  }

  /** The calendar of one month (VRChat lists by month: `date` names it), or everything without one. */
  function calendarOf(url: URL) {
    const date = url.searchParams.get("date");
    const month = date ? new Date(date).toISOString().slice(0, 7) : null;
    const inMonth = group.calendar.filter((event) => !month || (event.startsAt ?? "").slice(0, 7) === month);
    const results = page(inMonth, url).map(fullCalendarEvent);
    const offset = Number(url.searchParams.get("offset") ?? 0);
    return { results, totalCount: inMonth.length, hasNext: offset + results.length < inMonth.length };
  }

  const person = (userId: string) => group.people.find((p) => p.id === userId);

  function writeRoute(method: string, path: string, body: unknown, rawPath = path): [FakeEndpoint, () => unknown] | null {
    const g = `/groups/${FAKE_GROUP_ID}`;
    const respond = new RegExp(`^${g}/requests/([^/]+)$`).exec(path);
    if (method === "PUT" && respond) {
      return ["respondRequest", () => {
        const { action, block } = (body ?? {}) as { action?: string; block?: boolean };
        const who = person(respond[1]!);
        if (action !== "accept" && action !== "reject") return new Refusal(400, "action must be accept or reject");
        if (!who || who.status !== "requested") return new Refusal(400, "This user has not requested to join the group.");
        actions.push({ kind: action, userId: who.id, ...(action === "reject" ? { block: block === true } : {}), at: Date.now() });
        if (action === "accept") who.status = "member";
        else {
          who.status = "none";
          who.blocked = block === true;
        }
        return {};
      }];
    }
    if (method === "POST" && path === `${g}/bans`) {
      return ["ban", () => {
        const { userId } = (body ?? {}) as { userId?: string };
        const who = person(String(userId));
        if (!who) return new Refusal(404, "User not found");
        if (who.status === "banned") return new Refusal(400, "User is already banned․");
        actions.push({ kind: "ban", userId: who.id, at: Date.now() });
        audit("ban", botUserId, "Dwell Bot", who.id);
        who.status = "banned";
        who.bannedAt = new Date().toISOString();
        return groupMemberOf(who, false);
      }];
    }
    const unban = new RegExp(`^${g}/bans/([^/]+)$`).exec(path);
    if (method === "DELETE" && unban) {
      return ["unban", () => {
        const who = person(unban[1]!);
        if (!who) return new Refusal(404, "User not found");
        if (who.status !== "banned") return new Refusal(400, "User is not banned․");
        actions.push({ kind: "unban", userId: who.id, at: Date.now() });
        audit("unban", botUserId, "Dwell Bot", who.id);
        who.status = "none";
        return groupMemberOf(who, false);
      }];
    }
    if (method === "POST" && path === `${g}/invites`) {
      return ["invite", () => {
        const { userId, confirmOverrideBlock } = (body ?? {}) as { userId?: string; confirmOverrideBlock?: boolean };
        const who = person(String(userId));
        if (!who) return new Refusal(404, "User not found");
        if (who.status === "member") return new Refusal(400, `User ${who.displayName} is already a member of this group.`);
        if (who.status === "invited") return new Refusal(400, `User ${who.displayName} is already invited.`);
        if (who.status === "banned") return new Refusal(403, "You can't invite that user․");
        // The description's default (true) sends the invite over the user's own block of the group.
        const overrides = confirmOverrideBlock !== false;
        if (who.status === "userblocked" && !overrides) return new Refusal(403, "You can't invite that user․");
        actions.push({ kind: "invite", userId: who.id, ...(who.status === "userblocked" ? { overrodeBlock: true } : {}), at: Date.now() });
        who.status = "invited";
        return {};
      }];
    }
    if (method === "POST" && path === "/instances") {
      return ["createInstance", () => {
        const request = (body ?? {}) as Record<string, unknown>;
        const { worldId, type, region, ownerId, groupAccessType, roleIds } = request as { worldId?: string; type?: string; region?: string; ownerId?: string; groupAccessType?: string; roleIds?: unknown };
        // CreateInstanceRequest: region, type and worldId are required, each from its enum.
        if (typeof worldId !== "string" || typeof type !== "string" || typeof region !== "string") return new Refusal(400, "Missing worldId, type or region");
        if (!["eu", "jp", "unknown", "us", "use"].includes(region)) return new Refusal(400, "Invalid region");
        if (!["friends", "group", "hidden", "private", "public"].includes(type)) return new Refusal(400, "Invalid type");
        if (groupAccessType !== undefined && !["members", "plus", "public"].includes(groupAccessType)) return new Refusal(400, "Invalid groupAccessType");
        if (roleIds !== undefined && !(Array.isArray(roleIds) && roleIds.every((id) => typeof id === "string"))) return new Refusal(400, "Invalid roleIds");
        const world = group.worlds.find((w) => w.id === worldId);
        if (!world) return new Refusal(404, `World ${worldId} not found`);
        if (type === "group" && ownerId !== FAKE_GROUP_ID) return new Refusal(403, "You do not have permission to create instances for this group");
        instanceNumber += 1;
        const access = groupAccessType ?? "members";
        const location = `${worldId}:${instanceNumber}~group(${FAKE_GROUP_ID})~groupAccessType(${access})~region(${region})`;
        const { calendarEntryId, closedAt } = request as { calendarEntryId?: string; closedAt?: string };
        const created: FakeInstance = {
          location, memberCount: 0, userCount: 0, capacity: 40, region, type, name: String(instanceNumber),
          world: { name: world.name, authorName: "Ember", capacity: 40, recommendedCapacity: 20 },
          ownerId: ownerId ?? null, creatorId: botUserId, groupAccessType: access, roleIds: Array.isArray(roleIds) ? (roleIds as string[]) : [],
          calendarEntryId: calendarEntryId ?? null, closedAt: closedAt ?? null, shortName: `s${instanceNumber}x`,
        };
        group.instances.push(created);
        instanceWrites.push({ kind: "create", location, body: request, at: Date.now() });
        return fullInstance(created);
      }];
    }
    const closing = /^\/instances\/(wrld_[^/:]+:[^/]+)$/.exec(path);
    if (method === "DELETE" && closing) {
      return ["closeInstance", () => {
        const found = group.instances.find((i) => i.location === closing[1] && !i.closed);
        if (!found) return new Refusal(404, "Instance not found");
        found.closed = true;
        instanceWrites.push({ kind: "close", location: found.location, at: Date.now() });
        return fullInstance(found);
      }];
    }
    return roleWriteRoute(method, rawPath, body) ?? calendarWriteRoute(method, path, body) ?? postWriteRoute(method, path, body);
  }

  /** The group's roles, made, deleted, given and taken as VRChat's are. */
  /** `path` as sent (percent-encoding kept): a role id may hold a slash, encoded within its one segment. */
  function roleWriteRoute(method: string, path: string, body: unknown): [FakeEndpoint, () => unknown] | null {
    const g = `/groups/${FAKE_GROUP_ID}`;
    const roleNotFound = new Refusal(404, "Role not found");
    if (method === "POST" && path === `${g}/roles`) {
      return ["createRole", () => {
        const request = (body ?? {}) as Record<string, unknown>;
        if (typeof request.name !== "string" || !request.name.trim()) return new Refusal(400, "A role needs a name");
        if (Array.from(request.name).length > FAKE_ROLE_NAME_MAX) return new Refusal(400, "Role name is too long");
        const id = group.bareRoleIds === "odd" ? `role ${randomUUID()}/x` : group.bareRoleIds ? randomUUID() : `grol_${randomUUID()}`;
        const role: FakeRole = { id, name: request.name, description: typeof request.description === "string" ? request.description : "", holders: [] };
        group.roles.push(role);
        roleWrites.push({ kind: "create", roleId: role.id, body: request, at: Date.now() });
        return fullRole(role);
      }];
    }
    // Path segments are read decoded, as VRChat's server reads them (an id may hold a space or a slash).
    const role = new RegExp(`^${g}/roles/([^/]+)$`).exec(path);
    if (method === "DELETE" && role) {
      const roleId = decodeURIComponent(role[1]!);
      return ["deleteRole", () => {
        const index = group.roles.findIndex((r) => r.id === roleId);
        if (index < 0) return roleNotFound;
        group.roles.splice(index, 1);
        roleWrites.push({ kind: "delete", roleId, at: Date.now() });
        return group.roles.map(fullRole);
      }];
    }
    const memberRole = new RegExp(`^${g}/members/([^/]+)/roles/([^/]+)$`).exec(path);
    if ((method === "PUT" || method === "DELETE") && memberRole) {
      const [userId, roleId] = [decodeURIComponent(memberRole[1]!), decodeURIComponent(memberRole[2]!)];
      return [method === "PUT" ? "giveRole" : "takeRole", () => {
        const found = group.roles.find((r) => r.id === roleId);
        if (!found) return roleNotFound;
        if (person(userId)?.status !== "member") return new Refusal(400, "User is not a member of this group");
        if (method === "PUT" && !found.holders.includes(userId)) found.holders.push(userId);
        if (method === "DELETE") found.holders = found.holders.filter((id) => id !== userId);
        roleWrites.push({ kind: method === "PUT" ? "give" : "take", roleId, userId, at: Date.now() });
        audit(method === "PUT" ? "role_add" : "role_remove", botUserId, "Dwell Bot", userId, roleId);
        return group.roles.filter((r) => r.holders.includes(userId)).map((r) => r.id);
      }];
    }
    return null;
  }

  /** The group's posts, written to as VRChat's are (newest first in its list), and pictures uploaded. */
  function postWriteRoute(method: string, path: string, body: unknown): [FakeEndpoint, () => unknown] | null {
    const p = `/groups/${FAKE_GROUP_ID}/posts`;
    if (method === "POST" && path === "/file/image") {
      return ["uploadImage", () => {
        const parsed = UploadImageRequestSchema.safeParse(body);
        if (!parsed.success) return new Refusal(400, `Invalid ${parsed.error.issues[0]?.path.join(".") || "upload"}`);
        const id = `file_${randomUUID()}`;
        files.push({ id, type: parsed.data.file.type, size: parsed.data.file.size, tag: parsed.data.tag });
        const created = new Date().toISOString();
        return { id, name: "announcement.png", extension: ".png", mimeType: "image/png", ownerId: botUserId, tags: [], versions: [{ version: 0, status: "complete", created_at: created }, { version: 1, status: "complete", created_at: created }] };
      }];
    }
    if (method === "POST" && path === p) {
      return ["createPost", () => {
        const parsed = CreateGroupPostRequestSchema.safeParse(body);
        if (!parsed.success) return new Refusal(400, `Invalid ${parsed.error.issues[0]?.path.join(".") || "request"}`);
        // A post keeps what GroupPost has: whether members were notified is not among it.
        const { roleIds, imageId, sendNotification: _notified, ...rest } = parsed.data;
        if (imageId && !files.some((file) => file.id === imageId)) return new Refusal(404, "File not found");
        const now = new Date().toISOString();
        const created: FakePost = { ...rest, id: `not_${randomUUID()}`, authorId: botUserId, roleId: roleIds ?? [], imageId: imageId ?? null, imageUrl: imageId ? `https://api.vrchat.cloud/api/1/file/${imageId}/1/file` : null, createdAt: now };
        group.posts.unshift(created);
        postWrites.push({ kind: "create", id: created.id!, body, at: Date.now() });
        return { ...fullPost(created), updatedAt: now };
      }];
    }
    const one = new RegExp(`^${p}/([^/]+)$`).exec(path);
    if (one && (method === "PUT" || method === "DELETE")) {
      const found = group.posts.find((post) => post.id === one[1]);
      if (method === "DELETE") {
        return ["deletePost", () => {
          if (!found) return new Refusal(404, "Group Post not found");
          group.posts.splice(group.posts.indexOf(found), 1);
          postWrites.push({ kind: "delete", id: found.id!, at: Date.now() });
          return { success: { message: "Group Post was deleted!", status_code: 200 } };
        }];
      }
      return ["updatePost", () => {
        if (!found) return new Refusal(404, "Group Post not found");
        const parsed = CreateGroupPostRequestSchema.safeParse(body);
        if (!parsed.success) return new Refusal(400, `Invalid ${parsed.error.issues[0]?.path.join(".") || "request"}`);
        const { roleIds, imageId, sendNotification: _notified, ...rest } = parsed.data;
        Object.assign(found, { ...rest, roleId: roleIds ?? [], imageId: imageId ?? null, imageUrl: imageId ? `https://api.vrchat.cloud/api/1/file/${imageId}/1/file` : null });
        postWrites.push({ kind: "update", id: found.id!, body, at: Date.now() });
        return { ...fullPost(found), updatedAt: new Date().toISOString() };
      }];
    }
    return null;
  }

  /** The group's calendar, written to as VRChat's is. */
  function calendarWriteRoute(method: string, path: string, body: unknown): [FakeEndpoint, () => unknown] | null {
    const c = `/calendar/${FAKE_GROUP_ID}`;
    const notFound = new Refusal(404, "Calendar Entry not foundǃ");
    if (method === "POST" && path === `${c}/event`) {
      return ["createCalendarEvent", () => {
        const parsed = CreateCalendarEventRequestSchema.safeParse(body);
        if (!parsed.success) return new Refusal(400, `Invalid ${parsed.error.issues[0]?.path.join(".") || "request"}`);
        const entry = parsed.data;
        if (Date.parse(entry.startsAt) <= Date.now()) return new Refusal(400, "Calendar Entry must start in the future");
        const month = new Date(entry.startsAt).toISOString().slice(0, 7);
        if (group.calendar.filter((event) => (event.startsAt ?? "").slice(0, 7) === month).length >= 100) {
          return new Refusal(403, "You're not allowed to make more than 100 events in a single month");
        }
        const created: FakeCalendarEvent = {
          id: `cal_${randomUUID()}`,
          title: entry.title,
          description: entry.description,
          startsAt: new Date(entry.startsAt).toISOString(),
          endsAt: new Date(entry.endsAt).toISOString(),
          accessType: entry.accessType,
          category: entry.category,
          languages: entry.languages ?? [],
          platforms: entry.platforms ?? [],
          occurrenceKind: "single",
        };
        group.calendar.push(created);
        calendarWrites.push({ kind: "create", id: created.id, title: created.title, at: Date.now() });
        return fullCalendarEvent(created);
      }];
    }
    const update = new RegExp(`^${c}/([^/]+)/event$`).exec(path);
    if (method === "PUT" && update) {
      return ["updateCalendarEvent", () => {
        const found = group.calendar.find((event) => event.id === update[1]);
        if (!found) return notFound;
        const parsed = UpdateCalendarEventRequestSchema.safeParse(body);
        if (!parsed.success) return new Refusal(400, `Invalid ${parsed.error.issues[0]?.path.join(".") || "request"}`);
        const { title, description, startsAt, endsAt, category, languages, platforms } = parsed.data;
        Object.assign(found, {
          ...(title === undefined ? {} : { title }),
          ...(description === undefined ? {} : { description }),
          ...(startsAt === undefined ? {} : { startsAt: new Date(startsAt).toISOString() }),
          ...(endsAt === undefined ? {} : { endsAt: new Date(endsAt).toISOString() }),
          ...(category === undefined ? {} : { category }),
          ...(languages === undefined ? {} : { languages }),
          ...(platforms === undefined ? {} : { platforms }),
        });
        calendarWrites.push({ kind: "update", id: found.id, title: found.title, at: Date.now() });
        return fullCalendarEvent(found);
      }];
    }
    const remove = new RegExp(`^${c}/([^/]+)$`).exec(path);
    if (method === "DELETE" && remove) {
      return ["deleteCalendarEvent", () => {
        const index = group.calendar.findIndex((event) => event.id === remove[1]);
        if (index < 0) return notFound;
        const [gone] = group.calendar.splice(index, 1);
        calendarWrites.push({ kind: "delete", id: gone!.id, title: gone!.title, at: Date.now() });
        return { success: { message: "Calendar Entry deleted!", status_code: 200 } };
      }];
    }
    return null;
  }

  function route(path: string, url: URL): [FakeEndpoint, () => unknown, RegExpExecArray?] | null {
    const g = `/groups/${FAKE_GROUP_ID}`;
    if (path === `${g}/bans`) {
      return ["bans", () => page(group.people.filter((p) => p.status === "banned"), url).map((p) => groupMemberOf(p, true))];
    }
    if (path === `${g}/requests`) {
      return ["joinRequests", () => page(group.people.filter((p) => p.status === "requested" && !p.blocked), url).map((p) => groupMemberOf(p, true))];
    }
    const member = new RegExp(`^${g}/members/([^/]+)$`).exec(path);
    if (member) {
      return ["membership", () => {
        if (member[1] === botUserId && !person(botUserId)) {
          if (group.botPermissions === null) return null;
          return { ...groupMemberOf({ id: botUserId, displayName: "Dwell Bot", status: "member" } as FakePerson, false), mRoleIds: [FAKE_BOT_ROLE_ID] };
        }
        const who = person(member[1]!);
        return who && who.status !== "none" ? groupMemberOf(who, false) : null;
      }];
    }
    if (path === "/users") {
      return ["searchUsers", () => {
        const search = (url.searchParams.get("search") ?? "").toLowerCase();
        if (!search) return [];
        return group.people.filter((p) => p.displayName.toLowerCase().includes(search)).slice(0, Number(url.searchParams.get("n") ?? 60)).map(searchedUser);
      }];
    }
    const user = /^\/users\/([^/]+)$/.exec(path);
    if (user) {
      return ["user", () => {
        const who = person(user[1]!);
        return who ? { ...searchedUser(who), bio: who.bio ?? "", bioLinks: [], date_joined: who.dateJoined ?? "2024-01-01", friendKey: "", last_activity: ISO_EPOCH, last_login: ISO_EPOCH, profilePicOverride: "", profilePicOverrideThumbnail: "", pronouns: "", state: "offline", userIcon: "", ageVerificationStatus: who.ageVerificationStatus ?? "hidden", ageVerified: false, allowAvatarCopying: false } : new Refusal(404, "User not found");
      }];
    }
    const theirGroups = /^\/users\/([^/]+)\/groups$/.exec(path);
    if (theirGroups && theirGroups[1] === botUserId && !person(botUserId)) {
      return ["userGroups", () => (group.botPermissions === null ? [] : [{ id: "gmem_00000000-0000-4000-8000-00000000b0b0", groupId: FAKE_GROUP_ID, name: group.name, shortCode: "DWELL", discriminator: "0000", memberCount: group.memberCount, isRepresenting: false, mutualGroup: false }])];
    }
    if (theirGroups) {
      return ["userGroups", () => {
        const who = person(theirGroups[1]!);
        if (!who) return new Refusal(404, "User not found");
        return (who.groups ?? []).map((groupId, i) => ({ id: `gmem_00000000-0000-4000-8000-${String(i).padStart(12, "0")}`, groupId, name: `Group ${i + 1}`, shortCode: `GRP${i}`, discriminator: "0000", memberCount: 10, isRepresenting: false, mutualGroup: false }));
      }];
    }
    const world = /^\/worlds\/([^/]+)$/.exec(path);
    if (world) {
      return ["world", () => {
        const known = group.worlds.find((w) => w.id === world[1]);
        if (!known) return new Refusal(404, `World ${world[1]} not found`);
        const picture = known.imagePath ? `${url.origin}/api/1${known.imagePath}` : "";
        return { ...fullWorld(known.id, { name: known.name, authorName: "Ember", capacity: 40, recommendedCapacity: 20 }), imageUrl: picture || "https://assets.vrchat.com/default/unknown.png", thumbnailImageUrl: picture || "https://assets.vrchat.com/default/unknown.png" };
      }];
    }
    if (path === g) return ["group", () => ({ id: FAKE_GROUP_ID, name: group.name, shortCode: "DWELL", memberCount: group.memberCount, onlineMemberCount: group.onlineMemberCount })];
    const other = /^\/groups\/(grp_[^/]+)$/.exec(path);
    if (other) {
      return ["otherGroup", () => {
        const found = group.otherGroups?.find((known) => known.id === other[1]);
        return found ? { id: found.id, name: found.name, shortCode: "OTHER", memberCount: 10, onlineMemberCount: 1 } : new Refusal(404, "Group not found");
      }];
    }
    if (path === `${g}/instances`) {
      return ["groupInstances", () =>
        group.instances.filter((i) => !i.closed).map((i) => ({ instanceId: split(i.location).instanceId, location: i.location, memberCount: i.memberCount, world: fullWorld(split(i.location).worldId, i.world) })),
      ];
    }
    if (path === `${g}/roles`) return ["roles", () => [...group.roles.map(fullRole), botRole()]];
    if (path === `${g}/auditLogs`) {
      return ["auditLogs", () => {
        // Newest first, between startDate and endDate (both kept), paged by n and offset.
        const start = url.searchParams.get("startDate");
        const end = url.searchParams.get("endDate");
        const within = auditLog.filter((entry) => (!start || entry.created_at >= new Date(start).toISOString()) && (!end || entry.created_at <= new Date(end).toISOString())).toReversed();
        const results = page(within, url);
        const offset = Number(url.searchParams.get("offset") ?? 0);
        return { results, totalCount: within.length, hasNext: offset + results.length < within.length };
      }];
    }
    if (path === `${g}/posts`) {
      // `publicOnly`: the public posts alone (what a visitor of the group's page sees).
      const shown = url.searchParams.get("publicOnly") === "true" ? group.posts.filter((post) => (post.visibility ?? "public") === "public" && (post.roleId ?? []).length === 0) : group.posts;
      return ["posts", () => ({ posts: page(shown, url).map(fullPost) })];
    }
    if (path === `/calendar/${FAKE_GROUP_ID}`) return ["calendar", () => calendarOf(url)];
    if (path === `${g}/members` && url.searchParams.get("roleId")) {
      // A role's holders (VRChat's own filter), as full members with their roles.
      const roleId = url.searchParams.get("roleId")!;
      const holders = group.roles.find((role) => role.id === roleId)?.holders ?? [];
      return ["members", () => page(group.people.filter((p) => p.status === "member" && holders.includes(p.id)), url).map((p) => ({ ...groupMemberOf(p, true), roleIds: group.roles.filter((role) => role.holders.includes(p.id)).map((role) => role.id) }))];
    }
    if (path === `${g}/members`) return ["members", () => page(group.members, url).map(fullMember)];
    const mine = /^\/users\/([^/]+)\/instances\/groups\/([^/]+)$/.exec(path);
    if (mine && mine[2] === FAKE_GROUP_ID) {
      return ["userGroupInstances", () => ({ fetchedAt: new Date().toISOString(), instances: group.instances.filter((i) => !i.closed).map(fullInstance) }), mine];
    }
    const short = /^\/instances\/(wrld_[^/:]+:[^/]+)\/shortName$/.exec(path);
    if (short) {
      return ["instanceShortName", () => {
        const found = group.instances.find((i) => i.location === short[1] && !i.closed);
        return found ? { secureName: "s3cur3", shortName: found.shortName ?? null } : new Refusal(404, "Instance not found");
      }];
    }
    const instance = /^\/instances\/(wrld_[^/:]+:[^/]+)$/.exec(path);
    if (instance) {
      return ["instance", () => {
        const found = group.instances.find((i) => i.location === instance[1]);
        // VRChat answers an unknown or closed instance with 200 and null.
        return found && !found.closed ? fullInstance(found) : null;
      }];
    }
    return null;
  }

  function data(req: IncomingMessage, res: ServerResponse, url: URL, path: string, body?: unknown, rawPath = path) {
    const handler = req.method === "GET" ? route(path, url) : writeRoute(req.method ?? "", path, body, rawPath);
    if (!handler) {
      count("unknown");
      return error(res, 404, `no route ${path}`);
    }
    const [endpoint, answer, match] = handler;
    count(endpoint);
    if (!verifiedSession(req)) return error(res, 401, "\"Missing Credentials\"");
    if (mode === "down") return error(res, 503, "Service Unavailable");
    if (mode === "rate-limited") return error(res, 429, "Too Many Requests", { "Retry-After": String(retryAfterSeconds) });
    if (mode === "garbage") {
      res.writeHead(200, { "Content-Type": "text/html" });
      return void res.end("<html><body>Welcome to the hotel Wi-Fi</body></html>");
    }
    if (mode === "wrong-shape") return send(res, 200, { data: null, message: "OK" });
    if (failures.times > 0) {
      failures.times--;
      return error(res, failures.status, "Injected failure", failures.retryAfter ? { "Retry-After": String(failures.retryAfter) } : {});
    }
    if (endpoint === "userGroupInstances" && match?.[1] !== botUserId) return error(res, 403, "User ID must be your own․");
    const behaviour = endpoints.get(endpoint) ?? "normal";
    if (behaviour === "hang") return;
    if (typeof behaviour === "object" && "body" in behaviour) {
      answers.push({ endpoint, body: behaviour.body });
      return send(res, 200, behaviour.body);
    }
    if (typeof behaviour === "object") {
      const wait = behaviour.retryAfterSeconds === undefined ? undefined : { "Retry-After": String(behaviour.retryAfterSeconds) };
      return error(res, behaviour.status, behaviour.message ?? "Injected failure", wait);
    }
    // A shape no endpoint Dwell reads answers with: a bare string.
    const reply = () => {
      if (res.destroyed) return;
      const body = behaviour === "null" ? null : behaviour === "wrong-shape" ? "Service is fine" : answer();
      if (body instanceof Refusal) return error(res, body.status, body.message);
      if (behaviour === "acts-unreadably") return send(res, 200, { success: true });
      answers.push({ endpoint, body });
      if (answers.length > 500) answers.shift();
      send(res, 200, body);
    };
    if (delayMs > 0) setTimeout(reply, delayMs);
    else reply();
  }

  /** A multipart body as the fake reads it: each field's text, or a file's type and size. */
  async function multipart(req: IncomingMessage, raw: Buffer): Promise<unknown> {
    const form = await new Response(new Uint8Array(raw), { headers: { "Content-Type": req.headers["content-type"] ?? "" } }).formData().catch(() => null);
    if (!form) return "unreadable multipart";
    return Object.fromEntries([...form.entries()].map(([name, value]) => [name, typeof value === "string" ? value : { type: value.type, size: value.size }]));
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => void answerRequest(req, res, chunks));
  });

  async function answerRequest(req: IncomingMessage, res: ServerResponse, chunks: Buffer[]) {
    {
      userAgents.add(req.headers["user-agent"] ?? "");
      const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "fake"}`);
      const rawPath = url.pathname.replace(/^\/api\/1/, "");
      const path = decodeURIComponent(rawPath);
      // A world's picture: VRChat's file addresses answer without a session.
      if (req.method === "GET" && group.worlds.some((w) => w.imagePath === path)) {
        count("worldPicture");
        res.writeHead(200, { "Content-Type": "image/png", "Content-Length": WORLD_PICTURE.length }).end(WORLD_PICTURE);
        return;
      }
      const raw = Buffer.concat(chunks);
      const text = raw.toString();
      let body: unknown;
      if ((req.headers["content-type"] ?? "").startsWith("multipart/form-data")) body = await multipart(req, raw);
      else {
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = text;
        }
      }
      requests.push({ method: req.method ?? "GET", path, rawPath, query: Object.fromEntries(url.searchParams), body });
      // The description's `/instances/{worldId}:{instanceId}`: the colon is the path's own, never `%3A`.
      if (rawPath.startsWith("/instances/") && !/^\/instances\/[^/:%]+:[^/]+/.test(rawPath)) {
        count("unknown");
        return error(res, 404, `no route ${rawPath}`);
      }
      if (requests.length > 2_000) requests.shift();
      if (req.method === "GET" && path === "/auth/user") {
        if (req.headers.authorization) return login(req, res);
        count("currentUser");
        if (!verifiedSession(req)) return error(res, 401, "\"Missing Credentials\"");
        const own = endpoints.get("currentUser");
        const me = typeof own === "object" && "body" in own ? own.body : { id: botUserId, displayName: "Dwell Bot", twoFactorAuthEnabled: requireTotp };
        answers.push({ endpoint: "currentUser", body: me });
        return send(res, 200, me);
      }
      if (req.method === "POST" && path === "/auth/twofactorauth/totp/verify") return void verifyTotp(req, res, text);
      if (["GET", "PUT", "POST", "DELETE"].includes(req.method ?? "")) return data(req, res, url, path, body, rawPath);
      return error(res, 405, "Method not allowed");
    }
  }
  await listenOnLoopback(server);
  const { port } = server.address() as AddressInfo;
  const listening = portSwitch(server, port, () => server.closeAllConnections());

  return {
    url: `http://127.0.0.1:${port}/api/1`,
    group,
    calls,
    requests,
    answers,
    userAgents,
    totpCodes,
    loginCookieHeaders,
    actions,
    calendarWrites,
    instanceWrites,
    roleWrites,
    postWrites,
    files,
    auditLog,
    moderate(act) {
      const who = person(act.targetId);
      if (act.kind === "ban" && who) who.status = "banned";
      if (act.kind === "unban" && who?.status === "banned") who.status = "none";
      if (act.kind === "kick" && who) who.status = "none";
      // Out of the group, out of its roles.
      if (act.kind === "ban" || act.kind === "kick") for (const held of group.roles) held.holders = held.holders.filter((id) => id !== act.targetId);
      const role = act.roleId ? group.roles.find((r) => r.id === act.roleId) : undefined;
      if (role && act.kind === "role_add" && !role.holders.includes(act.targetId)) role.holders.push(act.targetId);
      if (role && act.kind === "role_remove") role.holders = role.holders.filter((id) => id !== act.targetId);
      audit(act.kind, act.actorId, act.actorName, act.targetId, act.roleId, act.at);
    },
    leave(userId) {
      const who = person(userId);
      if (who) who.status = "none";
      for (const role of group.roles) role.holders = role.holders.filter((id) => id !== userId);
      audit("leave", userId, who?.displayName ?? userId, userId);
    },
    async setMode(next, options = {}) {
      mode = next;
      retryAfterSeconds = options.retryAfterSeconds ?? retryAfterSeconds;
      await listening.listen(next !== "refused");
    },
    setEndpoint(endpoint, behaviour) {
      endpoints.set(endpoint, behaviour);
    },
    failNext(times, status, retryAfter = 0) {
      failures = { times, status, retryAfter };
    },
    expireSessions() {
      sessions.clear();
    },
    setDelay(ms) {
      delayMs = ms;
    },
    close: () => listening.listen(false),
  };
}
