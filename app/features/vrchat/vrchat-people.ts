/**
 * The shapes of VRChat's answers about people that the membership reads (from the community's OpenAPI
 * description), and a membership's status in Dwell's words.
 */
import { z } from "zod";

export const MEMBERSHIP_STATUSES = ["member", "requested", "invited", "banned", "blocked", "none"] as const;
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];

/** A picture's address, kept only when it is one (https, or http on a test's loopback). */
export const imageUrl = z
  .string()
  .nullish()
  .transform((value) => (value && /^https?:\/\//.test(value) ? value : null));

/** A GroupMember, as the join requests list and the single membership read answer it. */
export const GroupMemberSchema = z.object({
  userId: z.string(),
  membershipStatus: z.string(),
  /** When the membership (here: the request) was made. */
  createdAt: z.string().nullish(),
  /** When the user was banned (the bans list). */
  bannedAt: z.string().nullish(),
  user: z
    .object({
      displayName: z.string().nullish(),
      currentAvatarThumbnailImageUrl: imageUrl,
      thumbnailUrl: imageUrl,
      profilePicOverride: imageUrl,
    })
    .nullish(),
});
/** An entry can be null (the API marks GroupMember nullable): such entries are skipped. */
export const JoinRequestsSchema = z.array(GroupMemberSchema.nullable());
/** `GET /groups/{groupId}/members/{userId}`: null when the user has no membership at all. */
export const MembershipSchema = GroupMemberSchema.nullable();
export const UserSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  currentAvatarThumbnailImageUrl: imageUrl,
  profilePicOverride: imageUrl,
  /** What the user wrote about themselves, and their status line: where an applicant puts a proof code. */
  bio: z.string().nullish(),
  statusDescription: z.string().nullish(),
});
export const UserSearchSchema = z.array(UserSchema);
/** `GET /users/{userId}/groups`: LimitedUserGroups, of which only the group's id is read. */
export const UserGroupsSchema = z.array(z.object({ groupId: z.string().nullish() }).nullable());

export function statusOf(raw: string | null | undefined): MembershipStatus {
  switch (raw) {
    case "member":
    case "requested":
    case "invited":
    case "banned":
      return raw;
    case "userblocked":
      return "blocked";
    default:
      return "none";
  }
}
