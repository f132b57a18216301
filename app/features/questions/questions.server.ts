/**
 * The Sanctum's question editor for both kinds of questions: an event's (event_application_questions)
 * and the group's (application_questions). Reordering renumbers every question 0..n-1 in one
 * transaction, so the order never ends up half saved.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/db.server";
import { applicationQuestions, eventApplicationQuestions, type QuestionType } from "~/db/schema";
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
}

const IdSchema = z.uuid();

function tableOf(scope: QuestionScope) {
  return scope.kind === "event" ? eventApplicationQuestions : applicationQuestions;
}

/** Rows of this scope: an event's questions, or the group's. */
function inScope(scope: QuestionScope) {
  return scope.kind === "event" ? eq(eventApplicationQuestions.eventId, scope.eventId) : sql`true`;
}

export async function listQuestions(db: Database, scope: QuestionScope): Promise<EditableQuestion[]> {
  const table = tableOf(scope);
  const rows = await db
    .select({
      id: table.id,
      question: table.question,
      questionType: table.questionType,
      options: table.options,
      required: table.required,
      orderIndex: table.orderIndex,
    })
    .from(table)
    .where(inScope(scope))
    .orderBy(asc(table.orderIndex), asc(table.createdAt));
  return rows.map((row) => ({ ...row, questionType: row.questionType as QuestionType }));
}

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
  const table = tableOf(scope);
  return edited(db, db.transaction(async (tx) => {
    const [{ next }] = (await tx
      .select({ next: sql<number>`coalesce(max(${table.orderIndex}), -1)::int + 1` })
      .from(table)
      .where(inScope(scope))) as [{ next: number }];
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
  const rows = await edited(
    db,
    db
      .update(table)
      .set({ question: input.question, questionType: input.questionType, required: input.required, options: input.options })
      .where(and(eq(table.id, id), inScope(scope)))
      .returning({ id: table.id }),
  );
  return rows.length > 0;
}

export async function deleteQuestion(db: Database, scope: QuestionScope, id: string): Promise<boolean> {
  if (!IdSchema.safeParse(id).success) return false;
  const table = tableOf(scope);
  const rows = await edited(db, db.delete(table).where(and(eq(table.id, id), inScope(scope))).returning({ id: table.id }));
  return rows.length > 0;
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
    const current = await tx.select({ id: table.id }).from(table).where(inScope(scope)).for("update");
    const known = new Set(current.map((row) => row.id));
    if (orderedIds.length !== known.size || new Set(orderedIds).size !== known.size || !orderedIds.every((id) => known.has(id))) {
      throw new StaleOrderError("The questions changed meanwhile; reload and try again.");
    }
    for (const [index, id] of orderedIds.entries()) {
      await tx.update(table).set({ orderIndex: index }).where(eq(table.id, id));
    }
  }));
}

type Writer = Pick<Database, "select" | "insert" | "delete">;

/** An event's questions become another's (a series' next occurrence, or 'use for the following events'): its own are replaced. */
export async function copyEventQuestions(tx: Writer, fromEventId: string, toEventId: string): Promise<void> {
  const questions = await tx
    .select()
    .from(eventApplicationQuestions)
    .where(eq(eventApplicationQuestions.eventId, fromEventId))
    .orderBy(asc(eventApplicationQuestions.orderIndex), asc(eventApplicationQuestions.createdAt));
  await tx.delete(eventApplicationQuestions).where(eq(eventApplicationQuestions.eventId, toEventId));
  if (questions.length === 0) return;
  await tx.insert(eventApplicationQuestions).values(
    questions.map((question, index) => ({
      question: question.question,
      questionType: question.questionType,
      options: question.options,
      required: question.required,
      orderIndex: index,
      eventId: toEventId,
    })),
  );
}
