/**
 * The Sanctum's question editor for both kinds of questions: an event's (event_application_questions)
 * and the group's (application_questions). Reordering renumbers every question 0..n-1 in one
 * transaction, so the order never ends up half saved.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/db.server";
import { applicationQuestions, eventApplicationQuestions, type QuestionType } from "~/db/schema";
import { CONDITION_TYPES, NO, YES, type QuestionSettings, type QuestionTranslation, type QuestionTranslations, type ShowIf } from "~/utils/form-questions";
import { formQuestionsMemo } from "~/utils/memo.server";
import type { QuestionInput } from "./question-input";

export type QuestionScope = { kind: "group" } | { kind: "event"; eventId: string };

export interface EditableQuestion {
  id: string;
  question: string;
  questionType: QuestionType;
  options: string[] | null;
  required: boolean;
  orderIndex: number;
  helpText: string | null;
  settings: QuestionSettings;
  showIf: ShowIf | null;
  translations: QuestionTranslations;
}

/** A change the form's conditions forbid (a question depending on a later one, or on one removed). */
export class QuestionRuleError extends Error {
  override name = "QuestionRuleError";
}

/**
 * What is wrong with a question's condition among the form's questions (in order), if anything: it
 * may depend only on an earlier question (so never on itself, and never in a loop), and on values
 * that question can take. `selfId` null: a new question, which goes last.
 */
export function conditionProblem(ordered: readonly Pick<EditableQuestion, "id" | "question" | "questionType" | "options">[], selfId: string | null, showIf: ShowIf | null): string | null {
  if (!showIf) return null;
  if (showIf.questionId === selfId) return "A question cannot depend on its own answer.";
  const index = ordered.findIndex((question) => question.id === showIf.questionId);
  if (index < 0) return "The question this one depends on is no longer on the form: choose another, or remove the condition.";
  const target = ordered[index]!;
  const selfIndex = selfId === null ? ordered.length : ordered.findIndex((question) => question.id === selfId);
  if (index > selfIndex) return `A question can only depend on an earlier one: "${target.question}" comes after it.`;
  if (showIf.when === "answered") return null;
  if (!CONDITION_TYPES.includes(target.questionType)) {
    return `"${target.question}" has no choices to depend on: show this question when it is answered, or depend on a Multiple Choice, Checkboxes or Yes / No question.`;
  }
  const choices = target.questionType === "yes_no" ? [YES, NO] : (target.options ?? []);
  const unknown = showIf.values.find((value) => !choices.includes(value));
  return unknown === undefined ? null : `"${unknown}" is not an answer to "${target.question}".`;
}

/** The questions whose conditions `ordered` breaks, as the message to show (null: none). */
function brokenConditions(ordered: readonly EditableQuestion[]): string | null {
  for (const question of ordered) {
    const problem = conditionProblem(ordered, question.id, question.showIf);
    if (problem) {
      const target = ordered.find((other) => other.id === question.showIf?.questionId);
      return target
        ? `"${question.question}" depends on the answer to "${target.question}": ${problem} Change or remove that condition first.`
        : `"${question.question}": ${problem}`;
    }
  }
  return null;
}

const IdSchema = z.uuid();

function tableOf(scope: QuestionScope) {
  return scope.kind === "event" ? eventApplicationQuestions : applicationQuestions;
}

/** Rows of this scope: an event's questions, or the group's. */
function inScope(scope: QuestionScope) {
  return scope.kind === "event" ? eq(eventApplicationQuestions.eventId, scope.eventId) : sql`true`;
}

export function listQuestions(db: Database, scope: QuestionScope): Promise<EditableQuestion[]> {
  return readQuestions(db, scope, false);
}

type Executor = Pick<Database, "select">;

