/**
 * Dwell against the answers VRChat's API description allows but the fake's own model never gives:
 * the sparsest ones, generated from the description (scripts/vrchat-spec-answers.ts), and the
 * refusals it documents. Each part of a refresh must read them, each action must end as what it is.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { events, outbox, vrchatPublications, vrchatSessions } from "~/db/schema";
import spec from "../../../tests/fakes/vrchat-spec-answers.json" with { type: "json" };
import { FAKE_GROUP_ID, FAKE_SESSION_SECRET, FAKE_USERNAME, fakeUserId, fakeVRChatAccount, startFakeVRChat, type FakeEndpoint, type FakeVRChat } from "../../../tests/fakes/vrchat";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { createCalendarPublisher } from "./calendar-publisher.server";
import { refreshGroupData } from "./vrchat-api.server";
import { createVRChatClient } from "./vrchat-client.server";
import { createVRChatMembership } from "./vrchat-membership.server";
import { databaseSessionStore } from "./vrchat-session.server";

type Operation = keyof typeof spec.answers;
const answer = (operation: Operation, variant: "bare" | "sparse") => spec.answers[operation][variant];

/** The legacy id the description documents, which the generator gives every user id. */
const LEGACY_ID = (spec.answers.getCurrentUser.bare as { id: string }).id;

/** Which fake endpoint serves each operation whose answers a refresh reads. */
const REFRESH_ENDPOINTS: [FakeEndpoint, Operation][] = [
  ["group", "getGroup"],
  ["userGroupInstances", "getUserGroupInstancesForGroup"],
  ["posts", "getGroupPosts"],
  ["calendar", "getGroupCalendarEvents"],
  ["members", "getGroupMembers"],
];

let database: TestDatabase;
let fake: FakeVRChat;

// One database for the file, emptied of what a test leaves (opening one costs more than all the tests).
beforeAll(async () => {
  database = await createTestDatabase("pglite");
});
afterAll(() => database?.close());
beforeEach(async () => {
  for (const table of [vrchatSessions, vrchatPublications, events, outbox]) await database.db.delete(table);
  // The bot account is an old one: its id has the legacy form.
  fake = await startFakeVRChat({ botUserId: LEGACY_ID });
});
afterEach(async () => {
  await fake?.close();
});

const clientFor = () => createVRChatClient({ ...fakeVRChatAccount(fake), store: databaseSessionStore(database.db, FAKE_USERNAME, FAKE_SESSION_SECRET), baseDelayMs: 5 });

describe("a refresh", () => {
  it("reads the description's generated answers as legacy ids and identifiers without prefixes", () => {
    expect(LEGACY_ID).toMatch(/^[A-Za-z0-9]{10}$/);
    expect((answer("createGroupCalendarEvent", "bare") as { id: string }).id).not.toMatch(/^cal_/);
  });

  for (const variant of ["bare", "sparse"] as const) {
    it(`reads every part from the ${variant} answers the description allows: a count left out is the last one known, else zero; a list left out is empty`, async () => {
      for (const [endpoint, operation] of REFRESH_ENDPOINTS) fake.setEndpoint(endpoint, { body: answer(operation, variant) });
      const outcome = await refreshGroupData(clientFor(), FAKE_GROUP_ID, { maxMembers: 100, now: new Date(), deadline: Date.now() + 20_000, previous: null });
      expect(outcome.failed).toEqual([]);
      expect(outcome.snapshot.data.group).toMatchObject({ memberCount: 0, onlineMemberCount: 0 });
      // After a refresh that had the counts, an answer without them keeps them.
      const known = structuredClone(outcome.snapshot);
      known.data.group = { name: "The Dwellers", memberCount: 2451, onlineMemberCount: 88 };
      const again = await refreshGroupData(clientFor(), FAKE_GROUP_ID, { maxMembers: 100, now: new Date(), deadline: Date.now() + 20_000, previous: known });
      expect(again.snapshot.data.group).toMatchObject({ name: "The Dwellers", memberCount: 2451, onlineMemberCount: 88 });
      // The bot's own list was asked for with its legacy id, and answered.
      expect(fake.requests.some((request) => request.path === `/users/${LEGACY_ID}/instances/groups/${FAKE_GROUP_ID}`)).toBe(true);
      expect(outcome.snapshot.state.userInstancesRefusedUntil).toBeNull();
      for (const part of Object.values(outcome.snapshot.state.parts)) expect(part.lastError).toBeNull();
    });
  }

  it("sends no empty Cookie header with the first login", async () => {
    await refreshGroupData(clientFor(), FAKE_GROUP_ID, { maxMembers: 0, now: new Date(), deadline: Date.now() + 20_000, previous: null });
    expect(fake.loginCookieHeaders.length).toBeGreaterThan(0);
    expect(fake.loginCookieHeaders[0]).toBeUndefined();
  });

  it("gives visitors a short key for each live instance, never its location", async () => {
    // A location as VRChat writes it: its creator's user id and the instance's nonce.
    const creator = fakeUserId(9);
    const nonce = crypto.randomUUID();
    fake.group.instances[0]!.location = `wrld_aaaa:111~group(${FAKE_GROUP_ID})~groupAccessType(members)~hidden(${creator})~region(use)~nonce(${nonce})`;
    const outcome = await refreshGroupData(clientFor(), FAKE_GROUP_ID, { maxMembers: 0, now: new Date(), deadline: Date.now() + 20_000, previous: null });
    const ids = outcome.snapshot.data.instances.map((instance) => instance.id);
    expect(ids).toHaveLength(2);
    for (const id of ids) expect(id).toMatch(/^[\w-]{12}$/);
    expect(new Set(ids).size).toBe(2);
    const served = JSON.stringify(outcome.snapshot.data);
    for (const secret of [creator, nonce, "wrld_", "~"]) expect(served).not.toContain(secret);
  });
});

