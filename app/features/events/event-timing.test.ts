import { describe, expect, it } from "vitest";
import { inLanguage } from "~/utils/language.server";
import { deadlineDateOf } from "./event-editor-times";
import {
  applicationDeadlineFor,
  applicationState,
  eventStart,
  eventTimeLabels,
  formatEventDate,
  formatLongDateTime,
  isEventPast,
  eventPhase,
  eventEnd,
  eventEndLabel,
  hasEventStarted,
  localDayKey,
  startOfLocalDay,
  validTimeZone,
  wallTimeToInstant,
  zoneOf,
} from "./event-timing";

const at = (iso: string) => new Date(iso);

describe("zoneOf", () => {
  it.each([
    ["UTC", "UTC"],
    ["EST", "America/New_York"],
    ["EDT", "America/New_York"],
    ["CST", "America/Chicago"],
    ["CDT", "America/Chicago"],
    ["MST", "America/Denver"],
    ["MDT", "America/Denver"],
    ["PST", "America/Los_Angeles"],
    ["PDT", "America/Los_Angeles"],
    ["pst", "America/Los_Angeles"],
  ])("maps %s to %s", (abbreviation, zone) => {
    expect(zoneOf(abbreviation)).toBe(zone);
  });

  it.each([null, undefined, "", "CET", "GMT+2", "toString", "__proto__"])(
    "treats %s as UTC",
    (value) => {
      expect(zoneOf(value)).toBe("UTC");
    },
  );
});

describe("eventStart", () => {
  it("reads an event in UTC", () => {
    expect(eventStart({ eventDate: "2026-06-01", eventTime: "19:00:00", timezone: "UTC" })).toEqual(
      at("2026-06-01T19:00:00Z"),
    );
  });

  it("treats a missing timezone as UTC", () => {
    expect(eventStart({ eventDate: "2026-06-01", eventTime: "19:00" })).toEqual(
      at("2026-06-01T19:00:00Z"),
    );
  });

  it("applies daylight saving: PST in July is Pacific daylight time", () => {
    expect(eventStart({ eventDate: "2026-07-04", eventTime: "19:00", timezone: "PST" })).toEqual(
      at("2026-07-05T02:00:00Z"),
    );
    expect(eventStart({ eventDate: "2026-12-04", eventTime: "19:00", timezone: "PST" })).toEqual(
      at("2026-12-05T03:00:00Z"),
    );
  });

  it("EDT and EST name the same regional zone", () => {
    const winter = { eventDate: "2026-01-15", eventTime: "20:00" };
    expect(eventStart({ ...winter, timezone: "EDT" })).toEqual(
      eventStart({ ...winter, timezone: "EST" }),
    );
    expect(eventStart({ ...winter, timezone: "EST" })).toEqual(at("2026-01-16T01:00:00Z"));
  });

  it("around the spring-forward change (US, 8 March 2026)", () => {
    // 01:30 EST is still standard time; 03:30 is daylight time.
    expect(eventStart({ eventDate: "2026-03-08", eventTime: "01:30", timezone: "EST" })).toEqual(
      at("2026-03-08T06:30:00Z"),
    );
    expect(eventStart({ eventDate: "2026-03-08", eventTime: "03:30", timezone: "EST" })).toEqual(
      at("2026-03-08T07:30:00Z"),
    );
    // 02:30 does not exist that night: it reads as 03:30 daylight time.
    expect(eventStart({ eventDate: "2026-03-08", eventTime: "02:30", timezone: "EST" })).toEqual(
      at("2026-03-08T07:30:00Z"),
    );
  });

  it("around the fall-back change (US, 1 November 2026)", () => {
    // 01:30 happens twice; the first (daylight) one is meant.
    expect(eventStart({ eventDate: "2026-11-01", eventTime: "01:30", timezone: "CST" })).toEqual(
      at("2026-11-01T06:30:00Z"),
    );
    expect(eventStart({ eventDate: "2026-11-01", eventTime: "03:00", timezone: "CST" })).toEqual(
      at("2026-11-01T09:00:00Z"),
    );
  });

  it("refuses malformed dates and times", () => {
    expect(() => eventStart({ eventDate: "01/06/2026", eventTime: "19:00" })).toThrow(RangeError);
    expect(() => eventStart({ eventDate: "2026-06-01", eventTime: "7pm" })).toThrow(RangeError);
  });
});

