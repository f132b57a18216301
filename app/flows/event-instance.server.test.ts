/**
 * An event's instance opening itself, against the VRChat fake over loopback and a real database: at
 * its time and not before, once however many look at once, found again rather than made twice after
 * a lost answer, tried again while VRChat is down and missed once the event ends, a refusal waiting
 * for 'Retry', the join link announced, and 'Close'.
 */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { eventInstances, events, outbox, vrchatSessions } from "~/db/schema";
import { createVRChatClient } from "~/features/vrchat/vrchat-client.server";
import { createInstanceOpener } from "~/features/vrchat/vrchat-instances.server";
import { databaseSessionStore } from "~/features/vrchat/vrchat-session.server";
import { FAKE_BOT_USER_ID, FAKE_GROUP_ID, FAKE_SESSION_SECRET, FAKE_USERNAME, FAKE_WORLD_ID, fakeUserId, fakeVRChatAccount, startFakeVRChat, type FakeVRChat } from "../../tests/fakes/vrchat";
import { requestProblem } from "../../tests/fakes/vrchat-contract";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../tests/setup/test-database";
import { closeEventInstance, INSTANCE_TEXTS, openDueInstances, openEventInstance, type InstanceServices } from "./event-instance.server";

const MINUTE = 60 * 1000;

