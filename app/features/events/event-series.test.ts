import { describe, expect, it } from "vitest";
import {
  describeRepeat,
  occurrenceDate,
  occurrencesDue,
  RepeatInputSchema,
  repeatRuleOf,
  SERIES_TEXTS,
  type SeriesRule,
} from "./event-series";

const repeat = (fields: Record<string, string>) => RepeatInputSchema.parse(fields);

describe("the dates of a series", () => {
  it("goes a week or two weeks on", () => {
    expect(occurrenceDate("2026-12-29", "weekly", 1)).toBe("2027-01-05");
    expect(occurrenceDate("2026-12-29", "biweekly", 3)).toBe("2027-02-09");
  });

  it("keeps the same weekday of the month, and a fifth one as the month's last", () => {
    // 8 December 2026 is the second Tuesday.
    expect([1, 2, 3].map((steps) => occurrenceDate("2026-12-08", "monthly", steps))).toEqual(["2027-01-12", "2027-02-09", "2027-03-09"]);
    // 29 December 2026 is the fifth Tuesday: January and February have only four.
    expect([1, 2, 3].map((steps) => occurrenceDate("2026-12-29", "monthly", steps))).toEqual(["2027-01-26", "2027-02-23", "2027-03-30"]);
    expect(occurrenceDate("2026-12-08", "monthly", 13)).toBe("2028-01-11");
  });

  it("makes what is due by the horizon, and stops at the end", () => {
    const rule: SeriesRule = { frequency: "weekly", anchorIndex: 0, anchorDate: "2026-12-01", untilDate: null, occurrenceCount: 4 };
    expect(occurrencesDue(rule, 1, "2027-02-01")).toEqual([
      { index: 1, date: "2026-12-08" },
      { index: 2, date: "2026-12-15" },
      { index: 3, date: "2026-12-22" },
    ]);
    expect(occurrencesDue(rule, 1, "2026-12-10")).toEqual([{ index: 1, date: "2026-12-08" }]);
    const until: SeriesRule = { ...rule, occurrenceCount: null, untilDate: "2026-12-15" };
    expect(occurrencesDue(until, 0, "2027-06-01").map(({ date }) => date)).toEqual(["2026-12-01", "2026-12-08", "2026-12-15"]);
    // Re-anchored at its fourth event (a 'this and the following' edit moved it to Wednesday).
    const moved: SeriesRule = { frequency: "biweekly", anchorIndex: 3, anchorDate: "2026-12-23", untilDate: null, occurrenceCount: 6 };
    expect(occurrencesDue(moved, 4, "2027-12-31")).toEqual([
      { index: 4, date: "2027-01-06" },
      { index: 5, date: "2027-01-20" },
    ]);
  });

  it("says how it repeats", () => {
    expect(describeRepeat("weekly", "2026-12-01")).toBe("Weekly on Tuesday");
    expect(describeRepeat("biweekly", "2026-12-05")).toBe("Every two weeks on Saturday");
    expect(describeRepeat("monthly", "2026-12-08")).toBe("Monthly on the second Tuesday");
    expect(describeRepeat("monthly", "2026-12-29")).toBe("Monthly on the last Tuesday");
  });
});

describe("'Repeats' on the form", () => {
  it("is no series when it never repeats", () => {
    expect(repeatRuleOf(repeat({}), "2026-12-01")).toEqual({ ok: true, rule: null });
    expect(repeatRuleOf(repeat({ repeats: "never", repeatCount: "" }), "2026-12-01")).toEqual({ ok: true, rule: null });
  });

  it("refuses repeats that never end", () => {
    expect(repeatRuleOf(repeat({ repeats: "weekly" }), "2026-12-01")).toEqual({ ok: false, field: "repeatUntil", error: SERIES_TEXTS.neverEnds });
    expect(repeatRuleOf(repeat({ repeats: "monthly", repeatUntil: " ", repeatCount: "" }), "2026-12-01")).toMatchObject({ ok: false, error: SERIES_TEXTS.neverEnds });
  });

  it("takes an end date or a number of events, not both", () => {
    expect(repeatRuleOf(repeat({ repeats: "weekly", repeatCount: "10" }), "2026-12-01")).toEqual({
      ok: true,
      rule: { frequency: "weekly", end: { untilDate: null, occurrenceCount: 10 } },
    });
    expect(repeatRuleOf(repeat({ repeats: "biweekly", repeatUntil: "2027-03-01" }), "2026-12-01")).toEqual({
      ok: true,
      rule: { frequency: "biweekly", end: { untilDate: "2027-03-01", occurrenceCount: null } },
    });
    expect(repeatRuleOf(repeat({ repeats: "weekly", repeatUntil: "2027-03-01", repeatCount: "4" }), "2026-12-01")).toMatchObject({ ok: false, error: SERIES_TEXTS.bothEnds });
  });

  it("refuses an end before the start, and a series longer than two years", () => {
    expect(repeatRuleOf(repeat({ repeats: "weekly", repeatUntil: "2026-11-30" }), "2026-12-01")).toMatchObject({ ok: false, error: SERIES_TEXTS.untilBeforeStart });
    expect(repeatRuleOf(repeat({ repeats: "weekly", repeatUntil: "2026-12-01" }), "2026-12-01")).toMatchObject({ ok: false, error: SERIES_TEXTS.untilBeforeStart });
    expect(repeatRuleOf(repeat({ repeats: "weekly", repeatUntil: "2029-01-01" }), "2026-12-01")).toMatchObject({ ok: false, field: "repeatUntil", error: SERIES_TEXTS.tooLong });
    expect(repeatRuleOf(repeat({ repeats: "monthly", repeatCount: "40" }), "2026-12-01")).toMatchObject({ ok: false, field: "repeatCount", error: SERIES_TEXTS.tooLong });
    expect(repeatRuleOf(repeat({ repeats: "weekly", repeatCount: "100" }), "2026-12-01")).toMatchObject({ ok: true });
    expect(RepeatInputSchema.safeParse({ repeats: "weekly", repeatCount: "101" }).success).toBe(false);
    expect(RepeatInputSchema.safeParse({ repeats: "weekly", repeatCount: "1" }).success).toBe(false);
    expect(RepeatInputSchema.safeParse({ repeats: "daily", repeatCount: "3" }).success).toBe(false);
  });

  it("counts from the series' first event when an occurrence is edited", () => {
    expect(repeatRuleOf(repeat({ repeats: "weekly", repeatCount: "3" }), "2026-12-15", 4)).toMatchObject({ ok: false, field: "repeatCount" });
    expect(repeatRuleOf(repeat({ repeats: "weekly", repeatCount: "5" }), "2026-12-15", 4)).toMatchObject({ ok: true });
    // The last event's date may be this event's own, from the second on.
    expect(repeatRuleOf(repeat({ repeats: "weekly", repeatUntil: "2026-12-15" }), "2026-12-15", 2)).toMatchObject({ ok: true });
  });
});
