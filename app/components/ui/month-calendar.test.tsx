import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MonthCalendar } from "./month-calendar";

function render(today: string, marked: string[] = [], selected: string | null = null) {
  const html = renderToStaticMarkup(
    <MonthCalendar
      today={today}
      selected={selected}
      onSelect={() => {}}
      isMarked={(day) => marked.includes(day)}
      labels={{ previousMonth: "Go to the Previous Month", nextMonth: "Go to the Next Month" }}
      dayLabel={(day, state) => [day, state.today && "today", state.marked && "marked", state.selected && "selected"].filter(Boolean).join(" ")}
    />,
  );
  const rows = [...html.matchAll(/<tr>(.*?)<\/tr>/g)].map((row) => row[1]!);
  const cells = (row: string) => [...row.matchAll(/<td([^>]*)>(.*?)<\/td>/g)].map((cell) => ({ attributes: cell[1]!, content: cell[2]! }));
  const days = rows.slice(1).flatMap(cells).filter((cell) => cell.content);
  return { html, rows, cells, days };
}

describe("the month calendar", () => {
  it("lays out today's month in weeks from Sunday, blank outside the month", () => {
    // 1 February 2026 is a Sunday and the month has 28 days: four full weeks.
    const february = render("2026-02-10");
    expect(february.html).toContain("February 2026");
    expect(february.rows).toHaveLength(5);
    expect(february.days.map((cell) => /data-day="([^"]+)"/.exec(cell.attributes)?.[1])).toEqual(
      Array.from({ length: 28 }, (_, i) => `2026-02-${String(i + 1).padStart(2, "0")}`),
    );

    // 1 April 2026 is a Wednesday; 30 April a Thursday.
    const april = render("2026-04-15");
    const firstWeek = april.cells(april.rows[1]!);
    expect(firstWeek.map((cell) => cell.content === "")).toEqual([true, true, true, false, false, false, false]);
    const lastWeek = april.cells(april.rows.at(-1)!);
    expect(lastWeek.map((cell) => cell.content === "")).toEqual([false, false, false, false, false, true, true]);
    // The column headers carry the full day names.
    expect(april.rows[0]).toContain('aria-label="Wednesday"');
  });

  it("disables the days before today and every earlier month, and names and marks each day", () => {
    const { html, days } = render("2026-11-21", ["2026-11-09", "2026-11-24"], "2026-11-24");
    const cell = (day: string) => days.find((c) => c.attributes.includes(`data-day="${day}"`))!;
    expect(cell("2026-11-20").content).toContain("disabled");
    expect(cell("2026-11-20").attributes).toContain("data-disabled");
    expect(cell("2026-11-21").content).not.toContain("disabled");
    expect(cell("2026-11-21").content).toContain('aria-label="2026-11-21 today"');
    // A past day with an event is still marked, and still cannot be chosen.
    expect(cell("2026-11-09").attributes).toContain("dwell-has-event");
    expect(cell("2026-11-09").content).toContain("disabled");
    expect(cell("2026-11-24").attributes).toContain('aria-selected="true"');
    expect(cell("2026-11-24").content).toContain('aria-label="2026-11-24 marked selected"');
    expect(html).toMatch(/<button[^>]*aria-label="Go to the Previous Month"[^>]*disabled=""/);
    expect(html).not.toMatch(/<button[^>]*aria-label="Go to the Next Month"[^>]*disabled=""/);
  });

  it("puts one day in the tab order: the selected one, else today", () => {
    const tabbable = (today: string, selected: string | null) =>
      render(today, [], selected).days.filter((cell) => cell.content.includes('tabindex="0"')).map((cell) => /data-day="([^"]+)"/.exec(cell.attributes)?.[1]);
    expect(tabbable("2026-11-21", null)).toEqual(["2026-11-21"]);
    expect(tabbable("2026-11-21", "2026-11-28")).toEqual(["2026-11-28"]);
  });
});
