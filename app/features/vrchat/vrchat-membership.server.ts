/**
 * Who an applicant is in VRChat, and what a decision does there. A display name is not an identity
 * (not unique, it can change); a user id (`usr_…`, or a legacy player's ten-character id) is. Lookups find candidates for an applicant
 * among the group's join requests and a user search; a decision on a group application with a
 * linked account becomes one outbox job that accepts or rejects their join request, or invites them.
 *
 * Calls stay few and predictable: lookups are cached a few minutes and limited per minute for the
 * whole process; an action reads the membership afresh before it acts (so a job run twice, after a
 * crash, does not act twice), and the actions' calls are paced about one a second.
 * Field facts come from the community's OpenAPI description of the VRChat API (vrchatapi/specification).
 */
import type { Database } from "~/db/db.server";
import { outbox } from "~/db/schema";
import { log } from "~/utils/log.server";
import { sameName } from "~/utils/text";
import { createLookupCache, LookupBudgetError, type LookupAllowance } from "~/utils/lookup-cache.server";
import { VRCHAT_USER_ID, vrchatUserIdFrom } from "~/utils/vrchat-profile-link";
import { accountFactsOf, ScreenedUserSchema, type AccountFacts } from "~/utils/vrchat-account";
import { actionOutcomeOf, createPacer, vrchatReason, type ActionOutcome, type Pacer } from "./vrchat-actions.server";
import type { VRChatClient } from "./vrchat-client.server";
import { VRChatError } from "./vrchat-error";
import { createVRChatBans } from "./vrchat-bans.server";
import { JOIN_REQUESTS_PAGE, listJoinRequests } from "./vrchat-join-requests.server";
import {
  JoinRequestsSchema,
  MembershipActionSchema,
  MembershipSchema,
  NamedGroupSchema,
  PersonSchema,
  statusOf,
  UserGroupsSchema,
  UserSchema,
  UserSearchSchema,
  type ApplicantMatch,
  type MembershipAction,
  type MembershipStatus,
  type PersonFacts,
  type VRChatCandidate,
} from "./vrchat-people";
import { m } from "~/paraglide/messages";

export { imageUrl, MEMBERSHIP_STATUSES, profileUrl, type ApplicantMatch, type MembershipAction, type MembershipStatus, type PersonFacts, type VRChatCandidate } from "./vrchat-people";

const USER_ID = VRCHAT_USER_ID;

/** A user id from an id or a profile link. */
export const userIdFrom = vrchatUserIdFrom;

export interface MembershipOptions {
  client: VRChatClient;
  groupId: string;
  /** How long a lookup's answers are reused. */
  cacheMs?: number;
  /** Calls lookups may make per minute, all admins together. */
  lookupCallsPerMinute?: number;
  /** Calls the public forms' profile-link checks may make per minute, all visitors together: never the staff's. */
  visitorCallsPerMinute?: number;
  /** Calls screening may make per minute (its own allowance). */
  screeningCallsPerMinute?: number;
  /** The least time between two calls of the actions. */
  actionSpacingMs?: number;
  /** The pace shared with Dwell's other actions in VRChat (by default, one of its own at `actionSpacingMs`). */
  pacer?: Pacer;
  /** One call's timeout, for the job's lease. */
  timeoutMs: number;
  now?: () => number;
  /** A per-minute allowance shared by every process on the database (see utils/lookup-cache.server). */
  spendShared?: (key: string, callsPerMinute: number) => Promise<boolean>;
}

const SEARCH_RESULTS = 5;

/** What a join request's acceptance says when the request is no longer there (its card shows it to staff). */
export const JOIN_REQUEST_GONE = "The join request is gone from VRChat (withdrawn, or answered there): nothing was done";

/** VRChat will not let the group invite this user (their own settings or block): not the bot's permission. */
class InviteRefusedError extends Error {
  constructor(reason: string) {
    super(`VRChat would not let the group invite them (${reason}): they may have blocked the group or turned off group invites`);
  }
}

