/**
 * Bans against the VRChat and Discord fakes over loopback and a real database: a ban made in Dwell
 * reaches VRChat and Discord once each (as outbox jobs, delivered by their channels), rejects the
 * person's open applications, is refused a second time, and is lifted by an unban; VRChat's own list
 * is kept in step.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { applicationAuditLog, applicationQuestions, applications, bans, eventApplications, events, outbox, profiles, siteSettings, vrchatSessions } from "~/db/schema";
import { answerFieldName, type FormQuestion } from "~/features/applications/answers";
import { listFormQuestions, submitApplication } from "~/features/applications/applications.server";
import { setRejectBanned } from "~/features/accounts/site-settings.server";
import { banInForce, listBans } from "~/features/bans/bans.server";
import { newStatusToken } from "~/features/decisions/decisions.server";
import { createDiscordBot, type DiscordBot } from "~/features/discord/discord-bot.server";
import { createVRChatClient } from "~/features/vrchat/vrchat-client.server";
import { createVRChatMembership, type VRChatMembership } from "~/features/vrchat/vrchat-membership.server";
import { databaseSessionStore } from "~/features/vrchat/vrchat-session.server";
import { FAKE_DISCORD_TOKEN, FAKE_GUILD_ID, FAKE_MEMBER_ROLE_ID, fakeSnowflake, startFakeDiscordBot, type FakeDiscordBot } from "../../tests/fakes/discord-bot";
import { FAKE_GROUP_ID, FAKE_SESSION_SECRET, FAKE_USERNAME, fakeUserId, fakeVRChatAccount, startFakeVRChat, type FakeVRChat } from "../../tests/fakes/vrchat";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../tests/setup/test-database";
import { banApplicant, banPerson, readVRChatBans, rejectIfBanned, unbanPerson } from "./bans.server";
import type { DecideServices, Decider } from "./decide.server";

describeEachDatabase("one ban list, carried to VRChat and Discord", (kind) => {
  let database: TestDatabase;
  let fake: FakeVRChat;
  let bot: FakeDiscordBot;
  let membership: VRChatMembership;
  let discord: DiscordBot;
  let services: DecideServices;
  let questions: FormQuestion[];
  let keeper: Decider;
  const CROW = { vrchat: fakeUserId(1), discord: fakeSnowflake(1), name: "Pushy Crow" };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await database.db.insert(applicationQuestions).values([{ question: "What is your VRChat username?", orderIndex: 0 }]);
    questions = await listFormQuestions(database.db, { kind: "group" });
    const [profile] = await database.db.insert(profiles).values({ username: "keeper", email: "keeper@dwell.example", role: "admin" }).returning({ id: profiles.id });
    keeper = { id: profile!.id, username: "keeper", via: "sanctum", role: "admin" };
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    for (const table of [applications, applicationAuditLog, eventApplications, events, bans, outbox, vrchatSessions, siteSettings]) await database.db.delete(table);
    [fake, bot] = await Promise.all([startFakeVRChat(), startFakeDiscordBot()]);
    fake.group.people.push({ id: CROW.vrchat, displayName: CROW.name, status: "requested" }, { id: fakeUserId(2), displayName: "Old Foe", status: "banned", bannedAt: "2025-01-02T03:04:05.000Z" });
    bot.members.push({ id: CROW.discord, username: "pushycrow", globalName: CROW.name });
    membership = createVRChatMembership({
      client: createVRChatClient({ ...fakeVRChatAccount(fake), store: databaseSessionStore(database.db, FAKE_USERNAME, FAKE_SESSION_SECRET), baseDelayMs: 5 }),
      groupId: FAKE_GROUP_ID,
      timeoutMs: 2_000,
      actionSpacingMs: 0,
    });
    discord = createDiscordBot({ apiUrl: bot.url, token: FAKE_DISCORD_TOKEN, guildId: FAKE_GUILD_ID, memberRoleId: FAKE_MEMBER_ROLE_ID, siteUrl: "https://dwell.example", timeoutMs: 5_000 });
    services = { db: database.db, vrchat: { membership, membershipActions: true }, discord, discordInvite: null, wake: () => {}, siteOrigin: "https://dwell.example" };
  });
  afterEach(async () => {
    await fake.close();
    await bot.close();
  });

  async function applyToGroup(name: string) {
    const values: Record<string, string> = { [answerFieldName(questions[0]!.id)]: name };
    const result = await submitApplication(database.db, {
      scope: { kind: "group" },
      questions,
      fields: (field) => values[field],
      now: new Date(),
      statusTokenHash: newStatusToken().hash,
      vet: async () => ({ found: { check: "confirmed", account: { userId: CROW.vrchat, displayName: CROW.name } } }),
    });
    if (!result.ok) throw new Error(result.message);
    return result.application.id;
  }

  /** Delivers the ban jobs queued, as the action worker does: VRChat's by the membership, Discord's by the bot. */
  async function deliverBanJobs() {
    const jobs = await database.db.select().from(outbox).where(eq(outbox.status, "pending"));
    const outcomes = [];
    for (const job of jobs) {
      if (job.target === "vrchat_ban") outcomes.push(await membership.bans.channel.deliver(job.payload));
      if (job.target === "discord_ban") outcomes.push(await discord.channels[2].deliver(job.payload));
      if (job.target === "vrchat_ban" || job.target === "discord_ban") await database.db.update(outbox).set({ status: "delivered" }).where(eq(outbox.id, job.id));
    }
    return outcomes;
  }

  it("bans in VRChat and Discord once each, with the reason; rejects their open applications; refuses a second ban; unbans", async () => {
    const application = await applyToGroup(CROW.name);
    const [event] = await database.db.insert(events).values({ title: "Lantern Walk", eventDate: "2031-05-01", eventTime: "20:00", worldName: "W" }).returning({ id: events.id });
    const [attendee] = await database.db.insert(eventApplications).values({ eventId: event!.id, vrchatUsername: CROW.name, discordUserId: CROW.discord, statusTokenHash: newStatusToken().hash }).returning({ id: eventApplications.id });

    const banned = await banPerson(services, { vrchatUserId: CROW.vrchat, discordUserId: CROW.discord, displayName: CROW.name }, "Harassed members at the door.", keeper);
    expect(banned).toMatchObject({ kind: "banned", rejected: 2, ban: { displayName: CROW.name, reason: "Harassed members at the door.", bannedBy: "keeper", source: "dwell" } });
    const statuses = async () => [
      (await database.db.select({ status: applications.status }).from(applications).where(eq(applications.id, application)))[0]!.status,
      (await database.db.select({ status: eventApplications.status }).from(eventApplications).where(eq(eventApplications.id, attendee!.id)))[0]!.status,
    ];
    expect(await statuses()).toEqual(["rejected", "rejected"]);
    expect(await deliverBanJobs()).toEqual(expect.arrayContaining([{ kind: "delivered", result: "Banned in VRChat" }, { kind: "delivered", result: "Banned in Discord" }]));
    expect(fake.actions.filter((action) => action.kind === "ban")).toEqual([expect.objectContaining({ userId: CROW.vrchat })]);
    expect(bot.bans.get(CROW.discord)).toBe("Harassed members at the door.");
    // A later application of theirs is known at once: by their VRChat account, or by their Discord account alone.
    expect(await banInForce(database.db, { vrchatUserId: CROW.vrchat, discordUserId: null })).toMatchObject({ reason: "Harassed members at the door." });
    expect(await banInForce(database.db, { vrchatUserId: null, discordUserId: CROW.discord })).toMatchObject({ displayName: CROW.name });

    // Banned already: refused, nothing more sent.
    expect(await banPerson(services, { vrchatUserId: CROW.vrchat, discordUserId: null, displayName: CROW.name }, "Again.", keeper)).toMatchObject({ kind: "already" });
    expect(await deliverBanJobs()).toEqual([]);

    // Unbanned: lifted in both, once; a second unban finds nothing in force.
    const lifted = await unbanPerson(services, (banned as { ban: { id: string } }).ban.id, keeper);
    expect(lifted).toMatchObject({ liftedBy: "keeper" });
    expect(await deliverBanJobs()).toEqual(expect.arrayContaining([{ kind: "delivered", result: "Unbanned in VRChat" }, { kind: "delivered", result: "Unbanned in Discord" }]));
    expect(bot.bans.has(CROW.discord)).toBe(false);
    expect(await unbanPerson(services, lifted!.id, keeper)).toBeNull();
    expect(await banInForce(database.db, { vrchatUserId: CROW.vrchat, discordUserId: CROW.discord })).toBeNull();
  });

  it("a card's ban of an account matched by name only stays on the site unless the staff member confirms that account", async () => {
    // Someone applies as Crow with Crow's profile link: Crow's account is linked by its name alone.
    const impostor = await applyToGroup(CROW.name);
    const review = { kind: "group" as const, id: impostor, eventId: null };
    const banned = await banApplicant(services, review, "Pretended to be someone else.", keeper);
    expect(banned).toMatchObject({ kind: "banned", rejected: 1, ban: { reach: "site", vrchatUserId: CROW.vrchat } });
    // Nothing reaches VRChat or Discord, nor answers Crow's own join request there.
    expect(await database.db.select({ target: outbox.target }).from(outbox)).toEqual([]);
    // It holds against the same claim, never against the account proven or confirmed as someone's.
    expect(await banInForce(database.db, { vrchatUserId: CROW.vrchat, discordUserId: null, vrchatLinkedHow: "name" })).toMatchObject({ reach: "site" });
    expect(await banInForce(database.db, { vrchatUserId: CROW.vrchat, discordUserId: null, vrchatLinkedHow: "proven" })).toBeNull();
    expect(await banInForce(database.db, { vrchatUserId: CROW.vrchat, discordUserId: null, vrchatLinkedHow: "staff" })).toBeNull();

    // Banned again from a card where the staff member confirmed it is that account: it reaches VRChat now.
    const second = await applyToGroup("Crow Again");
    const confirmed = await banApplicant(services, { kind: "group", id: second, eventId: null }, "It is them.", keeper, { vrchatUserId: CROW.vrchat });
    expect(confirmed).toMatchObject({ kind: "banned", ban: { reach: "everywhere", id: (banned as { ban: { id: string } }).ban.id } });
    // The ban, and (the application rejected, its account now confirmed) the answer to Crow's request.
    expect((await database.db.select({ target: outbox.target }).from(outbox)).map((job) => job.target).sort()).toEqual(["vrchat_ban", "vrchat_membership"]);
    const [link] = await database.db.select({ how: applications.vrchatLinkedHow }).from(applications).where(eq(applications.id, second));
    expect(link!.how).toBe("staff");
    expect(await banInForce(database.db, { vrchatUserId: CROW.vrchat, discordUserId: null, vrchatLinkedHow: "proven" })).toMatchObject({ reach: "everywhere" });
    // A confirmation of another account than the one linked confirms nothing.
    expect(await banApplicant(services, { kind: "group", id: await applyToGroup("Third Crow"), eventId: null }, "x", keeper, { vrchatUserId: fakeUserId(9) })).toMatchObject({ kind: "already" });
  });

  it("waits and tries again while VRChat is down, and tells a ban done already from a failure", async () => {
    await banPerson(services, { vrchatUserId: CROW.vrchat, discordUserId: null, displayName: CROW.name }, "Spam.", keeper);
    const [job] = await database.db.select().from(outbox).where(eq(outbox.target, "vrchat_ban"));
    await fake.setMode("down");
    expect(await membership.bans.channel.deliver(job!.payload)).toMatchObject({ kind: "retry" });
    await fake.setMode("normal");
    // Banned by hand in VRChat meanwhile: done already.
    fake.group.people.find((person) => person.id === CROW.vrchat)!.status = "banned";
    expect(await membership.bans.channel.deliver(job!.payload)).toEqual({ kind: "delivered", result: "Already banned in VRChat: nothing to do" });
    // The bot's role without the permission: a failure that says what to fix.
    fake.setEndpoint("ban", { status: 403, message: "You don't have permission to do that." });
    expect(await membership.bans.channel.deliver({ ...(job!.payload as object), userId: fakeUserId(3) })).toMatchObject({ kind: "failed", error: expect.stringContaining("group-bans-manage") });
  });

  it("keeps VRChat's own ban list in step: bans made there are added, those lifted there are lifted", async () => {
    expect(await readVRChatBans(database.db, membership, new Date())).toEqual({ added: 1, lifted: 0 });
    expect(await listBans(database.db, new Date())).toEqual([expect.objectContaining({ vrchatUserId: fakeUserId(2), displayName: "Old Foe", source: "vrchat", bannedBy: "VRChat", bannedAt: "2025-01-02T03:04:05.000Z", liftedAt: null })]);
    expect(await readVRChatBans(database.db, membership, new Date())).toEqual({ added: 0, lifted: 0 });
    fake.group.people.find((person) => person.id === fakeUserId(2))!.status = "none";
    expect(await readVRChatBans(database.db, membership, new Date())).toEqual({ added: 0, lifted: 1 });
    expect(await banInForce(database.db, { vrchatUserId: fakeUserId(2), discordUserId: null })).toBeNull();
  });

  it("does not take a person Dwell is unbanning, still on VRChat's list until the job is done, for a new ban made there", async () => {
    const banned = await banPerson(services, { vrchatUserId: CROW.vrchat, discordUserId: null, displayName: CROW.name }, "Spam.", keeper);
    await deliverBanJobs();
    expect(fake.group.people.find((person) => person.id === CROW.vrchat)!.status).toBe("banned");
    await unbanPerson(services, (banned as { ban: { id: string } }).ban.id, keeper);
    // The read comes before the unban job: VRChat still lists them.
    expect(await readVRChatBans(database.db, membership, new Date())).toEqual({ added: 1, lifted: 0 });
    expect(await banInForce(database.db, { vrchatUserId: CROW.vrchat, discordUserId: null })).toBeNull();
    expect((await listBans(database.db, new Date())).filter((ban) => ban.vrchatUserId === CROW.vrchat)).toEqual([expect.objectContaining({ source: "dwell", liftedBy: "keeper" })]);
    await deliverBanJobs();
    expect(await readVRChatBans(database.db, membership, new Date())).toEqual({ added: 0, lifted: 0 });
    expect(await banInForce(database.db, { vrchatUserId: CROW.vrchat, discordUserId: null })).toBeNull();

    // An unban VRChat refused leaves them banned there: the next read shows it.
    const again = await banPerson(services, { vrchatUserId: CROW.vrchat, discordUserId: null, displayName: CROW.name }, "Spam again.", keeper);
    await deliverBanJobs();
    await unbanPerson(services, (again as { ban: { id: string } }).ban.id, keeper);
    await database.db.update(outbox).set({ status: "failed" }).where(eq(outbox.status, "pending"));
    expect(await readVRChatBans(database.db, membership, new Date())).toEqual({ added: 1, lifted: 0 });
    expect(await banInForce(database.db, { vrchatUserId: CROW.vrchat, discordUserId: null })).toMatchObject({ source: "vrchat", bannedBy: "VRChat" });
  });

  it("does not take a person unbanned in Dwell while VRChat's list was being read for a new ban made there", async () => {
    const banned = await banPerson(services, { vrchatUserId: CROW.vrchat, discordUserId: null, displayName: CROW.name }, "Spam.", keeper);
    await deliverBanJobs();
    // The list is read while Crow is still banned; the unban comes before the read is written down.
    const unbanDuringRead: VRChatMembership = {
      ...membership,
      bans: {
        ...membership.bans,
        list: async (pages) => {
          const read = await membership.bans.list(pages);
          await unbanPerson(services, (banned as { ban: { id: string } }).ban.id, keeper);
          return read;
        },
      },
    };
    expect(await readVRChatBans(database.db, unbanDuringRead, new Date())).toEqual({ added: 1, lifted: 0 });
    expect(await banInForce(database.db, { vrchatUserId: CROW.vrchat, discordUserId: null })).toBeNull();
    await deliverBanJobs();
    expect(await readVRChatBans(database.db, membership, new Date())).toEqual({ added: 0, lifted: 0 });
    expect(await banInForce(database.db, { vrchatUserId: CROW.vrchat, discordUserId: null })).toBeNull();
  });

  it("rejects a banned person's new application as it arrives only when the owner chose so", async () => {
    await banPerson(services, { vrchatUserId: CROW.vrchat, discordUserId: null, displayName: CROW.name }, "Spam.", keeper);
    const first = await applyToGroup(CROW.name);
    expect(await rejectIfBanned(services, { kind: "group", id: first, eventId: null })).toBe(false);
    expect((await database.db.select({ status: applications.status }).from(applications).where(eq(applications.id, first)))[0]!.status).toBe("pending");
    await setRejectBanned(database.db, true, { id: keeper.id, username: "keeper" });
    expect(await rejectIfBanned(services, { kind: "group", id: first, eventId: null })).toBe(true);
    expect((await database.db.select({ status: applications.status }).from(applications).where(eq(applications.id, first)))[0]!.status).toBe("rejected");
    const [history] = await database.db.select({ actor: applicationAuditLog.actorName, to: applicationAuditLog.toValue }).from(applicationAuditLog).where(and(eq(applicationAuditLog.applicationId, first), eq(applicationAuditLog.field, "status")));
    expect(history).toEqual({ actor: "Dwell (the ban list)", to: "rejected" });
  });
});
