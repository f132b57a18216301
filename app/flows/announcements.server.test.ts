/**
 * An announcement reaching VRChat and Discord, against their fakes over loopback and a real
 * database, through the outbox worker as the server runs it: published once in each place, edits
 * and a deletion following, a scheduled one waiting for its time, a place that fails leaving the
 * others be, a lost answer not making a second post, a post deleted in VRChat not made again, and
 * no mention Discord would ping that nobody chose.
 */
import { createCanvas } from "@napi-rs/canvas";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { announcementPlaces, announcements, events, outbox, profiles, vrchatSessions } from "~/db/schema";
import type { AnnouncementChoice } from "~/features/announcements/announcement-input";
import { checkPicture } from "~/features/announcements/announcement-picture.server";
import { createAnnouncement, deleteAnnouncement, retryPlace, updateAnnouncement, type PictureChange } from "~/features/announcements/announcements.server";
import { createDiscordBot } from "~/features/discord/discord-bot.server";
import { createOutboxWorker, type OutboxWorker } from "~/features/notifications/outbox.server";
import { createPacer } from "~/features/vrchat/vrchat-actions.server";
import { createVRChatClient } from "~/features/vrchat/vrchat-client.server";
import { createPostKeeper } from "~/features/vrchat/vrchat-posts.server";
import { databaseSessionStore } from "~/features/vrchat/vrchat-session.server";
import { FAKE_ANNOUNCE_CHANNEL_ID, FAKE_DISCORD_TOKEN, FAKE_EVENTS_ROLE_ID, FAKE_GUILD_ID, startFakeDiscordBot, type FakeDiscordBot } from "../../tests/fakes/discord-bot";
import { FAKE_GROUP_ID, FAKE_SESSION_SECRET, FAKE_USERNAME, fakeVRChatAccount, startFakeVRChat, type FakeVRChat } from "../../tests/fakes/vrchat";
import { requestProblem } from "../../tests/fakes/vrchat-contract";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../tests/setup/test-database";
import { announcementChannels } from "./announcements.server";

const SITE = "https://dwell.example";

function choice(values: Partial<AnnouncementChoice> = {}): AnnouncementChoice {
  return {
    texts: { en: { title: "The Lantern Walk returns", text: "Bring a **lantern** and *friends*.\n\nDetails: [the rules](https://dwell.example/rules) @everyone" } },
    audience: "everyone",
    vrchatRoleIds: [],
    notifyMembers: true,
    discordRoleId: null,
    places: ["site", "vrchat", "discord"],
    publishAt: new Date(Date.now() - 1_000),
    eventId: null,
    ...values,
  };
}

