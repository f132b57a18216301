/**
 * The facts of the VRChat API that Dwell's calls touch, from the community's OpenAPI description
 * (vrchatapi/specification), written as this project's own zod schemas: the operations (method,
 * path, query parameters and their limits) and the answers' required fields and enumerations.
 * The fake's answers and the client's requests are checked against them (app/features/vrchat/vrchat-contract.test.ts),
 * so the fake cannot drift into shapes the real API never gives, nor the client into calls it
 * would refuse.
 */
import { z } from "zod";

const dateTime = z.string().refine((value) => !Number.isNaN(Date.parse(value)), "a date-time");
/** `usr_…`, or a legacy player's ten letters and digits (UserID's description). */
const userId = z.string().regex(/^(usr_[\w-]+|[A-Za-z0-9]{10})$/);
const groupId = z.string().regex(/^grp_/);
const worldId = z.string().regex(/^wrld_/);
/** CalendarID sets no pattern (its example starts with `cal_`). */
const calendarId = z.string().min(1);

export const ErrorSchema = z.object({ error: z.object({ message: z.string(), status_code: z.number().int() }) });

/** `GET /auth/user` when signed in (a CurrentUser; only what identifies it is checked). */
export const CurrentUserSchema = z.object({ id: userId, displayName: z.string() });
/** `GET /auth/user` when a second factor is still needed. */
export const TwoFactorRequiredSchema = z.object({ requiresTwoFactorAuth: z.array(z.enum(["totp", "otp", "emailOtp"])) });

export const GroupSchema = z.object({
  id: groupId,
  name: z.string(),
  memberCount: z.number().int(),
  onlineMemberCount: z.number().int(),
});

export const WorldSchema = z.object({
  authorId: userId,
  authorName: z.string(),
  capacity: z.number().int(),
  created_at: dateTime,
  description: z.string(),
  featured: z.boolean(),
  heat: z.number().int(),
  id: worldId,
  imageUrl: z.string(),
  labsPublicationDate: z.string(),
  name: z.string(),
  organization: z.string(),
  popularity: z.number().int(),
  publicationDate: z.string(),
  recommendedCapacity: z.number().int(),
  releaseStatus: z.enum(["public", "private", "hidden", "all"]),
  tags: z.array(z.string()),
  thumbnailImageUrl: z.string(),
  updated_at: dateTime,
  version: z.number().int(),
  visits: z.number().int(),
});

/** A LimitedUserInstance (an instance's `users`, listed to its creator): its required fields. */
export const LimitedUserInstanceSchema = z.object({
  ageVerificationStatus: z.string(),
  ageVerified: z.boolean(),
  allowAvatarCopying: z.boolean(),
  currentAvatarImageUrl: z.string(),
  currentAvatarTags: z.array(z.string()),
  currentAvatarThumbnailImageUrl: z.string(),
  date_joined: z.string(),
  developerType: z.string(),
  displayName: z.string(),
  friendKey: z.string(),
  id: z.string(),
  isFriend: z.boolean(),
  last_activity: z.string(),
  last_platform: z.string(),
  pronouns: z.string(),
  status: z.string(),
  statusDescription: z.string(),
  tags: z.array(z.string()),
});

export const InstanceSchema = z.object({
  clientNumber: z.string(),
  full: z.boolean(),
  id: z.string(),
  instanceId: z.string(),
  location: z.string(),
  n_users: z.number().int().min(0),
  name: z.string().min(1),
  permanent: z.boolean(),
  photonRegion: z.string(),
  platforms: z.object({ android: z.number().int(), standalonewindows: z.number().int() }),
  queueEnabled: z.boolean(),
  queueSize: z.number().int().min(0),
  recommendedCapacity: z.number().int().min(0),
  region: z.enum(["eu", "jp", "unknown", "us", "use"]),
  secureName: z.string().min(1),
  strict: z.boolean(),
  tags: z.array(z.string()),
  type: z.enum(["friends", "group", "hidden", "private", "public"]),
  userCount: z.number().int().min(0),
  world: WorldSchema,
  worldId,
  capacity: z.number().int().min(0).optional(),
  users: z.array(LimitedUserInstanceSchema).optional(),
  groupAccessType: z.enum(["members", "plus", "public"]).optional(),
  ownerId: z.string().nullable().optional(),
  creatorId: userId.optional(),
  roleRestricted: z.boolean().optional(),
  calendarEntryId: z.string().nullable().optional(),
  closedAt: dateTime.nullable().optional(),
  shortName: z.string().min(1).nullable().optional(),
});

