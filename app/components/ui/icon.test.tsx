import { CircleCheck, Menu } from "lucide";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Icon } from "./icon";

describe("an icon", () => {
  it("draws every shape of its data, in Lucide's stroke, hidden from screen readers", () => {
    const html = renderToStaticMarkup(<Icon node={Menu} className="size-4" />);
    expect(html.match(/<path /g)?.length).toBe(Menu.length);
    expect(html).toContain(`d="${String(Menu[0]![1].d)}"`);
    expect(html).toContain('viewBox="0 0 24 24"');
    expect(html).toContain('stroke="currentColor"');
    expect(html).toContain('stroke-width="2"');
    expect(html).toContain('fill="none"');
    expect(html).toContain('aria-hidden="true"');
    expect(html).toContain('class="size-4"');
  });

  it("draws circles and paths alike, and lets a caller name it for screen readers", () => {
    const html = renderToStaticMarkup(<Icon node={CircleCheck} aria-hidden={undefined} aria-label="Approved" role="img" />);
    expect(html).toContain("<circle ");
    expect(html).toContain("<path ");
    expect(html).not.toContain("aria-hidden");
    expect(html).toContain('aria-label="Approved"');
  });
});
