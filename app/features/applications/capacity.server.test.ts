import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { applications, eventApplications, events, profiles } from "~/db/schema";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { submitApplication } from "./applications.server";
import { listPlaces, waitlistPosition } from "./capacity.server";
import { fullMessage, placesLeftText } from "./places";
import { type ReviewScope } from "./review.server";
import { reviewApplication, reviewApplications } from "./review-changes.server";

describeEachDatabase("an event's places", (kind) => {
  let database: TestDatabase;
  let eventId: string;
  let scope: ReviewScope;
  const reviewer = { id: "", username: "Keeper" };
  const questions = [{ id: "q1", question: "VRChat Username", questionType: "text" as const, options: null, required: true }];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const [profile] = await database.db.insert(profiles).values({ username: "Keeper", email: "k@dwell.example", role: "admin" }).returning({ id: profiles.id });
    reviewer.id = profile!.id;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(events);
    const [event] = await database.db
      .insert(events)
      .values({ title: "Ball", eventDate: "2031-12-01", eventTime: "20:00", worldName: "W", applicationRequired: true, maxAttendees: 3 })
      .returning({ id: events.id });
    eventId = event!.id;
    scope = { kind: "event", eventId };
  });

  async function seed(count: number, status: "pending" | "waitlist" = "pending") {
    const rows = await database.db
      .insert(eventApplications)
      .values(Array.from({ length: count }, (_, i) => ({ eventId, vrchatUsername: `${status}${i}`, status, submittedAt: new Date(Date.UTC(2031, 0, 1, 0, i)) })))
      .returning({ id: eventApplications.id });
    return rows.map((row) => row.id);
  }

  const approvedCount = async () => (await listPlaces(database.db, [eventId])).get(eventId)!.taken;

  it("approves no more than the places when ten approvals race for three", async () => {
    const ids = await seed(10);
    const outcomes = await Promise.all(ids.map((id) => reviewApplication(database.db, scope, id, { status: "approved" }, reviewer, new Date())));
    expect(outcomes.filter((outcome) => outcome === true)).toHaveLength(3);
    expect(outcomes.filter((outcome) => typeof outcome === "object")).toHaveLength(7);
    expect(await approvedCount()).toBe(3);
    expect(outcomes.find((outcome) => typeof outcome === "object")).toEqual({ full: { max: 3, taken: 3, left: 0 } });
  });

  it("lets bulk and single approvals race without going over, and goes over only when confirmed", async () => {
    const ids = await seed(8);
    const outcomes = await Promise.all([
      reviewApplications(database.db, scope, ids.slice(0, 2), "approved", reviewer, new Date()),
      reviewApplications(database.db, scope, ids.slice(2, 4), "approved", reviewer, new Date()),
      ...ids.slice(4).map((id) => reviewApplication(database.db, scope, id, { status: "approved" }, reviewer, new Date())),
    ]);
    expect(await approvedCount()).toBeLessThanOrEqual(3);
    expect(outcomes.some((outcome) => typeof outcome === "object" && "full" in outcome)).toBe(true);

    const over = await reviewApplications(database.db, scope, ids, "approved", reviewer, new Date(), undefined, { overCapacity: true });
    expect(over).not.toHaveProperty("full");
    expect(await approvedCount()).toBe(8);
    expect(placesLeftText((await listPlaces(database.db, [eventId])).get(eventId)!)).toBe("Full");
  });

  it("puts applications on the waitlist once the places are taken, also while approvals race with them", async () => {
    const ids = await seed(2);
    const send = (name: string) =>
      submitApplication(database.db, { scope: { kind: "event", eventId }, questions, fields: (field) => (field === "answer.q1" ? name : undefined), now: new Date() });
    const [first, ...rest] = await Promise.all([
      send("Early"),
      ...ids.map((id) => reviewApplication(database.db, scope, id, { status: "approved" }, reviewer, new Date())),
    ]);
    expect(rest).toEqual([true, true]);
    expect(first).toMatchObject({ ok: true, application: { status: "pending" } });
    expect(await approvedCount()).toBe(2);

    // Sending does not take a place: two sent at once for the last one both wait for a decision.
    const [a, b] = await Promise.all([send("Quick"), send("Quicker")]);
    expect([a, b].every((result) => result.ok && result.application.status === "pending")).toBe(true);
    const early = first.ok ? first.application.id : "";
    expect(await reviewApplication(database.db, scope, early, { status: "approved" }, reviewer, new Date())).toBe(true);
    const late = await send("Late");
    expect(late).toMatchObject({ ok: true, application: { status: "waitlist" } });
  });

  it("numbers the waitlist in the order applications came, leaving out spam and those moved on", async () => {
    const ids = await seed(4, "waitlist");
    expect(await Promise.all(ids.map((id) => waitlistPosition(database.db, id)))).toEqual([1, 2, 3, 4]);
    await database.db.update(eventApplications).set({ spamAt: new Date() }).where(eq(eventApplications.id, ids[0]!));
    expect(await reviewApplication(database.db, scope, ids[1]!, { status: "approved" }, reviewer, new Date())).toBe(true);
    expect(await Promise.all(ids.map((id) => waitlistPosition(database.db, id)))).toEqual([null, null, 1, 2]);
  });

  it("keeps the waitlist to events: a group application cannot be put on one", async () => {
    const [app] = await database.db.insert(applications).values({ vrchatUsername: "G" }).returning({ id: applications.id });
    expect(await reviewApplication(database.db, { kind: "group" }, app!.id, { status: "waitlist" }, reviewer, new Date())).toBe("conflict");
    await expect(database.db.insert(applications).values({ vrchatUsername: "H", status: "waitlist" })).rejects.toThrow();
    await database.db.delete(applications);
  });

  it("says how far over an approval would go", () => {
    expect(fullMessage({ max: 20, taken: 20, left: 0 }, 1)).toBe("The event is full: 20 of 20 places taken. Approving this application goes 1 over its places.");
    expect(placesLeftText({ max: 20, taken: 13, left: 7 })).toBe("7 of 20 places left");
    expect(placesLeftText({ max: 1, taken: 0, left: 1 })).toBe("1 of 1 place left");
  });
});
