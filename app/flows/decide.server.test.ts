/**
 * The decision flow, as each entry point calls it (one card's decision, the bulk bar, a staff
 * member's own choice of account, the bulk bar's confirmation), against the VRChat fake over
 * loopback and a real database: the rule that links an applicant acts at the decision, whichever
 * entry point makes it.
 */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { applicationAuditLog, applicationQuestions, applications, outbox, profiles, vrchatSessions } from "~/db/schema";
import { answerFieldName, type FormQuestion } from "~/features/applications/answers";
import { listFormQuestions, submitApplication } from "~/features/applications/applications.server";
import { createVRChatClient } from "~/features/vrchat/vrchat-client.server";
import { createVRChatMembership } from "~/features/vrchat/vrchat-membership.server";
import { databaseSessionStore } from "~/features/vrchat/vrchat-session.server";
import { FAKE_GROUP_ID, FAKE_SESSION_SECRET, FAKE_USERNAME, fakeUserId, fakeVRChatAccount, startFakeVRChat, type FakeVRChat } from "../../tests/fakes/vrchat";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../tests/setup/test-database";
import { createDiscordBot } from "~/features/discord/discord-bot.server";
import { FAKE_DISCORD_TOKEN, FAKE_GUILD_ID, FAKE_MEMBER_ROLE_ID, fakeSnowflake, startFakeDiscordBot } from "../../tests/fakes/discord-bot";
import { setSiteLanguages } from "~/utils/language.server";
import { decideApplication, decideApplications, findReview, linkDiscordAccount, linkVRChatAccount, previewApproval, type DecideServices, type Decider } from "./decide.server";

const keeper: Decider = { id: "", username: "keeper", via: "sanctum", role: "admin" };

