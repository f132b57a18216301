import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as registry from "~/paraglide/registry.js";
import { oneLanguageMessage, withoutLocaleWarning } from "./one-language-messages";

const MESSAGES = join(import.meta.dirname, "../app/paraglide/messages");
// Every language the catalogue is compiled in.
const { locales: LANGUAGES } = JSON.parse(readFileSync(join(import.meta.dirname, "../project.inlang/settings.json"), "utf8")) as { locales: string[] };

/** Runs a compiled message module's code and returns its export `key`, as the page's language is `language`. */
function load(code: string, key: string, language: string): (inputs?: object) => string {
  const body = `${code.replace(/^import .*$/gm, "").replace(/^export const /gm, "const ")}\nreturn ${key};`;
  return new Function("registry", "getLocale", "experimentalStaticLocale", body)(registry, () => language, undefined);
}

// Any input a message asks for: a name reads "‹name›", a count is 2.
const inputs = new Proxy({}, { get: (_, name) => (name === "count" ? 2 : `‹${String(name)}›`) });

describe("one language's messages", () => {
  const files = readdirSync(MESSAGES).filter((name) => name.endsWith(".js") && !name.startsWith("_"));

  it("binds every message to the language's own text, which reads as the message did", () => {
    expect(files.length).toBeGreaterThan(1000);
    for (const file of files) {
      const key = file.slice(0, -3);
      const code = withoutLocaleWarning(readFileSync(join(MESSAGES, file), "utf8"));
      for (const language of LANGUAGES) {
        const bound = oneLanguageMessage(code, language);
        // A message whose shape the plugin did not know would keep its wrapper: none may.
        expect(bound, `${key} (${language})`).toMatch(new RegExp(`^export const ${key} = ${language}_${key};$`, "m"));
        expect(bound).not.toContain("getLocale()");
        expect(load(bound, key, "unused")(inputs)).toBe(load(code, key, language)(inputs));
      }
    }
  });

  it("leaves code it does not know as it was", () => {
    const other = "export const greeting = () => 'hello';\n";
    expect(oneLanguageMessage(other, "ja")).toBe(other);
  });

  it("takes away the warning Paraglide adds to every message", () => {
    const code = readFileSync(join(MESSAGES, "stats_heading.js"), "utf8");
    expect(code).toContain("console.warn");
    expect(withoutLocaleWarning(code)).not.toContain("console.warn");
  });
});
