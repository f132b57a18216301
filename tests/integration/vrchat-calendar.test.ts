/**
 * Publishing events to the group's VRChat calendar, from the Sanctum's saves to the fake VRChat over
 * HTTP: each event makes one entry, kept up to date and removed with it; the import never brings
 * one back as a second event; VRChat's limits are checked before any call; a refusal shows, and
 * "Try again" publishes.
 */
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { events, outbox, profiles, vrchatPublications } from "~/db/schema";
import type { EventInput } from "~/features/events/event-input";
import { createEvent, deleteEvent, updateEvent, type PublicationChange } from "~/features/events/events.server";
import { DEFAULT_PUBLICATION_CHOICE, VRCHAT_CREATIONS_PER_HOUR, type PublicationChoice } from "~/features/events/vrchat-publication";
import { CalendarAllowanceError, HOST_CALENDAR_SHARE, listPublications, publicationProblem, retryPublication } from "~/features/events/vrchat-publication.server";
import { createOutboxWorker, type OutboxWorker } from "~/features/notifications/outbox.server";
import { createCalendarPublisher } from "~/features/vrchat/calendar-publisher.server";
import { importPlatformEvents } from "~/features/vrchat/event-sync.server";
import type { PlatformEvent } from "~/features/vrchat/group-data";
import { createVRChatClient } from "~/features/vrchat/vrchat-client.server";
import { databaseSessionStore } from "~/features/vrchat/vrchat-session.server";
import { createVRChatServices } from "~/features/vrchat/vrchat.server";
import { loadConfig } from "~/utils/env.server";
import {
  FAKE_GROUP_ID,
  FAKE_SESSION_SECRET, FAKE_USERNAME,
  fakeUserId,
  fakeVRChatAccount,
  fakeVRChatEnv,
  startFakeVRChat,
  type FakeCalendarEvent,
  type FakeVRChat,
} from "../fakes/vrchat";
import { requestProblem } from "../fakes/vrchat-contract";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../setup/test-database";

const DAY = 24 * 60 * 60 * 1000;
const SITE = "https://dwell.example";

function input(overrides: Partial<EventInput> = {}): EventInput {
  const date = new Date(Date.now() + 10 * DAY).toISOString().slice(0, 10);
  return {
    title: "Lantern Walk",
    description: "A slow walk through the lantern forest.",
    eventDate: date,
    eventTime: "20:00",
    timezone: "UTC",
    worldName: "Lantern Forest",
    applicationRequired: false,
    featured: false,
    ...overrides,
  } as EventInput;
}

const publish = (choice: Partial<PublicationChoice> = {}): PublicationChange => ({
  choice: { ...DEFAULT_PUBLICATION_CHOICE, ...choice },
  pageUrl: (id) => `${SITE}/events/${id}`,
});
const unpublish: PublicationChange = { choice: null, pageUrl: (id) => `${SITE}/events/${id}` };

/** The entries as the import reads them from a refresh. */
const asPlatformEvents = (calendar: FakeCalendarEvent[]): PlatformEvent[] =>
  calendar.map((entry) => ({
    id: entry.id,
    title: entry.title,
    description: entry.description ?? "",
    imageUrl: null,
    startsAt: entry.startsAt!,
    endsAt: entry.endsAt ?? null,
    location: null,
    attendeeCount: 0,
  }));