/** `GET /instances/{worldId}:{instanceId}/shortName`: InstanceShortNameResponse. */
export const InstanceShortNameSchema = z.object({ secureName: z.string().min(1), shortName: z.string().min(1).nullable().optional() });

/** `POST /instances`: CreateInstanceRequest (region, type and worldId required). */
export const CreateInstanceRequestSchema = z.strictObject({
  ageGate: z.boolean().optional(),
  calendarEntryId: z.string().optional(),
  canRequestInvite: z.boolean().optional(),
  closedAt: dateTime.optional(),
  displayName: z.string().nullable().optional(),
  groupAccessType: z.enum(["members", "plus", "public"]).optional(),
  hardClose: z.boolean().optional(),
  instancePersistenceEnabled: z.boolean().nullable().optional(),
  inviteOnly: z.boolean().optional(),
  ownerId: z.string().nullable().optional(),
  playerPersistenceEnabled: z.boolean().nullable().optional(),
  queueEnabled: z.boolean().optional(),
  region: z.enum(["eu", "jp", "unknown", "us", "use"]),
  roleIds: z.array(z.string()).optional(),
  type: z.enum(["friends", "group", "hidden", "private", "public"]),
  worldId,
});

/** `GET /users/{userId}/instances/groups/{groupId}`. */
export const UserGroupInstanceListSchema = z.object({ fetchedAt: dateTime.optional(), instances: z.array(InstanceSchema).optional() });

/** An entry of `GET /groups/{groupId}/instances`. */
export const GroupInstanceSchema = z.object({
  instanceId: z.string(),
  location: z.string(),
  memberCount: z.number().int().min(0),
  world: WorldSchema,
});

export const GroupPostSchema = z.object({
  authorId: userId.optional(),
  createdAt: dateTime.optional(),
  editorId: userId.nullish(),
  groupId: groupId.optional(),
  id: z.string().optional(),
  imageId: z.string().nullish(),
  imageUrl: z.string().nullish(),
  roleId: z.array(z.string()).optional(),
  text: z.string().optional(),
  title: z.string().optional(),
  updatedAt: dateTime.optional(),
  visibility: z.enum(["group", "public"]).optional(),
});
export const GroupPostsSchema = z.object({ posts: z.array(GroupPostSchema).optional() });

/** CreateGroupPostRequest: the body of a new post and of an edit. */
export const CreateGroupPostRequestSchema = z.strictObject({
  imageId: z.string().regex(/^file_/).optional(),
  roleIds: z.array(z.string()).optional(),
  sendNotification: z.boolean(),
  text: z.string().min(1),
  title: z.string().min(1),
  visibility: z.enum(["group", "public"]),
});

/** `POST /file/image` (multipart): the picture's bytes and what it is for (ImagePurpose), as the fake reads them. */
export const UploadImageRequestSchema = z.strictObject({
  file: z.object({ type: z.string(), size: z.number().int().positive() }),
  tag: z.enum(["admin", "avatargallery", "avatarimage", "bundle", "emoji", "emojianimated", "gallery", "icon", "listinggallery", "product", "sticker"]),
});

/** A File (`POST /file/image`'s answer): its required fields. */
export const FileSchema = z.object({
  extension: z.string().min(1),
  id: z.string().regex(/^file_/),
  mimeType: z.string(),
  name: z.string(),
  ownerId: userId,
  tags: z.array(z.string()),
  versions: z.array(z.object({ version: z.number().int(), status: z.string(), created_at: dateTime })).min(1),
});

