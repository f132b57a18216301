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
import { linkAccount } from "./linked-accounts.server";
import type { VRChatLinkWay } from "~/db/enums";

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

  /** Applies, approves, and links accounts as staff would on the card (confirmed), or by a name match when `how` says so. */
  async function apply(eventId: string, name: string, { approve = true, discord = null as string | null, vrchat = null as string | null, how = "staff" as VRChatLinkWay } = {}) {
    const questions = await listFormQuestions(database.db, { kind: "event", eventId });
    const result = await submitApplication(database.db, { scope: { kind: "event", eventId }, questions, fields: (field) => (field === answerFieldName(questions[0]!.id) ? name : undefined), now: new Date() });
    if (!result.ok) throw new Error(result.message);
    const id = result.application.id;
    if (approve) await reviewApplication(database.db, { kind: "event", eventId }, id, { status: "approved" }, keeper, new Date());
    const actor = { id: null, name: "keeper" };
    if (discord) await linkAccount(database.db, "event", id, "discord", { userId: discord, displayName: name }, actor, { how });
    if (vrchat) await linkAccount(database.db, "event", id, "vrchat", { userId: vrchat, displayName: name }, actor, { how });
    const [row] = await database.db.select({ vrchatLinkedHow: eventApplications.vrchatLinkedHow, discordLinkedHow: eventApplications.discordLinkedHow }).from(eventApplications).where(eq(eventApplications.id, id));
    return { id, ...row!, vrchatUserId: vrchat, discordUserId: discord, vrchatUsername: name };
  }

  it("marks approved attendees only, each change in the history, and counts them on the tiles", async () => {
    const night = await makeEvent("First Night");
    const ash = (await apply(night, "Ash")).id;
    const birch = (await apply(night, "Birch")).id;
    const waiting = (await apply(night, "Waiting", { approve: false })).id;
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
    await markAttendance(database.db, first, [(await apply(first, "Moth", { discord: "4242" })).id], "attended", keeper);
    await markAttendance(database.db, second, [(await apply(second, "moth light", { discord: "4242" })).id], "attended", keeper);
    await markAttendance(database.db, third, [(await apply(third, "Moth", { discord: "4242" })).id], "no_show", keeper);
    // Heron has no account linked: known by name, whatever its case.
    await markAttendance(database.db, first, [(await apply(first, "Heron")).id], "attended", keeper);
    // Unmarked attendance does not count.
    await apply(second, "Heron");
    // Wren's VRChat account is linked each time; their Discord account differs (a new one), the name too.
    await markAttendance(database.db, first, [(await apply(first, "Wren", { vrchat: "usr_wren", discord: "1111" })).id], "attended", keeper);
    await markAttendance(database.db, second, [(await apply(second, "Wren Old", { vrchat: "usr_wren", discord: "2222" })).id], "no_show", keeper);
    // Someone applied twice as Oak, Oak's account matched by name only, and never came: a claim, not Oak.
    await markAttendance(database.db, first, [(await apply(first, "Oak", { vrchat: "usr_oak", how: "name" })).id], "no_show", keeper);
    await markAttendance(database.db, second, [(await apply(second, "Oak", { vrchat: "usr_oak", how: "name" })).id], "no_show", keeper);

    const moth = await apply(next, "Moth Light", { discord: "4242" });
    const heron = await apply(next, " HERON ");
    const stranger = await apply(next, "Stranger");
    const wren = await apply(next, "Wren New", { vrchat: "usr_wren", discord: "3333" });
    // The real Oak, their account proven: the impostor's no-shows are not theirs; nor does another claim of it inherit them.
    const oak = await apply(next, "Oak", { vrchat: "usr_oak", how: "proven" });
    const records = await attendanceRecords(database.db, next, [moth, heron, stranger, wren, oak]);
    expect(records).toEqual({ [moth.id]: { attended: 2, noShows: 1 }, [heron.id]: { attended: 1, noShows: 0 }, [wren.id]: { attended: 1, noShows: 1 } });
    const another = await makeEvent("Another");
    expect(await attendanceRecords(database.db, another, [await apply(another, "Oak!", { vrchat: "usr_oak", how: "name" })])).toEqual({});
  });
});
