/**
 * The moderation history and the tripwire against VRChat's and Discord's fakes over loopback and a
 * real database: acts made in VRChat, in Discord and in Dwell land in one list, joined to a person by
 * their account ids; a read that is capped or fails carries on where it stopped and never reads an
 * act twice; the bot's own acts are left to Dwell's record; a moderator past a limit trips the wire
 * once, the owners are told, and the owner's 'Undo' lifts the bans and gives the roles back.
 */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { auditLogReads, moderationActs, outbox, profiles, roleHoldings, roleLinks, tripwireTrips, vrchatSessions } from "~/db/schema";
import { saveTripwireSettings, TRIPWIRE_DEFAULTS } from "~/features/moderation/tripwire.server";
import { actsOfPerson, listActs, moderatorActivity } from "~/features/moderation/moderation.server";
import { insertLink, replaceHolders, setLinkState } from "~/features/roles/role-links.server";
import { createDiscordBot } from "~/features/discord/discord-bot.server";
import { createOutboxWorker, type OutboxWorker } from "~/features/notifications/outbox.server";
import { createPacer } from "~/features/vrchat/vrchat-actions.server";
import { createVRChatAuditLog } from "~/features/vrchat/vrchat-audit-log.server";
import { createVRChatClient } from "~/features/vrchat/vrchat-client.server";
import { createVRChatMembership } from "~/features/vrchat/vrchat-membership.server";
import { createRoleKeeper, createRoleReader } from "~/features/vrchat/vrchat-roles.server";
import { databaseSessionStore } from "~/features/vrchat/vrchat-session.server";
import { FAKE_DISCORD_BOT_ID, FAKE_DISCORD_TOKEN, FAKE_GUILD_ID, FAKE_REGULAR_ROLE_ID, FAKE_REVIEW_CHANNEL_ID, fakeSnowflake, startFakeDiscordBot, type FakeDiscordBot } from "../../tests/fakes/discord-bot";
import { FAKE_BOT_USER_ID, FAKE_GROUP_ID, FAKE_SESSION_SECRET, FAKE_USERNAME, fakeUserId, fakeVRChatAccount, startFakeVRChat, type FakeVRChat } from "../../tests/fakes/vrchat";
import { requestProblem } from "../../tests/fakes/vrchat-contract";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../tests/setup/test-database";
import { banPerson } from "./bans.server";
import { decideServices } from "./decide.server";
import { memberRoleChannel } from "./member-roles.server";
import { AUDIT_PAGES_PER_READ, readModerationLogs, type ModerationLogServices } from "./moderation-log.server";
import { closeTrip, tripwireServices, undoTrip } from "./tripwire.server";
import { staffAlertChannel } from "./tripwire-watch.server";

const SITE = "https://dwell.example";
const VRCHAT_MOD = fakeUserId(900);
const DISCORD_MOD = fakeSnowflake(900);
const OWNER_DISCORD = fakeSnowflake(901);

