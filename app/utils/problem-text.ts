/**
 * Why an outside service refused or waits, as a worker keeps it for a card to say in its reader's
 * language: a code, and the service's own words after a bar (`code|words`).
 */
import { truncate } from "./text";

export const problemText = (code: string, words?: string) => (words ? `${code}|${truncate(words, 300)}` : code);

export function readProblem(text: string | null): { code: string; words: string } {
  const [code = "", words = ""] = (text ?? "").split(/\|(.*)/s);
  return { code, words };
}
