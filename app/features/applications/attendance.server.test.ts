/**
 * Who came: attendance marked on approved attendees (and only them), in the history, and the same
 * person's record at the group's other events, found by their linked Discord account or else their
 * VRChat username.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { applicationAuditLog, eventApplicationQuestions, eventApplications, events } from "~/db/schema";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { answerFieldName } from "./answers";
import { listFormQuestions, submitApplication } from "./applications.server";
import { listForReview, ReviewQuerySchema } from "./review.server";
import { reviewApplication } from "./review-changes.server";
import { attendanceRecords, markAttendance } from "./attendance.server";

const keeper = { id: null as unknown as string, username: "keeper" };

describeEachDatabase("attendance", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(events);
    await database.db.delete(applicationAuditLog);
  });

  async function makeEvent(title: string) {
    const [row] = await database.db.insert(events).values({ title, eventDate: "2026-11-01", eventTime: "20:00", worldName: "Garden", applicationRequired: true }).returning();
    await database.db.insert(eventApplicationQuestions).values({ eventId: row!.id, question: "What is your VRChat username?" });
    return row!.id;
  }

  async function apply(eventId: string, name: string, { approve = true, discord = null as string | null, vrchat = null as string | null } = {}) {
    const questions = await listFormQuestions(database.db, { kind: "event", eventId });
    const result = await submitApplication(database.db, { scope: { kind: "event", eventId }, questions, fields: (field) => (field === answerFieldName(questions[0]!.id) ? name : undefined), now: new Date() });
    if (!result.ok) throw new Error(result.message);
    const id = result.application.id;
    if (approve) await reviewApplication(database.db, { kind: "event", eventId }, id, { status: "approved" }, keeper, new Date());
    if (discord) await database.db.update(eventApplications).set({ discordUserId: discord }).where(eq(eventApplications.id, id));
    if (vrchat) await database.db.update(eventApplications).set({ vrchatUserId: vrchat }).where(eq(eventApplications.id, id));
    return id;
  }

  it("marks approved attendees only, each change in the history, and counts them on the tiles", async () => {
    const night = await makeEvent("First Night");
    const ash = await apply(night, "Ash");
    const birch = await apply(night, "Birch");
    const waiting = await apply(night, "Waiting", { approve: false });
    expect(await markAttendance(database.db, night, [ash, birch, waiting, "not-an-id"], "attended", keeper)).toEqual({ changed: 2, unchanged: 1, missing: 1 });
    expect(await markAttendance(database.db, night, [birch], "no_show", keeper)).toEqual({ changed: 1, unchanged: 0, missing: 0 });
    expect(await markAttendance(database.db, night, [birch], "no_show", keeper)).toEqual({ changed: 0, unchanged: 1, missing: 0 });
    const review = await listForReview(database.db, { kind: "event", eventId: night }, ReviewQuerySchema.parse({}));
    expect(review.counts.attended).toBe(1);
    expect(Object.fromEntries(review.applications.map((a) => [a.vrchatUsername, a.attendance]))).toEqual({ Ash: "attended", Birch: "no_show", Waiting: null });
    const history = await database.db.select().from(applicationAuditLog).where(eq(applicationAuditLog.applicationId, birch));
    expect(history.filter((entry) => entry.field === "attendance").map((entry) => [entry.fromValue, entry.toValue])).toEqual([[null, "attended"], ["attended", "no_show"]]);
    // Taken back.
    await markAttendance(database.db, night, [ash], null, keeper);
    const after = await listForReview(database.db, { kind: "event", eventId: night }, ReviewQuerySchema.parse({}));
    expect(after.counts.attended).toBe(0);
  });

  it("tells a later application how the same person did before: by VRChat account, else Discord account, else username", async () => {
    const first = await makeEvent("First");
    const second = await makeEvent("Second");
    const third = await makeEvent("Third");
    const next = await makeEvent("Next");
    // Moth came twice and missed once, under two spellings of the name but one Discord account.
    await markAttendance(database.db, first, [await apply(first, "Moth", { discord: "4242" })], "attended", keeper);
    await markAttendance(database.db, second, [await apply(second, "moth light", { discord: "4242" })], "attended", keeper);
    await markAttendance(database.db, third, [await apply(third, "Moth", { discord: "4242" })], "no_show", keeper);
    // Heron has no Discord account linked: known by name, whatever its case.
    await markAttendance(database.db, first, [await apply(first, "Heron")], "attended", keeper);
    // Unmarked attendance does not count.
    await apply(second, "Heron");
    // Wren's VRChat account is linked each time; their Discord account differs (a new one), the name too.
    await markAttendance(database.db, first, [await apply(first, "Wren", { vrchat: "usr_wren", discord: "1111" })], "attended", keeper);
    await markAttendance(database.db, second, [await apply(second, "Wren Old", { vrchat: "usr_wren", discord: "2222" })], "no_show", keeper);

    const moth = await apply(next, "Moth Light", { discord: "4242" });
    const heron = await apply(next, " HERON ");
    const stranger = await apply(next, "Stranger");
    const wren = await apply(next, "Wren New", { vrchat: "usr_wren", discord: "3333" });
    const records = await attendanceRecords(database.db, next, [
      { id: moth, vrchatUserId: null, discordUserId: "4242", vrchatUsername: "Moth Light" },
      { id: heron, vrchatUserId: null, discordUserId: null, vrchatUsername: " HERON " },
      { id: stranger, vrchatUserId: null, discordUserId: null, vrchatUsername: "Stranger" },
      { id: wren, vrchatUserId: "usr_wren", discordUserId: "3333", vrchatUsername: "Wren New" },
    ]);
    expect(records).toEqual({ [moth]: { attended: 2, noShows: 1 }, [heron]: { attended: 1, noShows: 0 }, [wren]: { attended: 1, noShows: 1 } });
  });
});
