import { describe, expect, it } from "vitest";
import { prefix, singleLine, truncate } from "./text";

describe("truncate", () => {
  it("leaves a text that fits alone", () => {
    expect(truncate("Moth", 4)).toBe("Moth");
  });

  it("ends a cut text with an ellipsis, within the limit", () => {
    expect(truncate("abcdef", 4)).toBe("abc…");
    expect(truncate("abcdef", 1)).toBe("…");
    expect(truncate("abcdef", 0)).toBe("");
  });

  it("never splits an emoji", () => {
    // "🦋" is two UTF-16 code units: cutting between them leaves an invalid character.
    expect(truncate("ab🦋cd", 4)).toBe("ab…");
    expect(truncate("ab🦋cd", 5)).toBe("ab🦋…");
    expect(prefix("ab🦋", 3)).toBe("ab");
  });
});

describe("whole characters", () => {
  it("keeps a flag, a family and an accented letter whole or leaves them out", () => {
    expect(prefix("ab🇫🇷", 3)).toBe("ab");
    expect(prefix("a👩‍👩‍👧", 6)).toBe("a");
    expect(prefix("cafe\u0301", 4)).toBe("caf");
  });

  it("gives a text that JSON round-trips as the same string after any cut", () => {
    const text = "🦋".repeat(600);
    for (const max of [999, 1000, 1001]) {
      const cut = truncate(text, max);
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(cut.isWellFormed()).toBe(true);
    }
  });
});

describe("singleLine", () => {
  it("turns line breaks and control characters into one space", () => {
    expect(singleLine("Night\r\nX-WR-CALNAME:Evil")).toBe("Night X-WR-CALNAME:Evil");
    expect(singleLine("  a\u0000\u0007b\u2028c\u0085d  ")).toBe("a b c d");
  });
});
