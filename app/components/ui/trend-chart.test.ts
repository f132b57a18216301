import { describe, expect, it } from "vitest";
import { placeLabel } from "./trend-chart";

describe("the words of a chart's marks", () => {
  it("go on the first line where they touch no other word, so that a peak at the start stays readable", () => {
    const taken: { from: number; to: number }[][] = [];
    // "start" and "peak 4" at the same minute, "end" far to the right, then a word that fits nowhere above.
    expect(placeLabel(taken, { from: 100, to: 140 })).toBe(0);
    expect(placeLabel(taken, { from: 100, to: 150 })).toBe(1);
    expect(placeLabel(taken, { from: 400, to: 430 })).toBe(0);
    expect(placeLabel(taken, { from: 120, to: 160 })).toBe(2);
    // Words that only meet at an edge share a line.
    expect(placeLabel(taken, { from: 140, to: 180 })).toBe(0);
  });
});