describeEachDatabase("a decision links and acts wherever it is made", (kind) => {
  let database: TestDatabase;
  let fake: FakeVRChat;
  let questions: FormQuestion[];
  let services: DecideServices;
  let woken = 0;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await database.db.insert(applicationQuestions).values([
      { question: "What is your VRChat username?", orderIndex: 0 },
      { question: "What is your Discord username?", orderIndex: 1 },
      { question: "Your VRChat profile link", questionType: "vrchat_profile", required: false, orderIndex: 2 },
    ]);
    questions = await listFormQuestions(database.db, { kind: "group" });
    const [profile] = await database.db.insert(profiles).values({ username: "keeper", email: "keeper@dwell.example", role: "admin" }).returning({ id: profiles.id });
    keeper.id = profile!.id;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(applications);
    await database.db.delete(applicationAuditLog);
    await database.db.delete(outbox);
    await database.db.delete(vrchatSessions);
    fake = await startFakeVRChat();
    fake.group.people.push(
      { id: fakeUserId(1), displayName: "Moth Light", status: "requested" },
      { id: fakeUserId(2), displayName: "Twin", status: "requested" },
      { id: fakeUserId(3), displayName: "Twin", status: "requested" },
      { id: fakeUserId(4), displayName: "Heron", status: "none" },
      { id: fakeUserId(5), displayName: "Somebody Else", status: "none" },
    );
    const membership = createVRChatMembership({
      client: createVRChatClient({ ...fakeVRChatAccount(fake), store: databaseSessionStore(database.db, FAKE_USERNAME, FAKE_SESSION_SECRET), baseDelayMs: 5 }),
      groupId: FAKE_GROUP_ID,
      timeoutMs: 2_000,
      actionSpacingMs: 0,
    });
    woken = 0;
    services = { db: database.db, vrchat: { membership, membershipActions: true }, discord: null, discordInvite: null, wake: () => (woken += 1), siteOrigin: "https://dwell.example" };
  });
  afterEach(() => fake.close());

  /** Applies as the public form does (its answers by field name), and returns the application's id. */
  async function apply(username: string, profileLink = "", language = "en") {
    const values: Record<string, string> = {
      [answerFieldName(questions[0]!.id)]: username,
      [answerFieldName(questions[1]!.id)]: `${username.replaceAll(" ", "").toLowerCase()}-d`,
      [answerFieldName(questions[2]!.id)]: profileLink,
    };
    const result = await submitApplication(database.db, { scope: { kind: "group" }, questions, fields: (name) => values[name], now: new Date(), language });
    if (!result.ok) throw new Error(result.message);
    return result.application.id;
  }

  const jobs = async () =>
    (await database.db.select({ payload: outbox.payload, sourceId: outbox.sourceId }).from(outbox).where(eq(outbox.target, "vrchat_membership"))).map(
      (job) => job.payload as { userId: string; action: string; applicationId: string },
    );
  const linkedId = async (id: string) => (await database.db.select({ userId: applications.vrchatUserId }).from(applications).where(eq(applications.id, id)))[0]!.userId;
  const group = async () => (await findReview(database.db, undefined))!;

  it("from one card: links the one join request under the name, and acts in VRChat once staff confirm it is theirs", async () => {
    const id = await apply("moth  light");
    expect(await decideApplication(services, await group(), { id, status: "approved" }, keeper)).toEqual({ kind: "decided", notLinked: false, unconfirmed: true });
    expect(await linkedId(id)).toBe(fakeUserId(1));
    // A name is a claim anyone can make: nothing is done to that account yet.
    expect(await jobs()).toEqual([]);
    const history = async () => database.db.select({ actor: applicationAuditLog.actorName, to: applicationAuditLog.toValue }).from(applicationAuditLog).where(eq(applicationAuditLog.field, "vrchat"));
    expect(await history()).toEqual([{ actor: "keeper (at the decision: the one join request with this name)", to: `linked to Moth Light (${fakeUserId(1)})` }]);
    // Confirmed on the card ('Confirm: this is them'): the decision acts there, once.
    expect(await linkVRChatAccount(services, id, fakeUserId(1), keeper)).toEqual({ kind: "linked", displayName: "Moth Light", acting: true, confirmed: true });
    expect(await jobs()).toEqual([expect.objectContaining({ userId: fakeUserId(1), action: "accept", applicationId: id })]);
    expect(woken).toBeGreaterThanOrEqual(2);
    expect((await history()).at(-1)).toEqual({ actor: "keeper", to: `confirmed by staff: Moth Light (${fakeUserId(1)})` });
    expect(await linkVRChatAccount(services, id, fakeUserId(1), keeper)).toMatchObject({ acting: false });
    expect(await jobs()).toHaveLength(1);
  });

  it("acts at the decision on an account proven by its owner or chosen by staff beforehand", async () => {
    const chosen = await apply("Twin");
    await linkVRChatAccount(services, chosen, fakeUserId(2), keeper);
    expect(await decideApplication(services, await group(), { id: chosen, status: "approved" }, keeper)).toEqual({ kind: "decided", notLinked: false, unconfirmed: false });
    expect(await jobs()).toEqual([expect.objectContaining({ userId: fakeUserId(2), action: "accept" })]);
  });

  it("from the bulk bar: one join-request read for all, links who the rule finds, guesses no one, and says who needs an account or a confirmation", async () => {
    const ids = [await apply("Moth Light"), await apply("Twin"), await apply("Nobody")];
    expect(await previewApproval(services, await group(), ids)).toEqual({ inVRChat: 0, needConfirming: 1, needAccount: 2, unchecked: false });
    // The confirmation wrote nothing.
    expect(await linkedId(ids[0]!)).toBeNull();
    const outcome = await decideApplications(services, await group(), { ids, status: "approved" }, keeper);
    expect(outcome).toMatchObject({ kind: "decided", changed: 3, notLinked: 2, unconfirmed: 1 });
    expect(await jobs()).toEqual([]);
    expect(await linkedId(ids[0]!)).toBe(fakeUserId(1));
    expect(await linkedId(ids[1]!)).toBeNull();
    expect(fake.calls.joinRequests).toBe(1);

    // A staff member's choice of account completes the decision: the acceptance is queued then.
    expect(await linkVRChatAccount(services, ids[1]!, fakeUserId(3), keeper)).toEqual({ kind: "linked", displayName: "Twin", acting: true, confirmed: false });
    expect((await jobs()).map((job) => job.userId)).toEqual([fakeUserId(3)]);
    // The same choice again changes nothing and queues nothing.
    expect(await linkVRChatAccount(services, ids[1]!, fakeUserId(3), keeper)).toMatchObject({ acting: false });
    expect(await jobs()).toHaveLength(1);
  });

  it("links a profile link only when VRChat names it as the applicant named themselves, and rejects no one's join request from a name", async () => {
    const own = await apply("heron", `https://vrchat.com/home/user/${fakeUserId(4)}`);
    const claimed = await apply("Impostor", `https://vrchat.com/home/user/${fakeUserId(5)}`);
    const outcome = await decideApplications(services, await group(), { ids: [own, claimed], status: "rejected" }, keeper);
    expect(outcome).toMatchObject({ changed: 2, notLinked: 1, unconfirmed: 1 });
    expect(await linkedId(own)).toBe(fakeUserId(4));
    expect(await linkedId(claimed)).toBeNull();
    expect(await jobs()).toEqual([]);
    // Confirmed by staff: the rejection reaches VRChat then.
    await linkVRChatAccount(services, own, fakeUserId(4), keeper);
    expect(await jobs()).toEqual([expect.objectContaining({ userId: fakeUserId(4), action: "reject" })]);
  });

  it("with VRChat unreachable: the decision stands, nothing is linked or queued, and the card will say so", async () => {
    const id = await apply("Moth Light");
    await fake.setMode("down");
    const outcome = await decideApplication(services, await group(), { id, status: "approved" }, keeper);
    expect(outcome).toEqual({ kind: "decided", notLinked: true, unconfirmed: false });
    const [row] = await database.db.select({ status: applications.status, userId: applications.vrchatUserId }).from(applications).where(eq(applications.id, id));
    expect(row).toEqual({ status: "approved", userId: null });
    expect(await jobs()).toEqual([]);
    expect(await previewApproval(services, await group(), [await apply("Twin")])).toEqual({ inVRChat: 0, needConfirming: 0, needAccount: 1, unchecked: true });
  });

  it("does nothing in VRChat when decisions do not act there: nothing is asked, nothing linked", async () => {
    const id = await apply("Moth Light");
    const quiet = { ...services, vrchat: { ...services.vrchat, membershipActions: false } };
    expect(await decideApplication(quiet, await group(), { id, status: "approved" }, keeper)).toEqual({ kind: "decided", notLinked: false, unconfirmed: false });
    expect(fake.calls.joinRequests ?? 0).toBe(0);
    expect(await linkedId(id)).toBeNull();
    expect(await previewApproval(quiet, await group(), [id])).toBeNull();
  });

  it("a Discord account linked after the approval gets its message (and the member role) then, once", async () => {
    const bot = await startFakeDiscordBot();
    bot.members.push({ id: fakeSnowflake(7), username: "mothlight-d", globalName: "Moth" });
    const discord = createDiscordBot({ apiUrl: bot.url, token: FAKE_DISCORD_TOKEN, guildId: FAKE_GUILD_ID, memberRoleId: FAKE_MEMBER_ROLE_ID, siteUrl: "https://dwell.example", timeoutMs: 5_000 });
    const withBot = { ...services, vrchat: { ...services.vrchat, membershipActions: false }, discord };
    try {
      // Approved while the handle found nobody (the member joined the server later): no DM then.
      const id = await apply("Moth [Light](https://evil.example)");
      expect(await decideApplication(withBot, await group(), { id, status: "approved" }, keeper)).toMatchObject({ kind: "decided" });
      const dms = async () =>
        (await database.db.select({ target: outbox.target, payload: outbox.payload }).from(outbox).where(eq(outbox.sourceId, id))).filter((job) => job.target.startsWith("discord_"));
      expect(await dms()).toEqual([]);
      // A staff member links them by hand: the approval's DM and the member role go now.
      const account = { userId: fakeSnowflake(7), displayName: "Moth" };
      expect(await linkDiscordAccount(withBot, await group(), id, account, keeper)).toEqual({ kind: "linked", acting: true });
      const sent = await dms();
      expect(sent.map((job) => job.target).sort()).toEqual(["discord_dm", "discord_role"]);
      const content = (sent.find((job) => job.target === "discord_dm")!.payload as { content: string }).content;
      expect(content).toContain("Moth \\[Light\\]\\(https\\:\\/\\/evil\\.example\\)");
      // Unlinked and linked again: nothing more goes to the same account.
      expect(await linkDiscordAccount(withBot, await group(), id, null, keeper)).toEqual({ kind: "unlinked" });
      expect(await linkDiscordAccount(withBot, await group(), id, account, keeper)).toEqual({ kind: "linked", acting: false });
      expect(await dms()).toHaveLength(2);
      // A pending application's link sends nothing.
      const waiting = await apply("Heron");
      expect(await linkDiscordAccount(withBot, await group(), waiting, { userId: fakeSnowflake(8), displayName: "Heron" }, keeper)).toEqual({ kind: "linked", acting: false });
    } finally {
      await bot.close();
    }
  });

  it("writes the approval's DM in the language the applicant applied in, whoever decides", async () => {
    setSiteLanguages(["en", "ja"]);
    const bot = await startFakeDiscordBot();
    bot.members.push({ id: fakeSnowflake(7), username: "hotaru-d", globalName: "Hotaru" }, { id: fakeSnowflake(8), username: "moth-d", globalName: "Moth" });
    const discord = createDiscordBot({ apiUrl: bot.url, token: FAKE_DISCORD_TOKEN, guildId: FAKE_GUILD_ID, memberRoleId: FAKE_MEMBER_ROLE_ID, siteUrl: "https://dwell.example", timeoutMs: 5_000 });
    const withBot = { ...services, vrchat: { ...services.vrchat, membershipActions: false }, discord };
    try {
      const japanese = await apply("Hotaru", "", "ja");
      const english = await apply("Moth", "", "en");
      // One bulk decision for both: each is written to in their own language.
      await decideApplications(withBot, await group(), { ids: [japanese, english], status: "approved" }, keeper);
      const contentOf = async (id: string) =>
        ((await database.db.select({ payload: outbox.payload }).from(outbox).where(eq(outbox.sourceId, id))).map((job) => job.payload as { content?: string }).find((payload) => payload.content)!).content!;
      expect(await contentOf(japanese)).toMatch(/^ようこそDwellersへ、Hotaruさん！/);
      expect(await contentOf(english)).toMatch(/^Welcome among the Dwellers, Moth!/);
      // A Discord account linked by hand after the approval gets the DM then, in the applicant's language too.
      const late = await apply("Kotori", "", "ja");
      expect(await decideApplication(withBot, await group(), { id: late, status: "approved" }, keeper)).toMatchObject({ kind: "decided" });
      expect(await linkDiscordAccount(withBot, await group(), late, { userId: fakeSnowflake(9), displayName: "Kotori" }, keeper)).toEqual({ kind: "linked", acting: true });
      expect(await contentOf(late)).toMatch(/^ようこそDwellersへ、Kotoriさん！/);
    } finally {
      setSiteLanguages(["en"]);
      await bot.close();
    }
  });
});
