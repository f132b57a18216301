/**
 * Screening against the VRChat fake over loopback and a real database: rules added as the page adds
 * them, applications sent as the form stores them, the scheduled job's run, and what it decided,
 * flagged or left waiting, through the ordinary decision flow.
 */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { applicationAuditLog, applicationQuestions, applications, bans, joinRequests, outbox, profiles, rateLimits, screeningRules, screenings, vrchatAccountFacts, vrchatProofs, vrchatSessions } from "~/db/schema";
import { answerFieldName, type FormQuestion } from "~/features/applications/answers";
import { listFormQuestions, submitApplication } from "~/features/applications/applications.server";
import { newStatusToken } from "~/features/decisions/decisions.server";
import { addRule } from "~/features/screening/screening-rules.server";
import { queueScreening } from "~/features/screening/screenings.server";
import type { RuleInput } from "~/features/screening/screening-rules";
import { createVRChatClient } from "~/features/vrchat/vrchat-client.server";
import { createVRChatMembership } from "~/features/vrchat/vrchat-membership.server";
import { databaseSessionStore } from "~/features/vrchat/vrchat-session.server";
import { FAKE_GROUP_ID, FAKE_SESSION_SECRET, FAKE_USERNAME, fakeUserId, fakeVRChatAccount, startFakeVRChat, type FakeVRChat } from "../../tests/fakes/vrchat";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../tests/setup/test-database";
import { decideApplication, findReview, linkProvenAccount, linkVRChatAccount } from "./decide.server";
import { setSiteLanguages } from "~/utils/language.server";
import { SYSTEM_FLAGS } from "~/utils/screening-flags";
import { addScreeningRule, runScreenings, SCREENING_TEXTS, tryScreeningRules, type ScreeningServices } from "./screen-applications.server";

const KNOWN_OVER_30: RuleInput = {
  name: "Known users over 30 days",
  scope: { kind: "group" },
  conditions: [{ kind: "trust_at_least", rank: "known_user" }, { kind: "account_older_than", days: 30 }, { kind: "shows_18_plus" }],
  outcome: { kind: "approve" },
};
const NEWCOMERS: RuleInput = { name: "Young accounts", scope: { kind: "group" }, conditions: [{ kind: "trust_at_least", rank: "visitor" }], outcome: { kind: "flag", flag: "A young account: look closely" } };
const KNOWN_TAGS = ["system_trust_basic", "system_trust_known", "system_trust_trusted"];