/** The scope's questions in order; `lock`: locked until the transaction ends (a change checks them all). */
async function readQuestions(tx: Executor, scope: QuestionScope, lock: boolean): Promise<EditableQuestion[]> {
  const table = tableOf(scope);
  const query = tx
    .select({
      id: table.id,
      question: table.question,
      questionType: table.questionType,
      options: table.options,
      required: table.required,
      orderIndex: table.orderIndex,
      helpText: table.helpText,
      settings: table.settings,
      showIf: table.showIf,
      translations: table.translations,
    })
    .from(table)
    .where(inScope(scope))
    .orderBy(asc(table.orderIndex), asc(table.createdAt));
  const rows = lock ? await query.for("update") : await query;
  return rows.map((row) => ({ ...row, questionType: row.questionType as QuestionType }));
}

const lockedQuestions = (tx: Executor, scope: QuestionScope) => readQuestions(tx, scope, true);

/** A new question goes last: order_index one above the current maximum (0 if none). */
/** An edit, after which the public forms read their questions afresh (see listFormQuestionsKept). */
async function edited<T>(db: Database, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } finally {
    formQuestionsMemo.forget(db);
  }
}

export async function addQuestion(db: Database, scope: QuestionScope, input: QuestionInput): Promise<string> {
  return edited(db, db.transaction(async (tx) => {
    const current = await lockedQuestions(tx, scope);
    const problem = conditionProblem(current, null, input.showIf);
    if (problem) throw new QuestionRuleError(problem);
    const next = current.reduce((most, question) => Math.max(most, question.orderIndex), -1) + 1;
    const values = { ...input, orderIndex: next };
    const [row] =
      scope.kind === "event"
        ? await tx.insert(eventApplicationQuestions).values({ ...values, eventId: scope.eventId }).returning({ id: eventApplicationQuestions.id })
        : await tx.insert(applicationQuestions).values(values).returning({ id: applicationQuestions.id });
    return row!.id;
  }));
}

export async function updateQuestion(db: Database, scope: QuestionScope, id: string, input: QuestionInput): Promise<boolean> {
  if (!IdSchema.safeParse(id).success) return false;
  const table = tableOf(scope);
  return edited(db, db.transaction(async (tx) => {
    const current = await lockedQuestions(tx, scope);
    if (!current.some((question) => question.id === id)) return false;
    const problem = conditionProblem(current, id, input.showIf);
    if (problem) throw new QuestionRuleError(problem);
    // The questions that depend on this one must still make sense with its new type and options.
    const broken = brokenConditions(current.map((question) => (question.id === id ? { ...question, ...input } : question)));
    if (broken) throw new QuestionRuleError(broken);
    const { question, questionType, required, options, helpText, settings, showIf } = input;
    await tx.update(table).set({ question, questionType, required, options, helpText, settings, showIf }).where(and(eq(table.id, id), inScope(scope)));
    return true;
  }));
}

export async function deleteQuestion(db: Database, scope: QuestionScope, id: string): Promise<boolean> {
  if (!IdSchema.safeParse(id).success) return false;
  const table = tableOf(scope);
  return edited(db, db.transaction(async (tx) => {
    const current = await lockedQuestions(tx, scope);
    const dependent = current.find((question) => question.showIf?.questionId === id);
    if (dependent) throw new QuestionRuleError(`"${dependent.question}" depends on the answer to this question: remove that condition first.`);
    const rows = await tx.delete(table).where(and(eq(table.id, id), inScope(scope))).returning({ id: table.id });
    return rows.length > 0;
  }));
}

export class StaleOrderError extends Error {
  override name = "StaleOrderError";
}

/**
 * Saves a new order: `orderedIds` must name exactly the scope's current questions. Renumbers them
 * 0..n-1 in one transaction; a list that no longer matches (someone added or removed a question
 * meanwhile) is refused and nothing changes.
 */
