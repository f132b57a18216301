import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { applicationAuditLog, applications, eventApplications, events, outbox, profiles } from "~/db/schema";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { exportCsv, listAudit, listForReview, REVIEW_PAGE_SIZE, ReviewQuerySchema, type ReviewScope } from "./review.server";
import { markSpam, reviewApplication, reviewApplications } from "./review-changes.server";

const query = (values: Record<string, string> = {}) => ReviewQuerySchema.parse(values);

/** Question ids the seeded answers (kept by text only, as before ids) do not carry: found by their text. */
const WHY = "00000000-0000-4000-8000-0000000000a1";
const WHERE_FROM = "00000000-0000-4000-8000-0000000000a2";

describeEachDatabase("reviewing applications", (kind) => {
  let database: TestDatabase;
  let scope: ReviewScope;
  const reviewer = { id: "", username: "Keeper" };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const [event] = await database.db
      .insert(events)
      .values({ title: "Ball", eventDate: "2026-12-01", eventTime: "20:00", worldName: "W", applicationRequired: true })
      .returning({ id: events.id });
    scope = { kind: "event", eventId: event!.id };
    const [profile] = await database.db.insert(profiles).values({ username: "Keeper", email: "k@dwell.example", role: "admin" }).returning({ id: profiles.id });
    reviewer.id = profile!.id;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(eventApplications);
    await database.db.delete(applications);
    await database.db.delete(applicationAuditLog);
    await database.db.delete(outbox);
  });

  async function seed(count: number) {
    const base = Date.parse("2026-11-01T00:00:00Z");
    await database.db.insert(eventApplications).values(
      Array.from({ length: count }, (_, i) => ({
        eventId: scope.kind === "event" ? scope.eventId : "",
        vrchatUsername: i === 3 ? "100%_Moth" : `Dweller${i}`,
        discordId: `dweller${i}`,
        status: (["pending", "approved", "rejected"] as const)[i % 3],
        submittedAt: new Date(base + i * 60_000),
        answers: [{ questionId: null, question: "Why?", type: "textarea" as const, value: `Because ${i}` }],
      })),
    );
  }

  it("takes spam out of the lists, counts and export, deletes its unsent notifications, and frees its names", async () => {
    await seed(6);
    const listed = (await listForReview(database.db, scope, query())).applications;
    const idOf = (name: string) => listed.find((a) => a.vrchatUsername === name)!.id;
    const spam = [idOf("Dweller0"), idOf("Dweller1")];
    await database.db.insert(outbox).values([
      { target: "discord", payload: {}, sourceId: spam[0], status: "pending" },
      { target: "telegram", payload: {}, sourceId: spam[0], status: "delivered", deliveredAt: new Date() },
      { target: "discord", payload: {}, sourceId: spam[1], status: "failed" },
      { target: "discord", payload: {}, sourceId: listed.find((a) => a.vrchatUsername === "Dweller2")!.id, status: "pending" },
    ]);

    const outcome = await markSpam(database.db, scope, [...spam, "not-an-id"], true, reviewer, new Date());
    expect(outcome).toEqual({ changed: 2, unchanged: 0, missing: 1, jobsRemoved: 2 });
    const after = await listForReview(database.db, scope, query());
    expect(after.counts).toEqual({ total: 4, pending: 1, approved: 1, rejected: 2, waitlist: 0, withdrawn: 0, attended: 0, spam: 2 });
    expect(after.applications.map((a) => a.vrchatUsername)).not.toContain("Dweller0");
    const marked = await listForReview(database.db, scope, query({ status: "spam" }));
    expect(marked.applications.map((a) => a.vrchatUsername).sort()).toEqual(["Dweller0", "Dweller1"]);
    expect(marked.applications.every((a) => a.spam)).toBe(true);
    // The delivered job stays on record; the other application's job is untouched.
    expect((await database.db.select({ status: outbox.status }).from(outbox)).map((j) => j.status).sort()).toEqual(["delivered", "pending"]);
    expect((await listAudit(database.db, spam)).map((e) => [e.field, e.toValue])).toEqual([["spam", "yes"], ["spam", "yes"]]);
    const csv = await new Response(exportCsv(database.db, scope, [{ id: WHY, question: "Why?" }])).text();
    expect(csv).not.toContain("Dweller0");
    expect(csv).toContain("Dweller2");

    // A real person may now apply with the name the spam used; the mark can then not be taken back.
    await database.db.insert(eventApplications).values({ eventId: scope.kind === "event" ? scope.eventId : "", vrchatUsername: "dweller0 ", discordId: "real-person" });
    expect(await markSpam(database.db, scope, [spam[0]!], false, reviewer, new Date())).toBe("conflict");
    expect(await markSpam(database.db, scope, [spam[1]!], false, reviewer, new Date())).toMatchObject({ changed: 1 });
  });

  it("counts by status, lists newest first, and pages", async () => {
    await seed(60);
    const first = await listForReview(database.db, scope, query());
    expect(first.counts).toEqual({ total: 60, pending: 20, approved: 20, rejected: 20, waitlist: 0, withdrawn: 0, attended: 0, spam: 0 });
    expect(first.applications).toHaveLength(REVIEW_PAGE_SIZE);
    expect(first.applications[0]!.vrchatUsername).toBe("Dweller59");
    expect(first.pageCount).toBe(Math.ceil(60 / REVIEW_PAGE_SIZE));
    const last = await listForReview(database.db, scope, query({ page: String(first.pageCount) }));
    expect(last.applications).toHaveLength(60 - (first.pageCount - 1) * REVIEW_PAGE_SIZE);
  });

  it("searches usernames and Discord IDs, any case, wildcards taken literally", async () => {
    await seed(12);
    expect((await listForReview(database.db, scope, query({ q: "DWELLER1" }))).applications.map((a) => a.vrchatUsername).sort()).toEqual([
      "Dweller1",
      "Dweller10",
      "Dweller11",
    ]);
    expect((await listForReview(database.db, scope, query({ q: "%_" }))).applications.map((a) => a.vrchatUsername)).toEqual(["100%_Moth"]);
    expect((await listForReview(database.db, scope, query({ q: "dweller5", status: "rejected" }))).applications.map((a) => a.discordId)).toEqual(["dweller5"]);
    expect((await listForReview(database.db, scope, query({ q: "dweller5", status: "approved" }))).matching).toBe(0);
    // Nonsense in the URL falls back to the defaults instead of failing.
    expect(query({ status: "maybe", page: "-4" })).toEqual({ status: "all", q: "", page: 1 });
  });

  it("changes status any to any with notes, logging who did what", async () => {
    await seed(1);
    const [app] = (await listForReview(database.db, scope, query())).applications;
    const now = new Date("2026-11-21T18:00:00Z");
    expect(await reviewApplication(database.db, scope, app!.id, { status: "approved", notes: "Lovely" }, reviewer, now)).toBe(true);
    expect(await reviewApplication(database.db, scope, app!.id, { status: "pending" }, reviewer, now)).toBe(true);
    expect(await reviewApplication(database.db, scope, app!.id, { notes: null }, reviewer, now)).toBe(true);
    const [after] = (await listForReview(database.db, scope, query())).applications;
    expect(after).toMatchObject({ status: "pending", notes: null, reviewedAt: now.toISOString() });
    const log = await listAudit(database.db, [app!.id]);
    expect(log.map((e) => [e.field, e.fromValue, e.toValue, e.actorName])).toEqual([
      ["status", "pending", "approved", "Keeper"],
      ["notes", null, "Lovely", "Keeper"],
      ["status", "approved", "pending", "Keeper"],
      ["notes", "Lovely", null, "Keeper"],
    ]);
  });

  it("approves or rejects a group application once, from pending", async () => {
    const group: ReviewScope = { kind: "group" };
    const [app] = await database.db.insert(applications).values({ vrchatUsername: "G", discordId: "g" }).returning({ id: applications.id });
    const now = new Date();
    expect(await reviewApplication(database.db, group, app!.id, { status: "approved" }, reviewer, now)).toBe(true);
    expect(await reviewApplication(database.db, group, app!.id, { status: "rejected" }, reviewer, now)).toBe("conflict");
    expect(await reviewApplication(database.db, group, "00000000-0000-4000-8000-000000000000", { status: "approved" }, reviewer, now)).toBe(false);
  });

  it("approves a whole page of event applications in one decision, each change logged", async () => {
    await seed(60);
    const page = (await listForReview(database.db, scope, query())).applications;
    expect(page).toHaveLength(50);
    const alreadyApproved = page.filter((a) => a.status === "approved").length;
    const now = new Date("2026-11-22T10:00:00Z");
    const outcome = await reviewApplications(database.db, scope, page.map((a) => a.id), "approved", reviewer, now);
    expect(outcome).toEqual({ changed: 50 - alreadyApproved, unchanged: alreadyApproved, missing: 0 });

    const after = await listForReview(database.db, scope, query());
    // The ten oldest (Dweller0 to 9) are on the next page, untouched.
    expect(after.counts).toEqual({ total: 60, pending: 4, approved: 53, rejected: 3, waitlist: 0, withdrawn: 0, attended: 0, spam: 0 });
    const changed = page.filter((a) => a.status !== "approved");
    expect(after.applications.filter((a) => a.reviewedAt === now.toISOString()).map((a) => a.id).sort()).toEqual(changed.map((a) => a.id).sort());
    const log = await listAudit(database.db, page.map((a) => a.id));
    expect(log).toHaveLength(changed.length);
    expect(new Set(log.map((e) => `${e.field} ${e.toValue} ${e.actorName}`))).toEqual(new Set(["status approved Keeper"]));
  });

  it("decides only pending group applications in bulk, and says what it left", async () => {
    const group: ReviewScope = { kind: "group" };
    const rows = await database.db
      .insert(applications)
      .values((["pending", "pending", "pending", "approved", "rejected"] as const).map((status, i) => ({ vrchatUsername: `G${i}`, discordId: `g${i}`, status })))
      .returning({ id: applications.id });
    const ids = [...rows.map((row) => row.id), "not-an-id", "00000000-0000-4000-8000-000000000000", rows[0]!.id];
    const outcome = await reviewApplications(database.db, group, ids, "rejected", reviewer, new Date());
    expect(outcome).toEqual({ changed: 3, unchanged: 2, missing: 2 });
    expect((await listForReview(database.db, group, query())).counts).toEqual({ total: 5, pending: 0, approved: 1, rejected: 4, waitlist: 0, withdrawn: 0, attended: 0, spam: 0 });
    expect(await listAudit(database.db, rows.map((row) => row.id))).toHaveLength(3);
    // An event's applications are not reached through the group's scope, nor the other way round.
    await seed(3);
    const eventIds = (await listForReview(database.db, scope, query())).applications.map((a) => a.id);
    expect(await reviewApplications(database.db, group, eventIds, "approved", reviewer, new Date())).toEqual({ changed: 0, unchanged: 0, missing: 3 });
  });

  it("exports every application as CSV, with a column per question", async () => {
    await seed(2500);
    const text = await new Response(exportCsv(database.db, scope, [{ id: WHY, question: "Why?" }, { id: WHERE_FROM, question: "Where from?" }])).text();
    const lines = text.trimEnd().split("\r\n");
    expect(lines[0]).toBe('"VRChat Username","Discord ID","Status","Submitted At","Reviewed At","Notes","Why?","Where from?"');
    expect(lines).toHaveLength(2501);
    expect(lines[1]).toBe('"Dweller2499","dweller2499","pending","2026-11-02 17:39:00","","","Because 2499",""');
    expect(new Set(lines.slice(1).map((line) => line.split(",")[0])).size).toBe(2500);
  });

  it("filters by 'Answer to … is …' (one answer, or one of a Checkboxes answer's choices), with the other filters", async () => {
    const PERFORM = "00000000-0000-4000-8000-0000000000b1";
    const ARTS = "00000000-0000-4000-8000-0000000000b2";
    const row = (name: string, perform: string, arts: string[], status: "pending" | "approved" = "pending") => ({
      eventId: scope.kind === "event" ? scope.eventId : "",
      vrchatUsername: name,
      discordId: name.toLowerCase(),
      status,
      answers: [
        { questionId: PERFORM, question: "Do you perform?", type: "yes_no" as const, value: perform },
        { questionId: ARTS, question: "Which arts?", type: "checkboxes" as const, value: arts },
      ],
    });
    await database.db.insert(eventApplications).values([row("Ash", "Yes", ["Music", "Dance"]), row("Birch", "No", []), row("Cedar", "Yes", ["Dance"], "approved")]);
    const names = async (values: Record<string, string>) => (await listForReview(database.db, scope, query(values))).applications.map((a) => a.vrchatUsername).sort();
    expect(await names({ answer: `${PERFORM}:Yes` })).toEqual(["Ash", "Cedar"]);
    expect(await names({ answer: `${ARTS}:Dance` })).toEqual(["Ash", "Cedar"]);
    expect(await names({ answer: `${ARTS}:Music` })).toEqual(["Ash"]);
    expect(await names({ answer: `${PERFORM}:Yes`, status: "approved" })).toEqual(["Cedar"]);
    expect(await names({ answer: `${PERFORM}:Yes`, q: "ash" })).toEqual(["Ash"]);
    // A filter that is not one is no filter.
    expect(await names({ answer: "not-a-question:Yes" })).toEqual(["Ash", "Birch", "Cedar"]);
  });
});
