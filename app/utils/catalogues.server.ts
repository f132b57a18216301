/**
 * The message catalogues (messages/<language>.json) checked as a whole: each message well formed,
 * each language with every message English has and no other, each with English's placeholders.
 * The server refuses to start on a broken message in a language it offers (naming the file and the
 * key), and `npm test` runs the same check on every catalogue.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The catalogue every other is compared with. */
export const SOURCE_LANGUAGE = "en";

/** A message: a text with `{placeholders}`, or (plurals and other variants) a list of variant sets. */
type Message = string | { declarations?: string[]; selectors?: string[]; match?: Record<string, string> }[];

const PLACEHOLDER = /\{([^{}]*)\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The placeholders a text names, or the reason it is broken. */
function placeholdersOfText(text: string): { names: string[] } | { broken: string } {
  const names: string[] = [];
  for (const [, name = ""] of text.matchAll(PLACEHOLDER)) {
    if (!NAME.test(name.trim())) return { broken: `'{${name}}' is not a placeholder's name` };
    names.push(name.trim());
  }
  const rest = text.replace(PLACEHOLDER, "");
  if (/[{}]/.test(rest)) return { broken: "a '{' or '}' without its pair" };
  return { names };
}

/** The inputs a message takes, or why it is broken. */
export function placeholdersOf(message: unknown): { names: string[] } | { broken: string } {
  if (typeof message === "string") return placeholdersOfText(message);
  if (!Array.isArray(message) || message.length === 0) return { broken: "neither a text nor a list of variants" };
  const names = new Set<string>();
  for (const variant of message as Exclude<Message, string>) {
    if (typeof variant !== "object" || variant === null || typeof variant.match !== "object") return { broken: "a variant without its 'match'" };
    const locals = new Set<string>();
    for (const declaration of variant.declarations ?? []) {
      const input = /^input\s+([A-Za-z_][A-Za-z0-9_]*)$/.exec(declaration.trim());
      if (input) names.add(input[1]!);
      const local = /^local\s+([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(declaration.trim());
      if (local) locals.add(local[1]!);
    }
    const cases = Object.keys(variant.match);
    // A count no case names would show the message's key: each needs its catch-all.
    if (!cases.some((key) => /=(?:other|\*)$/.test(key))) return { broken: "no 'other' case, which any other count would need" };
    for (const text of Object.values(variant.match)) {
      if (typeof text !== "string") return { broken: "a variant's text is not a text" };
      const found = placeholdersOfText(text);
      if ("broken" in found) return found;
      for (const name of found.names) if (!locals.has(name)) names.add(name);
    }
  }
  return { names: [...names] };
}

export type Catalogue = Record<string, unknown>;

/** A catalogue's messages, without its `$schema`; or why it cannot be read. */
export function readCatalogue(dir: string, language: string): { messages: Catalogue } | { problem: string } {
  const file = join(dir, `${language}.json`);
  if (!existsSync(file)) return { problem: `messages/${language}.json: no such catalogue` };
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return { problem: `messages/${language}.json: not a list of messages` };
    const messages = Object.fromEntries(Object.entries(parsed).filter(([key]) => key !== "$schema"));
    return { messages };
  } catch (error) {
    return { problem: `messages/${language}.json: not valid JSON (${(error as Error).message})` };
  }
}

/**
 * What is wrong with the catalogues of `languages`, each as "messages/<file>: <key>: <what>".
 * `strict` adds what a translation lacks or has beyond English (the tests' check); without it, only
 * what would show a visitor a broken text (the server's check at start).
 */
export function catalogueProblems(dir: string, languages: readonly string[], { strict = false } = {}): string[] {
  const problems: string[] = [];
  const source = readCatalogue(dir, SOURCE_LANGUAGE);
  if ("problem" in source) return [source.problem];
  const sourceInputs = new Map<string, string[]>();
  for (const [key, message] of Object.entries(source.messages)) {
    const found = placeholdersOf(message);
    if ("broken" in found) problems.push(`messages/${SOURCE_LANGUAGE}.json: ${key}: ${found.broken}`);
    else sourceInputs.set(key, found.names.toSorted());
  }
  for (const language of languages) {
    if (language === SOURCE_LANGUAGE) continue;
    const catalogue = readCatalogue(dir, language);
    if ("problem" in catalogue) {
      problems.push(catalogue.problem);
      continue;
    }
    for (const [key, message] of Object.entries(catalogue.messages)) {
      const found = placeholdersOf(message);
      if ("broken" in found) {
        problems.push(`messages/${language}.json: ${key}: ${found.broken}`);
        continue;
      }
      const expected = sourceInputs.get(key);
      if (!expected) {
        if (strict) problems.push(`messages/${language}.json: ${key}: not in English's catalogue`);
        continue;
      }
      const names = [...new Set(found.names)].toSorted();
      if (names.some((name) => !expected.includes(name)) || (strict && expected.some((name) => !names.includes(name)))) {
        problems.push(`messages/${language}.json: ${key}: placeholders {${names.join("}, {")}} where English has {${expected.join("}, {")}}`);
      }
    }
    if (strict) {
      for (const key of sourceInputs.keys()) {
        if (!(key in catalogue.messages)) problems.push(`messages/${language}.json: ${key}: missing`);
      }
    }
  }
  return problems;
}
