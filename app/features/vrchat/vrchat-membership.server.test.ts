import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { vrchatSessions } from "~/db/schema";
import { FAKE_GROUP_ID, FAKE_SESSION_SECRET, FAKE_USERNAME, fakeUserId, fakeVRChatAccount, startFakeVRChat, type FakeVRChat } from "../../../tests/fakes/vrchat";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { createVRChatClient } from "./vrchat-client.server";
import { LookupBudgetError } from "~/utils/lookup-cache.server";
import { sameName } from "~/utils/text";
import { JOIN_REQUEST_GONE, createVRChatMembership, userIdFrom, type MembershipOptions } from "./vrchat-membership.server";
import { databaseSessionStore } from "./vrchat-session.server";

describe("reading who an applicant is", () => {
  it("takes a user id or a VRChat profile link, nothing else", () => {
    const id = fakeUserId(7);
    expect(userIdFrom(` ${id} `)).toBe(id);
    expect(userIdFrom(`https://vrchat.com/home/user/${id}`)).toBe(id);
    expect(userIdFrom(`https://www.vrchat.com/home/user/${id}/`)).toBe(id);
    expect(userIdFrom(`http://vrchat.com/home/user/${id}`)).toBeNull();
    expect(userIdFrom(`https://evil.example/home/user/${id}`)).toBeNull();
    expect(userIdFrom(`https://vrchat.com/home/world/${id}`)).toBeNull();
    expect(userIdFrom("usr_123")).toBeNull();
    expect(userIdFrom("Moth Light")).toBeNull();
  });

  it("matches names whatever their case and spaces", () => {
    expect(sameName("Moth Light", "  moth  light")).toBe(true);
    expect(sameName("MothLight", "moth light")).toBe(true);
    expect(sameName("Moth Light", "Moth Lights")).toBe(false);
  });
});

