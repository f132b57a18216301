/**
 * What staff do beside the screening rules, against the VRChat fake over loopback and a real database:
 * trying a rule on what was decided, reopening what a rule decided, saving a rule that names other groups.
 */
import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { applicationAuditLog, screeningRules, screenings } from "~/db/schema";
import { addRule } from "~/features/screening/screening-rules.server";
import type { RuleInput } from "~/features/screening/screening-rules";
import { fakeUserId } from "../../tests/fakes/vrchat";
import { KNOWN_OVER_30, useScreeningFixture } from "../../tests/setup/screening-fixture";
import { describeEachDatabase } from "../../tests/setup/test-database";
import { decideApplication, findReview } from "./decide.server";
import { addScreeningRule, runScreenings, tryScreeningRules } from "./screen-applications.server";

describeEachDatabase("staff beside the screening rules", (kind) => {
  const f = useScreeningFixture(kind);
  const { apply, applyProven, state } = f;

  it("'Try these rules' sets a rule beside what staff decided, from the facts read on arrival, writing nothing and asking VRChat nothing", async () => {
    const staff = { id: f.keeperId, username: "keeper", via: "sanctum" as const, role: "admin" as const };
    // Before any rule: Sorrel's account is read once as the application arrives, all the same.
    const sorrel = await applyProven("Sorrel", { userId: fakeUserId(3), displayName: "Quiet Heron" });
    expect(await runScreenings(f.services, new Date())).toMatchObject({ none: 1 });
    expect(f.fake.calls.user).toBe(1);
    // A saved rule that asks VRChat (and holds for no one): what it reads is kept.
    await addRule(f.database.db, { name: "Spam in the bio", scope: { kind: "group" }, conditions: [{ kind: "bio_contains", words: ["spam"] }], outcome: { kind: "flag", flag: "Spam?" } }, null);
    const moth = await applyProven("Moth Light", { userId: fakeUserId(1), displayName: "Moth Light" });
    const fern = await apply("Fresh Fern", { userId: fakeUserId(2), displayName: "Fresh Fern" });
    const heron = await apply("Quiet Heron", undefined, "Discord");
    await apply("Still Waiting");
    expect(await runScreenings(f.services, new Date())).toMatchObject({ none: 4 });
    const review = (await findReview(f.database.db, undefined))!;
    for (const [id, status] of [[moth, "rejected"], [fern, "approved"], [heron, "approved"], [sorrel, "approved"]] as const) {
      expect(await decideApplication(f.services, review, { id, status }, staff)).toMatchObject({ kind: "decided" });
    }
    const reads = f.fake.calls.user;
    const before = await f.database.db.select().from(screenings);

    const draft: RuleInput = { ...KNOWN_OVER_30, name: "Known users over 30 days (draft)" };
    const trial = await tryScreeningRules(f.database.db, draft, new Date());
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
    const onAnswers = await tryScreeningRules(f.database.db, { name: "Found on Discord", scope: { kind: "group" }, conditions: [{ kind: "answer_is", question: "How did you find the Dwellers?", options: ["Discord"] }], outcome: { kind: "reject", message: "No." } }, new Date());
    expect(onAnswers.disagreements).toEqual([expect.objectContaining({ id: heron, status: "approved", outcome: "reject" })]);

    // Nothing was saved, queued or asked.
    expect(f.fake.calls.user).toBe(reads);
    expect(await f.database.db.select().from(screenings)).toEqual(before);
    expect((await f.database.db.select().from(screeningRules)).map((rule) => rule.name)).toEqual(["Spam in the bio"]);
  });

  it("staff can reopen what a rule decided, and only that: back to Pending, the card says who reopened it", async () => {
    const staff = { id: f.keeperId, username: "keeper", via: "sanctum" as const, role: "admin" as const };
    await addRule(f.database.db, KNOWN_OVER_30, null);
    const moth = await applyProven("Moth Light", { userId: fakeUserId(1), displayName: "Moth Light" });
    const heron = await apply("Quiet Heron", undefined, "Discord");
    expect(await runScreenings(f.services, new Date())).toMatchObject({ approved: 1, none: 1 });
    const review = (await findReview(f.database.db, undefined))!;

    expect(await decideApplication(f.services, review, { id: moth, status: "pending" }, staff)).toMatchObject({ kind: "decided" });
    expect(await state(moth)).toMatchObject({ status: "pending", message: null, screening: { flag: 'Reopened by keeper: rule "Known users over 30 days" had approved it' } });
    const history = await f.database.db.select({ actor: applicationAuditLog.actorName, from: applicationAuditLog.fromValue, to: applicationAuditLog.toValue }).from(applicationAuditLog).where(eq(applicationAuditLog.applicationId, moth));
    expect(history).toEqual(expect.arrayContaining([{ actor: "keeper", from: "approved", to: "pending" }]));
    // Reopened once: now it is staff's, and it cannot be reopened again after their decision.
    expect(await decideApplication(f.services, review, { id: moth, status: "rejected" }, staff)).toMatchObject({ kind: "decided" });
    expect(await decideApplication(f.services, review, { id: moth, status: "pending" }, staff)).toEqual({ kind: "conflict" });
    // A person's decision is not reopened, and neither is a pending application.
    expect(await decideApplication(f.services, review, { id: heron, status: "pending" }, staff)).toEqual({ kind: "conflict" });
    expect(await decideApplication(f.services, review, { id: heron, status: "approved" }, staff)).toMatchObject({ kind: "decided" });
    expect(await decideApplication(f.services, review, { id: heron, status: "pending" }, staff)).toEqual({ kind: "conflict" });
    expect((await state(heron)).status).toBe("approved");
  });

  it("a rule naming other groups is saved only once VRChat knows each of them", async () => {
    const known = "grp_0a0a0a0a-1111-4222-8333-444444444444";
    const unknown = "grp_0b0b0b0b-1111-4222-8333-444444444444";
    const other = "grp_0c0c0c0c-1111-4222-8333-444444444444";
    f.fake.group.otherGroups = [{ id: known, name: "The Lantern Guild" }, { id: other, name: "The Moth Circle" }];
    const rule = (groupIds: string[]): RuleInput => ({ name: "Guild members", scope: { kind: "group" }, conditions: [{ kind: "in_groups", groupIds }], outcome: { kind: "flag", flag: "Guild member" } });
    const membership = f.services.vrchat.membership!;
    expect(await addScreeningRule(f.database.db, membership, rule([known, unknown]), f.keeperId)).toEqual({ ok: false, status: 422, error: `VRChat has no group ${unknown}.` });
    await f.fake.setMode("down");
    // Not asked before: VRChat cannot confirm it now, so the rule waits to be saved.
    expect(await addScreeningRule(f.database.db, membership, rule([other]), f.keeperId)).toMatchObject({ ok: false, status: 503 });
    expect(await addScreeningRule(f.database.db, null, rule([known]), f.keeperId)).toMatchObject({ ok: false, status: 422 });
    expect(await f.database.db.select().from(screeningRules)).toEqual([]);
    await f.fake.setMode("normal");
    expect(await addScreeningRule(f.database.db, membership, rule([known, other]), f.keeperId)).toMatchObject({ ok: true });
    expect(f.fake.calls.otherGroup).toBeGreaterThanOrEqual(3);
  });
});