describe("isEventPast", () => {
  const event = { eventDate: "2026-11-21", eventTime: "20:00", timezone: "EST" }; // 01:00Z on the 22nd

  it("is upcoming until its start, live until its end (two hours when none is kept), past from its end", () => {
    expect(eventPhase(event, at("2026-11-22T00:59:59Z"))).toBe("upcoming");
    expect(eventPhase(event, at("2026-11-22T01:00:00Z"))).toBe("live");
    expect(isEventPast(event, at("2026-11-22T02:59:59Z"))).toBe(false);
    expect(isEventPast(event, at("2026-11-22T03:00:00Z"))).toBe(true);
    expect(hasEventStarted(event, at("2026-11-22T01:00:00Z"))).toBe(true);
  });

  it("ends at its stored end, on the event zone's clocks", () => {
    const late = { ...event, endDate: "2026-11-22", endTime: "01:30" }; // 06:30Z
    expect(eventEnd(late)).toEqual(at("2026-11-22T06:30:00Z"));
    expect(eventPhase(late, at("2026-11-22T06:29:59Z"))).toBe("live");
    expect(eventPhase(late, at("2026-11-22T06:30:00Z"))).toBe("past");
    expect(eventEndLabel(late)).toBe("until 1:30 AM EST, Sun, Nov 22");
    expect(eventEndLabel({ ...event, endDate: "2026-11-21", endTime: "23:00" })).toBe("until 11:00 PM EST");
  });

  it("closes applications at the start, not the end", () => {
    const rules = { ...event, applicationRequired: true, applicationDeadline: null };
    expect(applicationState(rules, at("2026-11-22T00:59:59Z"))).toBe("open");
    expect(applicationState(rules, at("2026-11-22T01:00:00Z"))).toBe("event-past");
  });

  it("does not go by the UTC calendar date", () => {
    // Already the 22nd in UTC, yet the event (the 21st, Eastern) has not begun.
    expect(isEventPast(event, at("2026-11-22T00:30:00Z"))).toBe(false);
  });
});

describe("application deadline", () => {
  it("is the chosen day's 23:59:59 in the event's zone", () => {
    expect(applicationDeadlineFor("2026-11-20", "PST")).toEqual(at("2026-11-21T07:59:59Z"));
    expect(applicationDeadlineFor("2026-07-20", "PST")).toEqual(at("2026-07-21T06:59:59Z"));
    expect(applicationDeadlineFor("2026-07-20", "UTC")).toEqual(at("2026-07-20T23:59:59Z"));
    expect(applicationDeadlineFor("2026-07-20", null)).toEqual(at("2026-07-20T23:59:59Z"));
  });

  it("reads back as the chosen day in the event's zone", () => {
    for (const timezone of ["UTC", "EST", "CST", "MST", "PST"]) {
      expect(deadlineDateOf(applicationDeadlineFor("2026-03-08", timezone), timezone)).toBe(
        "2026-03-08",
      );
    }
  });
});

describe("applicationState", () => {
  const base = {
    eventDate: "2026-12-10",
    eventTime: "19:00",
    timezone: "UTC",
    applicationRequired: true,
    applicationDeadline: at("2026-12-05T23:59:59Z"),
  };

  it("is open when required, not past, and before the deadline", () => {
    expect(applicationState(base, at("2026-12-05T23:59:59Z"))).toBe("open");
  });

  it("is open without a deadline until the event starts", () => {
    const noDeadline = { ...base, applicationDeadline: null };
    expect(applicationState(noDeadline, at("2026-12-10T18:59:59Z"))).toBe("open");
    expect(applicationState(noDeadline, at("2026-12-10T19:00:00Z"))).toBe("event-past");
  });

  it("closes once the deadline has passed", () => {
    expect(applicationState(base, at("2026-12-06T00:00:00Z"))).toBe("deadline-passed");
  });

  it("reports a past event before a passed deadline", () => {
    expect(applicationState(base, at("2026-12-11T00:00:00Z"))).toBe("event-past");
  });

  it("is never open when applications are not required", () => {
    expect(applicationState({ ...base, applicationRequired: false }, at("2026-12-01T00:00:00Z"))).toBe(
      "not-required",
    );
  });
});

