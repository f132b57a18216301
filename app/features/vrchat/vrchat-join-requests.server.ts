/** The group's join requests as VRChat lists them (`GET /groups/{groupId}/requests`). */
import { VRCHAT_USER_ID } from "~/utils/vrchat-profile-link";
import type { VRChatClient } from "./vrchat-client.server";
import { JoinRequestsSchema, type ListRead } from "./vrchat-people";

/** Join requests per page: the most the API gives at once. */
export const JOIN_REQUESTS_PAGE = 100;

export interface ListedJoinRequest {
  userId: string;
  displayName: string;
  thumbnailUrl: string | null;
  requestedAt: string | null;
}

/**
 * The requests waiting now, for the scheduled read (not a lookup: it is never cached, and it is the
 * same few calls each minute): pages of JOIN_REQUESTS_PAGE, up to `maxPages`, the newest first.
 */
export async function listJoinRequests(client: VRChatClient, groupId: string, maxPages = 10): Promise<ListRead<ListedJoinRequest>> {
  const found: ListedJoinRequest[] = [];
  const unreadable: unknown[] = [];
  for (let page = 0; page < maxPages; page += 1) {
    const entries = await client.get(`/groups/${groupId}/requests`, JoinRequestsSchema, { n: JOIN_REQUESTS_PAGE, offset: page * JOIN_REQUESTS_PAGE });
    for (const entry of entries) {
      if (!entry || !VRCHAT_USER_ID.test(entry.userId)) {
        unreadable.push(entry?.userId ?? entry);
        continue;
      }
      found.push({
        userId: entry.userId,
        displayName: entry.user?.displayName ?? entry.userId,
        thumbnailUrl: entry.user?.thumbnailUrl ?? entry.user?.currentAvatarThumbnailImageUrl ?? entry.user?.profilePicOverride ?? null,
        requestedAt: entry.createdAt ?? null,
      });
    }
    if (entries.length < JOIN_REQUESTS_PAGE) break;
  }
  return { entries: found, unreadable };
}
