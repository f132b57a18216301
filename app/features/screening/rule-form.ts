/**
 * The screening page's rule form, as posted: one checkbox per condition (with its own fields), the
 * scope, and the outcome. Read into a RuleInput and checked by the rules' schema, so a rule that can
 * never hold is refused with the schema's message.
 */
import type { z } from "zod";
import { TRUST_RANK_LABEL, type TrustRank } from "~/utils/vrchat-account";
import { m } from "~/paraglide/messages";
import { formatCount } from "~/utils/language";
import { RuleInputSchema, type Condition, type Rule, type RuleInput } from "./screening-rules";

/** A choice question a rule can name, with its options. */
export interface ChoiceQuestion {
  question: string;
  options: string[];
}

/** Words and ids typed one per line or separated by commas. */
export const listOf = (value: FormDataEntryValue | null) =>
  String(value ?? "")
    .split(/[\n,]/)
    .map((part) => part.trim())
    .filter(Boolean);

const text = (form: FormData, name: string) => String(form.get(name) ?? "").trim();
const on = (form: FormData, name: string) => form.get(name) === "on";
/** A number as typed (NaN when it is not one, for the schema to refuse). */
const number = (form: FormData, name: string) => (text(form, name) === "" ? Number.NaN : Number(text(form, name)));

const CONDITION_BOXES = ["trust", "age", "adult", "bioHas", "bioLacks", "proven", "banned", "groups", "noShows", "answer"];

/** Whether the form holds no rule yet (no name, no condition): 'Try these rules' then tries the saved ones. */
export const draftIsEmpty = (form: FormData) => text(form, "name") === "" && !CONDITION_BOXES.some((name) => on(form, name));

export function ruleInputFromForm(form: FormData): z.ZodSafeParseResult<RuleInput> {
  const conditions: unknown[] = [];
  if (on(form, "trust")) conditions.push({ kind: "trust_at_least", rank: text(form, "trustRank") });
  if (on(form, "age")) conditions.push({ kind: "account_older_than", days: number(form, "ageDays") });
  if (on(form, "adult")) conditions.push({ kind: "shows_18_plus" });
  if (on(form, "bioHas")) conditions.push({ kind: "bio_contains", words: listOf(form.get("bioHasWords")) });
  if (on(form, "bioLacks")) conditions.push({ kind: "bio_lacks", words: listOf(form.get("bioLacksWords")) });
  if (on(form, "proven")) conditions.push({ kind: "proven" });
  if (on(form, "banned")) conditions.push({ kind: "banned" });
  if (on(form, "groups")) conditions.push({ kind: "in_groups", groupIds: listOf(form.get("groupIds")) });
  if (on(form, "noShows")) conditions.push({ kind: "no_shows_at_least", count: number(form, "noShowCount") });
  if (on(form, "answer")) {
    conditions.push({ kind: text(form, "answerIs") === "not" ? "answer_is_not" : "answer_is", question: text(form, "answerQuestion"), options: form.getAll("answerOptions").map(String) });
  }
  const scopeKind = text(form, "scope");
  const scope = scopeKind === "event" ? { kind: "event", eventId: text(form, "eventId") } : { kind: scopeKind };
  const outcomeKind = text(form, "outcome");
  const outcome = outcomeKind === "reject" ? { kind: "reject", message: text(form, "message") } : outcomeKind === "flag" ? { kind: "flag", flag: text(form, "flag") } : { kind: outcomeKind };
  return RuleInputSchema.safeParse({ name: text(form, "name"), scope, conditions, outcome });
}

/** A condition as the list of rules says it. */
export function conditionText(condition: Condition): string {
  const list = (items: readonly string[]) => items.join(m.scr_list_separator());
  switch (condition.kind) {
    case "trust_at_least":
      return m.scr_cond_trust({ rank: TRUST_RANK_LABEL[condition.rank as TrustRank] });
    case "account_older_than":
      return condition.days === 1 ? m.scr_cond_age_one() : m.scr_cond_age({ days: formatCount(condition.days) });
    case "shows_18_plus":
      return m.scr_cond_adult();
    case "bio_contains":
      return m.scr_cond_bio_has({ words: list(condition.words) });
    case "bio_lacks":
      return m.scr_cond_bio_lacks({ words: list(condition.words) });
    case "proven":
      return m.scr_proven();
    case "banned":
      return m.scr_cond_banned();
    case "in_groups":
      return m.scr_cond_groups({ groups: list(condition.groupIds) });
    case "no_shows_at_least":
      return m.scr_cond_no_shows({ count: formatCount(condition.count) });
    case "answer_is":
      return m.scr_cond_answer_is({ question: condition.question, options: list(condition.options) });
    case "answer_is_not":
      return m.scr_cond_answer_not({ question: condition.question, options: list(condition.options) });
  }
}

export function outcomeText(outcome: Rule["outcome"]): string {
  if (outcome.kind === "approve") return m.scr_approve();
  if (outcome.kind === "reject") return m.scr_reject();
  return m.scr_outcome_flag({ flag: outcome.flag });
}
