/**
 * Events in the Discord server's event list, against the Discord fake over loopback and a real
 * database, through the outbox worker: listed once with their page, times and card; edits follow,
 * an unchanged save sends nothing, a deletion takes it down; a members-only event never goes there;
 * an entry deleted in Discord is not made again; a lost answer does not list it twice; a refusal is
 * kept with why; the interest is read in one call.
 */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { discordEvents, events, jobRuns, outbox, profiles, vrchatPublications } from "~/db/schema";
import { createDiscordBot } from "~/features/discord/discord-bot.server";
import type { EventInput } from "~/features/events/event-input";
import { createEvent, deleteEvent, updateEvent } from "~/features/events/events.server";
import { touchDiscordEvent } from "~/db/discord-event-jobs.server";
import { withdrawMembersOnly } from "~/features/vrchat/event-sync.server";
import { createOutboxWorker, type OutboxWorker } from "~/features/notifications/outbox.server";
import { FAKE_DISCORD_TOKEN, FAKE_GUILD_ID, startFakeDiscordBot, type FakeDiscordBot } from "../../tests/fakes/discord-bot";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../tests/setup/test-database";
import { discordEventChannel, refreshDiscordInterest } from "./discord-events.server";

const SITE = "https://dwell.example";
const DAY = 86_400_000;

function input(values: Partial<EventInput> = {}): EventInput {
  const date = new Date(Date.now() + 5 * DAY).toISOString().slice(0, 10);
  return {
    title: "Lantern Walk",
    description: "Bring a lantern.",
    eventDate: date,
    eventTime: "20:00",
    timezone: "UTC",
    endDate: date,
    endTime: "22:00",
    worldName: "The Garden",
    worldId: null,
    applicationRequired: false,
    requiresProof: false,
    waitlistPromotion: "pending",
    instanceLeadMinutes: 15,
    instanceRegion: "us",
    instanceAccess: "members",
    featured: false,
    discordEvent: true,
    ...values,
  } as EventInput;
}

