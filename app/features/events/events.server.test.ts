import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eventApplications, events, type NewEventRow } from "~/db/schema";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { eventEnd, eventStart, isEventPast, TIMEZONE_ABBREVIATIONS } from "./event-timing";
import {
  getEvent,
  getFeaturedEvent,
  listEvents,
  listEventsForAdmin,
  listUpcomingEvents,
  toEventDetail,
} from "./events.server";

const NOW = new Date("2026-11-21T18:00:00Z");

function event(overrides: Partial<NewEventRow> & Pick<NewEventRow, "eventDate">): NewEventRow {
  return { title: "An evening", worldName: "The Black Cat", eventTime: "20:00", ...overrides };
}

describeEachDatabase("event queries", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(events);
  });

  it("finds the earliest featured event that has not ended", async () => {
    const { db } = database;
    await db.insert(events).values([
      event({ title: "featured, ended", eventDate: "2026-11-21", eventTime: "17:00", endDate: "2026-11-21", endTime: "17:30", featured: true }),
      event({ title: "not featured", eventDate: "2026-11-22", featured: false }),
      event({ title: "featured, later", eventDate: "2026-11-30", featured: true }),
      event({ title: "featured, sooner", eventDate: "2026-11-25", featured: true }),
    ]);
    expect((await getFeaturedEvent(db, NOW))?.title).toBe("featured, sooner");
    // One under way (started, not ended) is still the one to show.
    await db.insert(events).values(event({ title: "featured, live", eventDate: "2026-11-21", eventTime: "17:00", featured: true }));
    const live = await getFeaturedEvent(db, NOW);
    expect([live?.title, live?.phase]).toEqual(["featured, live", "live"]);
  });

  it("counts an event still to come today in its own zone as upcoming", async () => {
    const { db } = database;
    // 19:00 PST on the 21st is 03:00 UTC on the 22nd: after NOW although its date is "today".
    await db.insert(events).values([
      event({ title: "tonight in LA", eventDate: "2026-11-21", eventTime: "19:00", timezone: "PST", featured: true }),
      // 12:00 EST on the 21st is 17:00 UTC: begun, and over by 12:30 there.
      event({ title: "noon in NY", eventDate: "2026-11-21", eventTime: "12:00", timezone: "EST", endDate: "2026-11-21", endTime: "12:30" }),
    ]);
    expect((await listUpcomingEvents(db, NOW)).map((e) => e.title)).toEqual(["tonight in LA"]);
    expect((await getFeaturedEvent(db, NOW))?.title).toBe("tonight in LA");
  });

  it("lists upcoming events in start order across zones, at most the limit", async () => {
    const { db } = database;
    await db.insert(events).values([
      event({ title: "C", eventDate: "2026-11-23", eventTime: "20:00", timezone: "UTC" }),
      // Same date: 20:00 PST is 04:00 UTC the next day, after 20:00 UTC.
      event({ title: "D", eventDate: "2026-11-23", eventTime: "20:00", timezone: "PST" }),
      event({ title: "B", eventDate: "2026-11-22", eventTime: "09:00", timezone: "EST" }),
      event({ title: "A", eventDate: "2026-11-22", eventTime: "08:00", timezone: "UTC" }),
      event({ title: "past", eventDate: "2026-11-01", eventTime: "08:00" }),
    ]);
    expect((await listUpcomingEvents(db, NOW)).map((e) => e.title)).toEqual(["A", "B", "C", "D"]);
    expect((await listUpcomingEvents(db, NOW, 3)).map((e) => e.title)).toEqual(["A", "B", "C"]);
    const all = await listEvents(db, NOW);
    expect(all.map((e) => e.title)).toEqual(["past", "A", "B", "C", "D"]);
    expect(all.map((e) => e.isPast)).toEqual([true, false, false, false, false]);
  });

  it("agrees with the time module on what is upcoming, for every zone and hour", async () => {
    const { db } = database;
    const rows: NewEventRow[] = [];
    for (const timezone of TIMEZONE_ABBREVIATIONS) {
      for (const eventDate of ["2026-11-20", "2026-11-21", "2026-11-22"]) {
        for (let hour = 0; hour < 24; hour += 3) {
          const eventTime = `${String(hour).padStart(2, "0")}:30`;
          rows.push(event({ title: `${timezone} ${eventDate} ${hour}`, eventDate, eventTime, timezone }));
          // The same start with a stored end: an hour later, or into the next day.
          const endDate = hour >= 21 ? "2026-11-23" : eventDate;
          rows.push(event({ title: `${timezone} ${eventDate} ${hour} ends`, eventDate, eventTime, timezone, endDate, endTime: hour >= 21 ? "04:00" : `${String(hour + 1).padStart(2, "0")}:30` }));
        }
      }
    }
    await db.insert(events).values(rows);
    const upcoming = new Set((await listUpcomingEvents(db, NOW)).map((e) => e.title));
    const expected = rows.filter((row) => !isEventPast(row, NOW)).map((row) => row.title);
    expect([...upcoming].sort()).toEqual(expected.sort());
    for (const summary of await listEvents(db, NOW)) {
      expect(summary.startsAt).toBe(eventStart(summary).toISOString());
      expect(summary.endsAt).toBe(eventEnd(summary).toISOString());
    }
  });

  it("returns null for unknown and malformed ids instead of failing", async () => {
    const { db } = database;
    expect(await getEvent(db, "00000000-0000-4000-8000-000000000000")).toBeNull();
    expect(await getEvent(db, "not-an-id")).toBeNull();
    expect(await getEvent(db, "'; drop table events; --")).toBeNull();
    const [row] = await db.insert(events).values(event({ eventDate: "2026-12-01" })).returning();
    expect((await getEvent(db, row!.id))?.title).toBe("An evening");
  });

  it("derives the application state of a detail", async () => {
    const { db } = database;
    const [row] = await db
      .insert(events)
      .values(event({ eventDate: "2026-12-01", applicationRequired: true, applicationDeadline: new Date("2026-11-20T23:59:59Z") }))
      .returning();
    expect(toEventDetail(row!, NOW).applicationState).toBe("deadline-passed");
    expect(toEventDetail(row!, new Date("2026-11-19T00:00:00Z")).applicationState).toBe("open");
  });

  it("counts each event's own applications and pending ones for the Sanctum's cards", async () => {
    const { db } = database;
    const [busy, quiet, empty] = await db
      .insert(events)
      .values([
        event({ title: "busy", eventDate: "2026-11-30", applicationRequired: true }),
        event({ title: "quiet", eventDate: "2026-12-01", applicationRequired: true }),
        event({ title: "empty", eventDate: "2026-12-02", applicationRequired: true }),
      ])
      .returning({ id: events.id });
    const statuses = { [busy!.id]: ["pending", "pending", "approved", "rejected", "pending"], [quiet!.id]: ["approved"] } as const;
    for (const [eventId, list] of Object.entries(statuses)) {
      await db.insert(eventApplications).values(
        list.map((status, i) => ({ eventId, vrchatUsername: `${eventId.slice(0, 4)}-${i}`, status })),
      );
    }
    const cards = await listEventsForAdmin(db, NOW);
    const figures = Object.fromEntries(cards.map((card) => [card.id, [card.applicationCount, card.pendingApplications]]));
    expect(figures).toEqual({ [busy!.id]: [5, 3], [quiet!.id]: [1, 0], [empty!.id]: [0, 0] });
  });
});

