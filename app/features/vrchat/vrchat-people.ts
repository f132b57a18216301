/**
 * The shapes of VRChat's answers about people that the membership reads (from the community's OpenAPI
 * description), and a membership's status in Dwell's words.
 */
import { z } from "zod";
import type { AccountFacts } from "~/utils/vrchat-account";
import { VRCHAT_USER_ID } from "~/utils/vrchat-profile-link";

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
/** A user as a person's file shows them: the name and picture, and what screening reads (trust, age, 18+). */
export const PersonSchema = UserSchema.extend({
  tags: z.array(z.string()).nullish(),
  date_joined: z.string().nullish(),
  ageVerificationStatus: z.string().nullish(),
});
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

export interface MembershipAction {
  /** A group application's decision, or a join request's decided without one (its id a join_requests row's). */
  applicationKind: "group" | "join_request";
  applicationId: string;
  userId: string;
  action: "accept" | "reject";
  /** With a rejection: VRChat also blocks the user from asking again. */
  block: boolean;
  actor: { id: string; name: string };
}

/** Of a Group (`GET /groups/{groupId}`), what a screening rule naming it needs: that it exists, and its name. */
export const NamedGroupSchema = z.object({ id: z.string(), name: z.string() });

export const MembershipActionSchema = z.object({
  applicationKind: z.enum(["group", "join_request"]),
  applicationId: z.uuid(),
  userId: z.string().regex(VRCHAT_USER_ID),
  action: z.enum(["accept", "reject"]),
  block: z.boolean(),
  actor: z.object({ id: z.string(), name: z.string() }),
});

/**
 * A list read from VRChat: the entries Dwell could read, and what it could not (an entry without a
 * user id of VRChat's forms), kept to be logged and counted, never dropped without a word.
 */
export interface ListRead<T> {
  entries: T[];
  unreadable: unknown[];
}

export interface VRChatCandidate {
  id: string;
  displayName: string;
  thumbnailUrl: string | null;
  status: MembershipStatus;
  /** Where it was found: the group's join requests, a user search, or the applicant's linked account. */
  source: "request" | "search" | "linked";
}

/** What a person's file shows live of their VRChat account. */
export interface PersonFacts extends Omit<AccountFacts, "bio"> {
  displayName: string;
  thumbnailUrl: string | null;
  standing: MembershipStatus;
}

export const profileUrl = (userId: string) => `https://vrchat.com/home/user/${userId}`;

/** What the decision's rule found for an applicant: their account, or why none was chosen. */
export type ApplicantMatch =
  | { account: { userId: string; displayName: string }; how: "profile" | "request" }
  | { unmatched: "none" | "several" };