/** A Success answer (a post deleted). */
export const SuccessSchema = z.object({ success: z.object({ message: z.string(), status_code: z.number().int() }) });

export const CalendarEventSchema = z.object({
  accessType: z.enum(["group", "public"]),
  category: z.enum(["arts", "avatars", "dance", "education", "exploration", "film_media", "gaming", "hangout", "music", "other", "performance", "roleplaying", "wellness"]),
  description: z.string(),
  endsAt: dateTime,
  id: calendarId,
  startsAt: dateTime,
  title: z.string().min(1),
  imageUrl: z.string().nullish(),
  interestedUserCount: z.number().int().optional(),
  isDraft: z.boolean().optional(),
  deletedAt: dateTime.nullish(),
  occurrenceKind: z.enum(["occurrence", "series", "single"]).optional(),
  ownerId: groupId.optional(),
  roleIds: z.array(z.string()).nullish(),
  languages: z.array(z.string()).optional(),
  platforms: z.array(z.enum(["android", "ios", "standalonewindows"])).optional(),
});
const calendarCategory = CalendarEventSchema.shape.category;
const calendarPlatform = z.enum(["android", "ios", "standalonewindows"]);

/** `POST /calendar/{groupId}/event`: CreateCalendarEventRequest (title at most 64, up to 3 languages). */
export const CreateCalendarEventRequestSchema = z.strictObject({
  accessType: z.enum(["group", "public"]),
  category: calendarCategory,
  closeInstanceAfterEndMinutes: z.number().int().optional(),
  description: z.string().min(1),
  endsAt: dateTime,
  featured: z.boolean().optional(),
  guestEarlyJoinMinutes: z.number().int().optional(),
  hostEarlyJoinMinutes: z.number().int().optional(),
  imageId: z.string().optional(),
  isDraft: z.boolean().optional(),
  languages: z.array(z.string()).max(3).optional(),
  platforms: z.array(calendarPlatform).optional(),
  roleIds: z.array(z.string()).optional(),
  sendCreationNotification: z.boolean(),
  startsAt: dateTime,
  tags: z.array(z.string().min(1).max(100)).max(5).optional(),
  title: z.string().min(1).max(64),
  usesInstanceOverflow: z.boolean().optional(),
});

/** `PUT /calendar/{groupId}/{calendarId}/event`: UpdateCalendarEventRequest (no access type). */
export const UpdateCalendarEventRequestSchema = z.strictObject({
  category: z.string().optional(),
  closeInstanceAfterEndMinutes: z.number().int().optional(),
  description: z.string().min(1).optional(),
  endsAt: dateTime.optional(),
  featured: z.boolean().optional(),
  guestEarlyJoinMinutes: z.number().int().optional(),
  hostEarlyJoinMinutes: z.number().int().optional(),
  imageId: z.string().optional(),
  isDraft: z.boolean().optional(),
  languages: z.array(z.string()).optional(),
  platforms: z.array(z.string()).optional(),
  roleIds: z.array(z.string()).optional(),
  sendCreationNotification: z.boolean().optional(),
  startsAt: dateTime.optional(),
  tags: z.array(z.string()).optional(),
  title: z.string().min(1).optional(),
  usesInstanceOverflow: z.boolean().optional(),
});

/** `DELETE /calendar/{groupId}/{calendarId}`: a Success. */
export const DeleteCalendarEventSuccessSchema = z.object({ success: z.object({ message: z.string(), status_code: z.literal(200) }) });

export const CalendarEventListSchema = z.object({
  hasNext: z.boolean().optional(),
  results: z.array(CalendarEventSchema).optional(),
  totalCount: z.number().int().optional(),
});

