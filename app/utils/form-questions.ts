/**
 * The shape of an application form's questions and of the answers kept, shared by the question
 * editor, the public form (in the browser too), the review and the exports. Pure: no database.
 */
import type { QuestionType } from "~/db/enums";
import type { AnswerValue, QuestionSettings, QuestionTranslations, ShowIf, StoredAnswer } from "~/db/json-shapes";

export type { AnswerValue, QuestionSettings, QuestionTranslation, QuestionTranslations, ShowIf, StoredAnswer } from "~/db/json-shapes";

export const SHOW_IF_WHEN = ["is", "is_not", "answered"] as const;

/** Types whose answers a condition can look at by value. */
export const CONDITION_TYPES: readonly QuestionType[] = ["select", "checkboxes", "yes_no"];

export const YES = "Yes";
export const NO = "No";
export const AGREED = "Agreed";

/** One question as the public form asks it. */
export interface FormQuestion {
  id: string;
  question: string;
  questionType: QuestionType;
  options: string[] | null;
  required: boolean;
  helpText?: string | null;
  settings?: QuestionSettings;
  showIf?: ShowIf | null;
  /** Its translations by language (a page carries only its own language's). */
  translations?: QuestionTranslations | null;
}

/** A question as a visitor of `language` reads it: its translation where staff gave one, else as written. */
export function askedIn(question: Pick<FormQuestion, "question" | "helpText" | "settings" | "translations">, language: string) {
  const own = question.translations?.[language];
  return {
    question: own?.question || question.question,
    helpText: own?.helpText || question.helpText || null,
    statement: own?.statement || question.settings?.statement,
    /** The label of an option (its value stays the option as written). */
    option: (value: string) => own?.options?.[value] || value,
  };
}

/** The questions with only `language`'s translations, for a page in that language. */
export function questionsIn<T extends Pick<FormQuestion, "translations">>(questions: readonly T[], language: string): T[] {
  return questions.map((question) => {
    const own = question.translations?.[language];
    return { ...question, translations: own ? { [language]: own } : null };
  });
}

/** The value that a question's condition compares: its choices, or its one answer. */
function chosen(value: AnswerValue | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).filter((one) => one !== "");
}

/**
 * Whether `question` is shown, given the answers so far (`answers`: only shown questions' answers;
 * `shown`: the ids of questions found shown, earlier in the form).
 */
export function conditionHolds(showIf: ShowIf | null | undefined, answers: Readonly<Record<string, AnswerValue>>, shown: ReadonlySet<string>): boolean {
  if (!showIf) return true;
  if (!shown.has(showIf.questionId)) return false;
  const values = chosen(answers[showIf.questionId]);
  if (showIf.when === "answered") return values.length > 0;
  const matches = values.some((value) => showIf.values.includes(value));
  return showIf.when === "is" ? matches : !matches;
}

/** The ids of the questions shown for these answers, in the form's order. */
export function shownQuestionIds(questions: readonly FormQuestion[], answers: Readonly<Record<string, AnswerValue>>): Set<string> {
  const shown = new Set<string>();
  for (const question of questions) {
    if (conditionHolds(question.showIf, answers, shown)) shown.add(question.id);
  }
  return shown;
}

/** An answer as one line of text (the CSV, Sheets, Discord, the screening rules). */
export function answerText(value: AnswerValue | undefined): string {
  if (value === undefined) return "";
  return Array.isArray(value) ? value.join("; ") : value;
}

/** The answers kept on an application, by question text as asked (the first, should two share it). */
export function valuesByText(answers: readonly StoredAnswer[]): Record<string, AnswerValue> {
  const byText: Record<string, AnswerValue> = {};
  for (const answer of answers) {
    if (!(answer.question in byText)) byText[answer.question] = answer.value;
  }
  return byText;
}

/** The answer kept for a question: by its id, else (kept from before ids) by its text. */
export function storedAnswerTo(answers: readonly StoredAnswer[], question: { id: string; question: string }): StoredAnswer | undefined {
  return answers.find((answer) => answer.questionId === question.id) ?? answers.find((answer) => answer.questionId === null && answer.question === question.question);
}

/** A number as typed: digits, one decimal point (or comma), a sign; no exponent, no spaces. */
export const TYPED_NUMBER = /^[+-]?(\d+([.,]\d+)?|[.,]\d+)$/;

/** Whether a YYYY-MM-DD text names a day that exists (not 2026-02-30). */
export function isCalendarDay(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A posted field's value, or its values when it was sent more than once (a Checkboxes question's choices). */
export function fieldOf(form: FormData, name: string): unknown {
  const all = form.getAll(name);
  return all.length > 1 ? all : all[0];
}
