import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../tests/setup/test-database";
import {
  applicationQuestions,
  applications,
  eventApplicationQuestions,
  eventApplications,
  events,
} from "./schema";

/** The Postgres error code of a failed statement (drizzle wraps the driver's error). */
async function codeOf(statement: Promise<unknown>): Promise<string> {
  try {
    await statement;
    return "ok";
  } catch (error) {
    return (error as { cause?: { code?: string } }).cause?.code ?? "unknown";
  }
}

describeEachDatabase("duplicate applications are refused by unique indexes", (kind) => {
  let database: TestDatabase;
  let eventA: string;
  let eventB: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const rows = await database.db
      .insert(events)
      .values([
        { title: "A", eventDate: "2026-12-01", eventTime: "20:00", worldName: "W" },
        { title: "B", eventDate: "2026-12-02", eventTime: "20:00", worldName: "W" },
      ])
      .returning({ id: events.id });
    [eventA, eventB] = rows.map((row) => row.id) as [string, string];
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(applications);
    await database.db.delete(eventApplications);
  });

  it("the same VRChat username, any case or padding, joins the group once", async () => {
    const { db } = database;
    expect(await codeOf(db.insert(applications).values({ vrchatUsername: "StarGazer", discordId: "a" }))).toBe("ok");
    expect(await codeOf(db.insert(applications).values({ vrchatUsername: "  stargazer ", discordId: "b" }))).toBe("23505");
  });

  it("the same Discord ID joins the group once", async () => {
    const { db } = database;
    expect(await codeOf(db.insert(applications).values({ vrchatUsername: "one", discordId: "moth#1" }))).toBe("ok");
    expect(await codeOf(db.insert(applications).values({ vrchatUsername: "two", discordId: "MOTH#1" }))).toBe("23505");
  });

  it("empty usernames and Discord IDs never collide", async () => {
    const { db } = database;
    for (let i = 0; i < 3; i++) {
      expect(await codeOf(db.insert(applications).values({ vrchatUsername: "", discordId: " " }))).toBe("ok");
      expect(await codeOf(db.insert(eventApplications).values({ eventId: eventA, vrchatUsername: "", discordId: null }))).toBe("ok");
    }
  });

  it("an event application is unique per event, not across events", async () => {
    const { db } = database;
    const apply = (eventId: string, vrchatUsername: string, discordId: string) =>
      codeOf(db.insert(eventApplications).values({ eventId, vrchatUsername, discordId }));
    expect(await apply(eventA, "Moth", "moth")).toBe("ok");
    expect(await apply(eventB, "Moth", "moth")).toBe("ok");
    expect(await apply(eventA, "MOTH", "other")).toBe("23505");
    expect(await apply(eventA, "someone", "Moth")).toBe("23505");
  });

  it("refuses an unknown status and an unknown event", async () => {
    const { db } = database;
    expect(await codeOf(db.insert(applications).values({ status: "maybe" as "pending" }))).toBe("23514");
    expect(
      await codeOf(db.insert(eventApplications).values({ eventId: "00000000-0000-4000-8000-000000000000" })),
    ).toBe("23503");
  });

  it("deleting an event deletes its questions and applications", async () => {
    const { db } = database;
    const [event] = await db
      .insert(events)
      .values({ title: "C", eventDate: "2026-12-03", eventTime: "20:00", worldName: "W" })
      .returning({ id: events.id });
    await db.insert(eventApplicationQuestions).values({ eventId: event!.id, question: "Why?" });
    await db.insert(eventApplications).values({ eventId: event!.id, vrchatUsername: "x" });
    await db.delete(events).where(eq(events.id, event!.id));
    expect(await db.select().from(eventApplicationQuestions)).toEqual([]);
    expect(await db.select().from(eventApplications)).toEqual([]);
  });
});

describeEachDatabase("question rules", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());

  it("accepts only known question types, and options only as a list", async () => {
    const { db } = database;
    expect(await codeOf(db.insert(applicationQuestions).values({ question: "Q", questionType: "radio" }))).toBe("23514");
    expect(await codeOf(db.insert(applicationQuestions).values({ question: "Q", questionType: "select", options: ["a", "b"] }))).toBe("ok");
    expect(
      await codeOf(db.insert(applicationQuestions).values({ question: "Q", options: "a" as unknown as string[] })),
    ).toBe("23514");
  });

  it("keeps options on event questions for select questions only", async () => {
    const { db } = database;
    const [event] = await db
      .insert(events)
      .values({ title: "E", eventDate: "2026-12-03", eventTime: "20:00", worldName: "W" })
      .returning({ id: events.id });
    const eventId = event!.id;
    expect(await codeOf(db.insert(eventApplicationQuestions).values({ eventId, question: "Q", options: ["a"] }))).toBe("23514");
    expect(
      await codeOf(db.insert(eventApplicationQuestions).values({ eventId, question: "Q", questionType: "select", options: ["a"] })),
    ).toBe("ok");
  });
});