describe("the viewer's calendar day", () => {
  const start = at("2026-11-22T03:00:00Z"); // 19:00 PST on the 21st

  it("is the local day of the start in the viewer's zone", () => {
    expect(localDayKey(start, "America/Los_Angeles")).toBe("2026-11-21");
    expect(localDayKey(start, "UTC")).toBe("2026-11-22");
    expect(localDayKey(start, "Asia/Tokyo")).toBe("2026-11-22");
    expect(localDayKey(start, "Pacific/Honolulu")).toBe("2026-11-21");
  });

  it("starts today at the viewer's midnight", () => {
    expect(startOfLocalDay(at("2026-11-21T03:00:00Z"), "America/New_York")).toEqual(
      at("2026-11-20T05:00:00Z"),
    );
    expect(startOfLocalDay(at("2026-11-21T03:00:00Z"), "Europe/Berlin")).toEqual(
      at("2026-11-20T23:00:00Z"),
    );
  });

  it("has a 23-hour day on the spring-forward date", () => {
    const day = startOfLocalDay(at("2026-03-08T12:00:00Z"), "America/New_York");
    const next = startOfLocalDay(at("2026-03-09T12:00:00Z"), "America/New_York");
    expect(next.getTime() - day.getTime()).toBe(23 * 60 * 60 * 1000);
  });

  it("works in zones with odd offsets and in the southern hemisphere", () => {
    // Kathmandu is 5:45 ahead; Lord Howe Island moves by half an hour, forward in October.
    expect(startOfLocalDay(at("2026-11-21T12:00:00Z"), "Asia/Kathmandu")).toEqual(at("2026-11-20T18:15:00Z"));
    expect(startOfLocalDay(at("2026-11-21T12:00:00Z"), "Australia/Lord_Howe")).toEqual(at("2026-11-20T13:00:00Z"));
    expect(startOfLocalDay(at("2026-07-21T12:00:00Z"), "Australia/Lord_Howe")).toEqual(at("2026-07-20T13:30:00Z"));
    // The Chatham Islands (12:45 ahead in summer) are a calendar day ahead of UTC's noon.
    expect(localDayKey(at("2026-11-21T12:00:00Z"), "Pacific/Chatham")).toBe("2026-11-22");
  });
});

describe("validTimeZone", () => {
  it("accepts zones the runtime knows and rejects the rest", () => {
    expect(validTimeZone("Europe/Paris")).toBe("Europe/Paris");
    expect(validTimeZone("UTC")).toBe("UTC");
    expect(validTimeZone("Mars/Olympus_Mons")).toBeNull();
    expect(validTimeZone("")).toBeNull();
    expect(validTimeZone(null)).toBeNull();
    expect(validTimeZone("x".repeat(200))).toBeNull();
  });
});

describe("formatting in Japanese", () => {
  it("writes the day, the time and the end the Japanese way, the event's zone as it is set", () => {
    inLanguage("ja", () => {
      expect(formatEventDate("2026-12-01")).toBe("2026年12月1日(火)");
      expect(formatLongDateTime(at("2026-12-02T01:00:00Z"), "America/New_York")).toBe("2026年12月1日(火) 20:00 EST");
      const event = { eventDate: "2026-11-21", eventTime: "20:00", timezone: "EST", endDate: "2026-11-22", endTime: "01:30" };
      expect(eventTimeLabels(event, "Asia/Tokyo")).toEqual({ eventTime: "20:00 EST", viewerTime: "11月22日(日) 10:00 GMT+9" });
      expect(eventEndLabel(event)).toBe("11月22日(日) 1:30 ESTまで");
    });
    // Outside, English as before.
    expect(formatEventDate("2026-12-01")).toBe("Tuesday, December 1, 2026");
  });
});

describe("formatting (en-US)", () => {
  it("writes long US dates with the time and zone", () => {
    expect(formatLongDateTime(at("2026-11-21T07:59:59Z"), "America/Los_Angeles")).toBe(
      "Friday, November 20, 2026 at 11:59 PM PST",
    );
  });

  it("shows the event's own date whatever the server's zone", () => {
    expect(formatEventDate("2026-11-28")).toBe("Saturday, November 28, 2026");
  });

  it("gives the viewer's clock only when it differs from the event's", () => {
    const event = { eventDate: "2026-11-28", eventTime: "19:00", timezone: "PST" };
    expect(eventTimeLabels(event, "America/Los_Angeles")).toEqual({
      eventTime: "7:00 PM PST",
      viewerTime: null,
    });
    expect(eventTimeLabels(event, "America/New_York")).toEqual({
      eventTime: "7:00 PM PST",
      viewerTime: "10:00 PM EST",
    });
    // For a viewer in Berlin it is already the next morning.
    expect(eventTimeLabels(event, "Europe/Berlin").viewerTime).toBe("4:00 AM GMT+1, Sun, Nov 29");
  });

  it("round-trips a wall time through its zone", () => {
    const instant = wallTimeToInstant("2026-07-01", "09:15", "America/Denver");
    expect(instant).toEqual(at("2026-07-01T15:15:00Z"));
  });
});
