import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { vrchatSessions } from "~/db/schema";
import {
  FAKE_GROUP_ID,
  FAKE_SESSION_SECRET, FAKE_USERNAME,
  fakeVRChatAccount,
  startFakeVRChat,
  weeklyCalendar,
  type FakeInstance,
  type FakeVRChat,
} from "../../../tests/fakes/vrchat";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { calendarMonths, refreshGroupData, type GroupSnapshot, type RefreshOutcome } from "./vrchat-api.server";
import { createVRChatClient, type VRChatClient } from "./vrchat-client.server";
import { databaseSessionStore } from "./vrchat-session.server";

const NOW = new Date();
/** The calls of a refresh that are about the group (a first login and its user lookup aside). */
const DATA_ENDPOINTS = ["group", "userGroupInstances", "groupInstances", "instance", "posts", "calendar", "members"];

function instances(count: number): FakeInstance[] {
  return Array.from({ length: count }, (_, i) => ({
    location: `wrld_${i}:${1000 + i}~group(${FAKE_GROUP_ID})`,
    memberCount: 1,
    userCount: 2 + i,
    capacity: 32,
    region: "eu",
    type: "group",
    world: { name: `World ${i}`, authorName: "Someone", capacity: 32, recommendedCapacity: 16 },
  }));
}

