import { describe, expect, it } from "vitest";
import { csvCell, csvDate, csvFileName, csvRow } from "./csv";

describe("CSV cells", () => {
  it("quotes every cell and doubles inner quotes", () => {
    expect(csvRow(["Moth", 'said "hi"', "", null])).toBe('"Moth","said ""hi""","",""\r\n');
  });

  it.each(["=HYPERLINK(\"x\")", "+1+1", "-2", "@SUM(A1)", "\tTab", "\rReturn"])("neutralises a cell a spreadsheet would run: %j", (value) => {
    expect(csvCell(value).startsWith(`"'`)).toBe(true);
  });

  it("leaves ordinary text alone, line breaks included", () => {
    expect(csvCell("line one\nline two, with comma")).toBe('"line one\nline two, with comma"');
    expect(csvCell("a-b")).toBe('"a-b"');
  });

  it("writes dates as yyyy-MM-dd HH:mm:ss", () => {
    expect(csvDate(new Date("2026-11-21T18:04:05.678Z"))).toBe("2026-11-21 18:04:05");
    expect(csvDate(null)).toBe("");
  });

  it("names the file after the event", () => {
    expect(csvFileName("Winter Solstice Ball: 2026!")).toBe("Winter_Solstice_Ball__2026__applications.csv");
  });
});