describeEachDatabase("an announcement reaches VRChat and Discord", (kind) => {
  let database: TestDatabase;
  let vrchat: FakeVRChat;
  let discord: FakeDiscordBot;
  let worker: OutboxWorker;
  let actor: { id: string; username: string };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const [admin] = await database.db.insert(profiles).values({ username: "Admin Ash", email: `ash-${kind}@dwell.example`, role: "admin" }).returning();
    actor = { id: admin!.id, username: admin!.username };
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(announcements);
    await database.db.delete(outbox);
    await database.db.delete(vrchatSessions);
    vrchat = await startFakeVRChat();
    vrchat.group.posts = [];
    discord = await startFakeDiscordBot();
    const client = createVRChatClient({ ...fakeVRChatAccount(vrchat), store: databaseSessionStore(database.db, FAKE_USERNAME, FAKE_SESSION_SECRET), baseDelayMs: 5, maxAttempts: 1 });
    const bot = createDiscordBot({ apiUrl: discord.url, token: FAKE_DISCORD_TOKEN, guildId: FAKE_GUILD_ID, memberRoleId: null, siteUrl: SITE, timeoutMs: 5_000 });
    const channels = announcementChannels({
      db: database.db,
      posts: createPostKeeper({ client, groupId: FAKE_GROUP_ID, pacer: createPacer(0) }),
      discord: bot,
      discordChannelId: FAKE_ANNOUNCE_CHANNEL_ID,
      discordGuildId: FAKE_GUILD_ID,
      siteOrigin: SITE,
      defaultLanguage: () => "en",
      timeoutMs: 5_000,
    });
    worker = createOutboxWorker(database.db, channels, { maxAttempts: 5, retryBaseMs: 1, batchSize: 1 });
  });
  afterEach(async () => {
    await vrchat.close();
    await discord.close();
  });

  const placeOf = async (id: string, place: "vrchat" | "discord") =>
    (await database.db.select().from(announcementPlaces).where(eq(announcementPlaces.announcementId, id))).find((row) => row.place === place)!;
  const posts = (kind: "create" | "update" | "delete") => vrchat.postWrites.filter((write) => write.kind === kind);
  const live = () => discord.announcements.filter((message) => !message.deleted);

  it("publishes once in each place, with only the mention chosen, and nothing more when asked again", async () => {
    const id = await createAnnouncement(database.db, choice({ discordRoleId: FAKE_EVENTS_ROLE_ID }), { kind: "keep" }, actor, new Date());
    await worker.runOnce();
    await worker.runOnce();

    expect(posts("create")).toHaveLength(1);
    expect(posts("create")[0]!.body).toEqual({
      title: "The Lantern Walk returns",
      text: `Bring a lantern and friends.\n\nDetails: the rules (https://dwell.example/rules) @everyone\n\n${SITE}/news/${id}`,
      visibility: "public",
      sendNotification: true,
    });
    expect(vrchat.requests.map(requestProblem).filter(Boolean)).toEqual([]);

    expect(live()).toHaveLength(1);
    const [message] = live();
    expect(message!.embeds[0]).toMatchObject({ title: "The Lantern Walk returns", url: `${SITE}/news/${id}` });
    expect(message!.embeds[0]!.description).toBe("Bring a **lantern** and *friends*\\.\n\nDetails\\: [the rules](https://dwell.example/rules) \\@everyone");
    // The role staff chose is mentioned; the text's @everyone pings nobody.
    expect(message!.pinged).toEqual([`role:${FAKE_EVENTS_ROLE_ID}`]);
    expect(message!.crossposted).toBe(true);

    const [vrchatPlace, discordPlace] = [await placeOf(id, "vrchat"), await placeOf(id, "discord")];
    expect(vrchatPlace.state).toBe("published");
    expect(vrchatPlace.externalId).toBe(vrchat.group.posts[0]!.id);
    expect(discordPlace).toMatchObject({ state: "published", url: `https://discord.com/channels/${FAKE_GUILD_ID}/${FAKE_ANNOUNCE_CHANNEL_ID}/${message!.id}` });
  });

  it("follows an edit and a deletion everywhere, and notifies nobody again on an edit", async () => {
    const id = await createAnnouncement(database.db, choice(), { kind: "keep" }, actor, new Date());
    await worker.runOnce();
    await updateAnnouncement(database.db, id, choice({ texts: { en: { title: "The Lantern Walk, moved", text: "Now on Sunday." } } }), { kind: "keep" }, actor, new Date());
    await worker.runOnce();
    expect(posts("update")).toHaveLength(1);
    expect(posts("update")[0]!.body).toMatchObject({ title: "The Lantern Walk, moved", sendNotification: false });
    expect(vrchat.group.posts[0]!.title).toBe("The Lantern Walk, moved");
    expect(live()[0]!.embeds[0]!.title).toBe("The Lantern Walk, moved");
    expect(live()[0]!.edits).toBe(1);

    await deleteAnnouncement(database.db, id, actor, new Date());
    await worker.runOnce();
    expect(vrchat.group.posts).toEqual([]);
    expect(live()).toEqual([]);
    expect((await placeOf(id, "vrchat")).state).toBe("removed");
    expect((await placeOf(id, "discord")).state).toBe("removed");
  });

  it("waits for a scheduled time, and an edit while the first publish waits sends the latest once", async () => {
    const later = new Date(Date.now() + 60 * 60_000);
    const id = await createAnnouncement(database.db, choice({ publishAt: later }), { kind: "keep" }, actor, new Date());
    await worker.runOnce();
    expect(vrchat.postWrites).toEqual([]);
    expect(discord.announcements).toEqual([]);
    // Brought forward to now, then edited before the worker ran: one post, the edited words.
    await database.db.update(announcements).set({ publishAt: new Date(Date.now() - 1_000) }).where(eq(announcements.id, id));
    await database.db.update(outbox).set({ nextAttemptAt: new Date() }).where(eq(outbox.sourceId, id));
    await updateAnnouncement(database.db, id, choice({ texts: { en: { title: "Edited before it went", text: "Still on." } } }), { kind: "keep" }, actor, new Date());
    await worker.runOnce();
    expect(posts("create").map((write) => (write.body as { title: string }).title)).toEqual(["Edited before it went"]);
    expect(posts("update")).toEqual([]);
    expect(discord.announcements.map((m) => m.embeds[0]!.title)).toEqual(["Edited before it went"]);
  });

  it("publishes once after VRChat was down, and finds the post a lost answer made", async () => {
    await vrchat.setMode("down");
    const id = await createAnnouncement(database.db, choice(), { kind: "keep" }, actor, new Date());
    await worker.runOnce();
    expect((await placeOf(id, "vrchat")).state).toBe("waiting");
    expect((await placeOf(id, "vrchat")).lastError).toMatch(/^vrchat_down/);
    // Discord did not wait for VRChat.
    expect(live()).toHaveLength(1);

    await vrchat.setMode("normal");
    vrchat.setEndpoint("createPost", "acts-unreadably");
    await database.db.update(outbox).set({ nextAttemptAt: new Date() }).where(eq(outbox.status, "pending"));
    await worker.runOnce();
    expect(posts("create")).toHaveLength(1);
    vrchat.setEndpoint("createPost", "normal");
    await database.db.update(outbox).set({ nextAttemptAt: new Date() }).where(eq(outbox.status, "pending"));
    await worker.runOnce();
    expect(posts("create")).toHaveLength(1);
    expect(await placeOf(id, "vrchat")).toMatchObject({ state: "published", externalId: posts("create")[0]!.id });
  });

  it("waits as long as VRChat asks on a 429, then publishes once", async () => {
    vrchat.setEndpoint("createPost", { status: 429, message: "Too many requests", retryAfterSeconds: 2 });
    const id = await createAnnouncement(database.db, choice(), { kind: "keep" }, actor, new Date());
    await worker.runOnce();
    expect(await placeOf(id, "vrchat")).toMatchObject({ state: "waiting", lastError: "vrchat_slow_down" });
    const [job] = await database.db.select().from(outbox).where(eq(outbox.target, "vrchat_post"));
    expect(job!.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(1_000);
    vrchat.setEndpoint("createPost", "normal");
    await database.db.update(outbox).set({ nextAttemptAt: new Date() }).where(eq(outbox.status, "pending"));
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await worker.runOnce();
    expect(posts("create")).toHaveLength(1);
    expect((await placeOf(id, "vrchat")).state).toBe("published");
  });

  it("says why a place failed, leaves the others published, and sends it on 'Try again'", async () => {
    vrchat.setEndpoint("createPost", { status: 403, message: "You do not have permission to do that" });
    const id = await createAnnouncement(database.db, choice(), { kind: "keep" }, actor, new Date());
    await worker.runOnce();
    expect(await placeOf(id, "vrchat")).toMatchObject({ state: "failed", lastError: "vrchat_forbidden|You do not have permission to do that" });
    expect((await placeOf(id, "discord")).state).toBe("published");

    vrchat.setEndpoint("createPost", "normal");
    expect(await retryPlace(database.db, id, "vrchat", actor, new Date())).toBe(true);
    await worker.runOnce();
    expect((await placeOf(id, "vrchat")).state).toBe("published");
    expect(posts("create")).toHaveLength(1);
    expect(live()).toHaveLength(1);
  });

  it("does not make again a post or a message deleted there by someone", async () => {
    const id = await createAnnouncement(database.db, choice(), { kind: "keep" }, actor, new Date());
    await worker.runOnce();
    vrchat.group.posts = [];
    discord.announcements[0]!.deleted = true;
    await updateAnnouncement(database.db, id, choice({ texts: { en: { title: "Changed", text: "Changed." } } }), { kind: "keep" }, actor, new Date());
    await worker.runOnce();
    expect(await placeOf(id, "vrchat")).toMatchObject({ state: "gone", lastError: "vrchat_gone" });
    expect(await placeOf(id, "discord")).toMatchObject({ state: "gone", lastError: "discord_gone" });
    expect(posts("create")).toHaveLength(1);
    expect(discord.announcements).toHaveLength(1);
  });

  it("announces an event with its time: in its zone for VRChat, as a Discord timestamp for each reader", async () => {
    const [event] = await database.db.insert(events).values({ title: "Lantern Walk", eventDate: "2031-05-01", eventTime: "20:00", timezone: "PST", worldName: "Garden" }).returning();
    await createAnnouncement(database.db, choice({ eventId: event!.id }), { kind: "keep" }, actor, new Date());
    await worker.runOnce();
    const text = (posts("create")[0]!.body as { text: string }).text;
    expect(text).toContain(`When: Thursday, May 1, 2031 at 8:00 PM PDT\nThe event: ${SITE}/events/${event!.id}`);
    const start = Date.UTC(2031, 4, 2, 3, 0) / 1000;
    expect(live()[0]!.embeds[0]).toMatchObject({ fields: [{ name: "When", value: `<t:${start}:F> (<t:${start}:R>)` }, { name: "The event", value: `${SITE}/events/${event!.id}` }] });
    expect(live()[0]!.pinged).toEqual([]);
  });

  it("keeps a members-only announcement to the group, for its roles, with its picture", async () => {
    const canvas = createCanvas(8, 6);
    canvas.getContext("2d").fillRect(0, 0, 8, 6);
    const bytes = canvas.toBuffer("image/jpeg");
    const check = await checkPicture(bytes);
    if (!check.ok) throw new Error("the test picture was refused");
    const picture: PictureChange = { kind: "new", bytes, check };
    const id = await createAnnouncement(database.db, choice({ audience: "members", vrchatRoleIds: ["grol_9b2d4c6e-1111-4222-8333-444455556666"], notifyMembers: false }), picture, actor, new Date());
    await worker.runOnce();
    expect(vrchat.files).toHaveLength(1);
    expect(vrchat.files[0]).toMatchObject({ type: "image/png", tag: "gallery" });
    expect(posts("create")[0]!.body).toEqual({
      title: "The Lantern Walk returns",
      text: "Bring a lantern and friends.\n\nDetails: the rules (https://dwell.example/rules) @everyone",
      visibility: "group",
      sendNotification: false,
      roleIds: ["grol_9b2d4c6e-1111-4222-8333-444455556666"],
      imageId: vrchat.files[0]!.id,
    });
    const [message] = live();
    expect(message!.embeds[0]!.url).toBeUndefined();
    expect(message!.embeds[0]!.image).toEqual({ url: "attachment://announcement.jpg" });
    expect(message!.attachments).toEqual([{ filename: "announcement.jpg", type: "image/jpeg", size: bytes.length }]);
    expect(message!.pinged).toEqual([]);

    // An edit without a new picture uploads nothing again.
    await updateAnnouncement(database.db, id, choice({ audience: "members", texts: { en: { title: "Edited", text: "Edited." } } }), { kind: "keep" }, actor, new Date());
    await worker.runOnce();
    expect(vrchat.files).toHaveLength(1);
    expect(posts("update")[0]!.body).toMatchObject({ imageId: vrchat.files[0]!.id });
    expect(live()[0]!.attachments).toHaveLength(1);

  });
});

