/**
 * Join requests made in VRChat, against the VRChat fake over loopback and a real database: the list
 * read as the scheduled job reads it, screened by the group's rules (acted on only when the owner lets
 * them), decided by staff, and one person when they also applied on the site.
 */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from "vitest";
import { applicationQuestions, applications, joinRequests, outbox, profiles, rateLimits, screeningRules, screenings, siteSettings, vrchatAccountFacts, vrchatListReads, vrchatSessions, applicationAuditLog } from "~/db/schema";
import { answerFieldName, type FormQuestion } from "~/features/applications/answers";
import { listFormQuestions, submitApplication } from "~/features/applications/applications.server";
import { newStatusToken } from "~/features/decisions/decisions.server";
import { listJoinRequests } from "~/features/screening/join-requests.server";
import { lastListRead } from "~/features/vrchat/vrchat-list-reads.server";
import { addRule } from "~/features/screening/screening-rules.server";
import type { RuleInput } from "~/features/screening/screening-rules";
import { createVRChatClient } from "~/features/vrchat/vrchat-client.server";
import { createVRChatMembership } from "~/features/vrchat/vrchat-membership.server";
import { databaseSessionStore } from "~/features/vrchat/vrchat-session.server";
import { FAKE_GROUP_ID, FAKE_SESSION_SECRET, FAKE_USERNAME, fakeUserId, fakeVRChatAccount, startFakeVRChat, type FakeVRChat } from "../../tests/fakes/vrchat";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../tests/setup/test-database";
import { chooseJoinRequestHandling, decideJoinRequests, readJoinRequests } from "./join-requests.server";
import { decideApplication, findReview, linkProvenAccount } from "./decide.server";
import { runScreenings, type ScreeningServices } from "./screen-applications.server";

const KNOWN_OVER_30: RuleInput = {
  name: "Known users over 30 days",
  scope: { kind: "group" },
  conditions: [{ kind: "trust_at_least", rank: "known_user" }, { kind: "account_older_than", days: 30 }, { kind: "shows_18_plus" }],
  outcome: { kind: "approve" },
};
const KNOWN_TAGS = ["system_trust_basic", "system_trust_known", "system_trust_trusted"];

