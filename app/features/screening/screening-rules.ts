/**
 * The group's screening rules, as data: an ordered list, each with conditions on what VRChat says of
 * the applicant's account (and on their answers), and an outcome. The first rule in scope whose
 * conditions all hold decides; a rule whose conditions cannot all be read makes the screening wait,
 * never skip to a later rule: no automatic decision is taken on facts that could not be read.
 * What VRChat says of the account is read as utils/vrchat-account describes.
 */
import { z } from "zod";
import type { VRChatLinkWay } from "~/db/enums";
import { TRUST_RANKS, type AccountFacts } from "~/utils/vrchat-account";
import { m } from "~/paraglide/messages";
import { SYSTEM_FLAGS } from "~/utils/screening-flags";

const GROUP_ID = /^grp_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const words = z
  .array(z.string().trim().min(1).max(100))
  .min(1, { error: () => m.scr_give_word() })
  .max(50, { error: () => m.scr_max_words() });
const options = z.array(z.string().trim().min(1).max(500)).min(1, { error: () => m.scr_choose_answer() }).max(50);

export const ConditionSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("trust_at_least"), rank: z.enum(TRUST_RANKS, { error: () => m.scr_choose_rank() }) }),
  z.object({
    kind: z.literal("account_older_than"),
    days: z.number({ error: () => m.scr_age_number() }).int({ error: () => m.scr_age_whole() }).min(0, { error: () => m.scr_age_min() }).max(10_000),
  }),
  z.object({ kind: z.literal("shows_18_plus") }),
  z.object({ kind: z.literal("bio_contains"), words }),
  z.object({ kind: z.literal("bio_lacks"), words }),
  z.object({ kind: z.literal("proven") }),
  z.object({ kind: z.literal("banned") }),
  z.object({
    kind: z.literal("in_groups"),
    groupIds: z.array(z.string().trim().regex(GROUP_ID, { error: () => m.scr_group_id() })).min(1, { error: () => m.scr_give_group() }).max(20),
  }),
  z.object({ kind: z.literal("no_shows_at_least"), count: z.number().int().min(1, { error: () => m.scr_no_show_min() }).max(1_000) }),
  z.object({ kind: z.literal("answer_is"), question: z.string().trim().min(1).max(500), options }),
  z.object({ kind: z.literal("answer_is_not"), question: z.string().trim().min(1).max(500), options }),
]);
export type Condition = z.infer<typeof ConditionSchema>;

export const OutcomeSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("approve") }),
  z.object({ kind: z.literal("reject"), message: z.string().trim().min(1, { error: () => m.scr_reject_message() }).max(2_000) }),
  z.object({ kind: z.literal("flag"), flag: z.string().trim().min(1, { error: () => m.scr_flag_text() }).max(200) }),
]);
export type Outcome = z.infer<typeof OutcomeSchema>;

export const RuleScopeSchema = z.discriminatedUnion("kind", [z.object({ kind: z.literal("group") }), z.object({ kind: z.literal("events") }), z.object({ kind: z.literal("event"), eventId: z.uuid() })]);
export type RuleScope = z.infer<typeof RuleScopeSchema>;

export const RuleInputSchema = z.object({
  name: z.string().trim().min(1, { error: () => m.scr_rule_name() }).max(100),
  scope: RuleScopeSchema,
  conditions: z.array(ConditionSchema).min(1, { error: () => m.scr_rule_condition() }).max(20),
  outcome: OutcomeSchema,
});
export type RuleInput = z.infer<typeof RuleInputSchema>;
export interface Rule extends RuleInput {
  id: string;
}

/** What an application is screened on. `vrchat` and `groups` are null when they could not be read. */
export interface Facts {
  /**
   * Where the application was sent: the group's form, or an event's; or a join request made in
   * VRChat without one (the group's rules apply to it; it has no answers).
   */
  where: { kind: "group" } | { kind: "event"; eventId: string } | { kind: "join_request" };
  /** How its VRChat account is linked (null: none is). */
  linkedHow: VRChatLinkWay | null;
  /**
   * What VRChat says of the linked account: `none` when no account is linked (its conditions do not
   * hold), null when it could not be read (they wait).
   */
  vrchat: AccountFacts | "none" | null;
  /** The groups the account is a member of (read only when a rule asks; null: not read). */
  groups: readonly string[] | null;
  /** Whether the person is on the group's ban list (null: not known). */
  banned: boolean | null;
  noShows: number;
  /** The answers, by question text (a Checkboxes answer: its choices). */
  answers: Readonly<Record<string, string | readonly string[]>>;
}

/** What the facts need: the rules in scope ask for the account's groups only when one of them names groups. */
export const needsGroups = (rules: readonly Rule[]) => rules.some((rule) => rule.conditions.some((condition) => condition.kind === "in_groups"));

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whether `text` holds one of `list` as whole words, in any case. */
export function holdsWord(text: string, list: readonly string[]): boolean {
  return list.some((word) => {
    const escaped = word.trim().replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "\\s+");
    return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, "iu").test(text);
  });
}

