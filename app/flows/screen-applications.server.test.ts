/**
 * Screening against the VRChat fake over loopback and a real database: rules added as the page adds
 * them, applications sent as the form stores them, the scheduled job's run, and what it decided,
 * flagged or left waiting, through the ordinary decision flow. What staff do beside the rules (trying
 * them, reopening what one decided) is in screen-applications-by-staff.server.test.ts.
 */
import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { applicationAuditLog, bans, joinRequests, screeningRules, screenings, vrchatSessions } from "~/db/schema";
import { addRule } from "~/features/screening/screening-rules.server";
import { queueScreening } from "~/features/screening/screenings.server";
import { fakeUserId } from "../../tests/fakes/vrchat";
import { KNOWN_OVER_30, membershipFor, NEWCOMERS, useScreeningFixture } from "../../tests/setup/screening-fixture";
import { describeEachDatabase } from "../../tests/setup/test-database";
import { linkProvenAccount, linkVRChatAccount } from "./decide.server";
import { setSiteLanguages } from "~/utils/language.server";
import { SYSTEM_FLAGS } from "~/utils/screening-flags";
import { runScreenings, SCREENING_TEXTS } from "./screen-applications.server";

const later = (minutes: number) => new Date(Date.now() + minutes * 60_000);

describeEachDatabase("screening applications by the group's rules", (kind) => {
  const f = useScreeningFixture(kind);
  const { apply, applyProven, state, jobs } = f;

  it("approves a known user over 30 days and 18+ through the decision flow, and flags a young account", async () => {
    await addRule(f.database.db, KNOWN_OVER_30, null);
    await addRule(f.database.db, NEWCOMERS, null);
    const moth = await applyProven("Moth Light", { userId: fakeUserId(1), displayName: "Moth Light" });
    const fern = await apply("Fresh Fern", { userId: fakeUserId(2), displayName: "Fresh Fern" });
    expect(await runScreenings(f.services, new Date())).toMatchObject({ approved: 1, flagged: 1, rejected: 0 });
    expect(await state(moth)).toMatchObject({ status: "approved", screening: { state: "done", rule: "Known users over 30 days", outcome: "approve", flag: null } });
    expect(await state(fern)).toMatchObject({ status: "pending", screening: { state: "done", rule: "Young accounts", outcome: "flag", flag: "A young account: look closely" } });
    // Acted on in VRChat once, as a staff member's approval is; recorded under the rule's name.
    expect(await jobs()).toEqual([expect.objectContaining({ userId: fakeUserId(1), action: "accept" })]);
    const [history] = await f.database.db.select({ actor: applicationAuditLog.actorName, actorId: applicationAuditLog.actorId, to: applicationAuditLog.toValue }).from(applicationAuditLog).where(eq(applicationAuditLog.field, "status"));
    expect(history).toEqual({ actor: 'rule "Known users over 30 days"', actorId: null, to: "approved" });
    // One user read each; nothing more is asked, nothing screened twice.
    expect(f.fake.calls.user).toBe(2);
    expect(await runScreenings(f.services, later(5))).toMatchObject({ approved: 0, flagged: 0 });
    expect(f.fake.calls.user).toBe(2);
  });

  it("tells an applicant a rule's decision in the language they applied in", async () => {
    setSiteLanguages(["en", "ja"]);
    try {
      await addRule(f.database.db, KNOWN_OVER_30, null);
      const moth = await applyProven("Moth Light", { userId: fakeUserId(1), displayName: "Moth Light" }, "ja");
      const heron = await applyProven("Quiet Heron", { userId: fakeUserId(3), displayName: "Quiet Heron" }, "en");
      expect(await runScreenings(f.services, new Date())).toMatchObject({ approved: 2 });
      expect((await state(moth)).message).toContain("ようこそDwellersへ、Moth Lightさん！");
      expect((await state(heron)).message).toContain("Welcome among the Dwellers, Quiet Heron!");
    } finally {
      setSiteLanguages(["en"]);
    }
  });

  it("rejects by a rule with its message, and leaves an application no rule matches to staff", async () => {
    await addRule(f.database.db, { name: "Found on Discord", scope: { kind: "group" }, conditions: [{ kind: "answer_is", question: "How did you find the Dwellers?", options: ["Discord"] }], outcome: { kind: "reject", message: "We take members by introduction only." } }, null);
    const heron = await apply("Quiet Heron", undefined, "Discord");
    const moth = await apply("Moth Light", undefined, "A friend");
    expect(await runScreenings(f.services, new Date())).toMatchObject({ rejected: 1, none: 1 });
    const rejected = await state(heron);
    expect(rejected.status).toBe("rejected");
    expect(rejected.message).toContain("We take members by introduction only.");
    expect(await state(moth)).toMatchObject({ status: "pending", screening: { state: "done", rule: null } });
    // No VRChat condition: VRChat was not asked.
    expect(f.fake.calls.user ?? 0).toBe(0);
  });

  it("waits while VRChat cannot be read, never deciding on missing facts, and decides once it can", async () => {
    await addRule(f.database.db, KNOWN_OVER_30, null);
    await addRule(f.database.db, { ...NEWCOMERS, outcome: { kind: "reject", message: "No." } }, null);
    const moth = await applyProven("Moth Light", { userId: fakeUserId(1), displayName: "Moth Light" });
    await f.fake.setMode("down");
    expect(await runScreenings(f.services, new Date())).toMatchObject({ waiting: 1, approved: 0, rejected: 0 });
    expect(await state(moth)).toMatchObject({ status: "pending", screening: { state: "waiting", rule: "Known users over 30 days" } });
    // Not due yet: nothing is asked.
    expect(await runScreenings(f.services, new Date())).toMatchObject({ waiting: 0 });
    await f.fake.setMode("normal");
    expect(await runScreenings(f.services, later(2))).toMatchObject({ approved: 1 });
    expect(await state(moth)).toMatchObject({ status: "approved", screening: { state: "done", outcome: "approve" } });
  });

  it("holds to the hourly limit of automatic approvals, flagging the rest for staff", async () => {
    f.services.autoApprovalsPerHour = 1;
    await addRule(f.database.db, KNOWN_OVER_30, null);
    const moth = await applyProven("Moth Light", { userId: fakeUserId(1), displayName: "Moth Light" });
    const heron = await applyProven("Quiet Heron", { userId: fakeUserId(3), displayName: "Quiet Heron" });
    expect(await runScreenings(f.services, new Date())).toMatchObject({ approved: 1, flagged: 1 });
    const statuses = [await state(moth), await state(heron)];
    expect(statuses.map((s) => s.status).sort()).toEqual(["approved", "pending"]);
    expect(statuses.find((s) => s.status === "pending")!.screening).toMatchObject({ flag: SCREENING_TEXTS.paused });
  });

  it("screens again when the account is linked later, and approves automatically only a proven one", async () => {
    await addRule(f.database.db, KNOWN_OVER_30, null);
    const heron = await apply("Quiet Heron");
    expect(await runScreenings(f.services, new Date())).toMatchObject({ none: 1 });
    // A staff member's choice: the rule holds, but a chosen account is not approved by a rule.
    await linkVRChatAccount(f.services, heron, fakeUserId(3), { id: f.keeperId, username: "keeper", via: "sanctum", role: "admin" });
    expect(await runScreenings(f.services, new Date())).toMatchObject({ flagged: 1 });
    expect((await state(heron)).screening).toMatchObject({ outcome: "flag", flag: SYSTEM_FLAGS.needsProven });
    expect(await jobs()).toEqual([]);
    // Proven now (the flow a bio code's check calls): screened again, and approved.
    await linkProvenAccount(f.services, { kind: "group", id: heron, eventId: null }, { userId: fakeUserId(3), displayName: "Quiet Heron" }, { name: "the applicant" });
    expect(await runScreenings(f.services, new Date())).toMatchObject({ approved: 1 });
  });

  it("an impostor's application (another's name and profile link) is flagged, never approved, and acts on no account", async () => {
    await addRule(f.database.db, KNOWN_OVER_30, null);
    // Moth's own name and public profile link: linked by name, which anyone can type.
    const impostor = await apply("Moth Light", { userId: fakeUserId(1), displayName: "Moth Light" });
    expect(await runScreenings(f.services, new Date())).toMatchObject({ approved: 0, flagged: 1 });
    expect(await state(impostor)).toMatchObject({ status: "pending", message: null, screening: { rule: "Known users over 30 days", outcome: "flag", flag: SYSTEM_FLAGS.needsProven } });
    expect(await jobs()).toEqual([]);
    expect(f.fake.actions).toEqual([]);
    // The account's true owner proves it (the bio code): screened again, and approved.
    await linkProvenAccount(f.services, { kind: "group", id: impostor, eventId: null }, { userId: fakeUserId(1), displayName: "Moth Light" }, { name: "the applicant (a code in their VRChat bio)" });
    expect(await runScreenings(f.services, new Date())).toMatchObject({ approved: 1 });
    expect(await jobs()).toEqual([expect.objectContaining({ userId: fakeUserId(1), action: "accept" })]);
  });

  it("a rule's rejection of a name-matched application answers no one's join request in VRChat", async () => {
    await addRule(f.database.db, { ...NEWCOMERS, outcome: { kind: "reject", message: "Come back later." } }, null);
    const fern = await apply("Fresh Fern", { userId: fakeUserId(2), displayName: "Fresh Fern" });
    expect(await runScreenings(f.services, new Date())).toMatchObject({ rejected: 1 });
    expect((await state(fern)).status).toBe("rejected");
    // Fern's request to join in VRChat (the real account's) is left for staff.
    expect(await jobs()).toEqual([]);
  });

  it("decides only on the account it read: a link changed while VRChat was read is screened again", async () => {
    await addRule(f.database.db, { ...NEWCOMERS, conditions: [{ kind: "trust_at_least", rank: "known_user" }], outcome: { kind: "reject", message: "Known users apply in VRChat." } }, null);
    const staff = { id: f.keeperId, username: "keeper", via: "sanctum" as const, role: "admin" as const };
    const heron = await apply("Quiet Heron", { userId: fakeUserId(3), displayName: "Quiet Heron" });
    const membership = f.services.vrchat.membership!;
    // While Heron's account is being read, staff link another (a young account the rule does not reject).
    let raced = false;
    const racing = { ...membership, screeningFacts: async (...args: Parameters<typeof membership.screeningFacts>) => {
      const read = await membership.screeningFacts(...args);
      if (!raced) {
        raced = true;
        await linkVRChatAccount(f.services, heron, fakeUserId(2), staff);
      }
      return read;
    } };
    const racingServices = { ...f.services, vrchat: { ...f.services.vrchat, membership: racing } };
    expect(await runScreenings(racingServices, new Date())).toMatchObject({ rejected: 0, waiting: 1 });
    expect((await state(heron)).status).toBe("pending");
    // Screened again on the account now linked: the rule does not hold for it.
    expect(await runScreenings(racingServices, new Date())).toMatchObject({ rejected: 0, none: 1 });
    const [row] = await f.database.db.select({ account: screenings.vrchatUserId }).from(screenings).where(eq(screenings.applicationId, heron));
    expect(row?.account).toBe(fakeUserId(2));
    expect((await state(heron)).status).toBe("pending");
  });

  it("reads facts again before a rule acts on them once they are more than an hour old; keeps them otherwise", async () => {
    const moth = await applyProven("Moth Light", { userId: fakeUserId(1), displayName: "Moth Light" });
    expect(await runScreenings(f.services, new Date())).toMatchObject({ none: 1 });
    expect(f.fake.calls.user).toBe(1);
    // Two hours later a rule is added: a flag needs no fresh facts, an approval does.
    await addRule(f.database.db, { ...KNOWN_OVER_30, name: "Flag known users", outcome: { kind: "flag", flag: "Known" } }, null);
    await queueScreening(f.database.db, { kind: "group", id: moth }, later(120));
    expect(await runScreenings(f.services, later(120))).toMatchObject({ flagged: 1 });
    expect(f.fake.calls.user).toBe(1);
    await f.database.db.delete(screeningRules);
    await addRule(f.database.db, KNOWN_OVER_30, null);
    await queueScreening(f.database.db, { kind: "group", id: moth }, later(120));
    expect(await runScreenings(f.services, later(120))).toMatchObject({ approved: 1 });
    expect(f.fake.calls.user).toBe(2);
  });

  it("a bio VRChat did not send is unread: a rule on the bio waits", async () => {
    await addRule(f.database.db, { name: "Clean bios", scope: { kind: "group" }, conditions: [{ kind: "bio_lacks", words: ["free robux"] }], outcome: { kind: "reject", message: "No." } }, null);
    f.fake.setEndpoint("user", { body: { id: fakeUserId(2), displayName: "Fresh Fern", tags: [], date_joined: "2025-01-01", ageVerificationStatus: "hidden" } });
    const fern = await apply("Fresh Fern", { userId: fakeUserId(2), displayName: "Fresh Fern" });
    expect(await runScreenings(f.services, new Date())).toMatchObject({ waiting: 1, rejected: 0 });
    expect((await state(fern)).screening).toMatchObject({ state: "waiting", rule: "Clean bios" });
  });

  it("stops at a 429, sends nothing until its Retry-After has passed, then resumes where it stopped", async () => {
    await addRule(f.database.db, KNOWN_OVER_30, null);
    const moth = await applyProven("Moth Light", { userId: fakeUserId(1), displayName: "Moth Light" });
    const heron = await applyProven("Quiet Heron", { userId: fakeUserId(3), displayName: "Quiet Heron" });
    f.fake.setEndpoint("user", { status: 429, message: "Too Many Requests", retryAfterSeconds: 120 });
    expect(await runScreenings(f.services, new Date())).toMatchObject({ deferred: 2, waiting: 0 });
    const asked = f.fake.requests.length;
    f.fake.setEndpoint("user", "normal");
    // A minute later: still within the two minutes asked for; nothing is sent, nothing spent.
    expect(await runScreenings(f.services, later(1))).toMatchObject({ deferred: 2 });
    expect(f.fake.requests.length).toBe(asked);
    const queued = await f.database.db.select({ attempts: screenings.attempts, state: screenings.state }).from(screenings);
    expect(queued).toEqual([{ attempts: 0, state: "queued" }, { attempts: 0, state: "queued" }]);
    // Once the time has passed, both are screened.
    await f.database.db.update(vrchatSessions).set({ quietUntil: new Date(Date.now() - 1_000) });
    expect(await runScreenings(f.services, later(3))).toMatchObject({ approved: 2 });
    expect([(await state(moth)).status, (await state(heron)).status]).toEqual(["approved", "approved"]);
  });

  it("a rule for events does not touch the group's applications", async () => {
    await addRule(f.database.db, { ...KNOWN_OVER_30, scope: { kind: "events" } }, null);
    const moth = await apply("Moth Light", { userId: fakeUserId(1), displayName: "Moth Light" });
    // No rule could apply: its account's facts are read once, as any linked applicant's, and nothing is decided.
    expect(await runScreenings(f.services, new Date())).toMatchObject({ approved: 0, none: 1 });
    expect(await state(moth)).toMatchObject({ status: "pending", screening: { state: "done", rule: null, outcome: null } });
    expect(f.fake.calls.user).toBe(1);
    // Without an account, and without a rule that could apply, nothing is even queued.
    const heron = await apply("Quiet Heron");
    expect((await state(heron)).screening).toBeNull();
  });


  it("the 'banned' condition holds for someone on the group's ban list without asking VRChat", async () => {
    await addRule(f.database.db, { name: "Banned", scope: { kind: "group" }, conditions: [{ kind: "banned" }], outcome: { kind: "reject", message: "Not here." } }, null);
    await f.database.db.insert(bans).values({ vrchatUserId: fakeUserId(2), displayName: "Fresh Fern", source: "dwell", bannedBy: "keeper", reason: "Spam." });
    const fern = await apply("Fresh Fern", { userId: fakeUserId(2), displayName: "Fresh Fern" });
    const moth = await apply("Moth Light", { userId: fakeUserId(1), displayName: "Moth Light" });
    expect(await runScreenings(f.services, new Date())).toMatchObject({ rejected: 1, none: 1 });
    expect(await state(fern)).toMatchObject({ status: "rejected" });
    expect(await state(moth)).toMatchObject({ status: "pending" });
    // Moth's standing was read from VRChat (not on the list); Fern's was not needed.
    expect(f.fake.calls.membership).toBe(1);
  });

  it("stops when screening's allowance is spent, giving the rest back untried; applications on the site come before join requests", async () => {
    await addRule(f.database.db, KNOWN_OVER_30, null);
    const membership = membershipFor(f.database, f.fake, { screeningCallsPerMinute: 1 });
    const spare = { ...f.services, vrchat: { membership, membershipActions: true } };
    // A join request queued first, then two applications: the applications are screened first.
    const [request] = await f.database.db.insert(joinRequests).values({ vrchatUserId: fakeUserId(3), displayName: "Quiet Heron" }).returning({ id: joinRequests.id });
    await queueScreening(f.database.db, { kind: "join_request", id: request!.id }, new Date(Date.now() - 60_000));
    const moth = await applyProven("Moth Light", { userId: fakeUserId(1), displayName: "Moth Light" });
    const fern = await apply("Fresh Fern", { userId: fakeUserId(2), displayName: "Fresh Fern" });
    expect(await runScreenings(spare, new Date())).toMatchObject({ approved: 1, deferred: 2, waiting: 0 });
    expect(await state(moth)).toMatchObject({ status: "approved" });
    const left = await f.database.db.select({ id: screenings.applicationId, state: screenings.state, attempts: screenings.attempts, lockedUntil: screenings.lockedUntil }).from(screenings).where(eq(screenings.state, "queued"));
    expect(left.map((row) => row.id).sort()).toEqual([fern, request!.id].sort());
    // Not an attempt, and free to be claimed at once by the next run.
    expect(left.every((row) => row.attempts === 0 && row.lockedUntil === null)).toBe(true);
    expect(await runScreenings(spare, new Date())).toMatchObject({ deferred: 2 });
    expect(f.fake.calls.user).toBe(1);
  });
});
