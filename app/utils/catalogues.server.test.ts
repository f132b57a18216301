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
        const source = readFileSync(path, "utf8");
        if (!source.includes('from "~/paraglide/messages"') && !source.includes('from "./paraglide/messages"')) continue;
        for (const [, key] of source.matchAll(/\bm\.([A-Za-z0-9_]+)\b/g)) {
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

  it("keep the product spec's quoted texts in English to the letter", () => {
    const spec = readFileSync(join(root, "docs/product-spec.md"), "utf8").replace(/\s+/g, " ");
    // The texts the spec quotes ('Seek Entry', "Loading events..."), by their letters alone.
    const quoted = new Map<string, Set<string>>();
    for (const quote of [/'([^']{2,200})'/g, /"([^"]{2,200})"/g]) {
      for (const [, text = ""] of spec.matchAll(quote)) quoted.set(loose(text), (quoted.get(loose(text)) ?? new Set()).add(text.trim()));
    }
    // Quoted as a pattern the code matches without regard to case (a question's text), not as a text shown.
    for (const pattern of ["vrchat username"]) quoted.delete(loose(pattern));
    const drifted = new Set<string>();
    for (const [key, message] of Object.entries(english.messages)) {
      if (typeof message !== "string") continue;
      // The whole text, and each fixed part of it of two words or more, as the spec would quote it (a
      // part's edges only join it to a value: "{name} · The Sanctum" holds "The Sanctum").
      const parts = message.split(/\{[^{}]*\}/).map((text) => text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}.!?)]+$/gu, ""));
      for (const part of [message.trim(), ...parts]) {
        const forms = quoted.get(loose(part));
        if (!forms || loose(part).split(" ").length < 2 || forms.has(part) || spec.includes(part)) continue;
        drifted.add(`${key}: "${part}" where the spec has "${[...forms].join('" or "')}"`);
      }
    }
    expect([...drifted]).toEqual([]);
  });
});

/** A text by its letters and digits alone: what stays when case, punctuation and spacing drift. */
const loose = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();

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
    const shown = [{ ...plural[0], match: { "countPlural=one": "1 player", "countPlural=other": "{shown} players" } }];
    expect(placeholdersOf(shown)).toEqual({ names: ["count", "shown"] });
    expect(placeholdersOf([{ match: { "x=other": "{oops" } }])).toEqual({ broken: "a '{' or '}' without its pair" });
    expect(placeholdersOf([{ ...plural[0], match: { "countPlural=one": "{count} member" } }])).toEqual({
      broken: "no 'other' case, which any other count would need",
    });
    expect(placeholdersOf(42)).toEqual({ broken: "neither a text nor a list of variants" });
  });
});
