/**
 * An applicant proves their VRChat account with a code in its bio, against the VRChat fake over
 * loopback and a real database: what the status page offers, the check, the limits, and the
 * decisions that wait for proof where it is required (one card, the bulk bar, a freed place).
 */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { applicationAuditLog, applicationQuestions, applications, outbox, profiles, rateLimits, siteSettings, vrchatProofs, vrchatSessions } from "~/db/schema";
import { answerFieldName, type FormQuestion } from "~/features/applications/answers";
import { linkAccount } from "~/features/applications/linked-accounts.server";
import { listFormQuestions, submitApplication } from "~/features/applications/applications.server";
import { PROOF_TEXTS } from "~/features/applications/proof";
import { newStatusToken } from "~/features/decisions/decisions.server";
import { createVRChatClient } from "~/features/vrchat/vrchat-client.server";
import { createVRChatMembership } from "~/features/vrchat/vrchat-membership.server";
import { databaseSessionStore } from "~/features/vrchat/vrchat-session.server";
import { FAKE_GROUP_ID, FAKE_SESSION_SECRET, FAKE_USERNAME, fakeUserId, fakeVRChatAccount, startFakeVRChat, type FakeVRChat } from "../../tests/fakes/vrchat";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../tests/setup/test-database";
import { decideApplication, decideApplications, findReview, linkVRChatAccount, type DecideServices, type Decider } from "./decide.server";
import { checkProof, proofView, startProof, textHoldsCode } from "./prove-account.server";

const keeper: Decider = { id: "", username: "keeper", via: "sanctum", role: "admin" };

describe("textHoldsCode", () => {
  it("finds the code as a word of its own, in any case, and nowhere else", () => {
    expect(textHoldsCode("Hi! dwell-4KQ7 :)", "dwell-4KQ7")).toBe(true);
    expect(textHoldsCode("line one\ndwell-4kq7", "dwell-4KQ7")).toBe(true);
    expect(textHoldsCode("(dwell-4KQ7)", "dwell-4KQ7")).toBe(true);
    expect(textHoldsCode("xdwell-4KQ7", "dwell-4KQ7")).toBe(false);
    expect(textHoldsCode("dwell-4KQ78", "dwell-4KQ7")).toBe(false);
    expect(textHoldsCode("dwell-4KQ", "dwell-4KQ7")).toBe(false);
    expect(textHoldsCode("", "dwell-4KQ7")).toBe(false);
  });
});