describeEachDatabase("reading the group from VRChat", (kind) => {
  let database: TestDatabase;
  let fake: FakeVRChat;
  let client: VRChatClient;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    fake = await startFakeVRChat();
    await database.db.delete(vrchatSessions);
    client = createVRChatClient({ ...fakeVRChatAccount(fake), store: databaseSessionStore(database.db, FAKE_USERNAME, FAKE_SESSION_SECRET), baseDelayMs: 5, maxAttempts: 1, timeoutMs: 2_000 });
  });
  afterEach(() => fake.close());

  const refresh = (previous: Partial<GroupSnapshot> | null = null, options: { maxMembers?: number; now?: Date } = {}): Promise<RefreshOutcome> =>
    refreshGroupData(client, FAKE_GROUP_ID, { maxMembers: options.maxMembers ?? 100, now: options.now ?? NOW, deadline: Date.now() + 20_000, previous });

  /** Calls to the group's endpoints since `before`. */
  function callsSince(before: Record<string, number>) {
    return DATA_ENDPOINTS.reduce((sum, endpoint) => sum + (fake.calls[endpoint] ?? 0) - (before[endpoint] ?? 0), 0);
  }

  it("reads every part, keeping what only members may see away from what visitors are served", async () => {
    const { snapshot, failed } = await refresh();
    expect(failed).toEqual([]);
    const { data, membersOnly } = snapshot;
    expect(data.group).toMatchObject({ memberCount: 2451, onlineMemberCount: 88 });
    expect(data.instances).toEqual([
      { id: expect.stringMatching(/^[\w-]{12}$/), userCount: 9, name: "111", region: "use", type: "group", capacity: 40, world: { name: "Hearth Hall", authorName: "Ember", capacity: 40, recommendedCapacity: 20 } },
      { id: expect.stringMatching(/^[\w-]{12}$/), userCount: 4, name: "222", region: "jp", type: "public", capacity: 16, world: { name: "Tide Pools", authorName: "Wave", capacity: 16, recommendedCapacity: 8 } },
    ]);
    expect(data.posts.map((post) => post.title)).toEqual(["Fresh post", "Old post"]);
    expect(membersOnly.posts.map((post) => post.title)).toEqual(["Members' notice", "Hosts' notice"]);
    // The first refresh reads this month: the public events in it, the members-only one apart.
    const thisMonth = fake.group.calendar.filter((event) => event.startsAt!.slice(0, 7) === NOW.toISOString().slice(0, 7));
    expect(data.events.map((event) => event.id).sort()).toEqual(thisMonth.filter((e) => e.accessType === "public").map((e) => e.id).sort());
    expect(JSON.stringify(data)).not.toContain("Members' circle");
    expect(data.members.map((member) => member.displayName)).toEqual(["Captain", "Deckhand"]);
    expect(JSON.stringify(snapshot)).not.toMatch(/Stowaway|Lookout/);
  });

  it("makes the same number of calls with 1 or 30 live instances: five with 100 members", async () => {
    await client.botUserId();
    const counts: number[] = [];
    for (const open of [1, 6, 30]) {
      fake.group.instances = instances(open);
      const before = { ...fake.calls };
      const { snapshot } = await refresh();
      expect(snapshot.data.instances).toHaveLength(open);
      counts.push(callsSince(before));
    }
    expect(counts).toEqual([5, 5, 5]);
    // Each further 100 members is one more page.
    fake.group.members = Array.from({ length: 250 }, (_, i) => ({ userId: `usr_m${i}`, visibility: "visible" as const, user: { displayName: `Member ${i}` } }));
    const before = { ...fake.calls };
    const { snapshot } = await refresh(null, { maxMembers: 230 });
    expect(snapshot.data.members).toHaveLength(230);
    expect(snapshot.data.members.at(-1)?.displayName).toBe("Member 229");
    expect(callsSince(before)).toBe(7);
  });

  it("reads the calendar's months in turn, each by its date, and leaves recurring series' parents out", async () => {
    const now = new Date("2026-11-23T12:00:00Z");
    fake.group.calendar = [
      ...weeklyCalendar(new Date("2026-10-01T19:00:00Z"), 16),
      { id: "cal_99999999-9999-4999-8999-999999999999", title: "Weekly (series)", startsAt: "2026-11-02T19:00:00Z", endsAt: "2026-11-02T20:00:00Z", accessType: "public", occurrenceKind: "series" },
    ];
    const months = calendarMonths(now);
    expect(months).toEqual(["2026-11", "2026-12", "2026-10", "2027-01"]);
    let previous: GroupSnapshot | null = null;
    const asked: string[] = [];
    for (let i = 0; i < months.length; i++) {
      const before = fake.requests.length;
      previous = (await refresh(previous, { now })).snapshot;
      asked.push(...fake.requests.slice(before).filter((r) => r.path.startsWith("/calendar/")).map((r) => r.query.date!.slice(0, 7)));
    }
    expect(asked).toEqual(months);
    expect(previous!.data.events).toHaveLength(16);
    expect(previous!.data.events.map((event) => event.title)).not.toContain("Weekly (series)");
    // The next round starts again with the month read longest ago.
    const before = fake.requests.length;
    await refresh(previous, { now });
    expect(fake.requests.slice(before).find((r) => r.path.startsWith("/calendar/"))?.query.date?.slice(0, 7)).toBe("2026-11");
  });

  it("keeps each part apart: one failing keeps its last value and says why, the others stay fresh", async () => {
    const first = await refresh();
    fake.group.memberCount = 2500;
    fake.group.posts[0]!.title = "Changed post";
    fake.group.instances[0]!.userCount = 30;
    fake.setEndpoint("userGroupInstances", "hang");
    fake.setEndpoint("calendar", { status: 500, message: "Internal Server Error" });
    fake.setEndpoint("members", { status: 403, message: "You're not a member." });
    const later = new Date(NOW.getTime() + 60_000);
    const { snapshot, failed } = await refresh(first.snapshot, { now: later });
    expect(failed).toEqual(["instances", "events", "members"]);
    expect(snapshot.data.group.memberCount).toBe(2500);
    expect(snapshot.data.posts[0]!.title).toBe("Changed post");
    expect(snapshot.data.instances).toEqual(first.snapshot.data.instances);
    expect(snapshot.data.events).toEqual(first.snapshot.data.events);
    expect(snapshot.data.members).toEqual(first.snapshot.data.members);
    expect(snapshot.data.parts).toMatchObject({
      group: { fetchedAt: later.toISOString(), failing: false },
      posts: { fetchedAt: later.toISOString(), failing: false },
      instances: { fetchedAt: NOW.toISOString(), failing: true },
      members: { fetchedAt: NOW.toISOString(), failing: true },
    });
    const { parts } = snapshot.state;
    expect(parts.instances).toMatchObject({ lastErrorKind: "unreachable", lastError: expect.stringMatching(/timed out/) });
    expect(parts.events).toMatchObject({ lastErrorKind: "unreachable", lastError: expect.stringMatching(/500/) });
    expect(parts.members).toMatchObject({ lastErrorKind: "forbidden", lastError: expect.stringMatching(/group-members-viewall/) });
    // A 403 is a permission, not a lost session: no new login.
    expect(fake.calls.login).toBe(1);
  });

  it("asks no more once two parts in a row get no answer: VRChat is down", async () => {
    const first = await refresh();
    await fake.setMode("down");
    const before = { ...fake.calls };
    const { failed, snapshot } = await refresh(first.snapshot);
    expect(failed).toEqual(["group", "instances", "posts", "events", "members"]);
    expect((fake.calls.posts ?? 0) - (before.posts ?? 0)).toBe(0);
    expect(snapshot.state.parts.members.lastError).toMatch(/^not asked/);
    expect(snapshot.data).toEqual({ ...first.snapshot.data, parts: snapshot.data.parts });
  });

  it("takes answers VRChat may really give: odd counts, null entries, missing fields", async () => {
    fake.group.memberCount = -3;
    fake.group.members = [
      null,
      { userId: "usr_thumb", visibility: "visible", user: { thumbnailUrl: "https://assets.vrchat.com/thumb.png" } },
      { userId: "usr_nobody", visibility: "visible", user: null },
      // Not a member id VRChat would send: left out, the rest kept.
      { userId: 42 as unknown as string, visibility: "visible", user: { displayName: "Broken" } },
    ];
    fake.group.posts = [
      { title: "No id", text: "kept", createdAt: new Date(NOW.getTime() - 1000).toISOString(), visibility: "public" },
      { id: "not_9", title: "No date", text: "left out", visibility: "public" },
    ];
    fake.group.instances = [{ ...instances(1)[0]!, region: "unknown", world: {} }];
    const { snapshot, failed } = await refresh();
    expect(failed).toEqual([]);
    expect(snapshot.data.group.memberCount).toBe(0);
    expect(snapshot.data.members.map((member) => [member.id, member.currentAvatarThumbnailImageUrl])).toEqual([
      ["usr_thumb", "https://assets.vrchat.com/thumb.png"],
      ["usr_nobody", null],
    ]);
    expect(snapshot.state.parts.members.dropped).toBe(1);
    expect(snapshot.data.posts.map((post) => post.title)).toEqual(["No id"]);
    expect(snapshot.state.parts.posts.dropped).toBe(1);
    expect(snapshot.data.instances[0]).toMatchObject({ region: null, world: { name: null, capacity: null } });
  });

  it("tells a refused shape from a silent VRChat", async () => {
    fake.setEndpoint("group", "wrong-shape");
    fake.setEndpoint("userGroupInstances", "wrong-shape");
    fake.setEndpoint("posts", { status: 503, message: "Service Unavailable" });
    const { snapshot, failed } = await refresh();
    expect(failed).toEqual(["group", "instances", "posts"]);
    expect(snapshot.state.parts.group.lastErrorKind).toBe("refused-shape");
    expect(snapshot.state.parts.instances.lastErrorKind).toBe("refused-shape");
    expect(snapshot.state.parts.posts.lastErrorKind).toBe("unreachable");
    expect(snapshot.data.members).toHaveLength(2);
  });

  it("stops at a 429 and asks the cache to wait as long as VRChat said", async () => {
    const first = await refresh();
    fake.setEndpoint("posts", { status: 429, message: "Too Many Requests" });
    const before = { ...fake.calls };
    const { failed, backOffMs, snapshot } = await refresh(first.snapshot);
    expect(failed).toEqual(["posts", "events", "members"]);
    expect(backOffMs).toBeGreaterThanOrEqual(60_000);
    expect((fake.calls.calendar ?? 0) - (before.calendar ?? 0)).toBe(0);
    expect((fake.calls.members ?? 0) - (before.members ?? 0)).toBe(0);
    expect(snapshot.state.parts.members.lastError).toMatch(/^not asked/);
  });

  it("falls back to the group's instance list when the bot's own is refused, reading one instance per refresh", async () => {
    fake.group.instances = instances(3);
    fake.setEndpoint("userGroupInstances", { status: 403, message: "User ID must be your own." });
    let previous: GroupSnapshot | null = null;
    const detailCalls: number[] = [];
    for (let i = 0; i < 4; i++) {
      const before = fake.calls.instance ?? 0;
      const outcome = await refresh(previous, { now: new Date(NOW.getTime() + i * 60_000) });
      expect(outcome.failed).toEqual([]);
      previous = outcome.snapshot;
      detailCalls.push((fake.calls.instance ?? 0) - before);
    }
    // Asked once, then left alone for an hour; each instance read once, then kept ten minutes.
    expect(fake.calls.userGroupInstances).toBe(1);
    expect(detailCalls).toEqual([1, 1, 1, 0]);
    expect(previous!.data.instances.map((instance) => instance.userCount)).toEqual([2, 3, 4]);
    // An instance that has just closed answers 200 with null: it is left out, not an error.
    fake.group.instances[0]!.closed = true;
    const later = await refresh(previous, { now: new Date(NOW.getTime() + 11 * 60_000) });
    expect(later.failed).toEqual([]);
    expect(later.snapshot.data.instances).toHaveLength(2);
  });
});
