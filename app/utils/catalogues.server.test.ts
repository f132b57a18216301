/**
 * The catalogues as the code uses them: every key the code calls is in every catalogue, no
 * catalogue keeps a key the code no longer calls, each translation has English's placeholders, the
 * languages compiled are the catalogues there are, and English keeps the product spec's texts to
 * the letter (a text the spec quotes may not drift in case or punctuation).
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { catalogueProblems, placeholdersOf, readCatalogue } from "./catalogues.server";

const root = join(import.meta.dirname, "../..");
const messagesDir = join(root, "messages");
const languages = readdirSync(messagesDir)
  .filter((name) => name.endsWith(".json"))
  .map((name) => name.slice(0, -".json".length));
const english = readCatalogue(messagesDir, "en");
if ("problem" in english) throw new Error(english.problem);

/** Every source file of the site and its server, with the message keys each calls. */
function keysUsedInCode(): Map<string, string[]> {
  const used = new Map<string, string[]>();
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "paraglide" && entry.name !== "node_modules") visit(path);
      } else if (/\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        for (const [, key] of readFileSync(path, "utf8").matchAll(/\bm\.([A-Za-z0-9_]+)\(/g)) {
          used.set(key!, [...(used.get(key!) ?? []), path.slice(root.length + 1)]);
        }
      }
    }
  };
  visit(join(root, "app"));
  visit(join(root, "server"));
  return used;
}

describe("the message catalogues", () => {
  it("are complete and well formed in every language", () => {
    expect(languages).toContain("en");
    expect(catalogueProblems(messagesDir, languages, { strict: true })).toEqual([]);
  });

  it("hold every key the code calls, and no key it does not", () => {
    const used = keysUsedInCode();
    const missing = [...used].filter(([key]) => !(key in english.messages)).map(([key, files]) => `${key} (${files[0]})`);
    const unused = Object.keys(english.messages).filter((key) => !used.has(key));
    expect(missing).toEqual([]);
    expect(unused).toEqual([]);
  });

  it("are the languages the site is compiled with", () => {
    const settings = JSON.parse(readFileSync(join(root, "project.inlang/settings.json"), "utf8")) as { baseLocale: string; locales: string[] };
    expect(settings.baseLocale).toBe("en");
    expect([...settings.locales].sort()).toEqual([...languages].sort());
  });

  /** Dwell's own words that the spec's prose happens to hold in other letters ("the Dwellers"). */
  const OWN_WORDING = new Set(["site_preview_title"]);

  it("keep the product spec's texts in English to the letter", () => {
    const spec = readFileSync(join(root, "docs/product-spec.md"), "utf8");
    const loose = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
    const looseSpec = ` ${loose(spec)} `;
    const drifted: string[] = [];
    for (const [key, message] of Object.entries(english.messages)) {
      if (typeof message !== "string" || OWN_WORDING.has(key)) continue;
      // Each fixed part of the text, as the spec would quote it.
      for (const part of message.split(/\{[^{}]*\}/)) {
        if (loose(part).split(" ").length < 2) continue;
        if (looseSpec.includes(` ${loose(part)} `) && !spec.includes(part.trim())) drifted.push(`${key}: "${part.trim()}"`);
      }
    }
    expect(drifted).toEqual([]);
  });
});

describe("catalogueProblems", () => {
  const write = (catalogues: Record<string, unknown>) => {
    const dir = mkdtempSync(join(tmpdir(), "dwell-messages-"));
    for (const [language, messages] of Object.entries(catalogues)) {
      writeFileSync(join(dir, `${language}.json`), typeof messages === "string" ? messages : JSON.stringify(messages));
    }
    return dir;
  };

  it("names the file and the key of a broken message", () => {
    const dir = write({
      en: { greeting: "Hello, {name}!", members: "{count} members", plain: "Plain" },
      ja: { greeting: "こんにちは、{name", members: "{total}人", plain: "{not a name}" },
    });
    expect(catalogueProblems(dir, ["en", "ja"])).toEqual([
      "messages/ja.json: greeting: a '{' or '}' without its pair",
      "messages/ja.json: members: placeholders {total} where English has {count}",
      "messages/ja.json: plain: '{not a name}' is not a placeholder's name",
    ]);
  });

  it("reports what a translation lacks or adds only when strict", () => {
    const dir = write({ en: { a: "A", b: "B {x}" }, ja: { a: "エー", c: "シー", b: "ビー" } });
    expect(catalogueProblems(dir, ["en", "ja"])).toEqual([]);
    expect(catalogueProblems(dir, ["en", "ja"], { strict: true })).toEqual([
      "messages/ja.json: c: not in English's catalogue",
      "messages/ja.json: b: placeholders {} where English has {x}",
    ]);
    const lacking = write({ en: { a: "A", b: "B" }, ja: { a: "エー" } });
    expect(catalogueProblems(lacking, ["en", "ja"], { strict: true })).toEqual(["messages/ja.json: b: missing"]);
  });

  it("names a catalogue that cannot be read", () => {
    const dir = write({ en: { a: "A" }, ja: "{ not json" });
    expect(catalogueProblems(dir, ["en", "ja"])[0]).toMatch(/^messages\/ja\.json: not valid JSON/);
    expect(catalogueProblems(dir, ["en", "de"])).toEqual(["messages/de.json: no such catalogue"]);
  });

  it("reads plural variants' inputs", () => {
    const plural = [
      { declarations: ["input count", "local countPlural = count: plural"], selectors: ["countPlural"], match: { "countPlural=one": "{count} member", "countPlural=other": "{count} members" } },
    ];
    expect(placeholdersOf(plural)).toEqual({ names: ["count"] });
    expect(placeholdersOf([{ match: { "x=one": "{oops" } }])).toEqual({ broken: "a '{' or '}' without its pair" });
    expect(placeholdersOf(42)).toEqual({ broken: "neither a text nor a list of variants" });
  });
});