describeEachDatabase("an applicant proves their VRChat account", (kind) => {
  let database: TestDatabase;
  let fake: FakeVRChat;
  let questions: FormQuestion[];
  let services: DecideServices;

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
    for (const table of [applications, applicationAuditLog, outbox, vrchatSessions, vrchatProofs, rateLimits, siteSettings]) await database.db.delete(table);
    fake = await startFakeVRChat();
    fake.group.people.push(
      { id: fakeUserId(1), displayName: "Moth Light", status: "requested" },
      { id: fakeUserId(2), displayName: "Heron", status: "requested" },
    );
    const membership = createVRChatMembership({
      client: createVRChatClient({ ...fakeVRChatAccount(fake), store: databaseSessionStore(database.db, FAKE_USERNAME, FAKE_SESSION_SECRET), baseDelayMs: 5 }),
      groupId: FAKE_GROUP_ID,
      timeoutMs: 2_000,
      actionSpacingMs: 0,
      visitorCallsPerMinute: 20,
    });
    services = { db: database.db, vrchat: { membership, membershipActions: true }, discord: null, discordInvite: null, wake: () => {}, siteOrigin: "https://dwell.example" };
  });
  afterEach(() => fake.close());

  /** Applies as the public form does, and returns the application's id and its status link's token. */
  async function apply(username: string, profileLink = "", linkedByName?: { userId: string; displayName: string }) {
    const values: Record<string, string> = {
      [answerFieldName(questions[0]!.id)]: username,
      [answerFieldName(questions[1]!.id)]: `${username.replaceAll(" ", "").toLowerCase()}-d`,
      [answerFieldName(questions[2]!.id)]: profileLink,
    };
    const status = newStatusToken();
    const result = await submitApplication(database.db, {
      scope: { kind: "group" },
      questions,
      fields: (name) => values[name],
      now: new Date(),
      statusTokenHash: status.hash,
      // The submission flow's answer when VRChat names the linked account as the applicant named themselves.
      vet: linkedByName ? async () => ({ found: { check: "confirmed", account: linkedByName } }) : undefined,
    });
    if (!result.ok) throw new Error(result.message);
    return { id: result.application.id, token: status.token };
  }

  const row = async (id: string) =>
    (await database.db.select({ userId: applications.vrchatUserId, how: applications.vrchatLinkedHow, by: applications.vrchatLinkedBy, status: applications.status }).from(applications).where(eq(applications.id, id)))[0]!;
  const jobs = async () => (await database.db.select({ payload: outbox.payload }).from(outbox).where(eq(outbox.target, "vrchat_membership"))).map((job) => job.payload as { userId: string; action: string });
  const view = (id: string, now = new Date()) => proofView(database.db, { kind: "group", id, status: "pending" }, now);
  const requireProof = () => database.db.insert(siteSettings).values({ id: 1, groupRequiresProof: true });

  it("offers the account of the profile link given, gives a code, and links it as proven once the code is in its bio", async () => {
    const { id, token } = await apply("Heron", `https://vrchat.com/home/user/${fakeUserId(2)}`);
    expect(await view(id)).toEqual({ kind: "offer", account: { userId: fakeUserId(2), displayName: null, profileUrl: `https://vrchat.com/home/user/${fakeUserId(2)}` }, expired: false });
    const started = await startProof(database.db, token, new Date());
    if (started.kind !== "started") throw new Error("no code");
    expect(started.code).toMatch(/^dwell-[2-9A-HJKMNP-Z]{4}$/);
    // Asking again while it is valid gives the same code.
    expect(await startProof(database.db, token, new Date())).toEqual(started);
    expect(await view(id)).toMatchObject({ kind: "code", code: started.code });

    expect(await checkProof(services, token, new Date())).toEqual({ kind: "refused", status: 409, message: PROOF_TEXTS.notFound() });
    fake.group.people.find((p) => p.id === fakeUserId(2))!.bio = `Hello there.\n${started.code.toLowerCase()}`;
    expect(await checkProof(services, token, new Date())).toEqual({ kind: "proven", displayName: "Heron", acting: false });
    expect(await row(id)).toMatchObject({ userId: fakeUserId(2), how: "proven", by: null });
    expect(await view(id)).toEqual({ kind: "proven", displayName: "Heron" });
    const history = await database.db.select({ actor: applicationAuditLog.actorName, to: applicationAuditLog.toValue }).from(applicationAuditLog).where(eq(applicationAuditLog.applicationId, id));
    expect(history).toContainEqual({ actor: "the applicant (a code in their VRChat bio)", to: `proven by a code in its bio: Heron (${fakeUserId(2)})` });
    // Nothing more to prove: a second check asks VRChat nothing.
    const reads = fake.calls.user ?? 0;
    expect(await checkProof(services, token, new Date())).toMatchObject({ kind: "refused", status: 409 });
    expect(fake.calls.user ?? 0).toBe(reads);
  });

  it("a code in another account's bio, or in the status line of the right one", async () => {
    const { token, id } = await apply("Heron", `https://vrchat.com/home/user/${fakeUserId(2)}`);
    const started = await startProof(database.db, token, new Date());
    if (started.kind !== "started") throw new Error("no code");
    fake.group.people.find((p) => p.id === fakeUserId(1))!.bio = started.code;
    expect(await checkProof(services, token, new Date())).toMatchObject({ kind: "refused", message: PROOF_TEXTS.notFound() });
    expect((await row(id)).userId).toBeNull();
    fake.group.people.find((p) => p.id === fakeUserId(2))!.statusDescription = `proof ${started.code}`;
    expect(await checkProof(services, token, new Date())).toMatchObject({ kind: "proven" });
  });

  it("an impostor linked by name cannot be approved where proof is required, nor prove an account that is not theirs", async () => {
    await requireProof();
    const moth = { userId: fakeUserId(1), displayName: "Moth Light" };
    const impostor = await apply("Moth Light", `https://vrchat.com/home/user/${fakeUserId(1)}`, moth);
    expect(await row(impostor.id)).toMatchObject({ userId: fakeUserId(1), how: "name" });
    const group = (await findReview(database.db, undefined))!;
    // One card, and the bulk bar: refused, nothing written, nothing queued.
    expect(await decideApplication(services, group, { id: impostor.id, status: "approved" }, keeper)).toEqual({ kind: "needs-proof" });
    expect(await decideApplications(services, group, { ids: [impostor.id], status: "approved" }, keeper)).toEqual({ kind: "needs-proof", count: 1 });
    expect(await row(impostor.id)).toMatchObject({ status: "pending" });
    expect(await jobs()).toEqual([]);
    // They cannot put the code in Moth's bio: the check finds nothing.
    const started = await startProof(database.db, impostor.token, new Date());
    expect(started.kind).toBe("started");
    expect(await checkProof(services, impostor.token, new Date())).toMatchObject({ kind: "refused", message: PROOF_TEXTS.notFound() });
    // Rejecting is still possible.
    expect(await decideApplication(services, group, { id: impostor.id, status: "rejected" }, keeper)).toMatchObject({ kind: "decided" });
  });

  it("once proven, the approval goes through and acts in VRChat", async () => {
    await requireProof();
    const { id, token } = await apply("Moth Light", `https://vrchat.com/home/user/${fakeUserId(1)}`);
    const started = await startProof(database.db, token, new Date());
    if (started.kind !== "started") throw new Error("no code");
    fake.group.people.find((p) => p.id === fakeUserId(1))!.bio = started.code;
    expect(await checkProof(services, token, new Date())).toMatchObject({ kind: "proven" });
    const group = (await findReview(database.db, undefined))!;
    expect(await decideApplications(services, group, { ids: [id], status: "approved" }, keeper)).toMatchObject({ kind: "decided", changed: 1 });
    expect(await jobs()).toEqual([expect.objectContaining({ userId: fakeUserId(1), action: "accept" })]);
  });

  it("a decision already made acts once the applicant proves the account", async () => {
    const { id, token } = await apply("Heron", `https://vrchat.com/home/user/${fakeUserId(2)}`);
    // 'Heron' gave their own link, but the approval came before VRChat was asked (nothing was linked).
    await database.db.update(applications).set({ status: "approved" }).where(eq(applications.id, id));
    const started = await startProof(database.db, token, new Date());
    if (started.kind !== "started") throw new Error("no code");
    fake.group.people.find((p) => p.id === fakeUserId(2))!.bio = started.code;
    expect(await checkProof(services, token, new Date())).toEqual({ kind: "proven", displayName: "Heron", acting: true });
    expect(await jobs()).toEqual([expect.objectContaining({ userId: fakeUserId(2), action: "accept" })]);
  });

  it("a staff member's choice is the account to prove, whatever link the applicant gave", async () => {
    const { id, token } = await apply("Heron", `https://vrchat.com/home/user/${fakeUserId(2)}`);
    expect(await linkVRChatAccount(services, id, fakeUserId(1), keeper)).toMatchObject({ kind: "linked" });
    expect(await row(id)).toMatchObject({ how: "staff", by: "keeper" });
    expect(await view(id)).toMatchObject({ kind: "offer", account: { userId: fakeUserId(1), displayName: "Moth Light" } });
    const started = await startProof(database.db, token, new Date());
    if (started.kind !== "started") throw new Error("no code");
    fake.group.people.find((p) => p.id === fakeUserId(2))!.bio = started.code;
    expect(await checkProof(services, token, new Date())).toMatchObject({ kind: "refused", message: PROOF_TEXTS.notFound() });
  });

  it("five checks an hour per application, a code that expires, and nothing to prove without an account", async () => {
    const { token } = await apply("Heron", `https://vrchat.com/home/user/${fakeUserId(2)}`);
    const now = new Date();
    await startProof(database.db, token, now);
    const before = fake.calls.user ?? 0;
    for (let i = 0; i < 5; i++) expect(await checkProof(services, token, now)).toMatchObject({ message: PROOF_TEXTS.notFound() });
    expect(await checkProof(services, token, now)).toEqual({ kind: "refused", status: 429, message: PROOF_TEXTS.checksSpent() });
    expect((fake.calls.user ?? 0) - before).toBe(5);

    const tomorrow = new Date(now.getTime() + 25 * 60 * 60 * 1000);
    expect(await checkProof(services, token, tomorrow)).toEqual({ kind: "refused", status: 409, message: PROOF_TEXTS.expired() });
    const renewed = await startProof(database.db, token, tomorrow);
    expect(renewed.kind).toBe("started");

    const nameless = await apply("Nobody At All");
    expect(await view(nameless.id)).toEqual({ kind: "none" });
    expect(await startProof(database.db, nameless.token, now)).toEqual({ kind: "refused", status: 409, message: PROOF_TEXTS.nothingToProve() });
    expect(await startProof(database.db, "x".repeat(43), now)).toMatchObject({ kind: "refused", status: 404 });
  });

  it("a check that did not reach VRChat (the visitors' allowance busy, VRChat refusing connections) costs none of the five", async () => {
    const { token } = await apply("Heron", `https://vrchat.com/home/user/${fakeUserId(2)}`);
    await startProof(database.db, token, new Date());
    const busy = createVRChatMembership({ client: createVRChatClient({ ...fakeVRChatAccount(fake), store: databaseSessionStore(database.db, FAKE_USERNAME, FAKE_SESSION_SECRET), baseDelayMs: 5 }), groupId: FAKE_GROUP_ID, timeoutMs: 2_000, actionSpacingMs: 0, visitorCallsPerMinute: 0 });
    const busyServices = { ...services, vrchat: { ...services.vrchat, membership: busy } };
    for (let i = 0; i < 7; i++) expect(await checkProof(busyServices, token, new Date())).toEqual({ kind: "refused", status: 429, message: PROOF_TEXTS.busy() });
    const unreachable = createVRChatMembership({ client: createVRChatClient({ ...fakeVRChatAccount({ url: "http://127.0.0.1:9" }), store: databaseSessionStore(database.db, FAKE_USERNAME, FAKE_SESSION_SECRET), baseDelayMs: 5, maxAttempts: 1 }), groupId: FAKE_GROUP_ID, timeoutMs: 2_000, actionSpacingMs: 0 });
    for (let i = 0; i < 3; i++) expect(await checkProof({ ...services, vrchat: { ...services.vrchat, membership: unreachable } }, token, new Date())).toMatchObject({ kind: "refused", status: 503 });
    // None of them counted: five real checks are still the applicant's.
    const before = fake.calls.user ?? 0;
    for (let i = 0; i < 5; i++) expect(await checkProof(services, token, new Date())).toMatchObject({ message: PROOF_TEXTS.notFound() });
    expect((fake.calls.user ?? 0) - before).toBe(5);
    expect(await checkProof(services, token, new Date())).toEqual({ kind: "refused", status: 429, message: PROOF_TEXTS.checksSpent() });
  });

  it("VRChat unreachable, an account VRChat does not know, and a rejected application", async () => {
    const { token, id } = await apply("Heron", `https://vrchat.com/home/user/${fakeUserId(2)}`);
    await startProof(database.db, token, new Date());
    await fake.setMode("down");
    expect(await checkProof(services, token, new Date())).toEqual({ kind: "refused", status: 503, message: PROOF_TEXTS.unreachable() });
    await fake.setMode("normal");
    const ghost = await apply("Ghost", `https://vrchat.com/home/user/${fakeUserId(99)}`);
    await startProof(database.db, ghost.token, new Date());
    expect(await checkProof(services, ghost.token, new Date())).toEqual({ kind: "refused", status: 409, message: PROOF_TEXTS.unknownAccount() });
    await linkAccount(database.db, "group", id, "vrchat", null, { id: null, name: "x" });
    await database.db.update(applications).set({ status: "rejected" }).where(eq(applications.id, id));
    expect(await checkProof(services, token, new Date())).toEqual({ kind: "refused", status: 409, message: PROOF_TEXTS.notOpen() });
  });
});
