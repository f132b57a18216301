import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openPostgres, type DatabaseHandle } from "~/db/db.server";
import { groupDataCache, vrchatSessions } from "~/db/schema";
import {
  FAKE_GROUP_ID,
  FAKE_SESSION_SECRET, FAKE_USERNAME,
  fakeVRChatAccount,
  startFakeVRChat,
  type FakeVRChat,
} from "../../../tests/fakes/vrchat";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { createCachedGroupData, createDemoGroupData, createGroupDataOff, oneSnapshotPerRequest, type GroupDataService } from "./group-data.server";
import { refreshGroupData } from "./vrchat-api.server";
import { createVRChatClient } from "./vrchat-client.server";
import { databaseSessionStore } from "./vrchat-session.server";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 5_000) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error("condition not met in time");
    await sleep(20);
  }
}

describeEachDatabase("group data cache", (kind) => {
  let database: TestDatabase;
  let fake: FakeVRChat;
  // A cache row per test: a refresh a test left running cannot write into the next test's row.
  let cacheKey: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    fake = await startFakeVRChat();
    cacheKey = `${FAKE_GROUP_ID}#${randomUUID()}`;
    await database.db.delete(groupDataCache);
    await database.db.delete(vrchatSessions);
  });
  afterEach(async () => {
    await fake.close();
  });

  /** One "process": its own client and cache service, over the given database handle. */
  function service(db: DatabaseHandle["db"], windowMs: number): GroupDataService {
    const client = createVRChatClient({
      ...fakeVRChatAccount(fake),
      store: databaseSessionStore(db, FAKE_USERNAME, FAKE_SESSION_SECRET),
      baseDelayMs: 5,
      maxAttempts: 1,
    });
    return createCachedGroupData({
      db,
      groupId: cacheKey,
      refreshUpstream: (previous, deadline) => refreshGroupData(client, FAKE_GROUP_ID, { maxMembers: 100, now: new Date(), deadline, previous }),
      windowMs,
      recheckMs: 50,
    });
  }

  it("calls VRChat once per window, however many ask", async () => {
    const groupData = service(database.db, 60_000);
    const states = await Promise.all(Array.from({ length: 25 }, () => groupData.get()));
    expect(states.every((state) => state.status === "ready")).toBe(true);
    await Promise.all(Array.from({ length: 25 }, () => groupData.peek()));
    expect(fake.calls.group).toBe(1);
    expect(fake.calls.login).toBe(1);
    const [state] = states;
    expect(state?.status === "ready" && state.data).toMatchObject({
      source: "vrchat",
      stale: false,
      group: { memberCount: 2451, onlineMemberCount: 88 },
    });
  });

  it("peek never waits: with nothing cached it says loading and starts the refresh", async () => {
    fake.setDelay(200);
    const groupData = service(database.db, 60_000);
    expect(await groupData.peek()).toEqual({ status: "loading" });
    await until(async () => (await groupData.peek()).status === "ready");
    expect(fake.calls.group).toBe(1);
  });

  it("refreshes after the window, and serves the last good value with its age when VRChat fails", async () => {
    const groupData = service(database.db, 300);
    const first = await groupData.get();
    expect(first.status).toBe("ready");
    await sleep(350);
    fake.setMode("down");

    // Served at once while one refresh is attempted (not yet marked stale: it may still succeed).
    const stale = await groupData.peek();
    expect(stale.status === "ready" && stale.data.stale).toBe(false);
    await until(async () => (await groupData.status()).lastError !== null);
    const status = await groupData.status();
    expect(status.lastError).toMatch(/503/);

    const after = await groupData.get();
    expect(after.status === "ready" && after.data).toMatchObject({ stale: true, group: { memberCount: 2451 } });
    expect(after.status === "ready" && after.data.fetchedAt).toBe(first.status === "ready" && first.data.fetchedAt);

    // The failure holds the lease for a window: no attempt per visit meanwhile.
    const attempts = fake.calls.group;
    await Promise.all(Array.from({ length: 10 }, () => groupData.peek()));
    expect(fake.calls.group).toBe(attempts);

    // VRChat comes back: the next window's refresh succeeds.
    fake.setMode("normal");
    fake.group.memberCount = 2500;
    await sleep(350);
    await groupData.peek();
    await until(async () => {
      const state = await groupData.peek();
      return state.status === "ready" && state.data.group.memberCount === 2500;
    });
    expect((await groupData.status()).lastError).toBeNull();
  });

  it("serves the parts it has when one fails, and keeps members-only items out of what it serves", async () => {
    const groupData = service(database.db, 300);
    const first = await groupData.get();
    expect(first.status).toBe("ready");
    await sleep(350);
    fake.setEndpoint("posts", { status: 500 });
    fake.group.memberCount = 2600;
    await groupData.peek();
    await until(async () => {
      const state = await groupData.peek();
      return state.status === "ready" && state.data.group.memberCount === 2600;
    });
    const state = await groupData.peek();
    expect(state.status === "ready" && state.data.parts?.posts).toMatchObject({ failing: true });
    expect(state.status === "ready" && state.data.posts.map((post) => post.title)).toEqual(["Fresh post", "Old post"]);
    const status = await groupData.status();
    expect(status.lastError).toBeNull();
    expect(status.parts?.posts).toMatchObject({ lastErrorKind: "unreachable", lastError: expect.stringMatching(/500/) });
    // What visitors are served holds no members-only item; the Sanctum's side does.
    expect(JSON.stringify(state)).not.toMatch(/Members' notice|Hosts' notice|Stowaway|Lookout/);
    expect((await groupData.membersOnly())?.posts.map((post) => post.title)).toEqual(["Members' notice", "Hosts' notice"]);
  });

  it("reports the error when the very first refresh fails", async () => {
    fake.setMode("down");
    const state = await service(database.db, 60_000).get();
    expect(state).toEqual({ status: "error", message: expect.stringMatching(/503/) });
  });

  it("lets only one of two processes refresh", async () => {
    // On PostgreSQL each "process" has its own connection pool; PGlite serves one process only.
    const other = database.url ? openPostgres(database.url, 5) : null;
    try {
      fake.setDelay(150);
      const a = service(database.db, 400);
      const b = service(other?.db ?? database.db, 400);
      const ask = () => Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).get()));
      const first = await ask();
      expect(first.filter((state) => state.status !== "ready")).toEqual([]);
      expect(fake.calls.group).toBe(1);

      await sleep(450);
      await ask();
      await until(async () => (await a.status()).refreshes === 2);
      await sleep(200);
      expect(fake.calls.group).toBe(2);
      expect(fake.calls.login).toBe(1);
    } finally {
      await other?.close();
    }
  });
});

describe("without VRChat", () => {
  it("serves the demo group, marked as such", async () => {
    const state = await createDemoGroupData().get();
    expect(state.status).toBe("ready");
    if (state.status !== "ready") return;
    expect(state.data.source).toBe("demo");
    expect(state.data.instances.length).toBeGreaterThan(1);
    expect(state.data.members.some((m) => m.currentAvatarThumbnailImageUrl === null && m.iconUrl === null)).toBe(true);
    expect(state.data.members.some((m) => m.currentAvatarThumbnailImageUrl)).toBe(true);
  });

  it("gives one request one snapshot, however many loaders peek", async () => {
    let peeks = 0;
    const demo = createDemoGroupData();
    const counting: GroupDataService = {
      ...demo,
      peek: async () => {
        peeks++;
        return { status: "error", message: `snapshot ${peeks}` };
      },
    };
    const request = oneSnapshotPerRequest(counting);
    expect(await request.peek()).toBe(await request.peek());
    expect(peeks).toBe(1);
    // The next request sees the next snapshot.
    await oneSnapshotPerRequest(counting).peek();
    expect(peeks).toBe(2);
  });

  it("serves nothing when the demo is off", async () => {
    expect(await createGroupDataOff().get()).toEqual({ status: "off" });
  });
});
