import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import {
  isKnownDevice,
  KNOWN_DEVICE_DAYS,
  knownDeviceToken,
  accountSignInFailures,
  clearSignInFailures,
  FREE_FAILURES_ACCOUNT_WIDE,
  delayAfter,
  FIRST_DELAY_MS,
  MAX_DELAY_MS,
  pruneSignInFailures,
  recordSignInFailure,
  signInWait,
} from "./sign-in-guard.server";

describeEachDatabase("spacing out failed sign-ins", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());

  const start = new Date("2026-11-23T12:00:00Z");
  const later = (ms: number) => new Date(start.getTime() + ms);
  const attempt = (email: string, client: string) => ({ email, client, freeFailuresPerClient: 10 });

  it("waits twice as long after each failure past the free ones, at most 15 minutes", () => {
    expect([0, 4].map((n) => delayAfter(n, 5))).toEqual([0, 0]);
    expect([5, 6, 7].map((n) => delayAfter(n, 5))).toEqual([FIRST_DELAY_MS, 2 * FIRST_DELAY_MS, 4 * FIRST_DELAY_MS]);
    expect(delayAfter(40, 5)).toBe(MAX_DELAY_MS);
  });

  it("slows a guesser, never the admin signing in from elsewhere", async () => {
    const guesser = attempt("keeper@dwell.example", "203.0.113.7");
    for (let i = 0; i < 5; i++) {
      expect(await signInWait(database.db, guesser, later(i))).toBe(0);
      await recordSignInFailure(database.db, guesser, later(i));
    }
    expect(await signInWait(database.db, guesser, later(5))).toBe(FIRST_DELAY_MS - 1);
    expect(await signInWait(database.db, guesser, later(4 + FIRST_DELAY_MS))).toBe(0);
    await recordSignInFailure(database.db, guesser, later(FIRST_DELAY_MS));
    expect(await signInWait(database.db, guesser, later(FIRST_DELAY_MS))).toBe(2 * FIRST_DELAY_MS);

    // The admin, at home: not slowed by the guesser's failures.
    expect(await signInWait(database.db, attempt("keeper@dwell.example", "198.51.100.1"), later(FIRST_DELAY_MS))).toBe(0);
  });

  it("counts a client's failures across accounts, and clears a pair on success", async () => {
    const client = "2001:db8:1:2::/64";
    for (let i = 0; i < 10; i++) await recordSignInFailure(database.db, attempt(`user${i}@dwell.example`, client), start);
    expect(await signInWait(database.db, attempt("anyone@dwell.example", client), start)).toBe(FIRST_DELAY_MS);

    const pair = attempt("helper@dwell.example", "192.0.2.9");
    for (let i = 0; i < 5; i++) await recordSignInFailure(database.db, pair, start);
    await clearSignInFailures(database.db, pair);
    // The client's own count stays (4 short of 10): only the pair was cleared.
    expect(await signInWait(database.db, pair, start)).toBe(0);
  });

  it("slows guessing spread over many networks once the account has had 20 failures from anywhere", async () => {
    const email = "owner@dwell.example";
    // Four failures from each of five networks: under every per-client and per-pair limit.
    for (let i = 0; i < FREE_FAILURES_ACCOUNT_WIDE; i++) {
      const spread = attempt(email, `198.51.${100 + (i % 5)}.${i}`);
      expect(await signInWait(database.db, spread, later(i))).toBe(0);
      await recordSignInFailure(database.db, spread, later(i));
    }
    const fromElsewhere = attempt(email, "192.0.2.77");
    expect(await signInWait(database.db, fromElsewhere, later(FREE_FAILURES_ACCOUNT_WIDE))).toBe(FIRST_DELAY_MS - 1);
    // With two-factor sign-in, the owner at a client that never failed is not kept out by strangers' failures...
    expect(await signInWait(database.db, fromElsewhere, later(FREE_FAILURES_ACCOUNT_WIDE), { twoFactor: true })).toBe(0);
    // ...nor, without two-factor, the owner's own device (a cookie set where they signed in before)...
    expect(await signInWait(database.db, fromElsewhere, later(FREE_FAILURES_ACCOUNT_WIDE), { knownDevice: true })).toBe(0);
    // ...but a client that failed too waits, as does one of the guessers.
    expect(await signInWait(database.db, attempt(email, "198.51.100.0"), later(FREE_FAILURES_ACCOUNT_WIDE), { twoFactor: true })).toBeGreaterThan(0);
    expect(await signInWait(database.db, attempt(email, "198.51.100.0"), later(FREE_FAILURES_ACCOUNT_WIDE), { knownDevice: true })).toBeGreaterThan(0);
    // Another account is not slowed; the owner's dashboard has the figure.
    expect(await signInWait(database.db, attempt("other@dwell.example", "192.0.2.77"), later(FREE_FAILURES_ACCOUNT_WIDE))).toBe(0);
    expect(await accountSignInFailures(database.db, email, later(FREE_FAILURES_ACCOUNT_WIDE))).toEqual({
      failures: FREE_FAILURES_ACCOUNT_WIDE,
      lastFailedAt: later(FREE_FAILURES_ACCOUNT_WIDE - 1),
    });
  });

  it("forgets failures a day after the last one", async () => {
    const old = attempt("old@dwell.example", "192.0.2.200");
    for (let i = 0; i < 8; i++) await recordSignInFailure(database.db, old, start);
    await pruneSignInFailures(database.db, later(24 * 60 * 60_000 + 1));
    expect(await signInWait(database.db, old, later(1))).toBe(0);
  });

  it("knows a device by the token its owner's sign-in left there: for this account, from this site, for 90 days", () => {
    const secret = "a-site-secret-of-some-length";
    const at = new Date("2026-12-01T12:00:00Z");
    const token = knownDeviceToken(secret, "owner@dwell.example", at);
    expect(isKnownDevice(secret, "owner@dwell.example", token, new Date(at.getTime() + 60_000))).toBe(true);
    expect(isKnownDevice(secret, "other@dwell.example", token, at)).toBe(false);
    expect(isKnownDevice("another-site-secret", "owner@dwell.example", token, at)).toBe(false);
    expect(isKnownDevice(secret, "owner@dwell.example", token, new Date(at.getTime() + (KNOWN_DEVICE_DAYS + 1) * 24 * 60 * 60_000))).toBe(false);
    const [issued, mac] = token.split(".");
    expect(isKnownDevice(secret, "owner@dwell.example", `${Number(issued) - 1}.${mac}`, at)).toBe(false);
    for (const forged of [undefined, "", "x", "1.", `${issued}.AAAA`]) expect(isKnownDevice(secret, "owner@dwell.example", forged, at)).toBe(false);
  });
});