export const GroupMemberSchema = z
  .object({
    groupId,
    id: z.string().regex(/^gmem_/),
    isRepresenting: z.boolean(),
    isSubscribedToAnnouncements: z.boolean(),
    joinedAt: dateTime.nullable(),
    lastPostReadAt: dateTime.nullable(),
    mRoleIds: z.array(z.string()),
    membershipStatus: z.enum(["inactive", "member", "requested", "invited", "banned", "userblocked"]),
    roleIds: z.array(z.string()),
    userId,
    visibility: z.string(),
    user: z
      .object({
        currentAvatarThumbnailImageUrl: z.string().nullish(),
        displayName: z.string().optional(),
        iconUrl: z.string().optional(),
        id: userId.optional(),
        profilePicOverride: z.string().optional(),
        thumbnailUrl: z.string().nullish(),
      })
      .nullish(),
  })
  .nullable();
export const GroupMemberListSchema = z.array(GroupMemberSchema);

/** A LimitedUserSearch (`GET /users`): its required fields. */
export const LimitedUserSearchSchema = z.object({
  currentAvatarImageUrl: z.string(),
  currentAvatarTags: z.array(z.string()),
  currentAvatarThumbnailImageUrl: z.string(),
  developerType: z.enum(["none", "trusted", "internal", "moderator"]),
  displayName: z.string(),
  id: userId,
  isFriend: z.boolean(),
  last_platform: z.string(),
  status: z.enum(["active", "join me", "ask me", "busy", "offline"]),
  statusDescription: z.string(),
  tags: z.array(z.string()),
});

/** A User (`GET /users/{userId}`): its required fields (those of the search, and more). */
export const UserSchema = LimitedUserSearchSchema.extend({
  ageVerificationStatus: z.enum(["hidden", "verified", "18+"]),
  ageVerified: z.boolean(),
  allowAvatarCopying: z.boolean(),
  bio: z.string(),
  bioLinks: z.array(z.string()),
  date_joined: z.string(),
  friendKey: z.string(),
  last_activity: z.string(),
  last_login: z.string(),
  profilePicOverride: z.string(),
  profilePicOverrideThumbnail: z.string(),
  pronouns: z.string(),
  state: z.enum(["offline", "active", "online"]),
  userIcon: z.string(),
});

/** PaginatedGroupAuditLogEntryList: GroupAuditLogEntry's fields (none required), `gaud_` ids. */
export const GroupAuditLogListSchema = z
  .object({
    hasNext: z.boolean(),
    totalCount: z.number().int().nonnegative(),
    results: z.array(
      z
        .object({
          actorDisplayName: z.string(),
          actorId: z.string(),
          created_at: z.iso.datetime(),
          data: z.record(z.string(), z.unknown()),
          description: z.string(),
          eventType: z.string().regex(/^group\./),
          groupId: z.string().regex(/^grp_/),
          id: z.string().regex(/^gaud_/),
          targetId: z.string(),
        })
        .strict(),
    ),
  })
  .strict();

const n = z.coerce.number().int().min(1).max(100);
const offset = z.coerce.number().int().min(0);