describeEachDatabase("the events table's rules", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());

  async function insertError(values: NewEventRow) {
    try {
      await database.db.insert(events).values(values);
    } catch (error) {
      return (error as { cause?: { code?: string } }).cause?.code;
    }
    return "inserted";
  }

  it("refuses unknown timezones, empty titles and fewer than one attendee", async () => {
    expect(await insertError(event({ eventDate: "2026-12-01", timezone: "CET" }))).toBe("23514");
    expect(await insertError(event({ eventDate: "2026-12-01", title: "  " }))).toBe("23514");
    expect(await insertError(event({ eventDate: "2026-12-01", maxAttendees: 0 }))).toBe("23514");
    expect(await insertError(event({ eventDate: "2026-12-01", maxAttendees: 1 }))).toBe("inserted");
  });

  it("defaults to UTC and to no application", async () => {
    const [row] = await database.db.insert(events).values(event({ eventDate: "2026-12-02" })).returning();
    expect(row).toMatchObject({ timezone: "UTC", applicationRequired: false, featured: false, maxAttendees: null });
  });
});

describe("toEventDetail", () => {
  it("returns only what the page needs", () => {
    const detail = toEventDetail(
      {
        id: "7d9f0b7e-5b1c-4c1e-9a59-0d0a7c1f2b3c",
        title: "T",
        description: "D",
        eventDate: "2026-12-01",
        eventTime: "20:00:00",
        timezone: "UTC",
        worldName: "W",
        endDate: null,
        endTime: null,
        worldId: null,
        worldImageUrl: null,
        worldCheckedAt: new Date(),
        waitlistPromotion: "pending",
        instanceLeadMinutes: null,
        instanceRegion: "us",
        instanceAccess: "members",
        applicationRequired: false,
        requiresProof: false,
        applicantEdits: true,
        applicationDeadline: null,
        maxAttendees: null,
        applicationInstructions: null,
        featured: false,
        discordEvent: false,
        createdBy: null,
        hostId: null,
        vrchatEventId: "cal_00000000-0000-0000-0000-000000000001",
        vrchatFingerprint: "x",
        vrchatImport: "sync",
        seriesId: null,
        seriesIndex: null,
        createdAt: NOW,
        updatedAt: NOW,
      },
      NOW,
    );
    expect(Object.keys(detail)).not.toContain("createdBy");
    expect(Object.keys(detail)).not.toContain("vrchatFingerprint");
    expect(Object.keys(detail)).not.toContain("createdAt");
    expect(Object.keys(detail)).not.toContain("worldCheckedAt");
  });
});
