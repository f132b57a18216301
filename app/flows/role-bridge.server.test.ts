/**
 * The role bridge against VRChat's and Discord's fakes over loopback and a real database: a link is
 * refused when it could not work, read, shown as a dry run, filled at its pace, and then kept in step
 * from the audit logs (a role given by hand in one place appears in the other, a member leaving loses
 * the linked role, a ban takes it in both), only ever for people known in both places.
 */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { applications, auditLogReads, callPaces, jobRuns, moderationActs, outbox, personPairs, profiles, roleHoldings, roleLinks, tripwireTrips, vrchatSessions } from "~/db/schema";
import { createDiscordBot } from "~/features/discord/discord-bot.server";
import { listActs } from "~/features/moderation/moderation.server";
import { createOutboxWorker, type OutboxWorker } from "~/features/notifications/outbox.server";
import { confirmPair, provenOnOneSide } from "~/features/people/identities.server";
import { getLink, planFill, removeLink } from "~/features/roles/role-links.server";
import { createPacer } from "~/features/vrchat/vrchat-actions.server";
import { createVRChatAuditLog } from "~/features/vrchat/vrchat-audit-log.server";
import { createVRChatClient } from "~/features/vrchat/vrchat-client.server";
import { createVRChatMembership } from "~/features/vrchat/vrchat-membership.server";
import { createRoleKeeper, createRoleReader } from "~/features/vrchat/vrchat-roles.server";
import { databaseSessionStore } from "~/features/vrchat/vrchat-session.server";
import { FAKE_ADMINS_ROLE_ID, FAKE_DISCORD_TOKEN, FAKE_GUILD_ID, FAKE_REGULAR_ROLE_ID, fakeSnowflake, startFakeDiscordBot, type FakeDiscordBot } from "../../tests/fakes/discord-bot";
import { FAKE_GROUP_ID, FAKE_SESSION_SECRET, FAKE_USERNAME, fakeUserId, fakeVRChatAccount, startFakeVRChat, type FakeVRChat } from "../../tests/fakes/vrchat";
import { requestProblem } from "../../tests/fakes/vrchat-contract";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../tests/setup/test-database";
import { decideServices } from "./decide.server";
import { memberRoleChannel, memberRoleSettled } from "./member-roles.server";
import { readModerationLogs, type ModerationLogServices } from "./moderation-log.server";
import { createRoleLink, dryRun, roleLinkReadChannel, startFill, type RoleBridgeServices } from "./role-bridge.server";
import { tripwireServices } from "./tripwire.server";

const SITE = "https://dwell.example";
const REGULAR = "grol_regular";
const MOD_V = fakeUserId(900);
const MOD_D = fakeSnowflake(900);