describe("VRChat membership", () => {
  let database: TestDatabase;
  let fake: FakeVRChat;

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    fake = await startFakeVRChat();
    await database.db.delete(vrchatSessions);
    fake.group.people.push(
      { id: fakeUserId(1), displayName: "Moth Light", status: "requested" },
      { id: fakeUserId(2), displayName: "Moth", status: "none" },
      { id: fakeUserId(3), displayName: "Moth Keeper", status: "member" },
      { id: fakeUserId(4), displayName: "Moth Banned", status: "banned" },
      { id: fakeUserId(5), displayName: "Moth Invited", status: "invited" },
    );
  });
  afterEach(async () => {
    await fake.close();
  });

  const membership = (options: Partial<MembershipOptions> = {}) =>
    createVRChatMembership({
      client: createVRChatClient({ ...fakeVRChatAccount(fake), store: databaseSessionStore(database.db, FAKE_USERNAME, FAKE_SESSION_SECRET), baseDelayMs: 5 }),
      groupId: FAKE_GROUP_ID,
      timeoutMs: 5_000,
      actionSpacingMs: 0,
      ...options,
    });
  const action = (userId: string, act: "accept" | "reject", block = false) => ({
    applicationKind: "group" as const,
    applicationId: crypto.randomUUID(),
    userId,
    action: act,
    block,
    actor: { id: crypto.randomUUID(), name: "Keeper" },
  });

  it("finds the join request with the applicant's name first, then a search's results with their standing", async () => {
    const candidates = await membership().findCandidates("  moth LIGHT ");
    expect(candidates[0]).toMatchObject({ id: fakeUserId(1), displayName: "Moth Light", status: "requested", source: "request" });
    // The search also finds "Moth Light": listed once, as the join request.
    expect(candidates.filter((c) => c.id === fakeUserId(1))).toHaveLength(1);
    const found = await membership().findCandidates("Moth");
    expect(Object.fromEntries(found.map((c) => [c.displayName, `${c.source}:${c.status}`]))).toEqual({
      "Moth Light": "search:requested",
      Moth: "search:none",
      "Moth Keeper": "search:member",
      "Moth Banned": "search:banned",
      "Moth Invited": "search:invited",
    });
  });

  it("reuses its lookups for a few minutes, and stops at the minute's allowance", async () => {
    const vrchat = membership({ lookupCallsPerMinute: 4 });
    await vrchat.findCandidates("Moth Light");
    const calls = { ...fake.calls };
    await vrchat.findCandidates("moth light");
    expect(fake.calls.searchUsers).toBe(calls.searchUsers);
    expect(fake.calls.joinRequests).toBe(calls.joinRequests);
    // Requests, one search, one membership: 3 of 4; a new search and its memberships need more.
    await expect(vrchat.findCandidates("Moth")).rejects.toBeInstanceOf(LookupBudgetError);
  });

  it("describes one account by id, and says when VRChat has none", async () => {
    const vrchat = membership();
    expect(await vrchat.describeUser(fakeUserId(3))).toMatchObject({ displayName: "Moth Keeper", status: "member" });
    expect(await vrchat.describeUser(fakeUserId(99))).toBeNull();
  });

  it("looks up an applicant's own link from the visitors' allowance, once, never the staff's", async () => {
    const vrchat = membership({ lookupCallsPerMinute: 2, visitorCallsPerMinute: 1 });
    const userCalls = () => fake.requests.filter((r) => r.path.startsWith("/users/usr_")).length;
    expect(await vrchat.describeApplicantProfile(fakeUserId(1))).toEqual({ id: fakeUserId(1), displayName: "Moth Light" });
    // The visitors' minute is spent: the next visitor is told so, without a call.
    const before = userCalls();
    await expect(vrchat.describeApplicantProfile(fakeUserId(2))).rejects.toBeInstanceOf(LookupBudgetError);
    expect(userCalls()).toBe(before);
    // The staff's lookups are untouched by it.
    expect(await vrchat.describeUser(fakeUserId(3))).toMatchObject({ displayName: "Moth Keeper", status: "member" });

    // VRChat busy: a visitor's lookup is not repeated (a staff's read would be, with backoff).
    fake.setEndpoint("user", { status: 429, retryAfterSeconds: 0 });
    const fresh = membership();
    const calls = userCalls();
    await expect(fresh.describeApplicantProfile(fakeUserId(4))).rejects.toMatchObject({ status: 429 });
    expect(userCalls()).toBe(calls + 1);
  });

  it("accepts a join request, invites when there is none, and does neither for a member or a banned account", async () => {
    const vrchat = membership();
    expect(await vrchat.channel.deliver(action(fakeUserId(1), "accept"))).toEqual({ kind: "delivered", result: "Join request accepted in VRChat" });
    expect(await vrchat.channel.deliver(action(fakeUserId(2), "accept"))).toEqual({ kind: "delivered", result: "Invite sent" });
    expect(await vrchat.channel.deliver(action(fakeUserId(3), "accept"))).toMatchObject({ result: "Already a member in VRChat: nothing to do" });
    expect(await vrchat.channel.deliver(action(fakeUserId(4), "accept"))).toMatchObject({ result: "Banned from the group in VRChat: nothing was done" });
    expect(await vrchat.channel.deliver(action(fakeUserId(5), "accept"))).toMatchObject({ result: "Invite already sent" });
    expect(fake.actions.map((a) => `${a.kind}:${a.userId}`)).toEqual([`accept:${fakeUserId(1)}`, `invite:${fakeUserId(2)}`]);
  });

  it("a join request accepted after the person withdrew it is not turned into an invite", async () => {
    const vrchat = membership();
    const request = { ...action(fakeUserId(2), "accept"), applicationKind: "join_request" as const };
    expect(await vrchat.channel.deliver(request)).toEqual({ kind: "delivered", result: JOIN_REQUEST_GONE });
    expect(fake.actions).toEqual([]);
    // Still there: accepted.
    expect(await vrchat.channel.deliver({ ...request, userId: fakeUserId(1) })).toEqual({ kind: "delivered", result: "Join request accepted in VRChat" });
  });

  it("never acts twice: a job run again finds the work done", async () => {
    const vrchat = membership();
    const job = action(fakeUserId(1), "accept");
    await vrchat.channel.deliver(job);
    expect(await vrchat.channel.deliver(job)).toMatchObject({ result: "Already a member in VRChat: nothing to do" });
    expect(fake.actions).toHaveLength(1);
  });

  it("rejects a join request, with a block when asked", async () => {
    const vrchat = membership();
    expect(await vrchat.channel.deliver(action(fakeUserId(1), "reject", true))).toMatchObject({ result: "Join request rejected and blocked in VRChat" });
    expect(fake.actions).toEqual([expect.objectContaining({ kind: "reject", block: true })]);
    expect(await vrchat.channel.deliver(action(fakeUserId(2), "reject"))).toMatchObject({ result: "No join request to reject in VRChat" });
  });

  it("reports a refused permission as failed, and a 429 as a wait of the length VRChat asked", async () => {
    const vrchat = membership();
    fake.setEndpoint("respondRequest", { status: 403, message: "You don't have permission to do that." });
    const refused = await vrchat.channel.deliver(action(fakeUserId(1), "accept"));
    expect(refused).toEqual({
      kind: "failed",
      error: "VRChat refused the bot account (You don't have permission to do that.): check its permissions in the group",
    });
    // A change is sent once: a 429 is left to the outbox, to try again when VRChat asked.
    fake.setEndpoint("respondRequest", { status: 429, message: "Too Many Requests", retryAfterSeconds: 7 });
    expect(await vrchat.channel.deliver(action(fakeUserId(1), "accept"))).toMatchObject({ kind: "retry", retryAfterMs: 7000 });
    expect(fake.calls.respondRequest).toBe(2);
    expect(fake.actions).toHaveLength(0);
    // Nothing more is sent for the seven seconds asked (every call waits them out), then it goes.
    const sent = fake.requests.length;
    fake.setEndpoint("respondRequest", "normal");
    await database.db.update(vrchatSessions).set({ quietUntil: new Date(Date.now() + 60_000) });
    expect(await vrchat.channel.deliver(action(fakeUserId(1), "accept"))).toMatchObject({ kind: "retry" });
    expect(fake.requests.length).toBe(sent);
    await database.db.update(vrchatSessions).set({ quietUntil: null });
    expect(await vrchat.channel.deliver(action(fakeUserId(1), "accept"))).toMatchObject({ kind: "delivered" });
  });

  it("refuses a job it cannot read", async () => {
    expect(await membership().channel.deliver({ userId: "nobody" })).toEqual({ kind: "failed", error: "The job could not be read" });
  });

  it("paces its calls about a second apart", async () => {
    const vrchat = membership({ actionSpacingMs: 300 });
    fake.group.people.push({ id: fakeUserId(6), displayName: "Later", status: "requested" });
    const started = Date.now();
    await Promise.all([vrchat.channel.deliver(action(fakeUserId(1), "accept")), vrchat.channel.deliver(action(fakeUserId(6), "accept"))]);
    // Two reads and two accepts: three gaps of at least the spacing.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    const [first, second] = fake.actions;
    // The calls are paced as they leave; measured where they arrive, one gap may be shorter by the
    // first one's longer way over loopback (288 ms was seen on a busy machine). Unpaced, it is ~1 ms.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(250);
  });
});
