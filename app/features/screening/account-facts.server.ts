/**
 * What VRChat said of an account when screening last read it, kept by account: read once when a join
 * request or an application linked to it arrives (screening's allowance, one user read), and used by
 * the Join Requests list, 'Try these rules' and every later screening of the same account. Read again
 * only when a decision needs fresher facts than these (see flows/screen-applications).
 */
import { inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/db.server";
import { vrchatAccountFacts } from "~/db/schema";
import { TRUST_RANKS, type AccountFacts } from "~/utils/vrchat-account";

/** An account's kept facts: `account` null when VRChat has no such account. */
export interface KeptAccount {
  account: AccountFacts | null;
  /** The groups it is a member of (null: not read yet). */
  groups: string[] | null;
  readAt: Date;
  groupsReadAt: Date | null;
}

const AccountFactsSchema = z.object({
  trustRank: z.enum(TRUST_RANKS),
  joinedOn: z.string().nullable(),
  shows18: z.boolean(),
  bio: z.string().nullable(),
});

/** The kept facts of these accounts, by VRChat user id (an account never read is absent). */
export async function keptAccounts(db: Pick<Database, "select">, userIds: readonly string[]): Promise<Map<string, KeptAccount>> {
  const wanted = [...new Set(userIds)];
  if (wanted.length === 0) return new Map();
  const rows = await db.select().from(vrchatAccountFacts).where(inArray(vrchatAccountFacts.vrchatUserId, wanted));
  return new Map(
    rows.flatMap((row) => {
      const account = row.found ? AccountFactsSchema.safeParse(row.account) : null;
      // A row written in another shape (an older version) is as good as never read.
      if (account && !account.success) return [];
      return [[row.vrchatUserId, { account: account?.data ?? null, groups: row.groups ?? null, readAt: row.readAt, groupsReadAt: row.groupsReadAt }]];
    }),
  );
}

/** Keeps what was just read of an account (its groups only when they were read: `null` keeps the ones known). */
export async function keepAccount(db: Pick<Database, "insert">, userId: string, read: { account: AccountFacts | null; groups: string[] | null }, now: Date) {
  const values = { found: read.account !== null, account: read.account, readAt: now, ...(read.groups ? { groups: read.groups, groupsReadAt: now } : {}) };
  await db
    .insert(vrchatAccountFacts)
    .values({ vrchatUserId: userId, ...values })
    .onConflictDoUpdate({ target: vrchatAccountFacts.vrchatUserId, set: { ...values, updatedAt: sql`now()` } });
}