describeEachDatabase("screening applications by the group's rules", (kind) => {
  let database: TestDatabase;
  let fake: FakeVRChat;
  let questions: FormQuestion[];
  let services: ScreeningServices;
  let keeperId = "";

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await database.db.insert(applicationQuestions).values([
      { question: "What is your VRChat username?", orderIndex: 0 },
      { question: "What is your Discord username?", orderIndex: 1 },
      { question: "How did you find the Dwellers?", questionType: "select", options: ["A friend", "Discord"], orderIndex: 2 },
    ]);
    questions = await listFormQuestions(database.db, { kind: "group" });
    const [profile] = await database.db.insert(profiles).values({ username: "keeper", email: "keeper@dwell.example", role: "admin" }).returning({ id: profiles.id });
    keeperId = profile!.id;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    for (const table of [applications, applicationAuditLog, outbox, vrchatSessions, rateLimits, screeningRules, screenings, bans, joinRequests, vrchatAccountFacts, vrchatProofs]) await database.db.delete(table);
    fake = await startFakeVRChat();
    fake.group.people.push(
      { id: fakeUserId(1), displayName: "Moth Light", status: "requested", tags: KNOWN_TAGS, dateJoined: "2023-04-01", ageVerificationStatus: "18+" },
      { id: fakeUserId(2), displayName: "Fresh Fern", status: "requested", tags: [], dateJoined: new Date().toISOString().slice(0, 10), ageVerificationStatus: "hidden" },
      { id: fakeUserId(3), displayName: "Quiet Heron", status: "requested", tags: KNOWN_TAGS, dateJoined: "2022-01-01", ageVerificationStatus: "18+" },
    );
    const membership = createVRChatMembership({
      client: createVRChatClient({ ...fakeVRChatAccount(fake), store: databaseSessionStore(database.db, FAKE_USERNAME, FAKE_SESSION_SECRET), baseDelayMs: 5 }),
      groupId: FAKE_GROUP_ID,
      timeoutMs: 2_000,
      actionSpacingMs: 0,
    });
    services = { db: database.db, vrchat: { membership, membershipActions: true }, discord: null, discordInvite: null, wake: () => {}, siteOrigin: "https://dwell.example", autoApprovalsPerHour: 30 };
  });
  afterEach(() => fake.close());

  /**
   * Sends an application as the form stores it (its screening queued with it); linked by name when
   * given (its profile link under the name given), and proven when `proven` (the bio code's check).
   */
  async function apply(username: string, linked?: { userId: string; displayName: string }, found = "A friend", language?: string, proven = false) {
    const values: Record<string, string> = {
      [answerFieldName(questions[0]!.id)]: username,
      [answerFieldName(questions[1]!.id)]: `${username.replaceAll(" ", "").toLowerCase()}-d`,
      [answerFieldName(questions[2]!.id)]: found,
    };
    const now = new Date();
    const result = await submitApplication(database.db, {
      scope: { kind: "group" },
      questions,
      fields: (name) => values[name],
      now,
      statusTokenHash: newStatusToken().hash,
      language,
      vet: linked ? async () => ({ found: { check: "confirmed", account: linked } }) : undefined,
      onStored: async (tx, stored) => {
        await queueScreening(tx, { kind: "group", id: stored.id, vrchatUserId: stored.vrchatUserId }, now);
      },
    });
    if (!result.ok) throw new Error(result.message);
    const id = result.application.id;
    if (proven && linked) await linkProvenAccount(services, { kind: "group", id, eventId: null }, linked, { name: "the applicant (a code in their VRChat bio)" });
    return id;
  }
  const applyProven = (username: string, account: { userId: string; displayName: string }, language?: string) => apply(username, account, "A friend", language, true);

  const state = async (id: string) => {
    const [application] = await database.db.select({ status: applications.status, message: applications.decisionMessage }).from(applications).where(eq(applications.id, id));
    const [screening] = await database.db.select({ state: screenings.state, rule: screenings.ruleName, outcome: screenings.outcome, flag: screenings.flag }).from(screenings).where(eq(screenings.applicationId, id));
    return { ...application!, screening: screening ?? null };
  };
  const jobs = async () => (await database.db.select({ payload: outbox.payload }).from(outbox).where(eq(outbox.target, "vrchat_membership"))).map((job) => job.payload as { userId: string; action: string });
  const later = (minutes: number) => new Date(Date.now() + minutes * 60_000);

  it("approves a known user over 30 days and 18+ through the decision flow, and flags a young account", async () => {
    await addRule(database.db, KNOWN_OVER_30, null);
    await addRule(database.db, NEWCOMERS, null);
    const moth = await applyProven("Moth Light", { userId: fakeUserId(1), displayName: "Moth Light" });
    const fern = await apply("Fresh Fern", { userId: fakeUserId(2), displayName: "Fresh Fern" });
    expect(await runScreenings(services, new Date())).toMatchObject({ approved: 1, flagged: 1, rejected: 0 });
    expect(await state(moth)).toMatchObject({ status: "approved", screening: { state: "done", rule: "Known users over 30 days", outcome: "approve", flag: null } });
    expect(await state(fern)).toMatchObject({ status: "pending", screening: { state: "done", rule: "Young accounts", outcome: "flag", flag: "A young account: look closely" } });
    // Acted on in VRChat once, as a staff member's approval is; recorded under the rule's name.
    expect(await jobs()).toEqual([expect.objectContaining({ userId: fakeUserId(1), action: "accept" })]);
    const [history] = await database.db.select({ actor: applicationAuditLog.actorName, actorId: applicationAuditLog.actorId, to: applicationAuditLog.toValue }).from(applicationAuditLog).where(eq(applicationAuditLog.field, "status"));
    expect(history).toEqual({ actor: 'rule "Known users over 30 days"', actorId: null, to: "approved" });
    // One user read each; nothing more is asked, nothing screened twice.
    expect(fake.calls.user).toBe(2);
    expect(await runScreenings(services, later(5))).toMatchObject({ approved: 0, flagged: 0 });
    expect(fake.calls.user).toBe(2);
  });

  it("tells an applicant a rule's decision in the language they applied in", async () => {
    setSiteLanguages(["en", "ja"]);
    try {
      await addRule(database.db, KNOWN_OVER_30, null);
      const moth = await applyProven("Moth Light", { userId: fakeUserId(1), displayName: "Moth Light" }, "ja");
      const heron = await applyProven("Quiet Heron", { userId: fakeUserId(3), displayName: "Quiet Heron" }, "en");
      expect(await runScreenings(services, new Date())).toMatchObject({ approved: 2 });
      expect((await state(moth)).message).toContain("ようこそDwellersへ、Moth Lightさん！");
      expect((await state(heron)).message).toContain("Welcome among the Dwellers, Quiet Heron!");
    } finally {
      setSiteLanguages(["en"]);
    }
  });

  it("rejects by a rule with its message, and leaves an application no rule matches to staff", async () => {
    await addRule(database.db, { name: "Found on Discord", scope: { kind: "group" }, conditions: [{ kind: "answer_is", question: "How did you find the Dwellers?", options: ["Discord"] }], outcome: { kind: "reject", message: "We take members by introduction only." } }, null);
    const heron = await apply("Quiet Heron", undefined, "Discord");
    const moth = await apply("Moth Light", undefined, "A friend");
    expect(await runScreenings(services, new Date())).toMatchObject({ rejected: 1, none: 1 });
    const rejected = await state(heron);
    expect(rejected.status).toBe("rejected");
    expect(rejected.message).toContain("We take members by introduction only.");
    expect(await state(moth)).toMatchObject({ status: "pending", screening: { state: "done", rule: null } });
    // No VRChat condition: VRChat was not asked.
    expect(fake.calls.user ?? 0).toBe(0);
  });

  it("waits while VRChat cannot be read, never deciding on missing facts, and decides once it can", async () => {
    await addRule(database.db, KNOWN_OVER_30, null);
    await addRule(database.db, { ...NEWCOMERS, outcome: { kind: "reject", message: "No." } }, null);
    const moth = await applyProven("Moth Light", { userId: fakeUserId(1), displayName: "Moth Light" });
    await fake.setMode("down");
    expect(await runScreenings(services, new Date())).toMatchObject({ waiting: 1, approved: 0, rejected: 0 });
    expect(await state(moth)).toMatchObject({ status: "pending", screening: { state: "waiting", rule: "Known users over 30 days" } });
    // Not due yet: nothing is asked.
    expect(await runScreenings(services, new Date())).toMatchObject({ waiting: 0 });
    await fake.setMode("normal");
    expect(await runScreenings(services, later(2))).toMatchObject({ approved: 1 });
    expect(await state(moth)).toMatchObject({ status: "approved", screening: { state: "done", outcome: "approve" } });
  });

  it("holds to the hourly limit of automatic approvals, flagging the rest for staff", async () => {
    services.autoApprovalsPerHour = 1;
    await addRule(database.db, KNOWN_OVER_30, null);
    const moth = await applyProven("Moth Light", { userId: fakeUserId(1), displayName: "Moth Light" });
    const heron = await applyProven("Quiet Heron", { userId: fakeUserId(3), displayName: "Quiet Heron" });
    expect(await runScreenings(services, new Date())).toMatchObject({ approved: 1, flagged: 1 });
    const statuses = [await state(moth), await state(heron)];
    expect(statuses.map((s) => s.status).sort()).toEqual(["approved", "pending"]);
    expect(statuses.find((s) => s.status === "pending")!.screening).toMatchObject({ flag: SCREENING_TEXTS.paused });
  });

  it("screens again when the account is linked later, and approves automatically only a proven one", async () => {
    await addRule(database.db, KNOWN_OVER_30, null);
    const heron = await apply("Quiet Heron");
    expect(await runScreenings(services, new Date())).toMatchObject({ none: 1 });
    // A staff member's choice: the rule holds, but a chosen account is not approved by a rule.
    await linkVRChatAccount(services, heron, fakeUserId(3), { id: keeperId, username: "keeper", via: "sanctum", role: "admin" });
    expect(await runScreenings(services, new Date())).toMatchObject({ flagged: 1 });
    expect((await state(heron)).screening).toMatchObject({ outcome: "flag", flag: SYSTEM_FLAGS.needsProven });
    expect(await jobs()).toEqual([]);
    // Proven now (the flow a bio code's check calls): screened again, and approved.
    await linkProvenAccount(services, { kind: "group", id: heron, eventId: null }, { userId: fakeUserId(3), displayName: "Quiet Heron" }, { name: "the applicant" });
    expect(await runScreenings(services, new Date())).toMatchObject({ approved: 1 });
  });

  it("an impostor's application (another's name and profile link) is flagged, never approved, and acts on no account", async () => {
    await addRule(database.db, KNOWN_OVER_30, null);
    // Moth's own name and public profile link: linked by name, which anyone can type.
    const impostor = await apply("Moth Light", { userId: fakeUserId(1), displayName: "Moth Light" });
    expect(await runScreenings(services, new Date())).toMatchObject({ approved: 0, flagged: 1 });
    expect(await state(impostor)).toMatchObject({ status: "pending", message: null, screening: { rule: "Known users over 30 days", outcome: "flag", flag: SYSTEM_FLAGS.needsProven } });
    expect(await jobs()).toEqual([]);
    expect(fake.actions).toEqual([]);
    // The account's true owner proves it (the bio code): screened again, and approved.
    await linkProvenAccount(services, { kind: "group", id: impostor, eventId: null }, { userId: fakeUserId(1), displayName: "Moth Light" }, { name: "the applicant (a code in their VRChat bio)" });
    expect(await runScreenings(services, new Date())).toMatchObject({ approved: 1 });
    expect(await jobs()).toEqual([expect.objectContaining({ userId: fakeUserId(1), action: "accept" })]);
  });

  it("a rule's rejection of a name-matched application answers no one's join request in VRChat", async () => {
    await addRule(database.db, { ...NEWCOMERS, outcome: { kind: "reject", message: "Come back later." } }, null);
    const fern = await apply("Fresh Fern", { userId: fakeUserId(2), displayName: "Fresh Fern" });
    expect(await runScreenings(services, new Date())).toMatchObject({ rejected: 1 });
    expect((await state(fern)).status).toBe("rejected");
    // Fern's request to join in VRChat (the real account's) is left for staff.
    expect(await jobs()).toEqual([]);
  });

  it("decides only on the account it read: a link changed while VRChat was read is screened again", async () => {
    await addRule(database.db, { ...NEWCOMERS, conditions: [{ kind: "trust_at_least", rank: "known_user" }], outcome: { kind: "reject", message: "Known users apply in VRChat." } }, null);
    const staff = { id: keeperId, username: "keeper", via: "sanctum" as const, role: "admin" as const };
    const heron = await apply("Quiet Heron", { userId: fakeUserId(3), displayName: "Quiet Heron" });
    const membership = services.vrchat.membership!;
    // While Heron's account is being read, staff link another (a young account the rule does not reject).
    let raced = false;
    const racing = { ...membership, screeningFacts: async (...args: Parameters<typeof membership.screeningFacts>) => {
      const read = await membership.screeningFacts(...args);
      if (!raced) {
        raced = true;
        await linkVRChatAccount(services, heron, fakeUserId(2), staff);
      }
      return read;
    } };
    const racingServices = { ...services, vrchat: { ...services.vrchat, membership: racing } };
    expect(await runScreenings(racingServices, new Date())).toMatchObject({ rejected: 0, waiting: 1 });
    expect((await state(heron)).status).toBe("pending");
    // Screened again on the account now linked: the rule does not hold for it.
    expect(await runScreenings(racingServices, new Date())).toMatchObject({ rejected: 0, none: 1 });
    const [row] = await database.db.select({ account: screenings.vrchatUserId }).from(screenings).where(eq(screenings.applicationId, heron));
    expect(row?.account).toBe(fakeUserId(2));
    expect((await state(heron)).status).toBe("pending");
  });

  it("reads facts again before a rule acts on them once they are more than an hour old; keeps them otherwise", async () => {
    const moth = await applyProven("Moth Light", { userId: fakeUserId(1), displayName: "Moth Light" });
    expect(await runScreenings(services, new Date())).toMatchObject({ none: 1 });
    expect(fake.calls.user).toBe(1);
    // Two hours later a rule is added: a flag needs no fresh facts, an approval does.
    await addRule(database.db, { ...KNOWN_OVER_30, name: "Flag known users", outcome: { kind: "flag", flag: "Known" } }, null);
    await queueScreening(database.db, { kind: "group", id: moth }, later(120));
    expect(await runScreenings(services, later(120))).toMatchObject({ flagged: 1 });
    expect(fake.calls.user).toBe(1);
    await database.db.delete(screeningRules);
    await addRule(database.db, KNOWN_OVER_30, null);
    await queueScreening(database.db, { kind: "group", id: moth }, later(120));
    expect(await runScreenings(services, later(120))).toMatchObject({ approved: 1 });
    expect(fake.calls.user).toBe(2);
  });

  it("a bio VRChat did not send is unread: a rule on the bio waits", async () => {
    await addRule(database.db, { name: "Clean bios", scope: { kind: "group" }, conditions: [{ kind: "bio_lacks", words: ["free robux"] }], outcome: { kind: "reject", message: "No." } }, null);
    fake.setEndpoint("user", { body: { id: fakeUserId(2), displayName: "Fresh Fern", tags: [], date_joined: "2025-01-01", ageVerificationStatus: "hidden" } });
    const fern = await apply("Fresh Fern", { userId: fakeUserId(2), displayName: "Fresh Fern" });
    expect(await runScreenings(services, new Date())).toMatchObject({ waiting: 1, rejected: 0 });
    expect((await state(fern)).screening).toMatchObject({ state: "waiting", rule: "Clean bios" });
  });

  it("stops at a 429, sends nothing until its Retry-After has passed, then resumes where it stopped", async () => {
    await addRule(database.db, KNOWN_OVER_30, null);
    const moth = await applyProven("Moth Light", { userId: fakeUserId(1), displayName: "Moth Light" });
    const heron = await applyProven("Quiet Heron", { userId: fakeUserId(3), displayName: "Quiet Heron" });
    fake.setEndpoint("user", { status: 429, message: "Too Many Requests", retryAfterSeconds: 120 });
    expect(await runScreenings(services, new Date())).toMatchObject({ deferred: 2, waiting: 0 });
    const asked = fake.requests.length;
    fake.setEndpoint("user", "normal");
    // A minute later: still within the two minutes asked for; nothing is sent, nothing spent.
    expect(await runScreenings(services, later(1))).toMatchObject({ deferred: 2 });
    expect(fake.requests.length).toBe(asked);
    const queued = await database.db.select({ attempts: screenings.attempts, state: screenings.state }).from(screenings);
    expect(queued).toEqual([{ attempts: 0, state: "queued" }, { attempts: 0, state: "queued" }]);
    // Once the time has passed, both are screened.
    await database.db.update(vrchatSessions).set({ quietUntil: new Date(Date.now() - 1_000) });
    expect(await runScreenings(services, later(3))).toMatchObject({ approved: 2 });
    expect([(await state(moth)).status, (await state(heron)).status]).toEqual(["approved", "approved"]);
  });

  it("a rule for events does not touch the group's applications", async () => {
    await addRule(database.db, { ...KNOWN_OVER_30, scope: { kind: "events" } }, null);
    const moth = await apply("Moth Light", { userId: fakeUserId(1), displayName: "Moth Light" });
    // No rule could apply: its account's facts are read once, as any linked applicant's, and nothing is decided.
    expect(await runScreenings(services, new Date())).toMatchObject({ approved: 0, none: 1 });
    expect(await state(moth)).toMatchObject({ status: "pending", screening: { state: "done", rule: null, outcome: null } });
    expect(fake.calls.user).toBe(1);
    // Without an account, and without a rule that could apply, nothing is even queued.
    const heron = await apply("Quiet Heron");
    expect((await state(heron)).screening).toBeNull();
  });

  it("'Try these rules' sets a rule beside what staff decided, from the facts read on arrival, writing nothing and asking VRChat nothing", async () => {
    const staff = { id: keeperId, username: "keeper", via: "sanctum" as const, role: "admin" as const };
    // Before any rule: Sorrel's account is read once as the application arrives, all the same.
    const sorrel = await applyProven("Sorrel", { userId: fakeUserId(3), displayName: "Quiet Heron" });
    expect(await runScreenings(services, new Date())).toMatchObject({ none: 1 });
    expect(fake.calls.user).toBe(1);
    // A saved rule that asks VRChat (and holds for no one): what it reads is kept.
    await addRule(database.db, { name: "Spam in the bio", scope: { kind: "group" }, conditions: [{ kind: "bio_contains", words: ["spam"] }], outcome: { kind: "flag", flag: "Spam?" } }, null);
    const moth = await applyProven("Moth Light", { userId: fakeUserId(1), displayName: "Moth Light" });
    const fern = await apply("Fresh Fern", { userId: fakeUserId(2), displayName: "Fresh Fern" });
    const heron = await apply("Quiet Heron", undefined, "Discord");
    await apply("Still Waiting");
    expect(await runScreenings(services, new Date())).toMatchObject({ none: 4 });
    const review = (await findReview(database.db, undefined))!;
    for (const [id, status] of [[moth, "rejected"], [fern, "approved"], [heron, "approved"], [sorrel, "approved"]] as const) {
      expect(await decideApplication(services, review, { id, status }, staff)).toMatchObject({ kind: "decided" });
    }
    const reads = fake.calls.user;
    const before = await database.db.select().from(screenings);

    const draft: RuleInput = { ...KNOWN_OVER_30, name: "Known users over 30 days (draft)" };
    const trial = await tryScreeningRules(database.db, draft, new Date());
    expect(trial.looked).toBe(4);
    expect(trial.rules).toEqual([
      { id: expect.any(String), name: "Spam in the bio", approve: 0, reject: 0, flag: 0, unknown: 0 },
      // Moth would be approved (staff rejected), and Sorrel (staff approved): both read as they arrived.
      { id: "draft", name: "Known users over 30 days (draft)", approve: 2, reject: 0, flag: 0, unknown: 0 },
    ]);
    // Fern (too young) and Heron (no account): no rule holds.
    expect(trial.untouched).toBe(2);
    expect(trial.disagreements).toEqual([{ kind: "group", id: moth, eventId: null, name: "Moth Light", status: "rejected", rule: "Known users over 30 days (draft)", outcome: "approve" }]);

    // A rule on the answers alone needs no VRChat facts: Heron, whom staff approved, would be rejected.
    const onAnswers = await tryScreeningRules(database.db, { name: "Found on Discord", scope: { kind: "group" }, conditions: [{ kind: "answer_is", question: "How did you find the Dwellers?", options: ["Discord"] }], outcome: { kind: "reject", message: "No." } }, new Date());
    expect(onAnswers.disagreements).toEqual([expect.objectContaining({ id: heron, status: "approved", outcome: "reject" })]);

    // Nothing was saved, queued or asked.
    expect(fake.calls.user).toBe(reads);
    expect(await database.db.select().from(screenings)).toEqual(before);
    expect((await database.db.select().from(screeningRules)).map((rule) => rule.name)).toEqual(["Spam in the bio"]);
  });

  it("staff can reopen what a rule decided, and only that: back to Pending, the card says who reopened it", async () => {
    const staff = { id: keeperId, username: "keeper", via: "sanctum" as const, role: "admin" as const };
    await addRule(database.db, KNOWN_OVER_30, null);
    const moth = await applyProven("Moth Light", { userId: fakeUserId(1), displayName: "Moth Light" });
    const heron = await apply("Quiet Heron", undefined, "Discord");
    expect(await runScreenings(services, new Date())).toMatchObject({ approved: 1, none: 1 });
    const review = (await findReview(database.db, undefined))!;

    expect(await decideApplication(services, review, { id: moth, status: "pending" }, staff)).toMatchObject({ kind: "decided" });
    expect(await state(moth)).toMatchObject({ status: "pending", message: null, screening: { flag: 'Reopened by keeper: rule "Known users over 30 days" had approved it' } });
    const history = await database.db.select({ actor: applicationAuditLog.actorName, from: applicationAuditLog.fromValue, to: applicationAuditLog.toValue }).from(applicationAuditLog).where(eq(applicationAuditLog.applicationId, moth));
    expect(history).toEqual(expect.arrayContaining([{ actor: "keeper", from: "approved", to: "pending" }]));
    // Reopened once: now it is staff's, and it cannot be reopened again after their decision.
    expect(await decideApplication(services, review, { id: moth, status: "rejected" }, staff)).toMatchObject({ kind: "decided" });
    expect(await decideApplication(services, review, { id: moth, status: "pending" }, staff)).toEqual({ kind: "conflict" });
    // A person's decision is not reopened, and neither is a pending application.
    expect(await decideApplication(services, review, { id: heron, status: "pending" }, staff)).toEqual({ kind: "conflict" });
    expect(await decideApplication(services, review, { id: heron, status: "approved" }, staff)).toMatchObject({ kind: "decided" });
    expect(await decideApplication(services, review, { id: heron, status: "pending" }, staff)).toEqual({ kind: "conflict" });
    expect((await state(heron)).status).toBe("approved");
  });

  it("a rule naming other groups is saved only once VRChat knows each of them", async () => {
    const known = "grp_0a0a0a0a-1111-4222-8333-444444444444";
    const unknown = "grp_0b0b0b0b-1111-4222-8333-444444444444";
    const other = "grp_0c0c0c0c-1111-4222-8333-444444444444";
    fake.group.otherGroups = [{ id: known, name: "The Lantern Guild" }, { id: other, name: "The Moth Circle" }];
    const rule = (groupIds: string[]): RuleInput => ({ name: "Guild members", scope: { kind: "group" }, conditions: [{ kind: "in_groups", groupIds }], outcome: { kind: "flag", flag: "Guild member" } });
    const membership = services.vrchat.membership!;
    expect(await addScreeningRule(database.db, membership, rule([known, unknown]), keeperId)).toEqual({ ok: false, status: 422, error: `VRChat has no group ${unknown}.` });
    await fake.setMode("down");
    // Not asked before: VRChat cannot confirm it now, so the rule waits to be saved.
    expect(await addScreeningRule(database.db, membership, rule([other]), keeperId)).toMatchObject({ ok: false, status: 503 });
    expect(await addScreeningRule(database.db, null, rule([known]), keeperId)).toMatchObject({ ok: false, status: 422 });
    expect(await database.db.select().from(screeningRules)).toEqual([]);
    await fake.setMode("normal");
    expect(await addScreeningRule(database.db, membership, rule([known, other]), keeperId)).toMatchObject({ ok: true });
    expect(fake.calls.otherGroup).toBeGreaterThanOrEqual(3);
  });

  it("the 'banned' condition holds for someone on the group's ban list without asking VRChat", async () => {
    await addRule(database.db, { name: "Banned", scope: { kind: "group" }, conditions: [{ kind: "banned" }], outcome: { kind: "reject", message: "Not here." } }, null);
    await database.db.insert(bans).values({ vrchatUserId: fakeUserId(2), displayName: "Fresh Fern", source: "dwell", bannedBy: "keeper", reason: "Spam." });
    const fern = await apply("Fresh Fern", { userId: fakeUserId(2), displayName: "Fresh Fern" });
    const moth = await apply("Moth Light", { userId: fakeUserId(1), displayName: "Moth Light" });
    expect(await runScreenings(services, new Date())).toMatchObject({ rejected: 1, none: 1 });
    expect(await state(fern)).toMatchObject({ status: "rejected" });
    expect(await state(moth)).toMatchObject({ status: "pending" });
    // Moth's standing was read from VRChat (not on the list); Fern's was not needed.
    expect(fake.calls.membership).toBe(1);
  });

  it("stops when screening's allowance is spent, giving the rest back untried; applications on the site come before join requests", async () => {
    await addRule(database.db, KNOWN_OVER_30, null);
    const membership = createVRChatMembership({
      client: createVRChatClient({ ...fakeVRChatAccount(fake), store: databaseSessionStore(database.db, FAKE_USERNAME, FAKE_SESSION_SECRET), baseDelayMs: 5 }),
      groupId: FAKE_GROUP_ID,
      timeoutMs: 2_000,
      actionSpacingMs: 0,
      screeningCallsPerMinute: 1,
    });
    const spare = { ...services, vrchat: { membership, membershipActions: true } };
    // A join request queued first, then two applications: the applications are screened first.
    const [request] = await database.db.insert(joinRequests).values({ vrchatUserId: fakeUserId(3), displayName: "Quiet Heron" }).returning({ id: joinRequests.id });
    await queueScreening(database.db, { kind: "join_request", id: request!.id }, new Date(Date.now() - 60_000));
    const moth = await applyProven("Moth Light", { userId: fakeUserId(1), displayName: "Moth Light" });
    const fern = await apply("Fresh Fern", { userId: fakeUserId(2), displayName: "Fresh Fern" });
    expect(await runScreenings(spare, new Date())).toMatchObject({ approved: 1, deferred: 2, waiting: 0 });
    expect(await state(moth)).toMatchObject({ status: "approved" });
    const left = await database.db.select({ id: screenings.applicationId, state: screenings.state, attempts: screenings.attempts, lockedUntil: screenings.lockedUntil }).from(screenings).where(eq(screenings.state, "queued"));
    expect(left.map((row) => row.id).sort()).toEqual([fern, request!.id].sort());
    // Not an attempt, and free to be claimed at once by the next run.
    expect(left.every((row) => row.attempts === 0 && row.lockedUntil === null)).toBe(true);
    expect(await runScreenings(spare, new Date())).toMatchObject({ deferred: 2 });
    expect(fake.calls.user).toBe(1);
  });
});