/** The operations Dwell calls: each request must match one, with only the query it allows. */
export const OPERATIONS = [
  { name: "getCurrentUser", method: "GET", path: /^\/auth\/user$/, query: {} },
  { name: "verify2FA", method: "POST", path: /^\/auth\/twofactorauth\/totp\/verify$/, query: {}, body: z.object({ code: z.string().regex(/^\d{6}$/) }) },
  { name: "getGroup", method: "GET", path: /^\/groups\/grp_[^/]+$/, query: { includeRoles: z.enum(["true", "false"]) } },
  { name: "getUserGroupInstancesForGroup", method: "GET", path: /^\/users\/(?:usr_[^/]+|[A-Za-z0-9]{10})\/instances\/groups\/grp_[^/]+$/, query: {} },
  { name: "getGroupInstances", method: "GET", path: /^\/groups\/grp_[^/]+\/instances$/, query: {} },
  // The colon between world and instance is the path's own: `%3A` is not this operation.
  { name: "getInstance", method: "GET", path: /^\/instances\/wrld_[^/:%]+:[^/]+$/, query: {} },
  { name: "getShortName", method: "GET", path: /^\/instances\/wrld_[^/:%]+:[^/]+\/shortName$/, query: {} },
  { name: "closeInstance", method: "DELETE", path: /^\/instances\/wrld_[^/:%]+:[^/]+$/, query: { hardClose: z.enum(["true", "false"]), closedAt: dateTime } },
  { name: "createInstance", method: "POST", path: /^\/instances$/, query: {}, body: CreateInstanceRequestSchema },
  { name: "getWorld", method: "GET", path: /^\/worlds\/wrld_[^/]+$/, query: {} },
  { name: "getGroupPosts", method: "GET", path: /^\/groups\/grp_[^/]+\/posts$/, query: { n, offset, publicOnly: z.enum(["true", "false"]) } },
  { name: "addGroupPost", method: "POST", path: /^\/groups\/grp_[^/]+\/posts$/, query: {}, body: CreateGroupPostRequestSchema },
  { name: "updateGroupPost", method: "PUT", path: /^\/groups\/grp_[^/]+\/posts\/[^/]+$/, query: {}, body: CreateGroupPostRequestSchema },
  { name: "deleteGroupPost", method: "DELETE", path: /^\/groups\/grp_[^/]+\/posts\/[^/]+$/, query: {} },
  { name: "uploadImage", method: "POST", path: /^\/file\/image$/, query: {}, body: UploadImageRequestSchema },
  { name: "getGroupCalendarEvents", method: "GET", path: /^\/calendar\/grp_[^/]+$/, query: { date: dateTime, n, offset } },
  { name: "createGroupCalendarEvent", method: "POST", path: /^\/calendar\/grp_[^/]+\/event$/, query: {}, body: CreateCalendarEventRequestSchema },
  { name: "updateGroupCalendarEvent", method: "PUT", path: /^\/calendar\/grp_[^/]+\/[^/]+\/event$/, query: {}, body: UpdateCalendarEventRequestSchema },
  { name: "deleteGroupCalendarEvent", method: "DELETE", path: /^\/calendar\/grp_[^/]+\/[^/]+$/, query: {} },
  { name: "getGroupMembers", method: "GET", path: /^\/groups\/grp_[^/]+\/members$/, query: { n, offset, sort: z.enum(["joinedAt:asc", "joinedAt:desc"]), roleId: z.string() } },
  { name: "getGroupRequests", method: "GET", path: /^\/groups\/grp_[^/]+\/requests$/, query: { n, offset, blocked: z.enum(["true", "false"]) } },
  { name: "getGroupMember", method: "GET", path: /^\/groups\/grp_[^/]+\/members\/(?:usr_[^/]+|[A-Za-z0-9]{10})$/, query: {} },
  { name: "searchUsers", method: "GET", path: /^\/users$/, query: { search: z.string(), n, offset, developerType: z.string() } },
  { name: "getUser", method: "GET", path: /^\/users\/(?:usr_[^/]+|[A-Za-z0-9]{10})$/, query: {} },
  { name: "getUserGroups", method: "GET", path: /^\/users\/(?:usr_[^/]+|[A-Za-z0-9]{10})\/groups$/, query: {} },
  {
    name: "respondGroupJoinRequest",
    method: "PUT",
    path: /^\/groups\/grp_[^/]+\/requests\/(?:usr_[^/]+|[A-Za-z0-9]{10})$/,
    query: {},
    body: z.strictObject({ action: z.enum(["accept", "reject"]), block: z.boolean().optional() }),
  },
  {
    name: "createGroupInvite",
    method: "POST",
    path: /^\/groups\/grp_[^/]+\/invites$/,
    query: {},
    body: z.strictObject({ userId, confirmOverrideBlock: z.boolean().optional() }),
  },
  { name: "getGroupBans", method: "GET", path: /^\/groups\/grp_[^/]+\/bans$/, query: { n, offset } },
  { name: "banGroupMember", method: "POST", path: /^\/groups\/grp_[^/]+\/bans$/, query: {}, body: z.strictObject({ userId }) },
  { name: "unbanGroupMember", method: "DELETE", path: /^\/groups\/grp_[^/]+\/bans\/(?:usr_[^/]+|[A-Za-z0-9]{10})$/, query: {} },
  { name: "getGroupRoles", method: "GET", path: /^\/groups\/grp_[^/]+\/roles$/, query: {} },
  {
    name: "getGroupAuditLogs",
    method: "GET",
    path: /^\/groups\/grp_[^/]+\/auditLogs$/,
    query: { n, offset, startDate: dateTime, endDate: dateTime, actorIds: z.string(), eventTypes: z.string(), targetIds: z.string() },
  },
  {
    name: "createGroupRole",
    method: "POST",
    path: /^\/groups\/grp_[^/]+\/roles$/,
    query: {},
    body: z.strictObject({ id: z.string().optional(), name: z.string(), description: z.string().optional(), isSelfAssignable: z.boolean().optional(), permissions: z.array(z.string()).optional() }),
  },
  // GroupRoleID sets no pattern (its example starts with `grol_`).
  { name: "deleteGroupRole", method: "DELETE", path: /^\/groups\/grp_[^/]+\/roles\/[^/]+$/, query: {} },
  { name: "addGroupMemberRole", method: "PUT", path: /^\/groups\/grp_[^/]+\/members\/(?:usr_[^/]+|[A-Za-z0-9]{10})\/roles\/[^/]+$/, query: {} },
  { name: "removeGroupMemberRole", method: "DELETE", path: /^\/groups\/grp_[^/]+\/members\/(?:usr_[^/]+|[A-Za-z0-9]{10})\/roles\/[^/]+$/, query: {} },
] as const;

