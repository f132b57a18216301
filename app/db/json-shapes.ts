/**
 * The shapes of the JSON the tables keep for questions and answers (a question's rules, its condition,
 * its translations; an application's answers), in a module of their own so that the schema and the
 * form's pure code (utils/form-questions) share them without the database layer reaching up.
 */
import type { QuestionType } from "./enums";

/** A question's rules beyond its type; each type reads only its own (see QuestionInputSchema). */
export interface QuestionSettings {
  /** Text types: the longest answer taken (at most the type's own limit). */
  maxLength?: number;
  /** Checkboxes: how many may be ticked. */
  minChoices?: number;
  maxChoices?: number;
  /** Number: the bounds, and whether only whole numbers are taken. */
  min?: number;
  max?: number;
  wholeNumber?: boolean;
  /** Date: the earliest and latest day taken, as YYYY-MM-DD (a calendar day, no time zone). */
  earliest?: string;
  latest?: string;
  /** Agreement: the statement the applicant agrees to (kept with the answer as it was then). */
  statement?: string;
}

/**
 * A question shown only when an earlier question's answer is (or is not) one of `values`, or is
 * answered at all. A question whose earlier question is hidden is hidden too, so chains hold.
 */
export interface ShowIf {
  questionId: string;
  when: "is" | "is_not" | "answered";
  values: string[];
}

/**
 * A question in another language, as staff wrote it: its text, help, an agreement's statement, and
 * its options' labels by option (the answer kept is always the option as written first). Anything
 * left out is shown as written.
 */
export interface QuestionTranslation {
  question?: string;
  helpText?: string;
  statement?: string;
  options?: Record<string, string>;
}
export type QuestionTranslations = Record<string, QuestionTranslation>;

/** An answer: text, or the ticked choices of a Checkboxes question. */
export type AnswerValue = string | string[];

/**
 * An answer as kept on an application: by its question's id (null for an answer kept from before
 * answers had ids, whose question no longer exists), with the question's text and type as asked.
 */
export interface StoredAnswer {
  questionId: string | null;
  question: string;
  type: QuestionType;
  value: AnswerValue;
  /** Agreement: the statement as it read when agreed to. */
  statement?: string;
}