describeEachDatabase("publishing to the VRChat calendar", (kind) => {
  let database: TestDatabase;
  let fake: FakeVRChat;
  let worker: OutboxWorker;
  let adminId: string;
  const ours = () => fake.group.calendar.filter((entry) => entry.title.startsWith("Lantern") || entry.title.startsWith("Quiet"));

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    fake = await startFakeVRChat();
    const client = createVRChatClient({ ...fakeVRChatAccount(fake), store: databaseSessionStore(database.db, FAKE_USERNAME, FAKE_SESSION_SECRET), baseDelayMs: 5 });
    const publisher = createCalendarPublisher({ db: database.db, client, groupId: FAKE_GROUP_ID, timeoutMs: 5_000, spacingMs: 0 });
    worker = createOutboxWorker(database.db, [publisher.channel], { maxAttempts: 3, retryBaseMs: 1 });
    const [admin] = await database.db.insert(profiles).values({ username: "Keeper", email: "keeper@dwell.example", role: "admin" }).returning();
    adminId = admin!.id;
  });
  afterAll(async () => {
    await fake?.close();
    await database?.close();
  });
  beforeEach(async () => {
    await database.db.delete(events);
    await database.db.delete(vrchatPublications);
    await database.db.delete(outbox);
    const stale = (entry: FakeCalendarEvent) => ours().includes(entry) || entry.id.startsWith("cal_filler-");
    fake.group.calendar.splice(0, fake.group.calendar.length, ...fake.group.calendar.filter((entry) => !stale(entry)));
    fake.calendarWrites.length = 0;
    fake.setEndpoint("createCalendarEvent", "normal");
  });

  const publicationOf = async (eventId: string) => (await listPublications(database.db, [eventId])).get(eventId);

  it("makes one entry per event, keeps it up to date, and removes it with the event", async () => {
    const id = await createEvent(database.db, input({ applicationRequired: true }), adminId, publish({ category: "music", languages: ["eng", "deu"], platforms: ["standalonewindows", "android", "ios"] }));
    await worker.runOnce();
    expect(ours()).toHaveLength(1);
    const [entry] = ours();
    expect(entry).toMatchObject({ title: "Lantern Walk", accessType: "public", category: "music", languages: ["eng", "deu"], platforms: ["standalonewindows", "android", "ios"] });
    expect(entry!.description).toBe(`A slow walk through the lantern forest.\n\nApply on ${SITE}/events/${id}`);
    expect(entry!.startsAt).toBe(new Date(`${input().eventDate}T20:00:00Z`).toISOString());
    expect(entry!.endsAt).toBe(new Date(Date.parse(`${input().eventDate}T22:00:00Z`)).toISOString());
    expect(await publicationOf(id)).toMatchObject({ wanted: true, state: "published", vrchatEventId: entry!.id, lastError: null });

    await updateEvent(database.db, id, input({ title: "Lantern Walk II", eventTime: "21:30", applicationRequired: true }), publish({ category: "music", languages: ["eng", "deu"], platforms: ["standalonewindows", "android", "ios"] }));
    await worker.runOnce();
    expect(ours()).toHaveLength(1);
    expect(ours()[0]).toMatchObject({ id: entry!.id, title: "Lantern Walk II", startsAt: new Date(`${input().eventDate}T21:30:00Z`).toISOString() });

    // Saved again unchanged: nothing is queued, nothing is sent.
    const [{ value: jobs }] = (await database.db.select({ value: count() }).from(outbox)) as [{ value: number }];
    await updateEvent(database.db, id, input({ title: "Lantern Walk II", eventTime: "21:30", applicationRequired: true }), publish({ category: "music", languages: ["eng", "deu"], platforms: ["standalonewindows", "android", "ios"] }));
    expect((await database.db.select({ value: count() }).from(outbox))[0]!.value).toBe(jobs);
    await worker.runOnce();

    expect(await deleteEvent(database.db, id)).toBe(true);
    await worker.runOnce();
    expect(ours()).toHaveLength(0);
    expect(fake.calendarWrites.map((write) => write.kind)).toEqual(["create", "update", "delete"]);
    expect(fake.calendarWrites.every((write) => write.id === entry!.id)).toBe(true);
    expect(fake.requests.map(requestProblem).filter(Boolean)).toEqual([]);
  });

  it("never imports its own entries as new events, not even after they are removed", async () => {
    const id = await createEvent(database.db, input(), adminId, publish());
    await worker.runOnce();
    const imported = await importPlatformEvents(database.db, asPlatformEvents(fake.group.calendar), new Date());
    expect(imported.skipped).toBeGreaterThanOrEqual(1);
    expect(await database.db.select({ id: events.id }).from(events).where(eq(events.title, "Lantern Walk"))).toEqual([{ id }]);

    // Removed from VRChat, while a refresh read before still lists it: no ghost comes in.
    const before = asPlatformEvents(fake.group.calendar);
    await updateEvent(database.db, id, input(), unpublish);
    await worker.runOnce();
    expect(ours()).toHaveLength(0);
    await importPlatformEvents(database.db, before, new Date());
    expect(await database.db.select({ id: events.id }).from(events).where(eq(events.title, "Lantern Walk"))).toEqual([{ id }]);
    expect(await publicationOf(id)).toBeUndefined();
  });

  it("makes a new entry when who may see it changes, and removes the old one only once the new one is on the calendar", async () => {
    const id = await createEvent(database.db, input(), adminId, publish());
    await worker.runOnce();
    const first = ours()[0]!.id;
    await updateEvent(database.db, id, input(), publish({ accessType: "group" }));
    await worker.runOnce();
    // The new entry is made first; the old one is still there meanwhile.
    expect(fake.calendarWrites.map((write) => write.kind)).toEqual(["create", "create"]);
    expect(ours().map((entry) => entry.id)).toContain(first);
    await worker.runOnce();
    expect(fake.calendarWrites.map((write) => write.kind)).toEqual(["create", "create", "delete"]);
    expect(ours()).toHaveLength(1);
    expect(ours()[0]).toMatchObject({ accessType: "group" });
    expect(ours()[0]!.id).not.toBe(first);
    expect(fake.calendarWrites.filter((write) => write.kind === "delete").map((write) => write.id)).toEqual([first]);
    expect(await publicationOf(id)).toMatchObject({ state: "published", accessType: "group", vrchatEventId: ours()[0]!.id });
  });

  /** Entries the group created `minutesAgo`, as VRChat counts them against its hourly allowance. */
  async function createdBefore(n: number, minutesAgo: number) {
    const at = new Date(Date.now() - minutesAgo * 60_000);
    const details = { title: "x", description: "", startsAt: "", endsAt: "", category: "hangout", accessType: "public" as const, languages: [], platforms: [], notify: false };
    await database.db.insert(vrchatPublications).values(Array.from({ length: n }, (_, i) => ({ wanted: false, state: "removed" as const, vrchatEventId: `cal_counted_${i}_${at.getTime()}`, vrchatCreatedAt: at, details })));
  }

  it("never creates past VRChat's hourly allowance, whichever path queued the entry", async () => {
    await createdBefore(10, 20);
    // The series' own look queues its occurrences without refusing them: the worker waits for room.
    const id = await createEvent(database.db, input(), adminId, { ...publish(), whenFull: "queue" });
    await worker.runOnce();
    expect(fake.calendarWrites).toEqual([]);
    expect(await publicationOf(id)).toMatchObject({ state: "pending", lastError: "Waiting for room in VRChat's hourly allowance of calendar events" });
    // A person's save is refused at once, counted under the allowance's lock, with nothing saved.
    await expect(createEvent(database.db, input({ title: "Quiet Hour" }), adminId, publish())).rejects.toThrow(CalendarAllowanceError);
    expect(await database.db.select({ id: events.id }).from(events).where(eq(events.title, "Quiet Hour"))).toEqual([]);
    // An hour on, there is room: the waiting entry goes.
    await database.db.update(vrchatPublications).set({ vrchatCreatedAt: new Date(Date.now() - 61 * 60_000) }).where(eq(vrchatPublications.wanted, false));
    await database.db.update(outbox).set({ nextAttemptAt: new Date() });
    await worker.runOnce();
    expect(fake.calendarWrites.map((write) => write.kind)).toEqual(["create"]);
  });

  it("keeps most of the hourly allowance for the admins: hosts share a part of it", async () => {
    const hostSave = (title: string) => createEvent(database.db, input({ title }), adminId, { ...publish(), byHost: true });
    for (let i = 0; i < HOST_CALENDAR_SHARE; i++) await hostSave(`Lantern ${i}`);
    const refused = await hostSave("Lantern one too many").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CalendarAllowanceError);
    expect((refused as Error).message).toMatch(/^Hosts may publish 4 calendar events an hour to VRChat between them/);
    expect((await publicationProblem(database.db, { eventId: null, title: "x", start: new Date(Date.now() + DAY), choice: DEFAULT_PUBLICATION_CHOICE, now: new Date(), byHost: true }))?.field).toBe("publishToVRChat");
    // An admin's save still fits.
    await createEvent(database.db, input({ title: "Lantern by an admin" }), adminId, publish());
    // Two saves at once for the last places: the lock lets exactly as many through as fit.
    await createdBefore(VRCHAT_CREATIONS_PER_HOUR - HOST_CALENDAR_SHARE - 2, 10);
    const both = await Promise.allSettled([createEvent(database.db, input({ title: "Quiet A" }), adminId, publish()), createEvent(database.db, input({ title: "Quiet B" }), adminId, publish())]);
    expect(both.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
  });

  it("keeps the old entry on the calendar when VRChat refuses the new one, and removes it once the admins want none", async () => {
    const id = await createEvent(database.db, input(), adminId, publish());
    await worker.runOnce();
    const first = ours()[0]!.id;
    // VRChat's own limit: a month holds at most 100 entries.
    const month = ours()[0]!.startsAt!;
    for (let i = 0; i < 99; i++) fake.group.calendar.push({ id: `cal_filler-${i}`, title: `Filler ${i}`, startsAt: month, accessType: "public" });
    await updateEvent(database.db, id, input(), publish({ accessType: "group" }));
    await worker.runOnce();
    await worker.runOnce();
    expect(fake.calendarWrites.map((write) => write.kind)).toEqual(["create"]);
    expect(ours().map((entry) => entry.id)).toEqual([first]);
    const refused = await publicationOf(id);
    // The card says the old entry is still there, for everyone.
    expect(refused).toMatchObject({ state: "failed", vrchatEventId: null, keptAccessType: "public" });
    expect(refused!.lastError).toBe("VRChat's answer: You're not allowed to make more than 100 events in a single month");
    // Unticked: nothing is wanted on the calendar any more, so the old entry goes.
    await updateEvent(database.db, id, input(), unpublish);
    await worker.runOnce();
    expect(fake.calendarWrites.map((write) => write.kind)).toEqual(["create", "delete"]);
    expect(ours()).toEqual([]);
  });

  it("keeps one pace with the decisions' actions: the site's calls that act in VRChat stay a second apart", async () => {
    // Composed as the server composes them, with their default pace.
    const services = createVRChatServices(
      database.db,
      loadConfig({ ...fakeVRChatEnv(fake), VRCHAT_PUBLISH_EVENTS: "true", VRCHAT_MEMBERSHIP_ACTIONS: "true" }),
      FAKE_SESSION_SECRET,
    );
    fake.group.people.push({ id: fakeUserId(7), displayName: "Quiet Moth", status: "requested" });
    const id = await createEvent(database.db, input({ title: "Quiet Hour" }), adminId, publish());
    const [publication] = await database.db.select({ id: vrchatPublications.id }).from(vrchatPublications).where(eq(vrchatPublications.eventId, id));
    const accept = {
      applicationKind: "group" as const,
      applicationId: crypto.randomUUID(),
      userId: fakeUserId(7),
      action: "accept" as const,
      block: false,
      actor: { id: adminId, name: "Keeper" },
    };
    const started = Date.now();
    const outcomes = await Promise.all([
      services.membership!.channel.deliver(accept),
      services.calendar!.publisher.channel.deliver({ publicationId: publication!.id }),
    ]);
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(["delivered", "delivered"]);
    // Three calls (the member's standing, the acceptance, the creation): two gaps of a second.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_990);
    expect(ours().filter((entry) => entry.title === "Quiet Hour")).toHaveLength(1);
  });

  it("does not create twice when VRChat created the entry but its answer never came back", async () => {
    const id = await createEvent(database.db, input(), adminId, publish());
    // As after a crash between VRChat's create and storing its answer: the entry exists in VRChat.
    const startsAt = new Date(`${input().eventDate}T20:00:00Z`).toISOString();
    // Someone made an entry by hand with the same title and start: not Dwell's, never taken for it.
    fake.group.calendar.push({ id: "cal_hand-made", title: "Lantern Walk", description: "Our walk, by hand", startsAt, endsAt: startsAt, accessType: "public" });
    fake.group.calendar.push({ id: "cal_0f0f0f0f-1111-4222-8333-444455556666", title: "Lantern Walk", description: `A slow walk through the lantern forest.\n\n${SITE}/events/${id}`, startsAt, endsAt: startsAt, accessType: "public" });
    await database.db.update(vrchatPublications).set({ createAttemptedAt: new Date() });
    await worker.runOnce();
    expect(ours()).toHaveLength(2);
    expect(fake.calendarWrites).toEqual([]);
    expect(await publicationOf(id)).toMatchObject({ state: "published", vrchatEventId: "cal_0f0f0f0f-1111-4222-8333-444455556666" });
  });

  it("shows VRChat's refusal, and publishes on 'Try again'", async () => {
    fake.setEndpoint("createCalendarEvent", { status: 403, message: "You're not allowed to make more than 100 events in a single month" });
    const id = await createEvent(database.db, input(), adminId, publish());
    await worker.runOnce();
    expect(ours()).toHaveLength(0);
    expect(await publicationOf(id)).toMatchObject({
      state: "failed",
      lastError: "VRChat's answer: You're not allowed to make more than 100 events in a single month",
    });
    // Saved again, it is a creation still: checked as one.
    const past = { eventId: id, title: "Lantern Walk", start: new Date(Date.now() - 60_000), choice: DEFAULT_PUBLICATION_CHOICE, now: new Date() };
    expect((await publicationProblem(database.db, past))?.field).toBe("eventDate");
    fake.setEndpoint("createCalendarEvent", "normal");
    expect(await retryPublication(database.db, id, new Date())).toBe(true);
    await worker.runOnce();
    expect(ours()).toHaveLength(1);
    expect(await publicationOf(id)).toMatchObject({ state: "published", lastError: null });
  });

  it("checks VRChat's limits before any call: title length, a start to come, ten creations an hour", async () => {
    const now = new Date();
    const check = (title: string, start: Date, eventId: string | null = null, choice = DEFAULT_PUBLICATION_CHOICE) =>
      publicationProblem(database.db, { eventId, title, start, choice, now });
    const soon = new Date(now.getTime() + DAY);
    expect(await check("x".repeat(64), soon)).toBeNull();
    expect(await check("x".repeat(65), soon)).toEqual({
      field: "title",
      error: "VRChat's calendar takes titles of at most 64 characters; this one has 65. Shorten it, or save without publishing to VRChat.",
    });
    expect((await check("Past", new Date(now.getTime() - 60_000)))?.field).toBe("eventDate");

    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await createEvent(database.db, input({ title: `Quiet Hour ${i}` }), adminId, publish()));
    const full = await check("Quiet Hour 10", soon);
    expect(full?.field).toBe("publishToVRChat");
    expect(full?.error).toMatch(/^VRChat lets a group create about 10 calendar events an hour, and 10 were published in the last hour\. .* try again in (60|59) minutes\.$/);
    // Edits of an entry already made are not creations.
    await worker.runOnce();
    expect(ours()).toHaveLength(10);
    expect(await check("Quiet Hour 0, renamed", soon, ids[0]!)).toBeNull();
    // A new entry for a change of access is one.
    expect((await check("Quiet Hour 0", soon, ids[0]!, { ...DEFAULT_PUBLICATION_CHOICE, accessType: "group" }))?.field).toBe("publishToVRChat");
  });
});
