/**
 * The screening rules as stored: their order, and the owners' and admins' changes to them. What is
 * stored is read through the rules' schemas again, so a rule that no longer reads (an edit by hand in
 * the database) is left out and logged, never applied half-understood.
 */
import { asc, eq, inArray, sql } from "drizzle-orm";
import { isUniqueViolation, type Database } from "~/db/db.server";
import { applicationQuestions, eventApplicationQuestions, events, screeningRules } from "~/db/schema";
import { CONDITION_TYPES, NO, YES } from "~/utils/form-questions";
import { log } from "~/utils/log.server";
import type { ChoiceQuestion } from "./rule-form";
import { ConditionSchema, OutcomeSchema, type Rule, type RuleInput } from "./screening-rules";
import { m } from "~/paraglide/messages";

export const DUPLICATE_RULE_NAME = "Another rule has this name already: give each rule its own.";

type Row = typeof screeningRules.$inferSelect;

function ruleOf(row: Row): Rule | null {
  const conditions = ConditionSchema.array().safeParse(row.conditions);
  const outcome = OutcomeSchema.safeParse(row.outcome);
  if (!conditions.success || !outcome.success) {
    log.warn("a screening rule could not be read and is left out", { rule: row.name });
    return null;
  }
  const scope: Rule["scope"] = row.scope === "event" && row.eventId ? { kind: "event", eventId: row.eventId } : row.scope === "events" ? { kind: "events" } : { kind: "group" };
  return { id: row.id, name: row.name, scope, conditions: conditions.data, outcome: outcome.data };
}

/** Every rule, first first. */
export async function listRules(db: Pick<Database, "select">): Promise<Rule[]> {
  const rows = await db.select().from(screeningRules).orderBy(asc(screeningRules.position), asc(screeningRules.createdAt));
  return rows.flatMap((row) => {
    const rule = ruleOf(row);
    return rule ? [rule] : [];
  });
}

const columnsOf = (input: RuleInput) => ({
  name: input.name,
  scope: input.scope.kind,
  eventId: input.scope.kind === "event" ? input.scope.eventId : null,
  conditions: input.conditions,
  outcome: input.outcome,
});

export type RuleChange = { ok: true; id: string } | { ok: false; status: 404 | 409; error: string };

/** A new rule, last in the list. */
export async function addRule(db: Database, input: RuleInput, by: string | null): Promise<RuleChange> {
  try {
    const [row] = await db
      .insert(screeningRules)
      .values({ ...columnsOf(input), position: sql`(select coalesce(max(${screeningRules.position}), -1) + 1 from ${screeningRules})`, createdBy: by })
      .returning({ id: screeningRules.id });
    return { ok: true, id: row!.id };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, status: 409, error: DUPLICATE_RULE_NAME };
    throw error;
  }
}

export async function updateRule(db: Database, id: string, input: RuleInput): Promise<RuleChange> {
  try {
    const [row] = await db.update(screeningRules).set(columnsOf(input)).where(eq(screeningRules.id, id)).returning({ id: screeningRules.id });
    return row ? { ok: true, id: row.id } : { ok: false, status: 404, error: m.scr_rule_gone() };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, status: 409, error: DUPLICATE_RULE_NAME };
    throw error;
  }
}

export async function deleteRule(db: Database, id: string): Promise<boolean> {
  const deleted = await db.delete(screeningRules).where(eq(screeningRules.id, id)).returning({ id: screeningRules.id });
  return deleted.length > 0;
}

/** What a rule may name: the events that take applications, and the questions with choices asked anywhere. */
export async function listRuleChoices(db: Pick<Database, "select">): Promise<{ events: { id: string; title: string }[]; questions: ChoiceQuestion[] }> {
  const [eventRows, groupChoices, eventChoices] = await Promise.all([
    db.select({ id: events.id, title: events.title }).from(events).where(eq(events.applicationRequired, true)).orderBy(asc(events.eventDate), asc(events.eventTime)),
    db
      .select({ question: applicationQuestions.question, type: applicationQuestions.questionType, options: applicationQuestions.options })
      .from(applicationQuestions)
      .where(inArray(applicationQuestions.questionType, [...CONDITION_TYPES])),
    db
      .select({ question: eventApplicationQuestions.question, type: eventApplicationQuestions.questionType, options: eventApplicationQuestions.options })
      .from(eventApplicationQuestions)
      .where(inArray(eventApplicationQuestions.questionType, [...CONDITION_TYPES])),
  ]);
  // Each question once by its text, with every option it has anywhere.
  const byText = new Map<string, Set<string>>();
  for (const { question, type, options } of [...groupChoices, ...eventChoices]) {
    const known = byText.get(question) ?? new Set<string>();
    for (const option of type === "yes_no" ? [YES, NO] : (options ?? [])) known.add(option);
    byText.set(question, known);
  }
  const questions = [...byText].map(([question, options]) => ({ question, options: [...options] })).sort((a, b) => a.question.localeCompare(b.question));
  return { events: eventRows, questions };
}

/** Moves a rule one place up or down (it swaps with its neighbour); false when it cannot move. */
export async function moveRule(db: Database, id: string, direction: "up" | "down"): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx.select({ id: screeningRules.id }).from(screeningRules).orderBy(asc(screeningRules.position), asc(screeningRules.createdAt)).for("update");
    const index = rows.findIndex((row) => row.id === id);
    const other = direction === "up" ? index - 1 : index + 1;
    if (index < 0 || other < 0 || other >= rows.length) return false;
    const order = rows.map((row) => row.id);
    [order[index], order[other]] = [order[other]!, order[index]!];
    for (const [position, ruleId] of order.entries()) await tx.update(screeningRules).set({ position }).where(eq(screeningRules.id, ruleId));
    return true;
  });
}
