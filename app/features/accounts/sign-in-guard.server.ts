/**
 * Password guessing against the Sanctum, slowed without handing anyone a way to lock an admin out.
 * Only failed sign-ins count, under three keys: the (account, client) pair, the client alone (its
 * IPv4 address or IPv6 /64), and the account from anywhere. Past a number of free failures each
 * further attempt under that key must wait, twice as long each time (30 s, 1 min, 2 min, … at most
 * 15 min). The account-wide key stops guessing spread over many networks (each within its own
 * free failures); its free failures are many more than a person makes, and it is the one key a
 * stranger's failures can make the account's owner wait on: at worst 15 minutes a try, while the
 * sessions already open (a week each) carry on. A success clears the pair only. Failures are
 * forgotten a day after the last one. See docs/decisions/018-sanctum-hardening.md and 026.
 *
 * So that a stranger who knows a staff e-mail cannot keep its owner out, the account-wide wait lets
 * through a client that has no failures of its own when the account has two-factor sign-in (the
 * passphrase alone then opens only the code step, and the code has its own limit), or when the client
 * is the owner's own device: one that signed in to this account before (a signed cookie, set at each
 * successful sign-in, kept KNOWN_DEVICE_DAYS). The pair's and the client's own waits still hold.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { eq, inArray, lt, sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { signInFailures } from "~/db/schema";
import { m } from "~/paraglide/messages";
import { hitRateLimit } from "~/utils/rate-limit.server";

/** Failures of one account from one client before attempts are spaced out. */
export const FREE_FAILURES_PER_ACCOUNT = 5;
/** Failures of one account from all clients together before attempts are spaced out. */
export const FREE_FAILURES_ACCOUNT_WIDE = 20;
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

const keysOf = ({ email, client }: SignInAttempt) => ({
  pair: `pair:${email}|${client}`,
  client: `client:${client}`,
  account: `account:${email}`,
});

/** How long after `failures` failures (with `free` of them free) the next attempt must wait. */
export function delayAfter(failures: number, free: number): number {
  if (failures < free) return 0;
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (failures - free));
}

/**
 * Milliseconds until this attempt may be made (0: now). `twoFactor`: the account has two-factor
 * sign-in, and so a client with no failures of its own is not held by the account-wide key.
 */
export async function signInWait(
  db: Database,
  attempt: SignInAttempt,
  now: Date,
  { twoFactor = false, knownDevice = false }: { twoFactor?: boolean; /** The client signed in to this account before (see isKnownDevice). */ knownDevice?: boolean } = {},
): Promise<number> {
  const keys = keysOf(attempt);
  const rows = await db.select().from(signInFailures).where(inArray(signInFailures.key, [keys.pair, keys.client, keys.account]));
  const clean = !rows.some((row) => row.key !== keys.account);
  let wait = 0;
  for (const row of rows) {
    if (row.key === keys.account && (twoFactor || knownDevice) && clean) continue;
    const free =
      row.key === keys.pair ? FREE_FAILURES_PER_ACCOUNT : row.key === keys.account ? FREE_FAILURES_ACCOUNT_WIDE : attempt.freeFailuresPerClient;
    const until = row.lastFailedAt.getTime() + delayAfter(row.failures, free);
    wait = Math.max(wait, until - now.getTime());
  }
  return Math.max(0, wait);
}

export async function recordSignInFailure(db: Database, attempt: SignInAttempt, now: Date) {
  const keys = keysOf(attempt);
  await db
    .insert(signInFailures)
    .values([keys.pair, keys.client, keys.account].map((key) => ({ key, failures: 1, lastFailedAt: now })))
    .onConflictDoUpdate({
      target: signInFailures.key,
      set: { failures: sql`${signInFailures.failures} + 1`, lastFailedAt: now },
    });
}

/** How long a device stays known to an account after its last successful sign-in there. */
export const KNOWN_DEVICE_DAYS = 90;
const DAY_MS = 24 * 60 * 60_000;

const deviceMac = (secret: string, email: string, issuedAt: number) => createHmac("sha256", secret).update(`known-device:${email}:${issuedAt}`).digest("base64url");

/** The token a successful sign-in leaves in the browser's cookie: this account was opened from here. */
export function knownDeviceToken(secret: string, email: string, now: Date): string {
  const issuedAt = now.getTime();
  return `${issuedAt}.${deviceMac(secret, email, issuedAt)}`;
}

/** Whether the cookie's token is this account's, made by this site, and recent enough. */
export function isKnownDevice(secret: string, email: string, token: string | undefined, now: Date): boolean {
  const [issued, mac] = (token ?? "").split(".");
  const issuedAt = Number(issued);
  if (!mac || !Number.isSafeInteger(issuedAt) || issuedAt > now.getTime() || now.getTime() - issuedAt > KNOWN_DEVICE_DAYS * DAY_MS) return false;
  const expected = Buffer.from(deviceMac(secret, email, issuedAt));
  const given = Buffer.from(mac);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** A correct password: this client's failures with this account no longer count. */
export async function clearSignInFailures(db: Database, attempt: SignInAttempt) {
  await db.delete(signInFailures).where(eq(signInFailures.key, keysOf(attempt).pair));
}

/** The account's failed sign-ins from anywhere in the last day, for its owner's dashboard. */
export async function accountSignInFailures(db: Database, email: string, now: Date): Promise<{ failures: number; lastFailedAt: Date | null }> {
  const [row] = await db.select().from(signInFailures).where(eq(signInFailures.key, `account:${email}`));
  if (!row || now.getTime() - row.lastFailedAt.getTime() > FAILURES_KEPT_MS) return { failures: 0, lastFailedAt: null };
  return { failures: row.failures, lastFailedAt: row.lastFailedAt };
}

export async function pruneSignInFailures(db: Database, now: Date) {
  await db.delete(signInFailures).where(lt(signInFailures.lastFailedAt, new Date(now.getTime() - FAILURES_KEPT_MS)));
}

/** Checks of a signed-in admin's passphrase or code in 15 minutes (the Security page, the dashboard's change). */
export const PASSPHRASE_CHECKS_PER_15_MIN = 10;
/** Refused for too many passphrase checks: in the page's language. */
export const TOO_MANY_CHECKS = m.too_many_checks;

/**
 * One allowance for every form that checks a signed-in admin's passphrase: a stolen session cannot
 * guess the passphrase on one page once another page's limit is spent.
 */
export async function withinPassphraseChecks(db: Database, userId: string, now: Date): Promise<boolean> {
  return (await hitRateLimit(db, { key: `security:${userId}`, limit: PASSPHRASE_CHECKS_PER_15_MIN, windowMs: 15 * 60_000, now })).allowed;
}