export function createVRChatMembership(options: MembershipOptions) {
  const { client, groupId, cacheMs = 3 * 60_000, lookupCallsPerMinute = 30, actionSpacingMs = 1_000, timeoutMs, now = Date.now } = options;
  const lookups = createLookupCache({
    ttlMs: cacheMs,
    callsPerMinute: lookupCallsPerMinute,
    budgetMessage: m.lk_budget_vrchat,
    now,
    spend: options.spendShared && ((perMinute) => options.spendShared!("vrchat-lookups:staff", perMinute)),
  });
  const cached = <T>(key: string, load: () => Promise<T>) => lookups.get(key, load);
  const visitorLookups = createLookupCache({
    ttlMs: cacheMs,
    callsPerMinute: options.visitorCallsPerMinute ?? 6,
    budgetMessage: m.lk_budget_vrchat_applicants,
    now,
    spend: options.spendShared && ((perMinute) => options.spendShared!("vrchat-lookups:visitors", perMinute)),
  });
  // Screening's own allowance: applications arriving in a crowd never spend the staff's lookups.
  const screeningLookups = createLookupCache({
    ttlMs: cacheMs,
    callsPerMinute: options.screeningCallsPerMinute ?? 30,
    budgetMessage: m.lk_budget_screening,
    now,
    spend: options.spendShared && ((perMinute) => options.spendShared!("vrchat-lookups:screening", perMinute)),
  });
  const paced = options.pacer ?? createPacer(actionSpacingMs, now);
  const allowanceOf = (allowance: LookupAllowance) => (allowance === "visitors" ? visitorLookups : lookups);

  const joinRequests = (allowance: LookupAllowance = "staff") =>
    allowanceOf(allowance).get("requests", () => client.get(`/groups/${groupId}/requests`, JoinRequestsSchema, { n: JOIN_REQUESTS_PAGE, offset: 0 }));

  const membership = (userId: string) =>
    cached(`member:${userId}`, async () => statusOf((await client.get(`/groups/${groupId}/members/${encodeURIComponent(userId)}`, MembershipSchema))?.membershipStatus));

  /** Candidates for an applicant: join requests with their name first, then a user search's results. */
  async function findCandidates(displayName: string): Promise<VRChatCandidate[]> {
    const name = displayName.trim();
    if (!name) return [];
    const requests = (await joinRequests()).filter((entry) => entry !== null);
    const fromRequests: VRChatCandidate[] = requests
      .filter((entry) => entry.user?.displayName && sameName(entry.user.displayName, name))
      .map((entry) => ({
        id: entry.userId,
        displayName: entry.user!.displayName!,
        thumbnailUrl: entry.user?.currentAvatarThumbnailImageUrl ?? entry.user?.thumbnailUrl ?? entry.user?.profilePicOverride ?? null,
        status: statusOf(entry.membershipStatus),
        source: "request" as const,
      }));
    const found = await cached(`search:${name.toLowerCase()}`, () => client.get("/users", UserSearchSchema, { search: name, n: SEARCH_RESULTS }));
    const known = new Set(fromRequests.map((candidate) => candidate.id));
    const fromSearch = await Promise.all(
      found
        .filter((user) => USER_ID.test(user.id) && !known.has(user.id))
        .slice(0, SEARCH_RESULTS)
        .map(async (user) => ({
          id: user.id,
          displayName: user.displayName,
          thumbnailUrl: user.currentAvatarThumbnailImageUrl ?? user.profilePicOverride ?? null,
          status: await membership(user.id),
          source: "search" as const,
        })),
    );
    return [...fromRequests, ...fromSearch];
  }

  /**
   * The applicant's account by the one rule a decision links with: the profile link they gave, when
   * VRChat names that account as they named themselves; else the one pending join request under
   * that name. Never a guess: no match or several is said, not chosen. Throws when VRChat cannot
   * be asked (unreachable, or the staff's lookups for this minute spent).
   */
  async function matchApplicant(applicant: { username: string; claimedUserId: string | null }, allowance: LookupAllowance = "staff"): Promise<ApplicantMatch> {
    const name = applicant.username.trim();
    if (applicant.claimedUserId && USER_ID.test(applicant.claimedUserId)) {
      const user = await userById(applicant.claimedUserId, allowance);
      if (user && sameName(user.displayName, name)) return { account: { userId: applicant.claimedUserId, displayName: user.displayName }, how: "profile" };
    }
    if (!name) return { unmatched: "none" };
    const named = new Map<string, string>();
    for (const entry of await joinRequests(allowance)) {
      if (entry && statusOf(entry.membershipStatus) === "requested" && entry.user?.displayName && sameName(entry.user.displayName, name)) {
        named.set(entry.userId, entry.user.displayName);
      }
    }
    if (named.size > 1) return { unmatched: "several" };
    const [only] = named;
    return only && USER_ID.test(only[0]) ? { account: { userId: only[0], displayName: only[1] }, how: "request" } : { unmatched: "none" };
  }

  /**
   * The account behind a profile link an applicant gave on the public form: one call, never retried,
   * from the visitors' own allowance (a LookupBudgetError once it is spent), so visitors never spend
   * the staff's lookups. Null when VRChat has no such user.
   */
  async function describeApplicantProfile(userId: string): Promise<{ id: string; displayName: string } | null> {
    if (!USER_ID.test(userId)) return null;
    let user;
    try {
      user = await visitorLookups.get(`user:${userId}`, () => client.get(`/users/${encodeURIComponent(userId)}`, UserSchema, undefined, { once: true }));
    } catch (error) {
      if (error instanceof VRChatError && error.status === 404) return null;
      throw error;
    }
    if (user.id !== userId) throw new VRChatError("VRChat answered a user lookup with another user's id", null, null, "refused-shape");
    return { id: userId, displayName: user.displayName };
  }

  /**
   * An account's bio and status as VRChat has them now (never from the cache: the applicant has just
   * changed them), for an applicant's proof: one call, never retried, from the visitors' allowance
   * (a LookupBudgetError once it is spent). Null when VRChat has no such user.
   */
  async function readProfileText(userId: string): Promise<{ id: string; displayName: string; text: string } | null> {
    if (!USER_ID.test(userId)) return null;
    const key = `user:${userId}`;
    visitorLookups.forget(key);
    let user;
    try {
      user = await visitorLookups.get(key, () => client.get(`/users/${encodeURIComponent(userId)}`, UserSchema, undefined, { once: true }));
    } catch (error) {
      if (error instanceof VRChatError && error.status === 404) return null;
      throw error;
    }
    if (user.id !== userId) throw new VRChatError("VRChat answered a user lookup with another user's id", null, null, "refused-shape");
    lookups.forget(key);
    return { id: userId, displayName: user.displayName, text: [user.bio ?? "", user.statusDescription ?? ""].join("\n") };
  }

  /**
   * What screening reads of an account: one `GET /users/{userId}` (its trust tags, age, 18+ and bio),
   * its groups (`GET /users/{userId}/groups`) and its standing in the group (banned or not) only when
   * a rule asks; from screening's own allowance (a LookupBudgetError once it is spent). Null when
   * VRChat has no such user.
   */
  async function screeningFacts(
    userId: string,
    asks: { groups: boolean; standing: boolean; fresh?: boolean },
  ): Promise<{ account: AccountFacts; groups: string[] | null; banned: boolean | null } | null> {
    if (!USER_ID.test(userId)) return null;
    // A decision that needs fresher facts than those kept does not take them from the cache either.
    if (asks.fresh) for (const key of [`screen:${userId}`, `groups:${userId}`]) screeningLookups.forget(key);
    let user;
    try {
      user = await screeningLookups.get(`screen:${userId}`, () => client.get(`/users/${encodeURIComponent(userId)}`, ScreenedUserSchema));
    } catch (error) {
      if (error instanceof VRChatError && error.status === 404) return null;
      throw error;
    }
    if (user.id !== userId) throw new VRChatError("VRChat answered a user lookup with another user's id", null, null, "refused-shape");
    const groups = asks.groups
      ? (await screeningLookups.get(`groups:${userId}`, () => client.get(`/users/${encodeURIComponent(userId)}/groups`, UserGroupsSchema))).flatMap((entry) => (entry?.groupId ? [entry.groupId] : []))
      : null;
    const banned = asks.standing ? await screeningStanding(userId) : null;
    return { account: accountFactsOf(user), groups, banned };
  }

  /** Whether the account is banned from the group in VRChat (one membership read, from screening's allowance). */
  async function screeningStanding(userId: string): Promise<boolean> {
    const read = () => client.get(`/groups/${groupId}/members/${encodeURIComponent(userId)}`, MembershipSchema);
    return statusOf((await screeningLookups.get(`standing:${userId}`, read))?.membershipStatus) === "banned";
  }

  /** Another group's name, from the staff's lookups (`GET /groups/{groupId}`): null when VRChat has no such group. */
  async function groupName(otherGroupId: string): Promise<string | null> {
    try {
      return (await lookups.get(`group:${otherGroupId}`, () => client.get(`/groups/${encodeURIComponent(otherGroupId)}`, NamedGroupSchema))).name;
    } catch (error) {
      if (error instanceof VRChatError && error.status === 404) return null;
      throw error;
    }
  }

  /** A user by id, from the staff's lookups: null when VRChat has no such user. */
  async function userById(userId: string, allowance: LookupAllowance = "staff") {
    let user;
    try {
      user = await allowanceOf(allowance).get(`user:${userId}`, () => client.get(`/users/${encodeURIComponent(userId)}`, UserSchema));
    } catch (error) {
      if (error instanceof VRChatError && error.status === 404) return null;
      throw error;
    }
    // The id asked for is the one kept: an answer about another account is no answer about this one.
    if (user.id !== userId) {
      log.warn("VRChat answered a user lookup with another user's id; it is not used");
      return null;
    }
    return user;
  }

  /**
   * What a person's file shows live of an account: its name, picture, trust rank, age and 18+ (one
   * `GET /users/{userId}`) and its standing in the group, from the staff's lookups. Null when VRChat
   * has no such user.
   */
  async function personFacts(userId: string): Promise<PersonFacts | null> {
    if (!USER_ID.test(userId)) return null;
    let user;
    try {
      user = await lookups.get(`person:${userId}`, () => client.get(`/users/${encodeURIComponent(userId)}`, PersonSchema));
    } catch (error) {
      if (error instanceof VRChatError && error.status === 404) return null;
      throw error;
    }
    if (user.id !== userId) return null;
    const { bio: _bio, ...facts } = accountFactsOf(user);
    return { displayName: user.displayName, thumbnailUrl: user.currentAvatarThumbnailImageUrl ?? user.profilePicOverride ?? null, ...facts, standing: await membership(userId) };
  }

  /** One account, by id (a pasted link, or the linked account): null when VRChat has no such user. */
  async function describeUser(userId: string): Promise<VRChatCandidate | null> {
    if (!USER_ID.test(userId)) return null;
    const user = await userById(userId);
    if (!user) return null;
    return {
      id: userId,
      displayName: user.displayName,
      thumbnailUrl: user.currentAvatarThumbnailImageUrl ?? user.profilePicOverride ?? null,
      status: await membership(userId),
      source: "linked",
    };
  }

  /**
   * A group invite. Never over the user's own block of the group (VRChat's default would override
   * it). VRChat's 400s for one already a member or already invited mean the work is done.
   */
  async function invite(userId: string): Promise<string> {
    try {
      await paced(() => client.send("POST", `/groups/${groupId}/invites`, { userId, confirmOverrideBlock: false }));
      return "Invite sent";
    } catch (error) {
      if (!(error instanceof VRChatError)) throw error;
      const reason = vrchatReason(error);
      if (error.status === 400 && /already a member/i.test(reason)) return "Already a member in VRChat: nothing to do";
      if (error.status === 400 && /already invited/i.test(reason)) return "Invite already sent";
      if (error.status === 403 && /invite that user/i.test(reason)) throw new InviteRefusedError(reason);
      throw error;
    }
  }

  /** What the job does, from the membership as VRChat has it now. */
  async function act(action: MembershipAction): Promise<string> {
    const current = statusOf((await paced(() => client.get(`/groups/${groupId}/members/${encodeURIComponent(action.userId)}`, MembershipSchema)))?.membershipStatus);
    lookups.forget(`member:${action.userId}`);
    lookups.forget("requests");
    visitorLookups.forget("requests");
    if (current === "member") return "Already a member in VRChat: nothing to do";
    if (current === "banned") return "Banned from the group in VRChat: nothing was done";
    if (current === "blocked") return "They have blocked the group in VRChat: nothing was done";
    if (action.action === "accept") {
      if (current === "invited") return "Invite already sent";
      // A join request decided from a list up to a minute old: if the person withdrew it meanwhile,
      // accepting it must not become an invite they never asked for.
      if (action.applicationKind === "join_request" && current !== "requested") return JOIN_REQUEST_GONE;
      if (current === "requested") {
        await paced(() => client.send("PUT", `/groups/${groupId}/requests/${encodeURIComponent(action.userId)}`, { action: "accept" }));
        return "Join request accepted in VRChat";
      }
      return invite(action.userId);
    }
    if (current !== "requested") return "No join request to reject in VRChat";
    await paced(() => client.send("PUT", `/groups/${groupId}/requests/${encodeURIComponent(action.userId)}`, { action: "reject", block: action.block }));
    return action.block ? "Join request rejected and blocked in VRChat" : "Join request rejected in VRChat";
  }

  /** Where the user stands with the group now (read afresh, paced as an action: it decides one). */
  async function membershipNow(userId: string): Promise<MembershipStatus> {
    const current = statusOf((await paced(() => client.get(`/groups/${groupId}/members/${encodeURIComponent(userId)}`, MembershipSchema)))?.membershipStatus);
    lookups.forget(`member:${userId}`);
    return current;
  }

  return {
    findCandidates,
    matchApplicant,
    describeUser,
    personFacts,
    describeApplicantProfile,
    readProfileText,
    screeningFacts,
    screeningStanding,
    groupName,
    listJoinRequests: (maxPages?: number) => listJoinRequests(client, groupId, maxPages),
    /** The group's ban list in VRChat, and bans and unbans there (paced with every other action). */
    bans: createVRChatBans({ client, groupId, paced, timeoutMs, actionSpacingMs, forget: (userId) => lookups.forget(`member:${userId}`) }),
    membershipNow,
    invite,
    /** The outbox channel of the actions. */
    channel: {
      target: "vrchat_membership" as const,
      // The membership read and the action, each perhaps after a new login, and their pacing.
      maxDeliveryMs: 4 * timeoutMs + 2 * actionSpacingMs,
      async deliver(payload: unknown): Promise<ActionOutcome> {
        const parsed = MembershipActionSchema.safeParse(payload);
        if (!parsed.success) return { kind: "failed", error: "The job could not be read" };
        try {
          return { kind: "delivered", result: await act(parsed.data) };
        } catch (error) {
          if (error instanceof InviteRefusedError) return { kind: "failed", error: error.message };
          return actionOutcomeOf(error);
        }
      },
    },
  };
}

export type VRChatMembership = ReturnType<typeof createVRChatMembership>;

/** Queues the VRChat action of a decision, in its transaction. */
export async function queueMembershipAction(tx: Pick<Database, "insert">, action: MembershipAction, at: Date) {
  await tx.insert(outbox).values({ target: "vrchat_membership", payload: action, sourceId: action.applicationId, nextAttemptAt: at });
}

export function logLookupFailure(error: unknown) {
  if (!(error instanceof LookupBudgetError)) log.warn("a VRChat lookup failed", { error: error instanceof Error ? error.message : String(error) });
}