export async function reorderQuestions(db: Database, scope: QuestionScope, orderedIds: string[]): Promise<void> {
  const table = tableOf(scope);
  await edited(db, db.transaction(async (tx) => {
    const current = await lockedQuestions(tx, scope);
    const known = new Map(current.map((row) => [row.id, row]));
    if (orderedIds.length !== known.size || new Set(orderedIds).size !== known.size || !orderedIds.every((id) => known.has(id))) {
      throw new StaleOrderError("The questions changed meanwhile; reload and try again.");
    }
    // A question never moves above the one it depends on.
    const broken = brokenConditions(orderedIds.map((id) => known.get(id)!));
    if (broken) throw new QuestionRuleError(broken);
    for (const [index, id] of orderedIds.entries()) {
      await tx.update(table).set({ orderIndex: index }).where(eq(table.id, id));
    }
  }));
}

type Writer = Pick<Database, "select" | "insert" | "delete" | "update">;

/** An event's questions become another's (a series' next occurrence, or 'use for the following events'): its own are replaced. */
export async function copyEventQuestions(tx: Writer, fromEventId: string, toEventId: string): Promise<void> {
  const questions = await tx
    .select()
    .from(eventApplicationQuestions)
    .where(eq(eventApplicationQuestions.eventId, fromEventId))
    .orderBy(asc(eventApplicationQuestions.orderIndex), asc(eventApplicationQuestions.createdAt));
  await tx.delete(eventApplicationQuestions).where(eq(eventApplicationQuestions.eventId, toEventId));
  if (questions.length === 0) return;
  // New questions have new ids: each condition is pointed at the copy of the question it named.
  const copies = await tx
    .insert(eventApplicationQuestions)
    .values(
      questions.map((question, index) => ({
        question: question.question,
        questionType: question.questionType,
        options: question.options,
        required: question.required,
        helpText: question.helpText,
        settings: question.settings,
        translations: question.translations,
        orderIndex: index,
        eventId: toEventId,
      })),
    )
    .returning({ id: eventApplicationQuestions.id, orderIndex: eventApplicationQuestions.orderIndex });
  const copyOf = new Map(questions.map((question, index) => [question.id, copies.find((copy) => copy.orderIndex === index)!.id]));
  for (const [index, question] of questions.entries()) {
    const target = question.showIf ? copyOf.get(question.showIf.questionId) : undefined;
    if (question.showIf && target) {
      await tx
        .update(eventApplicationQuestions)
        .set({ showIf: { ...question.showIf, questionId: target } })
        .where(eq(eventApplicationQuestions.id, copies.find((copy) => copy.orderIndex === index)!.id));
    }
  }
}

/**
 * A question's words in another language (`language`), as staff wrote them: an empty field shows
 * the question's own words; all empty, the translation is removed. False: no such question here.
 */
export async function saveQuestionTranslation(db: Database, scope: QuestionScope, id: string, language: string, translation: QuestionTranslation): Promise<boolean> {
  if (!IdSchema.safeParse(id).success) return false;
  const table = tableOf(scope);
  return edited(db, db.transaction(async (tx) => {
    const [current] = await tx.select({ options: table.options, translations: table.translations }).from(table).where(and(eq(table.id, id), inScope(scope))).for("update");
    if (!current) return false;
    // Only the question's own options are kept (an option renamed since drops its label).
    const options = Object.fromEntries(Object.entries(translation.options ?? {}).filter(([value, label]) => (current.options ?? []).includes(value) && label !== ""));
    const kept: QuestionTranslation = {
      ...(translation.question ? { question: translation.question } : {}),
      ...(translation.helpText ? { helpText: translation.helpText } : {}),
      ...(translation.statement ? { statement: translation.statement } : {}),
      ...(Object.keys(options).length > 0 ? { options } : {}),
    };
    const { [language]: _previous, ...others } = current.translations;
    const translations = Object.keys(kept).length > 0 ? { ...others, [language]: kept } : others;
    await tx.update(table).set({ translations }).where(and(eq(table.id, id), inScope(scope)));
    return true;
  }));
}