describe("a Discord announcement channel that is not a news channel", () => {
  it("is posted in without a crosspost", async () => {
    const database = await createTestDatabase("pglite");
    const discord = await startFakeDiscordBot();
    try {
      discord.announceChannelType = 0;
      const [admin] = await database.db.insert(profiles).values({ username: "Owner", email: "owner-text@dwell.example", role: "owner" }).returning();
      const bot = createDiscordBot({ apiUrl: discord.url, token: FAKE_DISCORD_TOKEN, guildId: FAKE_GUILD_ID, memberRoleId: null, siteUrl: SITE, timeoutMs: 5_000 });
      const channels = announcementChannels({ db: database.db, posts: null, discord: bot, discordChannelId: FAKE_ANNOUNCE_CHANNEL_ID, discordGuildId: FAKE_GUILD_ID, siteOrigin: SITE, defaultLanguage: () => "en", timeoutMs: 5_000 });
      const worker = createOutboxWorker(database.db, channels, { maxAttempts: 3, retryBaseMs: 1 });
      await createAnnouncement(database.db, choice({ places: ["site", "discord"] }), { kind: "keep" }, { id: admin!.id, username: admin!.username }, new Date());
      await worker.runOnce();
      expect(discord.announcements).toHaveLength(1);
      expect(discord.announcements[0]!.crossposted).toBe(false);
      expect(discord.requests.some((request) => request.path.endsWith("/crosspost"))).toBe(false);
    } finally {
      await discord.close();
      await database.close();
    }
  });
});


