/**
 * Password guessing against the Sanctum, slowed without handing anyone a way to lock an admin out.
 * Only failed sign-ins count, under two keys: the (account, client) pair and the client alone (its
 * IPv4 address or IPv6 /64). Past a number of free failures each further attempt under that key
 * must wait, twice as long each time (30 s, 1 min, 2 min, … at most 15 min). A correct password
 * from another client is never refused because of someone else's failures; a success clears the
 * pair. Failures are forgotten a day after the last one. See docs/decisions/018-sanctum-hardening.md.
 */
import { eq, inArray, lt, sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { signInFailures } from "~/db/schema";

/** Failures of one account from one client before attempts are spaced out. */
export const FREE_FAILURES_PER_ACCOUNT = 5;
export const FIRST_DELAY_MS = 30_000;
export const MAX_DELAY_MS = 15 * 60_000;
/** How long after the last failure a key's count is kept. */
export const FAILURES_KEPT_MS = 24 * 60 * 60_000;

export interface SignInAttempt {
  email: string;
  /** The client's key (see clientKey). */
  client: string;
  /** Failures a client may have across accounts before its attempts are spaced out. */
  freeFailuresPerClient: number;
}

const keysOf = ({ email, client }: SignInAttempt) => ({ pair: `pair:${email}|${client}`, client: `client:${client}` });

/** How long after `failures` failures (with `free` of them free) the next attempt must wait. */
export function delayAfter(failures: number, free: number): number {
  if (failures < free) return 0;
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (failures - free));
}

/** Milliseconds until this attempt may be made (0: now). */
export async function signInWait(db: Database, attempt: SignInAttempt, now: Date): Promise<number> {
  const keys = keysOf(attempt);
  const rows = await db.select().from(signInFailures).where(inArray(signInFailures.key, [keys.pair, keys.client]));
  let wait = 0;
  for (const row of rows) {
    const free = row.key === keys.pair ? FREE_FAILURES_PER_ACCOUNT : attempt.freeFailuresPerClient;
    const until = row.lastFailedAt.getTime() + delayAfter(row.failures, free);
    wait = Math.max(wait, until - now.getTime());
  }
  return Math.max(0, wait);
}

export async function recordSignInFailure(db: Database, attempt: SignInAttempt, now: Date) {
  const keys = keysOf(attempt);
  await db
    .insert(signInFailures)
    .values([keys.pair, keys.client].map((key) => ({ key, failures: 1, lastFailedAt: now })))
    .onConflictDoUpdate({
      target: signInFailures.key,
      set: { failures: sql`${signInFailures.failures} + 1`, lastFailedAt: now },
    });
}

/** A correct password: this client's failures with this account no longer count. */
export async function clearSignInFailures(db: Database, attempt: SignInAttempt) {
  await db.delete(signInFailures).where(eq(signInFailures.key, keysOf(attempt).pair));
}

export async function pruneSignInFailures(db: Database, now: Date) {
  await db.delete(signInFailures).where(lt(signInFailures.lastFailedAt, new Date(now.getTime() - FAILURES_KEPT_MS)));
}