/** LimitedUserGroups (`GET /users/{userId}/groups`): no field is required; these are the ones it names that Dwell reads or the fake gives. */
export const LimitedUserGroupsSchema = z.object({
  id: z.string().optional(),
  groupId: groupId.optional(),
  name: z.string().optional(),
  shortCode: z.string().optional(),
  discriminator: z.string().optional(),
  memberCount: z.number().int().optional(),
  isRepresenting: z.boolean().optional(),
  mutualGroup: z.boolean().optional(),
});

/** GroupRole: no field is required by the description; these are the ones it names. */
export const GroupRoleSchema = z.object({
  createdAt: dateTime.optional(),
  description: z.string().optional(),
  groupId: z.string().regex(/^grp_/).optional(),
  id: z.string().min(1).optional(),
  isManagementRole: z.boolean().optional(),
  isSelfAssignable: z.boolean().optional(),
  name: z.string().optional(),
  order: z.number().int().optional(),
  permissions: z.array(z.string()).optional(),
  requiresPurchase: z.boolean().optional(),
  requiresTwoFactor: z.boolean().optional(),
  updatedAt: dateTime.optional(),
});

export interface RecordedRequest {
  method: string;
  /** The path below the API base, decoded. */
  path: string;
  /** The same path as it was sent (percent-encoding kept): what VRChat routes by. */
  rawPath?: string;
  query: Record<string, string>;
  body?: unknown;
}

/** Why a request is not one the API describes (null when it is). */
export function requestProblem(request: RecordedRequest): string | null {
  const path = request.rawPath ?? request.path;
  const operation = OPERATIONS.find((op) => op.method === request.method && op.path.test(path));
  if (!operation) return `${request.method} ${path}: no such operation`;
  for (const [name, value] of Object.entries(request.query)) {
    const schema = (operation.query as Record<string, z.ZodType>)[name];
    if (!schema) return `${operation.name}: unknown query parameter ${name}`;
    const parsed = schema.safeParse(value);
    if (!parsed.success) return `${operation.name}: ${name}=${value}: ${parsed.error.issues[0]?.message}`;
  }
  if ("body" in operation && operation.body && !operation.body.safeParse(request.body).success) return `${operation.name}: body`;
  return null;
}
