import ICAL from "ical.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { events, type EventRow } from "~/db/schema";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { calendarFileName, calendarOf, listFeedEvents } from "./calendar-feed.server";

const SITE = { origin: "https://dwell.example", name: "The Dwellers' events" };

function row(values: Partial<EventRow> & Pick<EventRow, "id" | "title" | "eventDate" | "eventTime">): EventRow {
  return {
    description: "",
    timezone: "UTC",
    worldName: "The Hearth",
    endDate: null,
    endTime: null,
    worldId: null,
    worldImageUrl: null,
    worldCheckedAt: null,
    waitlistPromotion: "pending",
    instanceLeadMinutes: 15,
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
    vrchatEventId: null,
    vrchatFingerprint: null,
    vrchatImport: null,
    seriesId: null,
    seriesIndex: null,
    createdAt: new Date("2026-10-01T00:00:00Z"),
    updatedAt: new Date("2026-11-02T10:30:00Z"),
    ...values,
  };
}

/** The feed as a calendar app reads it: every event's fields, through an independent parser. */
function readBack(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return {
    calendar,
    events: calendar.getAllSubcomponents("vevent").map((component) => {
      const event = new ICAL.Event(component);
      return {
        uid: event.uid,
        summary: event.summary,
        description: event.description,
        location: event.location,
        start: event.startDate.toJSDate().toISOString(),
        end: event.endDate.toJSDate().toISOString(),
        url: component.getFirstPropertyValue("url"),
        lastModified: (component.getFirstPropertyValue("last-modified") as ICAL.Time).toJSDate().toISOString(),
      };
    }),
  };
}

describe("the calendar feed", () => {
  it("gives every field, escaped and folded, read back by an iCalendar parser", () => {
    const text = calendarOf(
      [
        row({
          id: "7d0c1f8e-0000-4000-8000-000000000001",
          title: "Moonlit Ball; masks, please",
          description: `A night of dances, lanterns and ${"very long words ".repeat(12)}\nSecond line, with a comma`,
          eventDate: "2026-12-05",
          eventTime: "20:00:00",
          timezone: "EST",
          applicationRequired: true,
        }),
      ],
      SITE,
      new Date("2026-11-23T12:00:00Z"),
    );
    expect(text.split("\r\n").every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    const { calendar, events: [event] } = readBack(text);
    expect(calendar.getFirstPropertyValue("x-wr-calname")).toBe("The Dwellers' events");
    expect(event).toEqual({
      uid: "7d0c1f8e-0000-4000-8000-000000000001@dwell",
      summary: "Moonlit Ball; masks, please",
      description: expect.stringContaining("Second line, with a comma\n\nApply to attend: https://dwell.example/events/7d0c1f8e-0000-4000-8000-000000000001/apply"),
      location: "VRChat: The Hearth",
      // 8 PM in New York in December (EST, UTC-5) is 01:00 UTC the next day.
      start: "2026-12-06T01:00:00.000Z",
      end: "2026-12-06T03:00:00.000Z",
      url: "https://dwell.example/events/7d0c1f8e-0000-4000-8000-000000000001",
      lastModified: "2026-11-02T10:30:00.000Z",
    });
  });

  it("puts each side of a daylight-saving change at its own instant", () => {
    // US daylight saving time ends on 2026-11-01 at 2 AM: 7 PM Pacific is UTC-7 the day before, UTC-8 that day.
    const text = calendarOf(
      [
        row({ id: "00000000-0000-4000-8000-00000000000a", title: "Before", eventDate: "2026-10-31", eventTime: "19:00:00", timezone: "PST" }),
        row({ id: "00000000-0000-4000-8000-00000000000b", title: "After", eventDate: "2026-11-01", eventTime: "19:00:00", timezone: "PST" }),
      ],
      SITE,
      new Date("2026-10-01T00:00:00Z"),
    );
    expect(readBack(text).events.map((event) => [event.summary, event.start])).toEqual([
      ["Before", "2026-11-01T02:00:00.000Z"],
      ["After", "2026-11-02T03:00:00.000Z"],
    ]);
  });

  it("names a downloaded file after the event", () => {
    expect(calendarFileName("Moonlit Ball: Ålborg edition!")).toBe("moonlit-ball-alborg-edition.ics");
    expect(calendarFileName("✨✨")).toBe("event.ics");
  });
});

describeEachDatabase("the feed's events", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(events);
  });

  it("are the upcoming ones and those of the last 30 days", async () => {
    const now = new Date("2026-11-23T12:00:00Z");
    await database.db.insert(events).values([
      { title: "Long ago", eventDate: "2026-10-20", eventTime: "20:00", worldName: "W" },
      { title: "Last month", eventDate: "2026-10-25", eventTime: "20:00", worldName: "W" },
      { title: "Next week", eventDate: "2026-11-30", eventTime: "20:00", worldName: "W" },
    ]);
    expect((await listFeedEvents(database.db, now)).map((event) => event.title)).toEqual(["Last month", "Next week"]);
  });
});