describeEachDatabase("events in Discord's event list", (kind) => {
  let database: TestDatabase;
  let discord: FakeDiscordBot;
  let worker: OutboxWorker;
  let bot: ReturnType<typeof createDiscordBot>;
  let adminId: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const [admin] = await database.db.insert(profiles).values({ username: "Admin", email: `discord-events-${kind}@dwell.example`, role: "admin" }).returning();
    adminId = admin!.id;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(events);
    await database.db.delete(discordEvents);
    await database.db.delete(outbox);
    await database.db.delete(jobRuns);
    discord = await startFakeDiscordBot();
    bot = createDiscordBot({ apiUrl: discord.url, token: FAKE_DISCORD_TOKEN, guildId: FAKE_GUILD_ID, memberRoleId: null, siteUrl: SITE, timeoutMs: 5_000 });
    worker = createOutboxWorker(database.db, [discordEventChannel({ db: database.db, bot, siteOrigin: SITE, apiOrigin: "http://127.0.0.1:9", timeoutMs: 5_000 })], { maxAttempts: 3, retryBaseMs: 1 });
  });
  afterEach(() => discord.close());

  const rowOf = async (eventId: string) => (await database.db.select().from(discordEvents).where(eq(discordEvents.eventId, eventId)))[0];
  const writes = (kind: "create" | "edit" | "delete") => discord.scheduledEventWrites.filter((write) => write.kind === kind);

  it("lists a public event once, with its page, times and card, and follows an edit and a deletion", async () => {
    const id = await createEvent(database.db, input(), adminId);
    await worker.runOnce();
    await worker.runOnce();
    expect(writes("create")).toHaveLength(1);
    const [listed] = discord.scheduledEvents;
    expect(listed).toMatchObject({ name: "Lantern Walk", description: "Bring a lantern.", entity_type: 3, privacy_level: 2, location: `${SITE}/events/${id}`, creator_id: expect.any(String) });
    expect(listed!.scheduled_start_time).toBe(`${input().eventDate}T20:00:00.000Z`);
    expect(listed!.scheduled_end_time).toBe(`${input().eventDate}T22:00:00.000Z`);
    expect(listed!.imageBytes).toBeGreaterThan(1_000);
    expect(await rowOf(id)).toMatchObject({ state: "published", discordEventId: listed!.id });

    // Saved unchanged: nothing sent. Changed: edited in place.
    await updateEvent(database.db, id, input());
    await worker.runOnce();
    expect(writes("edit")).toHaveLength(0);
    await updateEvent(database.db, id, input({ title: "Lantern Walk at Dusk", eventTime: "21:00", endTime: "23:00" }));
    await worker.runOnce();
    expect(writes("edit")).toHaveLength(1);
    expect(discord.scheduledEvents[0]).toMatchObject({ name: "Lantern Walk at Dusk", scheduled_start_time: `${input().eventDate}T21:00:00.000Z` });

    await deleteEvent(database.db, id);
    await worker.runOnce();
    expect(discord.scheduledEvents).toEqual([]);
    expect((await rowOf(id))!.state).toBe("removed");
  });

  it("takes it off when the box is unticked, and never lists a members-only event", async () => {
    const id = await createEvent(database.db, input(), adminId);
    await worker.runOnce();
    await updateEvent(database.db, id, input({ discordEvent: false }));
    await worker.runOnce();
    expect(discord.scheduledEvents).toEqual([]);

    const membersOnly = await createEvent(database.db, input({ title: "Members' circle" }), adminId);
    await database.db.insert(vrchatPublications).values({
      eventId: membersOnly,
      details: { title: "Members' circle", description: "x", startsAt: new Date(Date.now() + 5 * DAY).toISOString(), endsAt: new Date(Date.now() + 5 * DAY + 7_200_000).toISOString(), category: "hangout", accessType: "group", languages: [], platforms: [], notify: false },
    });
    await updateEvent(database.db, membersOnly, input({ title: "Members' circle" }));
    await worker.runOnce();
    expect(discord.scheduledEvents).toEqual([]);
  });

  it("does not list again an entry deleted in Discord, nor twice after a lost answer", async () => {
    const id = await createEvent(database.db, input(), adminId);
    await worker.runOnce();
    discord.scheduledEvents.splice(0, 1);
    await updateEvent(database.db, id, input({ title: "Changed" }));
    await worker.runOnce();
    expect(await rowOf(id)).toMatchObject({ state: "gone", lastError: "discord_event_gone" });
    expect(writes("create")).toHaveLength(1);

    // A create that reached Discord without its answer: the next try finds it.
    const second = await createEvent(database.db, input({ title: "Second walk" }), adminId);
    await database.db.update(discordEvents).set({ createAttemptedAt: new Date() }).where(eq(discordEvents.eventId, second));
    await bot.scheduledEvents.create({ name: "Second walk", privacy_level: 2, entity_type: 3, entity_metadata: { location: `${SITE}/events/${second}` }, scheduled_start_time: new Date(Date.now() + DAY).toISOString(), scheduled_end_time: new Date(Date.now() + DAY + 3_600_000).toISOString() });
    await worker.runOnce();
    expect(discord.scheduledEvents.filter((event) => event.name === "Second walk")).toHaveLength(1);
    expect((await rowOf(second))!.state).toBe("published");
  });

  it("takes down an imported event's entry when the calendar sync removes the event", async () => {
    const { eventDate, eventTime, endDate, endTime, worldName, description } = input();
    const [imported] = await database.db.insert(events).values({ title: "Imported walk", description, eventDate, eventTime, endDate, endTime, worldName, discordEvent: true, vrchatEventId: "cal_imported", vrchatImport: "sync" }).returning();
    await database.db.transaction((tx) => touchDiscordEvent(tx, imported!.id, imported!, new Date()));
    await worker.runOnce();
    expect(discord.scheduledEvents.map((event) => event.name)).toEqual(["Imported walk"]);
    // It became members-only on VRChat: the sync withdraws it from the site, and from Discord's list.
    expect(await withdrawMembersOnly(database.db, ["cal_imported"])).toEqual({ removed: 1, kept: [] });
    await worker.runOnce();
    expect(discord.scheduledEvents).toEqual([]);
  });

  it("keeps why Discord refused, and reads the interest in one call", async () => {
    discord.botMayManageEvents = false;
    expect(await bot.scheduledEvents.allowed()).toBe(false);
    const refused = await createEvent(database.db, input(), adminId);
    await worker.runOnce();
    expect(await rowOf(refused)).toMatchObject({ state: "failed", lastError: "discord_events_forbidden" });

    discord.botMayManageEvents = true;
    const listed = await createEvent(database.db, input({ title: "Counted walk" }), adminId);
    await worker.runOnce();
    discord.scheduledEvents.find((event) => event.name === "Counted walk")!.user_count = 7;
    const before = discord.requests.length;
    expect(await refreshDiscordInterest(database.db, bot, new Date())).toBe(1);
    expect(discord.requests.slice(before).map((request) => request.path)).toEqual([`/guilds/${FAKE_GUILD_ID}/scheduled-events?with_user_count=true`]);
    expect((await rowOf(listed))!.userCount).toBe(7);
    // Not again within ten minutes.
    expect(await refreshDiscordInterest(database.db, bot, new Date())).toBeNull();
  });
});
