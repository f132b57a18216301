import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { z } from "zod";
import { vrchatSessions } from "~/db/schema";
import {
  FAKE_BOT_USER_ID,
  FAKE_GROUP_ID,
  FAKE_SESSION_SECRET, FAKE_USERNAME,
  fakeVRChatAccount,
  startFakeVRChat,
  type FakeVRChat,
} from "../../../tests/fakes/vrchat";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { createVRChatClient, USER_AGENT_PRODUCT, type VRChatClientOptions } from "./vrchat-client.server";
import { VRChatError } from "./vrchat-error";
import { databaseSessionStore } from "./vrchat-session.server";

const GroupSchema = z.object({ memberCount: z.number() });
const groupPath = `/groups/${FAKE_GROUP_ID}`;

describeEachDatabase("VRChat client", (kind) => {
  let database: TestDatabase;
  let fake: FakeVRChat;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    fake = await startFakeVRChat();
    await database.db.delete(vrchatSessions);
  });
  afterEach(async () => {
    await fake.close();
  });

  const client = (overrides: Partial<VRChatClientOptions> = {}) =>
    createVRChatClient({
      ...fakeVRChatAccount(fake),
      store: databaseSessionStore(database.db, FAKE_USERNAME, FAKE_SESSION_SECRET),
      baseDelayMs: 5,
      ...overrides,
    });

  it("logs in once with the authenticator code, and says who it is", async () => {
    const vrchat = client();
    const [a, b, c] = await Promise.all([
      vrchat.get(groupPath, GroupSchema),
      vrchat.get(groupPath, GroupSchema),
      vrchat.get(groupPath, GroupSchema),
    ]);
    expect([a.memberCount, b.memberCount, c.memberCount]).toEqual([2451, 2451, 2451]);
    expect(fake.calls.login).toBe(1);
    expect(fake.calls.totp).toBe(1);
    expect(fake.totpCodes[0]).toMatch(/^\d{6}$/);
    expect([...fake.userAgents]).toEqual([`${USER_AGENT_PRODUCT} admins@dwell.example`]);
  });

  it("logs in once when the stored session is read slowly by the later calls", async () => {
    // The session's first read comes back after the login for some callers (a busy database): they
    // must join the login already made, not find "no session" and log in again.
    const store = databaseSessionStore(database.db, FAKE_USERNAME, FAKE_SESSION_SECRET);
    let reads = 0;
    const slowStore = {
      ...store,
      load: async () => {
        const read = ++reads;
        const stored = await store.load();
        if (read === 2 || read === 3) await new Promise((resolve) => setTimeout(resolve, 400));
        return stored;
      },
    };
    const vrchat = client({ store: slowStore });
    await Promise.all([vrchat.get(groupPath, GroupSchema), vrchat.get(groupPath, GroupSchema), vrchat.get(groupPath, GroupSchema)]);
    expect(fake.calls.login).toBe(1);
    expect(fake.calls.group).toBe(3);
  });

  it("stores the cookies in the database, so another process (or a restart) reuses them", async () => {
    await client().get(groupPath, GroupSchema);
    const [row] = await database.db.select().from(vrchatSessions);
    // Sealed: the database holds no usable cookie.
    expect(row?.authCookie).toMatch(/^v1:/);
    expect(row?.authCookie).not.toContain("authcookie_");
    expect(row?.twoFactorCookie).toMatch(/^v1:/);

    const restarted = client();
    await restarted.get(groupPath, GroupSchema);
    expect(fake.calls.login).toBe(1);
    expect(fake.calls.group).toBe(2);
  });

  it("logs in again when a call says the session is gone, then retries the call", async () => {
    const vrchat = client();
    await vrchat.get(groupPath, GroupSchema);
    fake.expireSessions();
    await expect(vrchat.get(groupPath, GroupSchema)).resolves.toEqual({ memberCount: 2451 });
    expect(fake.calls.login).toBe(2);
    // The two-factor cookie was still good: VRChat did not ask for a second code.
    expect(fake.calls.totp).toBe(1);
  });

  it("never retries a refused login, and pauses further logins", async () => {
    const vrchat = client({ password: "wrong" });
    const first = await vrchat.get(groupPath, GroupSchema).catch((error: unknown) => error);
    expect(first).toBeInstanceOf(VRChatError);
    expect((first as VRChatError).message).toMatch(/refused the bot account's login/);
    const second = await client({ password: "wrong" }).get(groupPath, GroupSchema).catch((error: unknown) => error);
    expect((second as VRChatError).message).toMatch(/login is paused/);
    expect(fake.calls.login).toBe(1);
    const [row] = await database.db.select().from(vrchatSessions);
    expect(row?.loginFailures).toBe(1);
    expect(row!.loginPausedUntil!.getTime()).toBeGreaterThan(Date.now() + 14 * 60 * 1000);
  });

  it("refuses to answer a TOTP challenge without the secret", async () => {
    const error = await client({ totpSecret: null }).get(groupPath, GroupSchema).catch((e: unknown) => e);
    expect((error as VRChatError).message).toMatch(/set VRCHAT_TOTP_SECRET/);
    expect(fake.calls.totp).toBeUndefined();
  });

  it("retries 5xx and 429 with backoff, honouring Retry-After", async () => {
    const vrchat = client();
    await vrchat.get(groupPath, GroupSchema);
    fake.failNext(2, 503);
    await expect(vrchat.get(groupPath, GroupSchema)).resolves.toEqual({ memberCount: 2451 });
    expect(fake.calls.group).toBe(4);

    fake.failNext(1, 429, 1);
    const started = Date.now();
    await expect(vrchat.get(groupPath, GroupSchema)).resolves.toEqual({ memberCount: 2451 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it("gives up after three attempts, and at once when VRChat asks for a longer wait than it allows", async () => {
    const vrchat = client({ maxDelayMs: 2_000 });
    await vrchat.get(groupPath, GroupSchema);
    const before = fake.calls.group ?? 0;
    fake.setMode("down");
    await expect(vrchat.get(groupPath, GroupSchema)).rejects.toMatchObject({ status: 503 });
    expect(fake.calls.group! - before).toBe(3);

    fake.setMode("rate-limited", { retryAfterSeconds: 600 });
    const error = (await vrchat.get(groupPath, GroupSchema).catch((e: unknown) => e)) as VRChatError;
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBe(600_000);
    expect(fake.calls.group! - before).toBe(4);
  });

  it("sends nothing, read or write, in this process or another, until a 429's Retry-After has passed", async () => {
    const vrchat = client({ maxDelayMs: 2_000 });
    await vrchat.get(groupPath, GroupSchema);
    fake.setEndpoint("user", { status: 429, message: "Too Many Requests", retryAfterSeconds: 120 });
    const first = (await vrchat.get("/users/usr_00000001-aaaa-4bbb-8ccc-000000000001", z.unknown()).catch((e: unknown) => e)) as VRChatError;
    expect(first.kind).toBe("rate-limited");
    expect(first.retryAfterMs).toBe(120_000);
    fake.setEndpoint("user", "normal");
    const sent = fake.requests.length;
    // Another path, a write, and another process's client (the same store): none is sent.
    const read = (await vrchat.get(groupPath, GroupSchema).catch((e: unknown) => e)) as VRChatError;
    expect(read.kind).toBe("rate-limited");
    expect(read.retryAfterMs).toBeGreaterThan(110_000);
    await expect(vrchat.send("PUT", `${groupPath}/requests/usr_x`, { action: "accept" })).rejects.toMatchObject({ kind: "rate-limited" });
    await expect(client().get(groupPath, GroupSchema)).rejects.toMatchObject({ kind: "rate-limited" });
    expect(fake.requests.length).toBe(sent);
    // Once the time has passed (moved back here), calls go out again.
    await database.db.update(vrchatSessions).set({ quietUntil: new Date(Date.now() - 1_000) });
    await expect(client().get(groupPath, GroupSchema)).resolves.toEqual({ memberCount: 2451 });
  });

  it("waits out a short quiet another call met, then sends", async () => {
    const vrchat = client();
    await vrchat.get(groupPath, GroupSchema);
    fake.setEndpoint("user", { status: 429, message: "Too Many Requests", retryAfterSeconds: 1 });
    await vrchat.get("/users/usr_00000001-aaaa-4bbb-8ccc-000000000001", z.unknown(), undefined, { once: true }).catch(() => null);
    const started = Date.now();
    await expect(vrchat.get(groupPath, GroupSchema)).resolves.toEqual({ memberCount: 2451 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it("checks answers against the expected shape", async () => {
    await expect(client().get(groupPath, z.object({ memberCount: z.string() }))).rejects.toThrow(/unexpected shape \(memberCount/);
  });

  it("answers a 403 with a forbidden error, without logging in again", async () => {
    const vrchat = client();
    await vrchat.get(groupPath, GroupSchema);
    fake.setEndpoint("members", { status: 403, message: "You're not a member." });
    const error = (await vrchat.get(`${groupPath}/members`, z.array(z.unknown())).catch((e: unknown) => e)) as VRChatError;
    expect(error).toBeInstanceOf(VRChatError);
    expect(error.kind).toBe("forbidden");
    expect(fake.calls.login).toBe(1);
  });

  it("learns the bot's own user id once: from the login, or after a second factor from /auth/user", async () => {
    const vrchat = client();
    expect(await vrchat.botUserId()).toBe(FAKE_BOT_USER_ID);
    expect(await vrchat.botUserId()).toBe(FAKE_BOT_USER_ID);
    // With a second factor the login answer carries no user: one call asks for it, then it is stored.
    expect(fake.calls.currentUser).toBe(1);
    const [row] = await database.db.select().from(vrchatSessions);
    expect(row?.userId).toBe(FAKE_BOT_USER_ID);
    expect(await client().botUserId()).toBe(FAKE_BOT_USER_ID);
    expect(fake.calls.currentUser).toBe(1);
  });

  it("does not wait for a retry that would end after its deadline", async () => {
    const vrchat = client({ baseDelayMs: 60_000, maxDelayMs: 120_000 });
    await vrchat.get(groupPath, GroupSchema);
    const before = fake.calls.group!;
    fake.failNext(5, 503);
    const error = (await vrchat.get(groupPath, GroupSchema, undefined, { deadline: Date.now() + 10_000 }).catch((e: unknown) => e)) as VRChatError;
    expect(error.kind).toBe("unreachable");
    // One attempt: the next would have come at least 30 s later, past the deadline.
    expect(fake.calls.group! - before).toBe(1);
  });
});
