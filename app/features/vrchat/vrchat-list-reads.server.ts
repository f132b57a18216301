/**
 * The last read of a list Dwell keeps in step with VRChat's: what it held, and what of it could not be
 * read. An entry that cannot be read (no user id of VRChat's forms) is left out of Dwell's copy, logged
 * with what VRChat sent in its place, and counted here for the Sanctum's page to say so.
 */
import { eq } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { vrchatListReads, type VRChatList } from "~/db/schema";
import { log } from "~/utils/log.server";
import { truncate } from "~/utils/text";
import type { ListRead } from "./vrchat-people";

const LIST_NAMES: Record<VRChatList, string> = { join_requests: "join requests", bans: "ban list" };

export async function recordListRead(db: Pick<Database, "insert">, list: VRChatList, read: ListRead<unknown>, now: Date) {
  if (read.unreadable.length > 0) {
    // What stood in place of a user id, so that an administrator can see what VRChat sent.
    const sent = read.unreadable.slice(0, 5).map((value) => truncate(JSON.stringify(value) ?? String(value), 80));
    log.warn(`entries of the group's ${LIST_NAMES[list]} in VRChat could not be read (no user id Dwell knows) and were left out`, { count: read.unreadable.length, sent });
  }
  const values = { readAt: now, entries: read.entries.length + read.unreadable.length, unreadable: read.unreadable.length };
  await db.insert(vrchatListReads).values({ list, ...values }).onConflictDoUpdate({ target: vrchatListReads.list, set: values });
}

/** The last read of a list (null: never read). */
export async function lastListRead(db: Pick<Database, "select">, list: VRChatList) {
  const [row] = await db.select({ readAt: vrchatListReads.readAt, entries: vrchatListReads.entries, unreadable: vrchatListReads.unreadable }).from(vrchatListReads).where(eq(vrchatListReads.list, list));
  return row ?? null;
}