describeEachDatabase("an event's instance opens itself", (kind) => {
  let database: TestDatabase;
  let fake: FakeVRChat;
  let services: InstanceServices;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(events);
    await database.db.delete(outbox);
    await database.db.delete(vrchatSessions);
    fake = await startFakeVRChat();
    fake.group.instances = [];
    const client = createVRChatClient({ ...fakeVRChatAccount(fake), store: databaseSessionStore(database.db, FAKE_USERNAME, FAKE_SESSION_SECRET), baseDelayMs: 5, maxAttempts: 1 });
    services = {
      db: database.db,
      instances: createInstanceOpener({ client, groupId: FAKE_GROUP_ID }),
      announce: true,
      siteOrigin: "https://dwell.example",
      wake: () => {},
      // No roles: an event with applications cannot open (flows/event-role.server.test.ts has them).
      roles: { db: database.db, roles: null, membership: null, invites: false, wake: () => {} },
      directMessages: false,
    };
  });
  afterEach(() => fake.close());

  /** An open event in the fake's world, starting `startsIn` from now and lasting two hours. */
  async function makeEvent(startsIn: number, values: Partial<typeof events.$inferInsert> = {}) {
    const start = new Date(Math.ceil((Date.now() + startsIn) / MINUTE) * MINUTE).toISOString();
    const [row] = await database.db
      .insert(events)
      .values({ title: "Lantern *Night*", eventDate: start.slice(0, 10), eventTime: start.slice(11, 16), worldName: "Garden", worldId: FAKE_WORLD_ID, instanceLeadMinutes: 15, instanceRegion: "eu", instanceAccess: "public", ...values })
      .returning();
    return row!;
  }
  const creates = () => fake.instanceWrites.filter((write) => write.kind === "create");
  const instanceOf = async (eventId: string) => (await database.db.select().from(eventInstances).where(eq(eventInstances.eventId, eventId)))[0];

  it("opens the instance at its time, once, as the event asks, and announces its join link", async () => {
    const later = await makeEvent(2 * 60 * MINUTE);
    const event = await makeEvent(10 * MINUTE);
    // Two looks at once (two processes): one instance.
    const opened = await Promise.all([openDueInstances(services, new Date()), openDueInstances(services, new Date())]);
    expect(opened[0]! + opened[1]!).toBe(1);
    expect(creates()).toHaveLength(1);
    const body = creates()[0]!.body!;
    const end = new Date(Date.parse(`${event.eventDate}T${event.eventTime}Z`) + 2 * 60 * MINUTE).toISOString();
    expect(body).toEqual({ worldId: FAKE_WORLD_ID, type: "group", ownerId: FAKE_GROUP_ID, groupAccessType: "public", region: "eu", queueEnabled: true, closedAt: end });
    const row = await instanceOf(event.id);
    expect(row).toMatchObject({ state: "open", worldId: FAKE_WORLD_ID, location: creates()[0]!.location });
    expect(await instanceOf(later.id)).toBeUndefined();
    // A later look finds it open: nothing more is made.
    expect(await openDueInstances(services, new Date())).toBe(0);
    expect(creates()).toHaveLength(1);
    const [announcement] = await database.db.select({ payload: outbox.payload }).from(outbox).where(eq(outbox.target, "discord_announcement"));
    const content = (announcement!.payload as { content: string }).content;
    expect(content).toContain("**Lantern \\*Night\\*** is open in VRChat (everyone may join)");
    expect(content).toContain(`https://vrchat.com/home/launch?worldId=${FAKE_WORLD_ID}&instanceId=${encodeURIComponent(row!.instanceId!)}`);
    expect(content).toContain(`https://dwell.example/events/${event.id}`);
  });

  /** What is open in the event's world before Dwell looks: a member's 'Group Public' instance, and the group's standing hangout (the bot's own). */
  function othersInstances() {
    const world = { name: "Garden" };
    fake.group.instances.push(
      { location: `${FAKE_WORLD_ID}:55555~group(${FAKE_GROUP_ID})~groupAccessType(public)~region(eu)~nonce(member-secret)`, memberCount: 3, userCount: 3, type: "group", groupAccessType: "public", creatorId: fakeUserId(77), world },
      { location: `${FAKE_WORLD_ID}:66666~group(${FAKE_GROUP_ID})~groupAccessType(public)~region(eu)`, memberCount: 5, userCount: 5, type: "group", groupAccessType: "public", creatorId: FAKE_BOT_USER_ID, world },
    );
    return fake.group.instances.map((instance) => instance.location);
  }

  it("never takes an instance it did not make: a member's, or the group's hangout, in the same world", async () => {
    const theirs = othersInstances();
    const event = await makeEvent(5 * MINUTE);
    expect(await openEventInstance(services, event.id, new Date())).toMatchObject({ kind: "opened", adopted: false });
    expect(creates()).toHaveLength(1);
    const row = await instanceOf(event.id);
    expect(row?.location).toBe(creates()[0]!.location);
    expect(theirs).not.toContain(row?.location);
    // Nothing was asked of the group's list: no try of this event's had lost its answer.
    expect(fake.requests.filter((request) => request.path === `/groups/${FAKE_GROUP_ID}/instances`)).toHaveLength(0);
  });

  it("finds the instance a lost answer made instead of making another, and nothing else", async () => {
    const theirs = othersInstances();
    const event = await makeEvent(5 * MINUTE);
    // VRChat made it, but its answer could not be read.
    fake.setEndpoint("createInstance", "acts-unreadably");
    expect(await openEventInstance(services, event.id, new Date())).toMatchObject({ kind: "failed", retrying: true });
    expect(creates()).toHaveLength(1);
    expect((await instanceOf(event.id))?.requested).toMatchObject({ access: "public", roleIds: [] });
    fake.setEndpoint("createInstance", "normal");
    expect(await openDueInstances(services, new Date(Date.now() + 61_000))).toBe(1);
    expect(creates()).toHaveLength(1);
    const row = await instanceOf(event.id);
    expect(row).toMatchObject({ state: "open", location: creates()[0]!.location, requested: null });
    expect(theirs).not.toContain(row?.location);
    // Each candidate read back once, by its own path.
    const readBack = fake.requests.filter((request) => request.method === "GET" && request.path.startsWith("/instances/"));
    expect(readBack.length).toBeGreaterThanOrEqual(1);
    expect(readBack.every((request) => !request.rawPath!.includes("%3A"))).toBe(true);
  });

  it("tries again while VRChat is down, and says it missed once the event has ended", async () => {
    const event = await makeEvent(5 * MINUTE);
    fake.setEndpoint("createInstance", { status: 503 });
    expect(await openEventInstance(services, event.id, new Date())).toMatchObject({ kind: "failed", retrying: true });
    const failed = await instanceOf(event.id);
    expect(failed).toMatchObject({ state: "failed" });
    expect(failed!.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 50_000);
    // Not before its next try.
    expect(await openDueInstances(services, new Date())).toBe(0);
    // Back up by the next try: it opens.
    fake.setEndpoint("createInstance", "normal");
    expect(await openDueInstances(services, new Date(Date.now() + 61_000))).toBe(1);

    const other = await makeEvent(5 * MINUTE, { title: "Second" });
    fake.setEndpoint("createInstance", { status: 503 });
    await openEventInstance(services, other.id, new Date());
    expect(await openDueInstances(services, new Date(Date.now() + 3 * 60 * MINUTE))).toBe(0);
    expect((await instanceOf(other.id))?.state).toBe("missed");
  });

  it("waits for 'Retry' after a refusal, and opens on it", async () => {
    const event = await makeEvent(5 * MINUTE);
    fake.setEndpoint("createInstance", { status: 403, message: "You do not have permission to create instances for this group" });
    const refused = await openEventInstance(services, event.id, new Date());
    expect(refused).toMatchObject({ kind: "failed", retrying: false });
    expect((await instanceOf(event.id))).toMatchObject({ state: "refused" });
    expect((await instanceOf(event.id))?.lastError).toContain("permission to open group instances");
    expect(await openDueInstances(services, new Date(Date.now() + 5 * MINUTE))).toBe(0);
    fake.setEndpoint("createInstance", "normal");
    expect(await openEventInstance(services, event.id, new Date(), { manual: true })).toMatchObject({ kind: "opened" });
    expect(creates()).toHaveLength(1);
  });

  it("closes it on 'Close', and opens a new one on 'Open now'", async () => {
    const event = await makeEvent(60 * MINUTE);
    expect(await openEventInstance(services, event.id, new Date(), { manual: true })).toMatchObject({ kind: "opened" });
    expect(await openEventInstance(services, event.id, new Date(), { manual: true })).toEqual({ kind: "busy" });
    expect(await closeEventInstance(services, event.id, new Date())).toEqual({ kind: "closed" });
    expect(fake.instanceWrites.map((write) => write.kind)).toEqual(["create", "close"]);
    // The close went to the description's own path: the colon is the path's, not `%3A`.
    const close = fake.requests.find((request) => request.method === "DELETE")!;
    expect(close.rawPath).toMatch(/^\/instances\/wrld_[^/%:]+:\d+~group\(grp_[^)]+\)~/);
    expect(requestProblem(close)).toBeNull();
    expect((await instanceOf(event.id))?.state).toBe("closed");
    expect(await closeEventInstance(services, event.id, new Date())).toEqual({ kind: "none" });
    expect(await openEventInstance(services, event.id, new Date(), { manual: true })).toMatchObject({ kind: "opened", adopted: false });
    expect(creates()).toHaveLength(2);
  });

  it("opens nothing for an event without a world, one with applications but no roles, or one that has ended", async () => {
    const noWorld = await makeEvent(5 * MINUTE, { worldId: null });
    const applications = await makeEvent(5 * MINUTE, { applicationRequired: true });
    const ended = await makeEvent(-3 * 60 * MINUTE);
    expect(await openEventInstance(services, noWorld.id, new Date(), { manual: true })).toEqual({ kind: "not-possible", reason: INSTANCE_TEXTS.noWorld });
    expect(await openEventInstance(services, applications.id, new Date(), { manual: true })).toMatchObject({ kind: "failed", retrying: false });
    expect(await openEventInstance(services, ended.id, new Date(), { manual: true })).toEqual({ kind: "not-possible", reason: INSTANCE_TEXTS.ended });
    expect(await openDueInstances(services, new Date())).toBe(0);
    expect(creates()).toHaveLength(0);
  });
});
