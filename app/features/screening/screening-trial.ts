/**
 * 'Try these rules': what a set of rules would have done with applications staff already decided,
 * beside what staff did. Written nowhere and asking VRChat nothing: each application is met with the
 * facts its own screening read when it arrived, and where none were read (it arrived before any rule
 * asked for them) a rule that needs them is counted as unable to tell, never guessed.
 */
import type { ApplicationKind, ApplicationStatus } from "~/db/enums";
import { screen, type Facts, type Rule } from "./screening-rules";

/** A decided application as the trial meets it. */
export interface TrialSubject {
  kind: ApplicationKind;
  id: string;
  eventId: string | null;
  name: string;
  /** What staff (or a rule) decided. */
  status: ApplicationStatus;
  facts: Facts;
}

export interface RuleTally {
  /** The rule's id ("draft" for the rule being written). */
  id: string;
  name: string;
  approve: number;
  reject: number;
  flag: number;
  /** Applications the rule might have decided, had the facts it needs been read. */
  unknown: number;
}

export interface Disagreement {
  kind: ApplicationKind;
  id: string;
  eventId: string | null;
  name: string;
  status: ApplicationStatus;
  rule: string;
  outcome: "approve" | "reject";
}

export interface TrialResult {
  /** Decided applications looked at. */
  looked: number;
  /** Per rule, in order: what it would have done. */
  rules: RuleTally[];
  /** Applications no rule would have decided: they would have waited for staff. */
  untouched: number;
  /** Where a rule would have approved what staff rejected, or rejected what staff approved. */
  disagreements: Disagreement[];
}

/** Whether the rule's outcome goes against the decision staff took. */
const against = (outcome: "approve" | "reject", status: ApplicationStatus) =>
  outcome === "approve" ? status === "rejected" : status === "approved" || status === "waitlist";

/** The id the rule being written goes by in a trial. */
export const DRAFT_RULE_ID = "draft";

export function tryRules(rules: readonly Rule[], subjects: readonly TrialSubject[], now: Date): TrialResult {
  const tallies = new Map(rules.map((rule) => [rule.id, { id: rule.id, name: rule.name, approve: 0, reject: 0, flag: 0, unknown: 0 }]));
  const disagreements: Disagreement[] = [];
  let untouched = 0;
  for (const subject of subjects) {
    const verdict = screen(rules, subject.facts, now);
    if (verdict.kind === "none") {
      untouched += 1;
      continue;
    }
    const tally = tallies.get(verdict.rule.id)!;
    if (verdict.kind === "wait") {
      tally.unknown += 1;
      continue;
    }
    tally[verdict.outcome.kind] += 1;
    const outcome = verdict.outcome.kind;
    if (outcome !== "flag" && against(outcome, subject.status)) {
      disagreements.push({ kind: subject.kind, id: subject.id, eventId: subject.eventId, name: subject.name, status: subject.status, rule: verdict.rule.name, outcome });
    }
  }
  return { looked: subjects.length, rules: [...tallies.values()], untouched, disagreements };
}