describeEachDatabase("join requests made in VRChat", (kind) => {
  let database: TestDatabase;
  let fake: FakeVRChat;
  let services: ScreeningServices;
  let questions: FormQuestion[];
  let keeperId = "";
  const staff = () => ({ id: keeperId, username: "keeper", via: "sanctum" as const, role: "admin" as const });

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await database.db.insert(applicationQuestions).values([{ question: "What is your VRChat username?", orderIndex: 0 }]);
    questions = await listFormQuestions(database.db, { kind: "group" });
    const [profile] = await database.db.insert(profiles).values({ username: "keeper", email: "keeper@dwell.example", role: "owner" }).returning({ id: profiles.id });
    keeperId = profile!.id;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    for (const table of [applications, applicationAuditLog, joinRequests, outbox, vrchatSessions, rateLimits, screeningRules, screenings, siteSettings, vrchatAccountFacts, vrchatListReads]) await database.db.delete(table);
    fake = await startFakeVRChat();
    fake.group.people.push(
      { id: fakeUserId(1), displayName: "Moth Light", status: "requested", tags: KNOWN_TAGS, dateJoined: "2023-04-01", ageVerificationStatus: "18+", requestedAt: "2026-11-20T10:00:00.000Z" },
      { id: fakeUserId(2), displayName: "Fresh Fern", status: "requested", tags: [], dateJoined: new Date().toISOString().slice(0, 10), ageVerificationStatus: "hidden", requestedAt: "2026-11-21T10:00:00.000Z" },
      { id: fakeUserId(3), displayName: "Quiet Heron", status: "requested", tags: KNOWN_TAGS, dateJoined: "2022-01-01", ageVerificationStatus: "18+", requestedAt: "2026-11-22T10:00:00.000Z" },
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

  const jobs = async () => (await database.db.select({ payload: outbox.payload }).from(outbox).where(eq(outbox.target, "vrchat_membership"))).map((job) => job.payload as { applicationKind: string; userId: string; action: string; block: boolean });
  const list = () => listJoinRequests(database.db, new Date());
  const of = async (userId: string) => (await list()).find((request) => request.userId === userId)!;

  it("keeps the list in step with VRChat's: one read of one page a minute, new requests stored, ended ones marked gone", async () => {
    expect(await readJoinRequests(database.db, services.vrchat.membership!, new Date())).toEqual({ added: 3, gone: 0 });
    expect(fake.calls.joinRequests).toBe(1);
    expect((await list()).map((request) => request.displayName)).toEqual(["Moth Light", "Fresh Fern", "Quiet Heron"]);
    // Accepted in VRChat by hand meanwhile: gone from the list, marked so, and nothing to decide.
    fake.group.people.find((person) => person.id === fakeUserId(2))!.status = "member";
    expect(await readJoinRequests(database.db, services.vrchat.membership!, new Date())).toEqual({ added: 0, gone: 1 });
    expect(await of(fakeUserId(2))).toMatchObject({ gone: true, decision: null });
    const fern = (await of(fakeUserId(2))).id;
    expect(await decideJoinRequests(services, [fern], { decision: "accept", block: false }, staff())).toMatchObject({ decided: 0, unchanged: 1 });
    expect(await jobs()).toEqual([]);
    // Nothing is screened without a rule: no VRChat read.
    expect(fake.calls.user ?? 0).toBe(0);
  });

  it("screens each new request by the group's rules: left for staff by default, decided in VRChat once the owner lets the rules decide", async () => {
    await addRule(database.db, KNOWN_OVER_30, keeperId);
    await addRule(database.db, { name: "Young accounts", scope: { kind: "group" }, conditions: [{ kind: "trust_at_least", rank: "visitor" }], outcome: { kind: "flag", flag: "A young account" } }, keeperId);
    await readJoinRequests(database.db, services.vrchat.membership!, new Date());
    // Left for staff: the list says what the rules say, nothing is done in VRChat.
    expect(await runScreenings(services, new Date())).toMatchObject({ flagged: 1, none: 2 });
    expect(await of(fakeUserId(1))).toMatchObject({ decision: null, screening: { ruleName: "Known users over 30 days", outcome: "approve" }, facts: { trustRank: "known_user", shows18: true } });
    expect(await of(fakeUserId(2))).toMatchObject({ decision: null, screening: { outcome: "flag", flag: "A young account" } });
    expect(await jobs()).toEqual([]);

    // The owner lets the rules decide: the requests waiting are screened again, and the known ones accepted in VRChat by the rule, once; the young one is left for staff.
    await chooseJoinRequestHandling(database.db, true, { id: keeperId, username: "keeper" }, new Date());
    fake.group.people.push({ id: fakeUserId(4), displayName: "Lantern Keeper", status: "requested", tags: KNOWN_TAGS, dateJoined: "2021-01-01", ageVerificationStatus: "18+" });
    await readJoinRequests(database.db, services.vrchat.membership!, new Date());
    expect(await runScreenings(services, new Date())).toMatchObject({ approved: 3, flagged: 1 });
    expect(await of(fakeUserId(4))).toMatchObject({ decision: "accept", decidedBy: 'rule "Known users over 30 days"' });
    expect(await of(fakeUserId(2))).toMatchObject({ decision: null, screening: { flag: "A young account" } });
    expect((await jobs()).map((job) => [job.applicationKind, job.userId, job.action]).sort()).toEqual(
      [fakeUserId(1), fakeUserId(3), fakeUserId(4)].map((userId) => ["join_request", userId, "accept"]),
    );
    expect(await runScreenings(services, new Date(Date.now() + 60_000))).toMatchObject({ approved: 0 });
    expect(await jobs()).toHaveLength(3);
    // Back to staff: nothing more is decided by the rules.
    await chooseJoinRequestHandling(database.db, false, { id: keeperId, username: "keeper" }, new Date());
    fake.group.people.push({ id: fakeUserId(5), displayName: "Late Lark", status: "requested", tags: KNOWN_TAGS, dateJoined: "2021-01-01", ageVerificationStatus: "18+" });
    await readJoinRequests(database.db, services.vrchat.membership!, new Date());
    await runScreenings(services, new Date());
    expect(await of(fakeUserId(5))).toMatchObject({ decision: null, screening: { outcome: "approve" } });
    expect(await jobs()).toHaveLength(3);
  });

  /** Applies on the site as `name`, with that account's profile link under the same name (a name match). */
  async function applyAs(name: string, userId: string) {
    const values: Record<string, string> = { [answerFieldName(questions[0]!.id)]: name };
    const applied = await submitApplication(database.db, {
      scope: { kind: "group" },
      questions,
      fields: (field) => values[field],
      now: new Date(),
      statusTokenHash: newStatusToken().hash,
      vet: async () => ({ found: { check: "confirmed", account: { userId, displayName: name } } }),
    });
    if (!applied.ok) throw new Error(applied.message);
    return applied.application.id;
  }

  it("staff accept, reject, or reject and block, once each; a person who also applied (their account proven) is decided as one", async () => {
    await readJoinRequests(database.db, services.vrchat.membership!, new Date());
    // Heron also applied on the site, and proved the account is theirs (the bio code).
    const applied = { application: { id: await applyAs("Quiet Heron", fakeUserId(3)) } };
    await linkProvenAccount(services, { kind: "group", id: applied.application.id, eventId: null }, { userId: fakeUserId(3), displayName: "Quiet Heron" }, { name: "the applicant (a code in their VRChat bio)" });
    expect(await of(fakeUserId(3))).toMatchObject({ application: { id: applied.application.id, status: "pending", linkedHow: "proven" } });

    const [moth, fern, heron] = [await of(fakeUserId(1)), await of(fakeUserId(2)), await of(fakeUserId(3))];
    expect(await decideJoinRequests(services, [fern.id], { decision: "reject", block: true }, staff())).toMatchObject({ decided: 1 });
    expect(await decideJoinRequests(services, [moth.id, heron.id, fern.id], { decision: "accept", block: false }, staff())).toEqual({ decided: 2, throughApplication: 1, unchanged: 1, needsProof: 0 });
    // Heron's application is approved (its decision answers the request); one action each in VRChat.
    const [application] = await database.db.select({ status: applications.status }).from(applications).where(eq(applications.id, applied.application.id));
    expect(application!.status).toBe("approved");
    expect((await jobs()).map((job) => [job.userId, job.action, job.block, job.applicationKind]).sort()).toEqual(
      [
        [fakeUserId(1), "accept", false, "join_request"],
        [fakeUserId(2), "reject", true, "join_request"],
        [fakeUserId(3), "accept", false, "group"],
      ].sort(),
    );
    expect(await of(fakeUserId(2))).toMatchObject({ decision: "reject", block: true, decidedBy: "keeper" });
    const history = await database.db.select({ to: applicationAuditLog.toValue }).from(applicationAuditLog).where(eq(applicationAuditLog.applicationId, fern.id));
    expect(history).toEqual([{ to: "rejected and blocked" }]);
  });

  it("an application matched by name only is not the requester: neither decides the other", async () => {
    await readJoinRequests(database.db, services.vrchat.membership!, new Date());
    // Someone applies on the site as Moth, with Moth's public profile link: a claim.
    const impostor = await applyAs("Moth Light", fakeUserId(1));
    expect(await of(fakeUserId(1))).toMatchObject({ application: { id: impostor, linkedHow: "name" } });
    const status = async () => (await database.db.select({ status: applications.status }).from(applications).where(eq(applications.id, impostor)))[0]!.status;
    // Staff reject the impostor's application: Moth's own request in VRChat is untouched.
    const review = (await findReview(database.db, undefined))!;
    expect(await decideApplication(services, review, { id: impostor, status: "rejected" }, staff())).toMatchObject({ kind: "decided", unconfirmed: true });
    expect(await jobs()).toEqual([]);
    expect(await of(fakeUserId(1))).toMatchObject({ decision: null });
    // And the reverse: accepting Moth's request decides the request alone.
    const other = await applyAs("Fresh Fern", fakeUserId(2));
    expect(await decideJoinRequests(services, [(await of(fakeUserId(2))).id], { decision: "accept", block: false }, staff())).toEqual({ decided: 1, throughApplication: 0, unchanged: 0, needsProof: 0 });
    expect((await database.db.select({ status: applications.status }).from(applications).where(eq(applications.id, other)))[0]!.status).toBe("pending");
    expect((await jobs()).map((job) => [job.applicationKind, job.userId, job.action])).toEqual([["join_request", fakeUserId(2), "accept"]]);
    expect(await status()).toBe("rejected");
  });

  it("reads each new request's account once as it arrives, with no rule, so the list shows its facts", async () => {
    await readJoinRequests(database.db, services.vrchat.membership!, new Date());
    expect((await of(fakeUserId(1))).facts).toBeNull();
    expect(await runScreenings(services, new Date())).toMatchObject({ none: 3 });
    expect(fake.calls.user).toBe(3);
    expect(await of(fakeUserId(1))).toMatchObject({ facts: { trustRank: "known_user", shows18: true }, accountAgeDays: expect.any(Number), screening: { ruleName: null } });
    expect(await of(fakeUserId(2))).toMatchObject({ facts: { trustRank: "visitor", shows18: false } });
    // Read again next minute: nothing more is asked of VRChat.
    await readJoinRequests(database.db, services.vrchat.membership!, new Date());
    expect(await runScreenings(services, new Date(Date.now() + 60_000))).toMatchObject({ none: 0 });
    expect(fake.calls.user).toBe(3);
  });

  it("says how many entries VRChat sent that it could not read, and logs them, rather than dropping them without a word", async () => {
    fake.group.people.push({ id: "usr_not-a-user-id", displayName: "Odd One", status: "requested" }, { id: "", displayName: "Blank", status: "requested" });
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (lines.push(String(chunk)), true));
    try {
      expect(await readJoinRequests(database.db, services.vrchat.membership!, new Date())).toEqual({ added: 3, gone: 0 });
    } finally {
      spy.mockRestore();
    }
    expect(await lastListRead(database.db, "join_requests")).toMatchObject({ entries: 5, unreadable: 2 });
    expect(lines.some((line) => line.includes("could not be read") && line.includes("usr_not-a-user-id") && line.includes('"count":2'))).toBe(true);
    // The next read, all readable: the count says so.
    fake.group.people = fake.group.people.filter((person) => person.displayName !== "Odd One" && person.displayName !== "Blank");
    await readJoinRequests(database.db, services.vrchat.membership!, new Date());
    expect(await lastListRead(database.db, "join_requests")).toMatchObject({ entries: 3, unreadable: 0 });
  });

  it("does not act in VRChat where Dwell's actions there are off", async () => {
    await readJoinRequests(database.db, services.vrchat.membership!, new Date());
    const moth = await of(fakeUserId(1));
    services.vrchat.membershipActions = false;
    expect(await decideJoinRequests(services, [moth.id], { decision: "accept", block: false }, staff())).toEqual({ kind: "no-actions" });
    expect(await of(fakeUserId(1))).toMatchObject({ decision: null });
  });
});
