import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { applications, eventApplications, events, outbox } from "~/db/schema";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../tests/setup/test-database";
import { remindWaitingApplications } from "./review-reminder.server";

const NOW = new Date("2026-11-25T09:00:00Z");
const HOUR = 60 * 60 * 1000;

describeEachDatabase("the review channel's daily reminder", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());

  const reminders = async () => (await database.db.select({ payload: outbox.payload }).from(outbox).where(eq(outbox.target, "discord_review"))).map((row) => row.payload);

  it("says nothing while no application has waited a day, then one line a day, counting group and event applications", async () => {
    const { db } = database;
    await db.insert(applications).values({ vrchatUsername: "Fresh", discordId: "fresh", submittedAt: new Date(NOW.getTime() - 2 * HOUR) });
    expect(await remindWaitingApplications(db, "https://dwell.example/admin/applications", NOW)).toBe("none-waiting");

    const [event] = await db.insert(events).values({ title: "Night", eventDate: "2026-12-01", eventTime: "20:00", worldName: "Hall", applicationRequired: true }).returning();
    await db.insert(applications).values([
      { vrchatUsername: "Old", discordId: "old", submittedAt: new Date(NOW.getTime() - 30 * HOUR) },
      { vrchatUsername: "Decided", discordId: "decided", status: "approved", submittedAt: new Date(NOW.getTime() - 50 * HOUR) },
      { vrchatUsername: "Spam", discordId: "spam", spamAt: NOW, submittedAt: new Date(NOW.getTime() - 50 * HOUR) },
    ]);
    await db.insert(eventApplications).values({ eventId: event!.id, vrchatUsername: "Waiting", submittedAt: new Date(NOW.getTime() - 25 * HOUR) });

    expect(await remindWaitingApplications(db, "https://dwell.example/admin/applications", NOW)).toBe("sent");
    // Later the same day (another process, another hour): nothing more.
    expect(await remindWaitingApplications(db, "https://dwell.example/admin/applications", new Date(NOW.getTime() + 5 * HOUR))).toBe("already-today");
    expect(await reminders()).toEqual([{ job: "reminder", waiting: 2, url: "https://dwell.example/admin/applications", day: "2026-11-25" }]);
    // The next day, one more.
    expect(await remindWaitingApplications(db, "https://dwell.example/admin/applications", new Date(NOW.getTime() + 24 * HOUR))).toBe("sent");
    expect(await reminders()).toHaveLength(2);
  });
});