describe("the calendar", () => {
  it("records a created entry whatever its id looks like, and the import knows it", async () => {
    const created = answer("createGroupCalendarEvent", "bare") as { id: string };
    fake.setEndpoint("createCalendarEvent", { body: created });
    const publisher = createCalendarPublisher({ db: database.db, client: clientFor(), groupId: FAKE_GROUP_ID, timeoutMs: 5_000, spacingMs: 0 });
    const [event] = await database.db.insert(events).values({ title: "Lantern Walk", eventDate: "2031-05-01", eventTime: "20:00", worldName: "W" }).returning();
    const details = {
      title: "Lantern Walk",
      description: "https://dwell.example/events/x",
      startsAt: "2031-05-01T20:00:00.000Z",
      endsAt: "2031-05-01T22:00:00.000Z",
      category: "hangout",
      accessType: "public" as const,
      languages: ["eng"],
      platforms: ["standalonewindows"],
      notify: false,
    };
    const [publication] = await database.db.insert(vrchatPublications).values({ eventId: event!.id, details }).returning();
    const outcome = await publisher.channel.deliver({ publicationId: publication!.id });
    expect(outcome).toEqual({ kind: "delivered", result: "Published to VRChat's calendar" });
    const [row] = await database.db.select().from(vrchatPublications).where(eq(vrchatPublications.id, publication!.id));
    expect(row).toMatchObject({ state: "published", vrchatEventId: created.id, lastError: null });
  });
});

describe("people", () => {
  function membership() {
    return createVRChatMembership({ client: clientFor(), groupId: FAKE_GROUP_ID, timeoutMs: 5_000, actionSpacingMs: 0 });
  }
  const invite = (vrchat: ReturnType<typeof membership>, userId: string) =>
    vrchat.channel.deliver({ applicationKind: "group", applicationId: crypto.randomUUID(), userId, action: "accept", block: false, actor: { id: "a", name: "Admin" } });

  it("finds, links and invites a legacy player by their old id", async () => {
    fake.group.people.push({ id: LEGACY_ID, displayName: "Old Timer", status: "none" });
    const vrchat = membership();
    expect(await vrchat.describeUser(LEGACY_ID)).toMatchObject({ id: LEGACY_ID, displayName: "Old Timer", status: "none" });
    expect(await invite(vrchat, LEGACY_ID)).toEqual({ kind: "delivered", result: "Invite sent" });
    expect(fake.actions.map(({ kind, userId }) => ({ kind, userId }))).toEqual([{ kind: "invite", userId: LEGACY_ID }]);
  });

  it("keeps the id asked for: an answer about another account links nothing", async () => {
    fake.group.people.push({ id: fakeUserId(1), displayName: "Moth", status: "none" });
    fake.setEndpoint("user", { body: answer("getUser", "bare") });
    expect(await membership().describeUser(fakeUserId(1))).toBeNull();
  });

  it("never sends an invite over the user's own block of the group", async () => {
    fake.group.people.push({ id: fakeUserId(2), displayName: "Shy", status: "userblocked" });
    // The membership read misses the block (VRChat answers null for a user it will not describe).
    fake.setEndpoint("membership", "null");
    const outcome = await invite(membership(), fakeUserId(2));
    expect(fake.actions).toEqual([]);
    expect(outcome).toMatchObject({ kind: "failed" });
    expect(outcome.kind === "failed" && outcome.error).toMatch(/^VRChat would not let the group invite them/);
    expect(outcome.kind === "failed" && outcome.error).not.toMatch(/bot account|permission/);
    const invites = fake.requests.filter((request) => request.method === "POST" && request.path.endsWith("/invites"));
    expect(invites.map((request) => request.body)).toEqual([{ userId: fakeUserId(2), confirmOverrideBlock: false }]);
  });

  it("takes VRChat's 'already a member' and 'already invited' as work done", async () => {
    fake.group.people.push({ id: fakeUserId(3), displayName: "Member", status: "member" }, { id: fakeUserId(4), displayName: "Asked", status: "invited" });
    fake.setEndpoint("membership", "null");
    const vrchat = membership();
    expect(await invite(vrchat, fakeUserId(3))).toEqual({ kind: "delivered", result: "Already a member in VRChat: nothing to do" });
    expect(await invite(vrchat, fakeUserId(4))).toEqual({ kind: "delivered", result: "Invite already sent" });
  });

  it("words a missing permission as the bot's, and an unreadable answer as unreadable", async () => {
    fake.group.people.push({ id: fakeUserId(5), displayName: "New", status: "none" });
    fake.setEndpoint("invite", { status: 403, message: "You do not have permission to invite users to this group" });
    const vrchat = membership();
    const refused = await invite(vrchat, fakeUserId(5));
    expect(refused.kind === "failed" && refused.error).toMatch(/^VRChat refused the bot account/);
    fake.setEndpoint("invite", "normal");
    fake.setEndpoint("membership", "wrong-shape");
    const unreadable = await invite(vrchat, fakeUserId(5));
    expect(unreadable).toEqual({ kind: "retry", error: "VRChat's answer could not be read" });
  });
});