/** Conditions on the VRChat account: a rule with any of them needs the account's facts. */
const ACCOUNT_CONDITIONS = new Set<Condition["kind"]>(["trust_at_least", "account_older_than", "shows_18_plus", "bio_contains", "bio_lacks", "in_groups"]);
export const asksVRChat = (rule: Pick<Rule, "conditions">) => rule.conditions.some((condition) => ACCOUNT_CONDITIONS.has(condition.kind));

/** True, false, or null when the fact it asks for could not be read. */
function holds(condition: Condition, facts: Facts, now: Date): boolean | null {
  if (facts.vrchat === "none" && ACCOUNT_CONDITIONS.has(condition.kind)) return false;
  const vrchat = facts.vrchat === "none" ? null : facts.vrchat;
  switch (condition.kind) {
    case "trust_at_least":
      return vrchat ? TRUST_RANKS.indexOf(vrchat.trustRank) >= TRUST_RANKS.indexOf(condition.rank) : null;
    case "account_older_than": {
      if (!vrchat) return null;
      if (!vrchat.joinedOn) return null;
      const joined = Date.parse(`${vrchat.joinedOn.slice(0, 10)}T00:00:00Z`);
      return Number.isNaN(joined) ? null : now.getTime() - joined > condition.days * DAY_MS;
    }
    case "shows_18_plus":
      return vrchat ? vrchat.shows18 : null;
    case "bio_contains":
      return vrchat && vrchat.bio !== null ? holdsWord(vrchat.bio, condition.words) : null;
    case "bio_lacks":
      return vrchat && vrchat.bio !== null ? !holdsWord(vrchat.bio, condition.words) : null;
    case "proven":
      return facts.linkedHow === "proven";
    case "banned":
      return facts.banned;
    case "in_groups":
      return facts.groups ? condition.groupIds.some((id) => facts.groups!.includes(id)) : null;
    case "no_shows_at_least":
      return facts.noShows >= condition.count;
    case "answer_is":
      // A join request has no answers: a condition on them never holds, either way.
      if (facts.where.kind === "join_request") return false;
      return chosenIn(facts.answers[condition.question], condition.options);
    case "answer_is_not":
      if (facts.where.kind === "join_request") return false;
      return !chosenIn(facts.answers[condition.question], condition.options);
  }
}

/** Whether an answer (or any of a Checkboxes answer's choices) is one of `options`. */
function chosenIn(answer: string | readonly string[] | undefined, options: readonly string[]): boolean {
  const values = typeof answer === "string" ? [answer] : (answer ?? []);
  return values.some((value) => options.includes(value.trim()));
}

/** Whether a rule's scope covers where the application was sent. */
export function inScope(rule: Pick<Rule, "scope">, where: Facts["where"]): boolean {
  if (rule.scope.kind === "group") return where.kind === "group" || where.kind === "join_request";
  if (rule.scope.kind === "events") return where.kind === "event";
  return where.kind === "event" && where.eventId === rule.scope.eventId;
}


/** A rule's name where a person's would be: in the history, on the card, in Discord. */
export const ruleActorName = (name: string) => `rule "${name}"`;
/** The rule's name in an actor's name, when a rule made the change (null: a person did). */
export const ruleNameOf = (actorName: string) => /^rule "(.*)"$/s.exec(actorName)?.[1] ?? null;

export type Verdict =
  /** The first rule that holds, and what it does. */
  | { kind: "decide"; rule: Rule; outcome: Outcome }
  /** No rule holds: the application goes to review as before. */
  | { kind: "none" }
  /** A rule may hold, but a fact it needs could not be read: screening runs again later. */
  | { kind: "wait"; rule: Rule };

/**
 * Whose account a rule may approve by itself: one proven by its owner (the bio code), or the account
 * that asked to join in VRChat itself. A name match, a pasted profile link or a staff member's choice
 * is a claim or a person's judgement, not proof: the rule's approval becomes a flag for staff.
 */
export const mayApproveAutomatically = (facts: Pick<Facts, "where" | "linkedHow">) => facts.where.kind === "join_request" || facts.linkedHow === "proven";

/** The rules' verdict on one application (see mayApproveAutomatically for who a rule approves). */
export function screen(rules: readonly Rule[], facts: Facts, now: Date): Verdict {
  for (const rule of rules) {
    if (!inScope(rule, facts.where)) continue;
    const results = rule.conditions.map((condition) => holds(condition, facts, now));
    if (results.includes(false)) continue;
    if (results.includes(null)) return { kind: "wait", rule };
    if (rule.outcome.kind === "approve" && !mayApproveAutomatically(facts)) {
      return { kind: "decide", rule, outcome: { kind: "flag", flag: SYSTEM_FLAGS.needsProven } };
    }
    return { kind: "decide", rule, outcome: rule.outcome };
  }
  return { kind: "none" };
}
