/**
 * Places that refill themselves, on a real database: an applicant withdraws from their status link,
 * and the first on the waitlist moves up as the event chose (approved, or to Pending with staff
 * told); a staff rejection of an approved attendee and more places do the same; twenty withdrawals
 * at once move up exactly twenty, never past the capacity.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { applicationAuditLog, eventApplicationQuestions, eventApplications, events, outbox, profiles } from "~/db/schema";
import { WAITLIST_MOVER } from "~/features/applications/review-changes.server";
import { linkAccount } from "~/features/applications/linked-accounts.server";
import { listFormQuestions, submitApplication } from "~/features/applications/applications.server";
import { answerFieldName } from "~/features/applications/answers";
import { getApplicationStatus, newStatusToken } from "~/features/decisions/decisions.server";
import { EventInputSchema } from "~/features/events/event-input";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../tests/setup/test-database";
import { decideApplication, decideApplications, findReview, type DecideServices, type Decider } from "./decide.server";
import { saveEventRefilling } from "./refill.server";
import { setSiteLanguages } from "~/utils/language.server";
import { withdrawApplication, WITHDRAW_TEXTS } from "./withdraw.server";

const keeper: Decider = { id: "", username: "keeper", via: "sanctum", role: "admin" };
const DAY = 24 * 60 * 60 * 1000;

describeEachDatabase("places that refill themselves", (kind) => {
  let database: TestDatabase;
  let services: DecideServices;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const [profile] = await database.db.insert(profiles).values({ username: "keeper", email: "keeper@dwell.example", role: "admin" }).returning({ id: profiles.id });
    keeper.id = profile!.id;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(events);
    await database.db.delete(outbox);
    await database.db.delete(applicationAuditLog);
    services = { db: database.db, vrchat: { membership: null, membershipActions: false }, discord: null, discordInvite: null, wake: () => {}, siteOrigin: "https://dwell.example", notificationTargets: ["telegram", "google_sheets"] };
  });

  async function makeEvent(max: number, waitlistPromotion: "pending" | "automatic", startsIn = 3 * DAY) {
    const start = new Date(Date.now() + startsIn).toISOString();
    const [row] = await database.db
      .insert(events)
      .values({ title: "Lantern Night", eventDate: start.slice(0, 10), eventTime: start.slice(11, 16), worldName: "Garden", applicationRequired: true, maxAttendees: max, waitlistPromotion })
      .returning();
    await database.db.insert(eventApplicationQuestions).values([
      { eventId: row!.id, question: "What is your VRChat username?", orderIndex: 0 },
      { eventId: row!.id, question: "What is your Discord username?", orderIndex: 1 },
    ]);
    return row!;
  }

  /** Applies as the public form does; its private status token. */
  async function apply(eventId: string, name: string, language = "en"): Promise<{ id: string; token: string }> {
    const questions = await listFormQuestions(database.db, { kind: "event", eventId });
    const values: Record<string, string> = { [answerFieldName(questions[0]!.id)]: name, [answerFieldName(questions[1]!.id)]: `${name.toLowerCase()}-d` };
    const status = newStatusToken();
    const result = await submitApplication(database.db, { scope: { kind: "event", eventId }, questions, fields: (field) => values[field], now: new Date(), statusTokenHash: status.hash, language });
    if (!result.ok) throw new Error(result.message);
    return { id: result.application.id, token: status.token };
  }

  const statuses = async (eventId: string) =>
    Object.fromEntries(
      (await database.db.select({ name: eventApplications.vrchatUsername, status: eventApplications.status }).from(eventApplications).where(eq(eventApplications.eventId, eventId))).map((row) => [row.name, row.status]),
    );

  async function approve(eventId: string, id: string) {
    const review = (await findReview(database.db, eventId))!;
    expect(await decideApplication(services, review, { id, status: "approved" }, keeper)).toMatchObject({ kind: "decided" });
  }

  it("gives a withdrawn place to the first on the waitlist, approved automatically, with their message", async () => {
    const event = await makeEvent(2, "automatic");
    const ash = await apply(event.id, "Ash");
    const birch = await apply(event.id, "Birch");
    await approve(event.id, ash.id);
    await approve(event.id, birch.id);
    const cedar = await apply(event.id, "Cedar");
    await apply(event.id, "Dune");
    expect(await statuses(event.id)).toEqual({ Ash: "approved", Birch: "approved", Cedar: "waitlist", Dune: "waitlist" });

    expect(await withdrawApplication(services, ash.token, new Date())).toEqual({ kind: "withdrawn" });
    expect(await statuses(event.id)).toEqual({ Ash: "withdrawn", Birch: "approved", Cedar: "approved", Dune: "waitlist" });
    // Cedar's status page says approved, with the event's approval message; the history names the site.
    const [cedarRow] = await database.db.select().from(eventApplications).where(eq(eventApplications.id, cedar.id));
    expect(cedarRow!.decisionMessage).toContain("Lantern Night");
    const [moved] = await database.db.select().from(applicationAuditLog).where(and(eq(applicationAuditLog.applicationId, cedar.id), eq(applicationAuditLog.field, "status")));
    expect(moved).toMatchObject({ actorName: WAITLIST_MOVER, fromValue: "waitlist", toValue: "approved" });
    // Ash's link keeps working, and says withdrawn; a second withdrawal changes nothing.
    expect((await getApplicationStatus(database.db, ash.token, new Date()))?.status).toBe("withdrawn");
    expect(await withdrawApplication(services, ash.token, new Date())).toEqual({ kind: "already" });
    expect(await statuses(event.id)).toEqual({ Ash: "withdrawn", Birch: "approved", Cedar: "approved", Dune: "waitlist" });
  });

  it("writes the approval of someone moved up from the waitlist in the language they applied in", async () => {
    setSiteLanguages(["en", "ja"]);
    try {
      const event = await makeEvent(1, "automatic");
      const ash = await apply(event.id, "Ash");
      await approve(event.id, ash.id);
      const hotaru = await apply(event.id, "Hotaru", "ja");
      expect(await withdrawApplication(services, ash.token, new Date())).toEqual({ kind: "withdrawn" });
      expect(await getApplicationStatus(database.db, hotaru.token, new Date())).toMatchObject({ status: "approved", messageLanguage: "ja" });
      expect((await getApplicationStatus(database.db, hotaru.token, new Date()))!.message).toContain("Hotaruさん：Lantern Nightへのご参加が確定しました。");
    } finally {
      setSiteLanguages(["en"]);
    }
  });

  it("where the event requires a proven VRChat account, a freed place approves only a proven applicant, and staff cannot approve the others", async () => {
    const event = await makeEvent(1, "automatic");
    await database.db.update(events).set({ requiresProof: true }).where(eq(events.id, event.id));
    const ash = await apply(event.id, "Ash");
    const review = (await findReview(database.db, event.id))!;
    expect(await decideApplication(services, review, { id: ash.id, status: "approved" }, keeper)).toEqual({ kind: "needs-proof" });
    await linkAccount(database.db, "event", ash.id, "vrchat", { userId: "usr_00000001-aaaa-4bbb-8ccc-000000000001", displayName: "Ash" }, { id: null, name: "the applicant" }, { how: "proven" });
    await approve(event.id, ash.id);
    const birch = await apply(event.id, "Birch");
    const cedar = await apply(event.id, "Cedar");
    await linkAccount(database.db, "event", cedar.id, "vrchat", { userId: "usr_00000003-aaaa-4bbb-8ccc-000000000003", displayName: "Cedar" }, { id: null, name: "the applicant" }, { how: "proven" });
    // Birch is matched by name only: still waiting for proof.
    await linkAccount(database.db, "event", birch.id, "vrchat", { userId: "usr_00000002-aaaa-4bbb-8ccc-000000000002", displayName: "Birch" }, { id: null, name: "the decision" }, { how: "name" });
    expect(await statuses(event.id)).toEqual({ Ash: "approved", Birch: "waitlist", Cedar: "waitlist" });
    expect(await withdrawApplication(services, ash.token, new Date())).toEqual({ kind: "withdrawn" });
    expect(await statuses(event.id)).toEqual({ Ash: "withdrawn", Birch: "waitlist", Cedar: "approved" });
    expect(await decideApplications(services, review, { ids: [birch.id, cedar.id], status: "approved" }, keeper)).toEqual({ kind: "needs-proof", count: 1 });
    expect(await decideApplication(services, review, { id: birch.id, status: "rejected" }, keeper)).toMatchObject({ kind: "decided" });
  });

  it("moves the first on the waitlist to Pending and tells staff (not the spreadsheet) when the event says so", async () => {
    const event = await makeEvent(1, "pending");
    const ash = await apply(event.id, "Ash");
    await approve(event.id, ash.id);
    const birch = await apply(event.id, "Birch");
    await apply(event.id, "Cedar");
    // A staff member rejects the approved attendee: the place frees.
    const review = (await findReview(database.db, event.id))!;
    await decideApplication(services, review, { id: ash.id, status: "rejected" }, keeper);
    expect(await statuses(event.id)).toEqual({ Ash: "rejected", Birch: "pending", Cedar: "waitlist" });
    const told = await database.db.select({ target: outbox.target, payload: outbox.payload }).from(outbox).where(eq(outbox.sourceId, birch.id));
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ target: "telegram", payload: { moved_up: true, vrchat_username: "Birch", event_title: "Lantern Night" } });
    // One free place, one pending: nobody else moves until it is decided.
    await decideApplication(services, review, { id: birch.id, status: "rejected" }, keeper);
    expect(await statuses(event.id)).toEqual({ Ash: "rejected", Birch: "rejected", Cedar: "pending" });
  });

  it("refills places freed by the bulk bar as by a single decision", async () => {
    const event = await makeEvent(2, "automatic");
    const ash = await apply(event.id, "Ash");
    const birch = await apply(event.id, "Birch");
    await approve(event.id, ash.id);
    await approve(event.id, birch.id);
    await apply(event.id, "Cedar");
    await apply(event.id, "Dune");
    await apply(event.id, "Elm");
    const review = (await findReview(database.db, event.id))!;
    expect(await decideApplications(services, review, { ids: [ash.id, birch.id], status: "rejected" }, keeper)).toMatchObject({ kind: "decided", changed: 2 });
    expect(await statuses(event.id)).toEqual({ Ash: "rejected", Birch: "rejected", Cedar: "approved", Dune: "approved", Elm: "waitlist" });
  });

  it("fills new places from the waitlist when the event is given more", async () => {
    const event = await makeEvent(1, "automatic");
    const ash = await apply(event.id, "Ash");
    await approve(event.id, ash.id);
    await apply(event.id, "Birch");
    await apply(event.id, "Cedar");
    await apply(event.id, "Dune");
    const input = EventInputSchema.parse({ title: event.title, eventDate: event.eventDate, eventTime: event.eventTime.slice(0, 5), worldName: "Garden", applicationRequired: "on", maxAttendees: "3", waitlistPromotion: "automatic" });
    expect(await saveEventRefilling(services, event.id, input, undefined, undefined)).toBe(true);
    expect(await statuses(event.id)).toEqual({ Ash: "approved", Birch: "approved", Cedar: "approved", Dune: "waitlist" });
  });

  it("moves up exactly as many as withdraw at once, never past the capacity", async () => {
    const event = await makeEvent(20, "automatic");
    const attendees = [];
    for (let i = 0; i < 20; i++) attendees.push(await apply(event.id, `Guest${i}`));
    for (const attendee of attendees) await approve(event.id, attendee.id);
    for (let i = 0; i < 25; i++) await apply(event.id, `Waiting${i}`);
    const outcomes = await Promise.all(attendees.map((attendee) => withdrawApplication(services, attendee.token, new Date())));
    expect(outcomes.every((outcome) => outcome.kind === "withdrawn")).toBe(true);
    const counts = Object.values(await statuses(event.id)).reduce<Record<string, number>>((all, status) => ({ ...all, [status]: (all[status] ?? 0) + 1 }), {});
    expect(counts).toEqual({ withdrawn: 20, approved: 20, waitlist: 5 });
  });

  it("refuses a withdrawal once the event has started, and one of a rejected application", async () => {
    const started = await makeEvent(5, "automatic", -10 * 60 * 1000);
    const late = await apply(started.id, "Late");
    expect(await withdrawApplication(services, late.token, new Date())).toEqual({ kind: "not-withdrawable", reason: WITHDRAW_TEXTS.started() });
    const event = await makeEvent(5, "automatic");
    const turned = await apply(event.id, "Turned");
    const review = (await findReview(database.db, event.id))!;
    await decideApplication(services, review, { id: turned.id, status: "rejected" }, keeper);
    expect(await withdrawApplication(services, turned.token, new Date())).toEqual({ kind: "not-withdrawable", reason: WITHDRAW_TEXTS.rejected() });
    expect(await withdrawApplication(services, "not-a-token", new Date())).toEqual({ kind: "missing" });
  });
});