describeEachDatabase("the role bridge", (kind) => {
  let database: TestDatabase;
  let vrchat: FakeVRChat;
  let discord: FakeDiscordBot;
  let bridge: RoleBridgeServices;
  let logs: ModerationLogServices;
  let worker: OutboxWorker;
  const owner = { id: "", name: "Owner Oak" };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    for (const table of [moderationActs, auditLogReads, tripwireTrips, outbox, vrchatSessions, roleLinks, roleHoldings, personPairs, applications, jobRuns, callPaces, profiles]) await database.db.delete(table);
    const [row] = await database.db.insert(profiles).values({ username: owner.name, email: `oak-${kind}@dwell.example`, role: "owner" }).returning();
    owner.id = row!.id;
    vrchat = await startFakeVRChat();
    discord = await startFakeDiscordBot();
    vrchat.group.roles.push({ id: REGULAR, name: "Event Regular", description: "", holders: [] }, { id: "grol_owner", name: "Owner", description: "", holders: [], management: true });
    const client = createVRChatClient({ ...fakeVRChatAccount(vrchat), store: databaseSessionStore(database.db, FAKE_USERNAME, FAKE_SESSION_SECRET), baseDelayMs: 5, maxAttempts: 1 });
    const bot = createDiscordBot({ apiUrl: discord.url, token: FAKE_DISCORD_TOKEN, guildId: FAKE_GUILD_ID, memberRoleId: null, siteUrl: SITE, timeoutMs: 5_000 });
    // 600 a minute: a change every 100 ms, so the fill's pace shows within a test.
    bridge = { db: database.db, vrchat: createRoleReader(client, FAKE_GROUP_ID), vrchatActs: true, discord: bot, callsPerMinute: 600, wake: () => undefined };
    const membership = createVRChatMembership({ client, groupId: FAKE_GROUP_ID, timeoutMs: 5_000, actionSpacingMs: 0 });
    const decide = decideServices({ db: database.db, config: { PUBLIC_URL: SITE }, vrchat: { membership, membershipActions: true }, discord: bot, notifications: { wake: () => undefined } });
    logs = { ...tripwireServices(decide, true), auditLog: createVRChatAuditLog({ client, groupId: FAKE_GROUP_ID }), bridge };
    worker = createOutboxWorker(database.db, [roleLinkReadChannel(bridge, 5_000), memberRoleChannel({ db: database.db, vrchat: createRoleKeeper({ client, groupId: FAKE_GROUP_ID, pacer: createPacer(0) }), discord: bot, timeoutMs: 5_000 })], {
      maxAttempts: 5,
      retryBaseMs: 1,
      batchSize: 50,
      onSettled: (job) => (job.target === "member_role" ? memberRoleSettled(database.db, job.payload) : Promise.resolve()),
    });
  });
  afterEach(async () => {
    await vrchat.close();
    await discord.close();
  });

  /** A person in both places; `proven`: their application proves both accounts (else only VRChat's). */
  async function person(n: number, name: string, { proven = true, vrchatRole = false, discordRole = false } = {}) {
    vrchat.group.people.push({ id: fakeUserId(n), displayName: name, status: "member" });
    if (vrchatRole) vrchat.group.roles.find((role) => role.id === REGULAR)!.holders.push(fakeUserId(n));
    discord.members.push({ id: fakeSnowflake(n), username: name.toLowerCase(), roles: discordRole ? [FAKE_REGULAR_ROLE_ID] : [] });
    await database.db.insert(applications).values({
      vrchatUsername: name,
      discordId: name.toLowerCase(),
      status: "approved",
      vrchatUserId: fakeUserId(n),
      vrchatDisplayName: name,
      vrchatLinkedHow: "proven",
      discordUserId: fakeSnowflake(n),
      discordLinkedHow: proven ? "proven" : "name",
    });
  }
  const holdsV = (n: number) => vrchat.group.roles.find((role) => role.id === REGULAR)!.holders.includes(fakeUserId(n));
  const holdsD = (n: number) => discord.members.find((member) => member.id === fakeSnowflake(n))?.roles?.includes(FAKE_REGULAR_ROLE_ID) ?? false;
  async function drain() {
    for (let i = 0; i < 60; i++) {
      await worker.runOnce();
      const waiting = await database.db.$count(outbox, eq(outbox.status, "pending"));
      if (waiting === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    throw new Error("the outbox did not drain");
  }

  it("refuses a link that could not work, with the reason", async () => {
    const link = (vrchatRoleId: string, discordRoleId: string) => createRoleLink(bridge, { vrchatRoleId, discordRoleId, direction: "both" }, owner);
    expect(await link("grol_gone", FAKE_REGULAR_ROLE_ID)).toEqual({ kind: "refused", reason: "That VRChat role no longer exists." });
    expect(await link(REGULAR, "121212121212121212")).toEqual({ kind: "refused", reason: "That Discord role no longer exists." });
    expect(await link("grol_owner", FAKE_REGULAR_ROLE_ID)).toMatchObject({ kind: "refused", reason: expect.stringContaining("management role") });
    expect(await link(REGULAR, FAKE_ADMINS_ROLE_ID)).toMatchObject({ kind: "refused", reason: expect.stringContaining("above the bot's own highest role") });
    expect(await link(REGULAR, "888888888888888888")).toMatchObject({ kind: "refused", reason: expect.stringContaining("managed by an integration") });
    expect(await link(REGULAR, FAKE_REGULAR_ROLE_ID)).toMatchObject({ kind: "linked" });
    // The same role in a second link could undo the first.
    vrchat.group.roles.push({ id: "grol_other", name: "Other", description: "", holders: [] });
    expect(await link("grol_other", FAKE_REGULAR_ROLE_ID)).toMatchObject({ kind: "refused", reason: expect.stringContaining("already linked") });
  });

  it("links 'Event Regular' both ways: a dry run, a paced fill, then roles given by hand follow into the other place; one proven on one side only is left alone", async () => {
    await person(1, "Wren", { vrchatRole: true });
    await person(2, "Finch", { discordRole: true });
    await person(3, "Heron");
    await person(4, "Crow", { proven: false, vrchatRole: true });
    const made = await createRoleLink(bridge, { vrchatRoleId: REGULAR, discordRoleId: FAKE_REGULAR_ROLE_ID, direction: "both" }, owner);
    if (made.kind !== "linked") throw new Error(made.reason);
    await drain();
    const ready = (await getLink(database.db, made.link.id))!;
    expect(ready.state).toBe("ready");

    const preview = await dryRun(database.db, ready);
    expect(preview.counts).toEqual({ vrchatGain: 1, vrchatLose: 0, discordGain: 1, discordLose: 0, pairs: 3 });
    expect(preview.samples).toEqual({ vrchatGain: ["Finch"], vrchatLose: [], discordGain: ["Wren"], discordLose: [] });
    // Nothing was changed by the dry run.
    expect([holdsD(1), holdsV(2)]).toEqual([false, false]);
    expect(await provenOnOneSide(database.db)).toEqual({ vrchatOnly: 1, discordOnly: 0 });

    expect(await startFill(bridge, ready.id, owner)).toEqual({ kind: "filling", total: 2 });
    const jobs = await database.db.select().from(outbox).where(eq(outbox.target, "member_role"));
    const times = jobs.map((job) => job.nextAttemptAt.getTime()).toSorted();
    // One change every 100 ms at the most (600 a minute).
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(95);
    await drain();
    expect([holdsD(1), holdsV(2), holdsD(4)]).toEqual([true, true, false]);
    expect((await getLink(database.db, ready.id))!.state).toBe("active");
    // Each change is in the history, with the link that caused it.
    expect((await listActs(database.db, { place: "dwell", kind: "role_add" })).acts.map((act) => act.reason)).toEqual([
      "Role link: Event Regular (VRChat) ⇄ Event Regular (Discord)",
      "Role link: Event Regular (VRChat) ⇄ Event Regular (Discord)",
    ]);

    // A moderator gives Heron the role in VRChat: it appears in Discord. Then takes Finch's in Discord: gone in VRChat.
    vrchat.moderate({ kind: "role_add", actorId: MOD_V, actorName: "Rook", targetId: fakeUserId(3), roleId: REGULAR });
    discord.moderate({ kind: "role_remove", actorId: MOD_D, targetId: fakeSnowflake(2), roleId: FAKE_REGULAR_ROLE_ID });
    // Crow (proven in VRChat only) is given it by hand: nothing follows into Discord.
    vrchat.moderate({ kind: "role_add", actorId: MOD_V, actorName: "Rook", targetId: fakeUserId(4), roleId: REGULAR });
    await readModerationLogs(logs, new Date());
    await drain();
    expect([holdsD(3), holdsV(2), holdsD(4)]).toEqual([true, false, false]);
    // The bridge's own changes are never followed back (no loop): another read changes nothing.
    await readModerationLogs(logs, new Date());
    expect(await database.db.$count(outbox, eq(outbox.status, "pending"))).toBe(0);
    expect(vrchat.requests.map(requestProblem).filter(Boolean)).toEqual([]);
  });

  it("takes the linked role in Discord when a member leaves the VRChat group, and in both places on a ban", async () => {
    await person(1, "Wren", { vrchatRole: true, discordRole: true });
    await person(2, "Finch", { vrchatRole: true, discordRole: true });
    const made = await createRoleLink(bridge, { vrchatRoleId: REGULAR, discordRoleId: FAKE_REGULAR_ROLE_ID, direction: "to_discord" }, owner);
    if (made.kind !== "linked") throw new Error(made.reason);
    await drain();
    expect(await startFill(bridge, made.link.id, owner)).toEqual({ kind: "filling", total: 0 });
    vrchat.leave(fakeUserId(1));
    discord.moderate({ kind: "ban", actorId: MOD_D, targetId: fakeSnowflake(2), reason: "raid" });
    await readModerationLogs(logs, new Date());
    await drain();
    expect(holdsD(1)).toBe(false);
    // A ban takes it in both places, whichever way the link runs.
    expect(holdsV(2)).toBe(false);
    expect((await listActs(database.db, { place: "dwell", kind: "role_remove" })).acts.map((act) => act.reason).toSorted()).toEqual([
      "Role link: Event Regular (VRChat) ⇄ Event Regular (Discord): banned",
      "Role link: Event Regular (VRChat) ⇄ Event Regular (Discord): left or removed",
    ]);
  });

  it("waits while VRChat is down during a fill and goes on where it stopped: each role given once, none taken", async () => {
    for (const n of [1, 2, 3]) await person(n, `Bird ${n}`, { discordRole: true });
    const made = await createRoleLink(bridge, { vrchatRoleId: REGULAR, discordRoleId: FAKE_REGULAR_ROLE_ID, direction: "both" }, owner);
    if (made.kind !== "linked") throw new Error(made.reason);
    await drain();
    vrchat.setEndpoint("giveRole", { status: 503, message: "Service Unavailable" });
    expect(await startFill(bridge, made.link.id, owner)).toEqual({ kind: "filling", total: 3 });
    await new Promise((resolve) => setTimeout(resolve, 350));
    await worker.runOnce();
    expect(vrchat.group.roles.find((role) => role.id === REGULAR)!.holders).toEqual([]);
    expect((await getLink(database.db, made.link.id))!.state).toBe("filling");
    vrchat.setEndpoint("giveRole", "normal");
    await drain();
    expect([holdsV(1), holdsV(2), holdsV(3)]).toEqual([true, true, true]);
    expect(vrchat.roleWrites.filter((write) => write.kind === "give").map((write) => write.userId).toSorted()).toEqual([fakeUserId(1), fakeUserId(2), fakeUserId(3)].toSorted());
    expect(vrchat.roleWrites.filter((write) => write.kind === "take")).toEqual([]);
    expect((await getLink(database.db, made.link.id))!.state).toBe("active");
  });

  it("sends nothing more once a link is removed, and counts a staff member's word as proof", async () => {
    await person(1, "Wren", { vrchatRole: true, proven: false });
    await confirmPair(database.db, { vrchatUserId: fakeUserId(1), discordUserId: fakeSnowflake(1) }, { id: owner.id, name: owner.name });
    const made = await createRoleLink(bridge, { vrchatRoleId: REGULAR, discordRoleId: FAKE_REGULAR_ROLE_ID, direction: "to_discord" }, { name: owner.name });
    if (made.kind !== "linked") throw new Error(made.reason);
    await drain();
    expect((await dryRun(database.db, (await getLink(database.db, made.link.id))!)).counts.discordGain).toBe(1);
    bridge.callsPerMinute = 1;
    await startFill(bridge, made.link.id, owner);
    await removeLink(database.db, made.link.id, owner.name);
    await drain();
    expect(holdsD(1)).toBe(false);
  });

  it("plans one way from the source's holders and both ways without taking anything", () => {
    const pairs = [1, 2, 3].map((n) => ({ vrchatUserId: `v${n}`, discordUserId: `d${n}` }));
    const vrchatHolders = new Set(["v1"]);
    const discordHolders = new Set(["d2"]);
    expect(planFill("to_discord", pairs, vrchatHolders, discordHolders)).toEqual({ vrchat: { gain: [], lose: [] }, discord: { gain: [pairs[0]], lose: [pairs[1]] } });
    expect(planFill("to_vrchat", pairs, vrchatHolders, discordHolders)).toEqual({ vrchat: { gain: [pairs[1]], lose: [pairs[0]] }, discord: { gain: [], lose: [] } });
    expect(planFill("both", pairs, vrchatHolders, discordHolders)).toEqual({ vrchat: { gain: [pairs[1]], lose: [] }, discord: { gain: [pairs[0]], lose: [] } });
  });
});
