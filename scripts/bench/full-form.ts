/**
 * The group form a demanding group would build: the demo's five questions and 25 more, every type
 * with its rules, 10 of them shown only by an earlier answer (chains included). Parts 1 and 5 weigh
 * and load the public form with it; `fillForm` answers it as a person without JavaScript would.
 */
import { randomUUID } from "node:crypto";
import type { Site } from "./site.ts";

interface BenchQuestion {
  id: string;
  question: string;
  type: string;
  options?: string[];
  required?: boolean;
  help?: string;
  settings?: Record<string, unknown>;
  showIf?: { questionId: string; when: "is" | "is_not" | "answered"; values: string[] };
}

/** The 25 questions added after the demo's five: each type at least twice, 10 conditions. */
export function fullFormQuestions(): BenchQuestion[] {
  const q = (question: string, type: string, extra: Partial<BenchQuestion> = {}): BenchQuestion => ({ id: randomUUID(), question, type, ...extra });
  const perform = q("Do you perform?", "yes_no");
  const arts = q("What do you perform?", "checkboxes", { options: ["Music", "Dance", "Poetry", "Stories"], settings: { maxChoices: 3 }, showIf: { questionId: perform.id, when: "is", values: ["Yes"] } });
  const music = q("Which instrument?", "text", { settings: { maxLength: 80 }, showIf: { questionId: arts.id, when: "is", values: ["Music"] } });
  const years = q("Years performing", "number", { settings: { min: 0, max: 80, wholeNumber: true }, showIf: { questionId: perform.id, when: "is", values: ["Yes"] } });
  const region = q("Your region", "select", { options: ["Europe", "Americas", "Asia", "Oceania", "Africa"] });
  const late = q("Are late nights fine?", "yes_no", { showIf: { questionId: region.id, when: "is", values: ["Asia", "Oceania"] } });
  const guests = q("How many guests?", "number", { settings: { min: 0, max: 3, wholeNumber: true } });
  const guestNames = q("Your guests' names", "textarea", { required: false, showIf: { questionId: guests.id, when: "answered", values: [] } });
  const night = q("Which night suits you?", "date", { settings: { earliest: "2026-01-01", latest: "2027-12-31" } });
  const rules = q("Our rules", "agreement", { settings: { statement: "I have read the rules at https://dwell.example/rules and will keep them." } });
  const adult = q("The 18+ rooms", "agreement", { settings: { statement: "I am 18 or older and agree to the 18+ rooms' rules." } });
  const site = q("Your website", "link", { required: false, help: "A page about you, if you have one." });
  const gallery = q("A gallery of your work", "link", { required: false, showIf: { questionId: perform.id, when: "is", values: ["Yes"] } });
  const profile = q("Your VRChat profile", "vrchat_profile", { required: false });
  const pronouns = q("Your pronouns", "text", { required: false, settings: { maxLength: 40 } });
  const languages = q("Languages you speak", "checkboxes", { options: ["English", "Deutsch", "Français", "Español", "日本語"], settings: { minChoices: 1 } });
  const other = q("Another language?", "text", { required: false, showIf: { questionId: languages.id, when: "is_not", values: ["English"] } });
  const host = q("Would you host an event?", "yes_no");
  const hostWhat = q("What would you host?", "textarea", { showIf: { questionId: host.id, when: "is", values: ["Yes"] } });
  const hostWhen = q("From when could you host?", "date", { required: false, showIf: { questionId: host.id, when: "is", values: ["Yes"] } });
  const avatar = q("Your usual avatar", "select", { options: ["Human", "Furry", "Robot", "Other"] });
  const avatarOther = q("Which other avatar?", "text", { showIf: { questionId: avatar.id, when: "is", values: ["Other"] } });
  const hours = q("Hours a week in VRChat", "number", { settings: { min: 0, max: 168 } });
  const about = q("What brings you here?", "textarea", { settings: { maxLength: 2000 } });
  const found = q("Who told you of us?", "text", { required: false });
  return [perform, arts, music, years, region, late, guests, guestNames, night, rules, adult, site, gallery, profile, pronouns, languages, other, host, hostWhat, hostWhen, avatar, avatarOther, hours, about, found];
}

/** Adds the 25 questions to the site's group form, after its own. */
export async function installFullForm(site: Site): Promise<void> {
  const questions = fullFormQuestions();
  await site.withDatabase(async (query) => {
    const [row] = await query<{ next: number }>("select coalesce(max(order_index), -1)::int + 1 as next from application_questions");
    for (const [index, question] of questions.entries()) {
      await query(
        `insert into application_questions (id, question, question_type, options, required, help_text, settings, show_if, order_index)
         values ($1::uuid, $2, $3, $4::jsonb, $5, $6, $7::jsonb, $8::jsonb, $9)`,
        [
          question.id,
          question.question,
          question.type,
          question.options ? JSON.stringify(question.options) : null,
          question.required ?? true,
          question.help ?? null,
          JSON.stringify(question.settings ?? {}),
          question.showIf ? JSON.stringify(question.showIf) : null,
          row!.next + index,
        ],
      );
    }
  });
}

const decode = (text: string) => text.replaceAll("&quot;", '"').replaceAll("&amp;", "&").replaceAll("&#x27;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">");
const attr = (tag: string, name: string) => {
  const found = new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  return found === undefined ? null : decode(found);
};

/**
 * Every field of the public form, answered as a person without JavaScript would: each question
 * shown (all are, without a script) gets a valid answer for its type; the server keeps only those
 * its conditions show. `text` answers the typed ones, in order (the first two: the name and Discord).
 */
export function fillForm(html: string, text: (index: number) => string): [string, string][] {
  const answers: [string, string][] = [];
  const done = new Set<string>();
  let typed = 0;
  for (const match of html.matchAll(/<select\b([^>]*)>(.*?)<\/select>|<(input|textarea)\b([^>]*)>/gs)) {
    const element = match[3] ?? "select";
    const tag = match[1] ?? match[4] ?? "";
    const inner = match[2];
    const name = attr(tag, "name");
    if (!name?.startsWith("answer.")) continue;
    const type = element === "input" ? (attr(tag, "type") ?? "text") : element;
    if (type === "radio" || type === "checkbox") {
      // The first choice of each: Yes, the first option, or the agreement's tick.
      if (!done.has(name)) answers.push([name, attr(tag, "value") ?? ""]);
    } else if (done.has(name)) continue;
    else if (element === "select") answers.push([name, decode(/<option[^>]*value="([^"]+)"/.exec(inner ?? "")?.[1] ?? "")]);
    else if (type === "date") answers.push([name, attr(tag, "min") ?? "2026-12-05"]);
    else if (attr(tag, "inputMode") === "numeric" || attr(tag, "inputmode") === "numeric" || attr(tag, "inputMode") === "decimal" || attr(tag, "inputmode") === "decimal") answers.push([name, "1"]);
    else if (type === "url") answers.push([name, /vrchat\.com/.test(attr(tag, "placeholder") ?? "") ? "" : "https://example.com/work"]);
    else answers.push([name, text(typed++)]);
    done.add(name);
  }
  return answers;
}
