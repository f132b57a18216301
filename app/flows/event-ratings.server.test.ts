/**
 * "How was it?" on a real database: who is asked and when (once, those who came, after the delay and
 * within the 7 days, never who asked not to be), by DM only to a proven Discord account, the personal
 * link's signature, the answer's rules, and what the hosts read.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { eventApplications, eventRatings, events, outbox } from "~/db/schema";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../tests/setup/test-database";
import { applicationOfToken, askForRatings, ratingsOf, ratingState, ratingToken, saveRating, type RatingServices } from "./event-ratings.server";

const SECRET = "a-test-secret-that-is-long-enough-1234";
const MINUTE = 60_000;

describeEachDatabase("how was it?", (kind) => {
  let database: TestDatabase;
  let services: RatingServices;
  let end: Date;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    services = { db: database.db, delayMinutes: 60, directMessages: true, siteOrigin: "https://dwell.example", secret: SECRET, wake: () => {} };
    const start = new Date(Math.floor(Date.now() / MINUTE) * MINUTE - 3 * 60 * MINUTE);
    end = new Date(start.getTime() + 2 * 60 * MINUTE);
    const [event] = await database.db
      .insert(events)
      .values({ title: "Lantern Night", eventDate: start.toISOString().slice(0, 10), eventTime: start.toISOString().slice(11, 16), endDate: end.toISOString().slice(0, 10), endTime: end.toISOString().slice(11, 16), timezone: "UTC", worldName: "Garden" })
      .returning();
    const rows = await database.db
      .insert(eventApplications)
      .values([
        { eventId: event!.id, vrchatUsername: "Came, proven Discord", status: "approved" as const, attendance: "attended" as const, discordUserId: "300000000000000001", discordLinkedHow: "proven" as const },
        { eventId: event!.id, vrchatUsername: "Came, Discord by name", status: "approved" as const, attendance: "attended" as const, discordUserId: "300000000000000002", discordLinkedHow: "name" as const },
        { eventId: event!.id, vrchatUsername: "No-show", status: "approved" as const, attendance: "no_show" as const, discordUserId: "300000000000000003", discordLinkedHow: "proven" as const },
        { eventId: event!.id, vrchatUsername: "Unmarked", status: "approved" as const },
      ])
      .returning({ id: eventApplications.id, name: eventApplications.vrchatUsername });
    for (const row of rows) ids[row.name] = row.id;
  });
  afterAll(() => database.close());

  it("asks those who came, once, after the delay; by DM only a proven Discord account", async () => {
    expect(await askForRatings(services, new Date(end.getTime() + 30 * MINUTE))).toBe(0);
    const now = new Date(end.getTime() + 61 * MINUTE);
    const asked = await Promise.all([askForRatings(services, now), askForRatings(services, now)]);
    expect(asked[0]! + asked[1]!).toBe(2);
    const dms = await database.db.select({ payload: outbox.payload }).from(outbox).where(eq(outbox.target, "discord_dm"));
    expect(dms).toHaveLength(1);
    expect(JSON.stringify(dms[0]!.payload)).toContain("300000000000000001");
    expect(JSON.stringify(dms[0]!.payload)).toContain(`https://dwell.example/rate/${ratingToken(SECRET, ids["Came, proven Discord"]!)}`);
    expect(await askForRatings(services, new Date(now.getTime() + MINUTE))).toBe(0);
    expect(await ratingState(database.db, ids["No-show"]!, now, 60)).toBeNull();
    expect(await ratingState(database.db, ids["Unmarked"]!, now, 60)).toBeNull();
  });

  it("takes only links it signed, ratings of 1 to 5 and comments of at most 1,000 characters, and keeps one answer per attendee", async () => {
    const id = ids["Came, Discord by name"]!;
    expect(applicationOfToken(SECRET, ratingToken(SECRET, id))).toBe(id);
    expect(applicationOfToken(SECRET, ratingToken("another-secret-that-is-long-enough-99", id))).toBeNull();
    expect(applicationOfToken(SECRET, `${id}.short`)).toBeNull();
    const now = new Date(end.getTime() + 2 * 60 * MINUTE);
    const save = (rating: string, comment = "") => saveRating(database.db, { applicationId: id, rating, comment, optOut: false }, now, 60);
    for (const rating of ["0", "6", "five", "4.5", ""]) expect(await save(rating)).toMatchObject({ ok: false, status: 400 });
    expect(await save("4", "x".repeat(1001))).toMatchObject({ ok: false, status: 400 });
    expect(await save("4", "x".repeat(1000))).toMatchObject({ ok: true });
    await Promise.all([save("3", "Cosy"), save("3", "Cosy")]);
    expect(await save("5", "Cosy, and the music")).toMatchObject({ ok: true });
    const answers = await database.db.select().from(eventRatings);
    expect(answers.map((answer) => [answer.rating, answer.comment])).toEqual([[5, "Cosy, and the music"]]);
    // 7 days after the end: closed.
    expect(await saveRating(database.db, { applicationId: id, rating: "2", comment: "", optOut: false }, new Date(end.getTime() + 7 * 24 * 60 * MINUTE), 60)).toMatchObject({ ok: false, status: 410 });
    expect(await saveRating(database.db, { applicationId: ids["No-show"]!, rating: "2", comment: "", optOut: false }, now, 60)).toMatchObject({ ok: false, status: 404 });
    expect(await ratingsOf(database.db, [answers[0]!.eventId])).toMatchObject({ average: 5, count: 1, comments: [{ rating: 5, comment: "Cosy, and the music" }] });
  });

  it("never asks again someone who asked not to be", async () => {
    const now = new Date(end.getTime() + 2 * 60 * MINUTE);
    expect(await saveRating(database.db, { applicationId: ids["Came, proven Discord"]!, rating: "4", comment: "", optOut: true }, now, 60)).toMatchObject({ ok: true });
    const start = new Date(now.getTime() - 3 * 60 * MINUTE);
    const later = new Date(start.getTime() + 2 * 60 * MINUTE);
    const [event] = await database.db
      .insert(events)
      .values({ title: "Second Night", eventDate: start.toISOString().slice(0, 10), eventTime: start.toISOString().slice(11, 16), endDate: later.toISOString().slice(0, 10), endTime: later.toISOString().slice(11, 16), timezone: "UTC", worldName: "Garden" })
      .returning();
    await database.db.insert(eventApplications).values([
      { eventId: event!.id, vrchatUsername: "Came, proven Discord", status: "approved" as const, attendance: "attended" as const, discordUserId: "300000000000000001", discordLinkedHow: "proven" as const },
      { eventId: event!.id, vrchatUsername: "Someone else", status: "approved" as const, attendance: "attended" as const },
    ]);
    expect(await askForRatings(services, new Date(later.getTime() + 61 * MINUTE))).toBe(1);
  });
});
