import { describe, expect, it } from "vitest";
import { parseAnnouncement, toDiscordMarkdown, toHtml, toPlainText } from "./announcement-text";

describe("an announcement's text", () => {
  it("has paragraphs, line breaks, bold, italic and links", () => {
    const [first, second] = parseAnnouncement("Doors open **at nine**, *bring* a _lantern_.\nSee you!\n\nRead [the rules](https://dwell.example/rules) or https://dwell.example/faq.");
    expect(first).toEqual([
      { kind: "text", text: "Doors open " },
      { kind: "bold", children: [{ kind: "text", text: "at nine" }] },
      { kind: "text", text: ", " },
      { kind: "italic", children: [{ kind: "text", text: "bring" }] },
      { kind: "text", text: " a " },
      { kind: "italic", children: [{ kind: "text", text: "lantern" }] },
      { kind: "text", text: "." },
      { kind: "break" },
      { kind: "text", text: "See you!" },
    ]);
    expect(second).toEqual([
      { kind: "text", text: "Read " },
      { kind: "link", href: "https://dwell.example/rules", label: "the rules" },
      { kind: "text", text: " or " },
      { kind: "link", href: "https://dwell.example/faq", label: "https://dwell.example/faq" },
      { kind: "text", text: "." },
    ]);
  });

  it("makes no link of another scheme, and leaves words with underscores and lone stars alone", () => {
    expect(parseAnnouncement("[click](javascript:alert(1)) snake_case_name 2 * 3 * 4")).toEqual([
      [{ kind: "text", text: "[click](javascript:alert(1)) snake_case_name 2 * 3 * 4" }],
    ]);
  });

  it("gives VRChat plain text with the links written out", () => {
    expect(toPlainText("**Tonight**: [the garden](https://dwell.example/e/1)\n\nCome *early*.")).toBe("Tonight: the garden (https://dwell.example/e/1)\n\nCome early.");
  });

  it("gives Discord its markdown, with nothing else in the text able to format or mention", () => {
    expect(toDiscordMarkdown("@everyone **hi** <@&123> # title [x](https://a.example)")).toBe("\\@everyone **hi** \\<\\@\\&123\\> \\# title [x](https://a.example)");
  });

  it("gives the feed escaped HTML", () => {
    expect(toHtml("<script>x</script> **b** [l](https://a.example/?a=1&b=2)")).toBe(
      '<p>&lt;script&gt;x&lt;/script&gt; <strong>b</strong> <a href="https://a.example/?a=1&amp;b=2">l</a></p>',
    );
  });
});