describeEachDatabase("the moderation history and the tripwire", (kind) => {
  let database: TestDatabase;
  let vrchat: FakeVRChat;
  let discord: FakeDiscordBot;
  let services: ModerationLogServices;
  let worker: OutboxWorker;
  let owner: { id: string; username: string };
  let moderator: { id: string; username: string };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    for (const table of [moderationActs, auditLogReads, tripwireTrips, outbox, vrchatSessions, profiles, roleLinks, roleHoldings]) await database.db.delete(table);
    await saveTripwireSettings(database.db, TRIPWIRE_DEFAULTS);
    const [ownerRow] = await database.db.insert(profiles).values({ username: "Owner Oak", email: `oak-${kind}@dwell.example`, role: "owner", discordUserId: OWNER_DISCORD }).returning();
    const [modRow] = await database.db.insert(profiles).values({ username: "Mod Rook", email: `rook-${kind}@dwell.example`, role: "admin", discordUserId: DISCORD_MOD }).returning();
    owner = { id: ownerRow!.id, username: ownerRow!.username };
    moderator = { id: modRow!.id, username: modRow!.username };
    vrchat = await startFakeVRChat();
    discord = await startFakeDiscordBot();
    discord.members.push({ id: DISCORD_MOD, username: "rook", globalName: "Rook" });
    const client = createVRChatClient({ ...fakeVRChatAccount(vrchat), store: databaseSessionStore(database.db, FAKE_USERNAME, FAKE_SESSION_SECRET), baseDelayMs: 5, maxAttempts: 1 });
    const bot = createDiscordBot({ apiUrl: discord.url, token: FAKE_DISCORD_TOKEN, guildId: FAKE_GUILD_ID, memberRoleId: null, siteUrl: SITE, timeoutMs: 5_000 });
    const membership = createVRChatMembership({ client, groupId: FAKE_GROUP_ID, timeoutMs: 5_000, actionSpacingMs: 0 });
    const roles = createRoleKeeper({ client, groupId: FAKE_GROUP_ID, pacer: createPacer(0) });
    const decide = decideServices({ db: database.db, config: { PUBLIC_URL: SITE, DISCORD_REVIEW_CHANNEL_ID: FAKE_REVIEW_CHANNEL_ID }, vrchat: { membership, membershipActions: true }, discord: bot, notifications: { wake: () => undefined } });
    const bridge = { db: database.db, vrchat: createRoleReader(client, FAKE_GROUP_ID), vrchatActs: true, discord: bot, callsPerMinute: 120, wake: () => undefined };
    services = { ...tripwireServices(decide, true), auditLog: createVRChatAuditLog({ client, groupId: FAKE_GROUP_ID }), bridge };
    worker = createOutboxWorker(database.db, [membership.bans.channel, ...bot.channels, memberRoleChannel({ db: database.db, vrchat: roles, discord: bot, timeoutMs: 5_000 }), staffAlertChannel(bot)], {
      maxAttempts: 3,
      retryBaseMs: 1,
      batchSize: 50,
    });
  });
  afterEach(async () => {
    await vrchat.close();
    await discord.close();
  });

  const member = (n: number, name: string) => vrchat.group.people.push({ id: fakeUserId(n), displayName: name, status: "member" });

  it("keeps a VRChat ban, a Discord kick and a Dwell ban of the same person in one list, by their account ids, leaving out the bot's own acts", async () => {
    member(1, "Wren");
    discord.members.push({ id: fakeSnowflake(1), username: "wren_dc" });
    vrchat.moderate({ kind: "ban", actorId: VRCHAT_MOD, actorName: "Rook in VRChat", targetId: fakeUserId(1) });
    discord.moderate({ kind: "kick", actorId: DISCORD_MOD, targetId: fakeSnowflake(1), reason: "spamming the lobby" });
    // The bot's own ban in VRChat is Dwell's to record (with the staff member who asked), not the log's.
    member(2, "Finch");
    vrchat.moderate({ kind: "ban", actorId: FAKE_BOT_USER_ID, actorName: "Dwell Bot", targetId: fakeUserId(2) });
    await banPerson(services, { vrchatUserId: fakeUserId(1), discordUserId: fakeSnowflake(1), displayName: "Wren" }, "Harassment", { id: owner.id, username: owner.username, via: "sanctum", role: "owner" });

    const read = await readModerationLogs(services, new Date());
    expect(read.vrchat).toEqual({ added: 1, error: null });
    expect(read.discord).toEqual({ added: 1, error: null });
    expect(vrchat.requests.map(requestProblem).filter(Boolean)).toEqual([]);

    const { acts } = await listActs(database.db, {});
    expect(acts.map((act) => [act.place, act.kind, act.actorName]).toSorted()).toEqual([
      ["discord", "kick", "Rook"],
      ["dwell", "ban", "Owner Oak"],
      ["vrchat", "ban", "Rook in VRChat"],
    ]);
    // The Discord kick is known as Mod Rook's (their Discord account is on the Team page).
    const kick = acts.find((act) => act.place === "discord")!;
    expect(kick.actorKey).toBe(`staff:${moderator.id}`);
    expect(kick.reason).toBe("spamming the lobby");
    // The VRChat ban names the person as Dwell knows them (the ban list), not by a name in the log.
    expect(acts.find((act) => act.place === "vrchat")!.targetName).toBe("Wren");
    // Their file gathers all three by account id; Finch's file has nothing.
    expect(await actsOfPerson(database.db, { vrchat: [fakeUserId(1)], discord: [fakeSnowflake(1)] })).toHaveLength(3);
    expect(await actsOfPerson(database.db, { vrchat: [fakeUserId(2)], discord: [] })).toEqual([]);
    // Filters: by place, kind, moderator, person.
    expect((await listActs(database.db, { place: "discord" })).acts).toHaveLength(1);
    expect((await listActs(database.db, { kind: "ban" })).acts).toHaveLength(2);
    expect((await listActs(database.db, { moderator: `staff:${moderator.id}` })).acts).toHaveLength(1);
    expect((await listActs(database.db, { person: fakeSnowflake(1) })).acts).toHaveLength(2);
    expect((await listActs(database.db, { person: "wre" })).acts.length).toBeGreaterThanOrEqual(2);
    expect(await moderatorActivity(database.db, `staff:${moderator.id}`, new Date())).toEqual([{ week: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), counts: { kick: 1 } }]);

    // Read again: nothing new, nothing twice.
    expect(await readModerationLogs(services, new Date())).toMatchObject({ vrchat: { added: 0 }, discord: { added: 0 } });
    expect(await database.db.$count(moderationActs)).toBe(3);
  });

  it("carries on where a capped or failed read stopped, so no stretch is taken for a quiet one", async () => {
    const start = Date.now() - 3_600_000;
    const total = AUDIT_PAGES_PER_READ * 100 + 150;
    for (let i = 0; i < total; i++) {
      member(1_000 + i, `Member ${i}`);
      vrchat.moderate({ kind: "kick", actorId: VRCHAT_MOD, actorName: "Rook", targetId: fakeUserId(1_000 + i), at: new Date(start + i * 1_000) });
    }
    const first = await readModerationLogs(services, new Date());
    expect(first.vrchat).toEqual({ added: AUDIT_PAGES_PER_READ * 100, error: null });
    const [state] = await database.db.select().from(auditLogReads).where(eq(auditLogReads.place, "vrchat"));
    expect(state!.sweepBelow).not.toBeNull();

    // VRChat fails the next read: the error is kept, and nothing moves on.
    vrchat.setEndpoint("auditLogs", { status: 503, message: "Service Unavailable" });
    const failed = await readModerationLogs(services, new Date());
    expect(failed.vrchat).toMatchObject({ added: 0, error: expect.any(String) });
    // Discord's read went on all the same.
    expect(failed.discord).toEqual({ added: 0, error: null });
    const [kept] = await database.db.select().from(auditLogReads).where(eq(auditLogReads.place, "vrchat"));
    expect(kept!.sweepBelow).toBe(state!.sweepBelow);
    expect(kept!.lastError).toBeTruthy();

    // A new act arrives meanwhile; VRChat is back: the rest of the sweep, then the new act at the next read.
    vrchat.setEndpoint("auditLogs", "normal");
    member(5_000, "Late");
    vrchat.moderate({ kind: "ban", actorId: VRCHAT_MOD, actorName: "Rook", targetId: fakeUserId(5_000) });
    const second = await readModerationLogs(services, new Date());
    expect(second.vrchat).toEqual({ added: 150, error: null });
    const third = await readModerationLogs(services, new Date());
    expect(third.vrchat).toEqual({ added: 1, error: null });
    expect(await database.db.$count(moderationActs)).toBe(total + 1);
    const [done] = await database.db.select().from(auditLogReads).where(eq(auditLogReads.place, "vrchat"));
    expect(done).toMatchObject({ sweepBelow: null, sweepTop: null, lastError: null });
  });

  it("reads Discord's log down to the last entry held, and says so when the bot may not read it", async () => {
    for (let i = 0; i < 230; i++) discord.moderate({ kind: "ban", actorId: fakeSnowflake(950), targetId: fakeSnowflake(2_000 + i) });
    expect((await readModerationLogs(services, new Date())).discord).toEqual({ added: 230, error: null });
    discord.moderate({ kind: "timeout", actorId: fakeSnowflake(950), targetId: fakeSnowflake(3_000) });
    expect((await readModerationLogs(services, new Date())).discord).toEqual({ added: 1, error: null });
    // Three pages at first, then one: never the whole log again.
    expect(discord.requests.filter((request) => request.path.includes("/audit-logs")).length).toBe(4);
    discord.refuseAuditLog(true);
    const refused = await readModerationLogs(services, new Date());
    expect(refused.discord?.error).toMatch(/permission|Missing Permissions/i);
  });

  it("trips once for a moderator past a limit: the owners are told, the account suspended, and 'Undo' lifts the bans and gives the roles back in both places", async () => {
    await saveTripwireSettings(database.db, { ...TRIPWIRE_DEFAULTS, removalLimit: 10, roleRemovalLimit: 20, suspend: true });
    // Rook holds a linked role in Discord: it goes with the suspension, and comes back with its end.
    const link = await insertLink(database.db, { vrchatRoleId: "grol_regulars", vrchatRoleName: "Event Regular", discordRoleId: FAKE_REGULAR_ROLE_ID, discordRoleName: "Event Regular", direction: "both" }, "Owner Oak");
    await setLinkState(database.db, link.id, { state: "active" });
    discord.members.find((one) => one.id === DISCORD_MOD)!.roles = [FAKE_REGULAR_ROLE_ID];
    await replaceHolders(database.db, "discord", FAKE_REGULAR_ROLE_ID, [DISCORD_MOD], new Date());
    for (let i = 0; i < 11; i++) discord.moderate({ kind: "ban", actorId: DISCORD_MOD, targetId: fakeSnowflake(100 + i), reason: "raid" });
    discord.members.push({ id: fakeSnowflake(200), username: "regular", roles: [FAKE_REGULAR_ROLE_ID] });
    discord.moderate({ kind: "role_remove", actorId: DISCORD_MOD, targetId: fakeSnowflake(200), roleId: FAKE_REGULAR_ROLE_ID });
    // The same moderator in VRChat (their VRChat account is not known as theirs: counted on its own).
    member(3, "Heron");
    vrchat.group.roles.push({ id: "grol_regulars", name: "Event Regular", description: "", holders: [fakeUserId(3)] });
    vrchat.moderate({ kind: "role_remove", actorId: VRCHAT_MOD, actorName: "Rook", targetId: fakeUserId(3), roleId: "grol_regulars" });

    const read = await readModerationLogs(services, new Date());
    expect(read.tripped).toBe(1);
    const [trip] = await database.db.select().from(tripwireTrips);
    expect(trip).toMatchObject({ actorKey: `staff:${moderator.id}`, actorName: "Mod Rook", counts: { removals: 11, roleRemovals: 1 }, suspended: true });
    const [suspended] = await database.db.select().from(profiles).where(eq(profiles.id, moderator.id));
    expect(suspended!.suspendedAt).not.toBeNull();
    // Once per window, however often it looks.
    expect((await readModerationLogs(services, new Date())).tripped).toBe(0);

    expect(trip!.rolesTaken).toEqual([{ place: "discord", userId: DISCORD_MOD, roleId: FAKE_REGULAR_ROLE_ID, roleName: "Event Regular" }]);
    await worker.runOnce();
    expect(discord.members.find((one) => one.id === DISCORD_MOD)!.roles).not.toContain(FAKE_REGULAR_ROLE_ID);
    expect(discord.messages.filter((message) => message.userId === OWNER_DISCORD)).toEqual([expect.objectContaining({ content: expect.stringContaining("Mod Rook made 11 bans or kicks") })]);
    expect(discord.messages.find((message) => message.userId === OWNER_DISCORD)!.content).toContain("Their linked roles were taken until an owner lifts the suspension: Event Regular (Discord).");
    expect(discord.channelPosts.some((post) => post.content.includes("Mod Rook made 11 bans or kicks") && post.content.includes(`${SITE}/admin/moderation`))).toBe(true);

    // The trip is the staff member's: the VRChat account's act, not known as theirs, is not in it.
    const undone = await undoTrip(services, trip!.id, { id: owner.id, username: owner.username, via: "sanctum", role: "owner" });
    expect(undone).toEqual({ kind: "undone", unbanned: 11, rolesBack: 1, notUndone: 0 });
    expect(await undoTrip(services, trip!.id, { id: owner.id, username: owner.username, via: "sanctum", role: "owner" })).toEqual({ kind: "already" });
    await worker.runOnce();
    await worker.runOnce();
    const banned = Array.from({ length: 11 }, (_, i) => fakeSnowflake(100 + i));
    expect([...discord.bans.keys()].filter((id) => banned.includes(id))).toEqual([]);
    expect(discord.members.find((one) => one.id === fakeSnowflake(200))!.roles).toContain(FAKE_REGULAR_ROLE_ID);
    // The role given back is in the history, as the owner's act with the trip's reason.
    const given = (await listActs(database.db, { kind: "role_add" })).acts;
    expect(given).toEqual([expect.objectContaining({ place: "dwell", actorName: "Owner Oak", reason: "Undo of the tripwire on Mod Rook" })]);

    await closeTrip(database.db, trip!.id, { id: owner.id, name: owner.username }, true);
    const [lifted] = await database.db.select().from(profiles).where(eq(profiles.id, moderator.id));
    expect(lifted!.suspendedAt).toBeNull();
    await worker.runOnce();
    expect(discord.members.find((one) => one.id === DISCORD_MOD)!.roles).toContain(FAKE_REGULAR_ROLE_ID);
  });

  it("gives a role back in VRChat when a VRChat moderator's trip is undone, and never suspends an owner", async () => {
    await saveTripwireSettings(database.db, { ...TRIPWIRE_DEFAULTS, roleRemovalLimit: 2, suspend: true });
    vrchat.group.roles.push({ id: "grol_regulars", name: "Event Regular", description: "", holders: [] });
    for (const n of [11, 12, 13]) {
      member(n, `Regular ${n}`);
      vrchat.group.roles.at(-1)!.holders.push(fakeUserId(n));
      vrchat.moderate({ kind: "role_remove", actorId: VRCHAT_MOD, actorName: "Rook", targetId: fakeUserId(n), roleId: "grol_regulars" });
    }
    expect((await readModerationLogs(services, new Date())).tripped).toBe(1);
    const [trip] = await database.db.select().from(tripwireTrips);
    expect(trip).toMatchObject({ actorKey: `vrchat:${VRCHAT_MOD}`, suspended: false, profileId: null });
    expect(await undoTrip(services, trip!.id, { id: owner.id, username: owner.username, via: "sanctum", role: "owner" })).toEqual({ kind: "undone", unbanned: 0, rolesBack: 3, notUndone: 0 });
    for (let i = 0; i < 4; i++) await worker.runOnce();
    expect(vrchat.group.roles.find((role) => role.id === "grol_regulars")!.holders.toSorted()).toEqual([fakeUserId(11), fakeUserId(12), fakeUserId(13)].toSorted());
    expect(vrchat.requests.map(requestProblem).filter(Boolean)).toEqual([]);
    // The bot's own gives are in VRChat's log, and left to Dwell's record when read.
    await readModerationLogs(services, new Date());
    expect((await listActs(database.db, { place: "vrchat", kind: "role_add" })).acts).toEqual([]);
    expect((await listActs(database.db, { place: "dwell", kind: "role_add" })).acts).toHaveLength(3);
    expect(discord.requests.every((request) => !request.path.includes(FAKE_DISCORD_BOT_ID) || request.method === "GET")).toBe(true);
  });
});
