import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { applicationAuditLog, applications, eventApplications, events, profiles } from "~/db/schema";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { exportCsv, listAudit, listForReview, REVIEW_PAGE_SIZE, reviewApplication, ReviewQuerySchema, type ReviewScope } from "./review.server";

const query = (values: Record<string, string> = {}) => ReviewQuerySchema.parse(values);

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
        responses: { "Why?": `Because ${i}` },
      })),
    );
  }

  it("counts by status, lists newest first, and pages", async () => {
    await seed(60);
    const first = await listForReview(database.db, scope, query());
    expect(first.counts).toEqual({ total: 60, pending: 20, approved: 20, rejected: 20 });
    expect(first.applications).toHaveLength(REVIEW_PAGE_SIZE);
    expect(first.applications[0]!.vrchatUsername).toBe("Dweller59");
    expect(first.pageCount).toBe(3);
    const last = await listForReview(database.db, scope, query({ page: "3" }));
    expect(last.applications).toHaveLength(10);
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

  it("exports every application as CSV, with a column per question", async () => {
    await seed(2500);
    const text = await new Response(exportCsv(database.db, scope, ["Why?", "Where from?"])).text();
    const lines = text.trimEnd().split("\r\n");
    expect(lines[0]).toBe('"VRChat Username","Discord ID","Status","Submitted At","Reviewed At","Notes","Why?","Where from?"');
    expect(lines).toHaveLength(2501);
    expect(lines[1]).toBe('"Dweller2499","dweller2499","pending","2026-11-02 17:39:00","","","Because 2499",""');
    expect(new Set(lines.slice(1).map((line) => line.split(",")[0])).size).toBe(2500);
  });
});
