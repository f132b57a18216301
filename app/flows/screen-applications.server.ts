/**
 * Screening: the group's rules applied to applications around the clock. An application is queued
 * when it arrives and again when its VRChat account is linked later (a proof, a staff member's
 * choice); a scheduled job works through the queue, reads what the rules in scope need from VRChat
 * (one user read each, their groups only when a rule asks, their standing in the group only when a
 * rule asks about bans) from screening's own allowance, and acts on the first rule that holds.
 *
 * Every automatic decision is an ordinary decision through flows/decide, made by 'rule "<name>"':
 * recorded, reversible, acting in VRChat and Discord as a staff member's would. It is never taken on
 * facts that could not be read (the screening waits and runs again), approves only a proven or
 * name-matched account, and at most SCREENING_AUTO_APPROVALS_PER_HOUR approvals an hour.
 */
import type { Database } from "~/db/db.server";
import { attendanceRecords, type PersonKeys } from "~/features/applications/attendance.server";
import { asksVRChat, inScope, needsGroups, ruleActorName, screen, type Facts, type Rule, type RuleInput } from "~/features/screening/screening-rules";
import { DRAFT_RULE_ID, tryRules, type TrialResult } from "~/features/screening/screening-trial";
import { addRule, listRules, type RuleChange } from "~/features/screening/screening-rules.server";
import { LookupBudgetError } from "~/utils/lookup-cache.server";
import type { VRChatMembership } from "~/features/vrchat/vrchat-membership.server";
import { claimDueScreenings, queueScreening, recordScreening, releaseScreenings, screeningSubject, trialSubjects, type Claimed, type ScreeningSubject } from "~/features/screening/screenings.server";
import { keepAccount, keptAccounts } from "~/features/screening/account-facts.server";
import { VRChatError } from "~/features/vrchat/vrchat-error";
import { joinRequestSubject, openApplicationOf } from "~/features/screening/join-requests.server";
import { getSiteSettings } from "~/features/accounts/site-settings.server";
import { banInForce } from "~/features/bans/bans.server";
import { decideJoinRequests } from "./join-requests.server";
import { log } from "~/utils/log.server";
import { hitRateLimit } from "~/utils/rate-limit.server";
import { decideApplication, findReview, type DecideServices, type Decider } from "./decide.server";
import { m } from "~/paraglide/messages";
import { SYSTEM_FLAGS } from "~/utils/screening-flags";

/** The flags a screening sets when a rule's approval cannot be carried out (see SYSTEM_FLAGS). */
export const SCREENING_TEXTS = { paused: SYSTEM_FLAGS.paused, full: SYSTEM_FLAGS.full, needsProof: SYSTEM_FLAGS.needsProof } as const;

/** How often the queue is looked at: an application is screened within about this long of arriving. */
export const SCREENING_LOOK_MS = 15_000;

/** When a screening that could not read VRChat runs again: sooner at first, then every half hour. */
const retryAfterMs = (attempts: number) => Math.min(30, 2 ** Math.max(0, attempts - 1)) * 60 * 1000;

export interface ScreeningServices extends DecideServices {
  /** Automatic approvals allowed an hour, all processes together. */
  autoApprovalsPerHour: number;
}

/** The rule's hand in the history and in Discord: 'rule "Known users over 30 days"'. */
export const ruleDecider = (rule: Pick<Rule, "name">): Decider => ({ id: "", username: ruleActorName(rule.name), via: "rule", role: null });

/** No event's id: what the group's applications' no-shows are counted against (every event counts). */
const NO_EVENT = "00000000-0000-0000-0000-000000000000";

/** The no-shows of these people at the group's events, their own event left out. */
async function noShowsOf(db: Database, people: (PersonKeys & { eventId: string | null })[]) {
  const byEvent = Map.groupBy(people, (person) => person.eventId ?? NO_EVENT);
  const counts: Record<string, number> = {};
  for (const [eventId, group] of byEvent) {
    for (const [id, record] of Object.entries(await attendanceRecords(db, eventId, group))) counts[id] = record.noShows;
  }
  return counts;
}

/** A rule acts on facts read at most this long ago: older ones are read again before it decides. */
export const FACTS_FRESH_MS = 60 * 60_000;

/** VRChat asked Dwell to slow down: the run stops, and what it claimed waits for the next (see runScreenings). */
const isSlowDown = (error: unknown) => error instanceof VRChatError && error.kind === "rate-limited";

/** What a verdict was reached on, and when its VRChat facts were read (null: none were used). */
interface Read {
  facts: Facts;
  readAt: Date | null;
}

/**
 * The facts the rules in scope need. The account's are taken from what was kept of it (read when it
 * arrived), unless `fresh` asks for them again; an account never read is read now, even with no rule
 * (the Join Requests list and 'Try these rules' show them). What could not be read stays null.
 */
type FactsSubject = Pick<ScreeningSubject, "id" | "eventId" | "vrchatUserId" | "vrchatLinkedHow" | "discordUserId" | "discordLinkedHow" | "vrchatUsername" | "answers">;
async function factsOf(services: ScreeningServices, subject: FactsSubject, rules: readonly Rule[], where: Facts["where"], now: Date, fresh = false): Promise<Read> {
  const noShows = (await noShowsOf(services.db as Database, [subject]))[subject.id] ?? 0;
  const standing = rules.some((rule) => rule.conditions.some((condition) => condition.kind === "banned"));
  // On the group's ban list (by VRChat account, else Discord account): banned, whatever VRChat says.
  const who = { vrchatUserId: subject.vrchatUserId, discordUserId: subject.discordUserId, vrchatLinkedHow: subject.vrchatLinkedHow, discordLinkedHow: subject.discordLinkedHow };
  const listed = standing && (await banInForce(services.db, who)) !== null;
  const facts: Facts = { where, linkedHow: subject.vrchatLinkedHow, vrchat: null, groups: null, banned: listed ? true : null, noShows, answers: subject.answers };
  const userId = subject.vrchatUserId;
  if (!userId) return { facts: { ...facts, vrchat: "none", banned: listed }, readAt: null };
  const membership = services.vrchat.membership;
  if (!membership) return { facts, readAt: null };
  const asks = rules.some(asksVRChat);
  const wantsGroups = needsGroups(rules);
  let kept = (await keptAccounts(services.db, [userId])).get(userId);
  try {
    if (!kept || (fresh && asks) || (wantsGroups && (!kept.groups || fresh))) {
      const read = await membership.screeningFacts(userId, { groups: wantsGroups, standing: false, fresh });
      const account = read?.account ?? null;
      await keepAccount(services.db, userId, { account, groups: read?.groups ?? null }, now);
      kept = { account, groups: read?.groups ?? kept?.groups ?? null, readAt: now, groupsReadAt: read?.groups ? now : (kept?.groupsReadAt ?? null) };
    }
    // Their standing in VRChat is read only when a rule asks and the list has not answered (never kept).
    const banned = listed || (standing && kept.account ? await membership.screeningStanding(userId) : null);
    const readAt = asks ? (wantsGroups && kept.groupsReadAt && kept.groupsReadAt < kept.readAt ? kept.groupsReadAt : kept.readAt) : null;
    if (!kept.account) return { facts: { ...facts, vrchat: "none", banned: listed }, readAt };
    return { facts: { ...facts, vrchat: kept.account, groups: kept.groups, banned: banned ?? null }, readAt };
  } catch (error) {
    // Screening's allowance is spent for this minute, or VRChat asked to slow down: the run stops.
    if (error instanceof LookupBudgetError || isSlowDown(error)) throw error;
    log.warn("screening could not read VRChat", { error: error instanceof Error ? error.message : String(error) });
  }
  return { facts, readAt: null };
}

/**
 * The verdict on what was kept; when it would act (approve or reject) on facts older than
 * FACTS_FRESH_MS, they are read again first and the rules meet those instead.
 */
async function verdictOf(services: ScreeningServices, subject: FactsSubject, rules: readonly Rule[], where: Facts["where"], now: Date) {
  let read = await factsOf(services, subject, rules, where, now);
  let verdict = screen(rules, read.facts, now);
  const acts = verdict.kind === "decide" && verdict.outcome.kind !== "flag";
  if (acts && read.readAt && now.getTime() - read.readAt.getTime() > FACTS_FRESH_MS) {
    read = await factsOf(services, subject, rules, where, now, true);
    verdict = screen(rules, read.facts, now);
  }
  return { facts: read.facts, verdict };
}

export type RuleAdded = RuleChange | { ok: false; status: 422 | 503; error: string };

/**
 * A new rule, once the groups it names are known to VRChat (one `GET /groups/{groupId}` each, from
 * the staff's lookups): a rule naming a group that does not exist could never hold. Without VRChat
 * on the site, a rule naming groups is refused: it could never be read either.
 */
export async function addScreeningRule(db: Database, membership: VRChatMembership | null, input: RuleInput, by: string | null): Promise<RuleAdded> {
  const named = [...new Set(input.conditions.flatMap((condition) => (condition.kind === "in_groups" ? condition.groupIds : [])))];
  if (named.length > 0) {
    if (!membership) return { ok: false, status: 422, error: m.scr_vrchat_off_groups() };
    for (const id of named) {
      try {
        if ((await membership.groupName(id)) === null) return { ok: false, status: 422, error: m.scr_no_group({ id }) };
      } catch (error) {
        if (!(error instanceof LookupBudgetError)) log.warn("could not check a rule's group in VRChat", { error: error instanceof Error ? error.message : String(error) });
        return { ok: false, status: 503, error: m.scr_groups_unconfirmed() };
      }
    }
  }
  return addRule(db, input, by);
}

/** How many decided applications 'Try these rules' looks back on. */
export const TRIAL_SIZE = 200;

/**
 * 'Try these rules': the saved rules, with `draft` after them when given, met with the last
 * TRIAL_SIZE decided applications. Writes nothing and asks VRChat nothing.
 */
export async function tryScreeningRules(db: Database, draft: RuleInput | null, now: Date): Promise<TrialResult> {
  const saved = await listRules(db);
  const rules = draft ? [...saved, { ...draft, id: DRAFT_RULE_ID }] : saved;
  return tryRules(rules, await trialSubjects(db, TRIAL_SIZE, (people) => noShowsOf(db, people)), now);
}

const kept = (facts: Facts) => ({ vrchat: facts.vrchat, groups: facts.groups, banned: facts.banned, noShows: facts.noShows, linkedHow: facts.linkedHow });

/**
 * Screens one join request that came without an application: what the group's rules say is always
 * kept (staff see it in the list); it is acted on only when the owner let the rules decide join requests.
 */
async function screenJoinRequest(services: ScreeningServices, claimed: Claimed, allRules: readonly Rule[], now: Date): Promise<keyof ScreeningTally> {
  const request = await joinRequestSubject(services.db, claimed.id);
  // Decided or ended meanwhile, or the person applied on the site: their application is screened instead.
  if (!request || request.goneAt || request.decision || (await openApplicationOf(services.db, request.userId))) {
    await recordScreening(services.db, claimed, { state: "done", ruleName: null, outcome: null, flag: null });
    return "skipped";
  }
  const where: Facts["where"] = { kind: "join_request" };
  const rules = allRules.filter((rule) => inScope(rule, where));
  const subject = { id: request.id, eventId: null, vrchatUserId: request.userId, vrchatLinkedHow: null, discordUserId: null, discordLinkedHow: null, vrchatUsername: request.displayName, answers: {} };
  const { facts, verdict } = await verdictOf(services, subject, rules, where, now);
  const read = { facts: kept(facts), vrchatUserId: request.userId };
  if (verdict.kind === "none") {
    await recordScreening(services.db, claimed, { state: "done", ruleName: null, outcome: null, flag: null, ...read });
    return "none";
  }
  if (verdict.kind === "wait") {
    await recordScreening(services.db, claimed, { state: "waiting", retryAt: new Date(now.getTime() + retryAfterMs(claimed.attempts)), ruleName: verdict.rule.name, ...read });
    return "waiting";
  }
  const { rule, outcome } = verdict;
  const flagged = async (flag: string) => {
    await recordScreening(services.db, claimed, { state: "done", ruleName: rule.name, outcome: "flag", flag, ...read });
    return "flagged" as const;
  };
  if (outcome.kind === "flag") return flagged(outcome.flag);
  // Left for staff: the list says what the rule would do.
  const said = () => recordScreening(services.db, claimed, { state: "done", ruleName: rule.name, outcome: outcome.kind, flag: null, ...read });
  if (!(await getSiteSettings(services.db)).joinRequestsByRules || !services.vrchat.membershipActions) {
    await said();
    return "none";
  }
  if (outcome.kind === "approve") {
    const allowance = await hitRateLimit(services.db, { key: "screening-approvals", limit: services.autoApprovalsPerHour, windowMs: 60 * 60_000, now });
    if (!allowance.allowed) return flagged(SCREENING_TEXTS.paused);
  }
  const decided = await decideJoinRequests(services, [request.id], { decision: outcome.kind === "approve" ? "accept" : "reject", block: false }, ruleDecider(rule));
  if ("kind" in decided || decided.decided === 0) {
    await recordScreening(services.db, claimed, { state: "done", ruleName: null, outcome: null, flag: null, ...read });
    return "skipped";
  }
  await said();
  return outcome.kind === "approve" ? "approved" : "rejected";
}

/** Screens one claimed application: its rules' verdict, acted on. */
async function screenOne(services: ScreeningServices, claimed: Claimed, allRules: readonly Rule[], now: Date): Promise<keyof ScreeningTally> {
  if (claimed.kind === "join_request") return screenJoinRequest(services, claimed, allRules, now);
  const subject = await screeningSubject(services.db, { kind: claimed.kind, id: claimed.id });
  // Decided meanwhile, withdrawn, or marked as spam: nothing to screen.
  if (!subject || (subject.status !== "pending" && subject.status !== "waitlist")) {
    await recordScreening(services.db, claimed, { state: "done", ruleName: null, outcome: null, flag: null });
    return "skipped" as const;
  }
  const where: Facts["where"] = subject.eventId ? { kind: "event", eventId: subject.eventId } : { kind: "group" };
  const rules = allRules.filter((rule) => inScope(rule, where));
  const { facts, verdict } = await verdictOf(services, subject, rules, where, now);
  // The account the verdict was read for: the decision acts only while the application still links it.
  const read = { facts: kept(facts), vrchatUserId: subject.vrchatUserId };
  if (verdict.kind === "none") {
    await recordScreening(services.db, claimed, { state: "done", ruleName: null, outcome: null, flag: null, ...read });
    return "none" as const;
  }
  if (verdict.kind === "wait") {
    await recordScreening(services.db, claimed, { state: "waiting", retryAt: new Date(now.getTime() + retryAfterMs(claimed.attempts)), ruleName: verdict.rule.name, ...read });
    return "waiting" as const;
  }
  const { rule, outcome } = verdict;
  const flagged = (flag: string) => recordScreening(services.db, claimed, { state: "done", ruleName: rule.name, outcome: "flag", flag, ...read });
  if (outcome.kind === "flag") {
    await flagged(outcome.flag);
    return "flagged" as const;
  }
  if (outcome.kind === "approve") {
    const allowance = await hitRateLimit(services.db, { key: "screening-approvals", limit: services.autoApprovalsPerHour, windowMs: 60 * 60_000, now });
    if (!allowance.allowed) {
      await flagged(SCREENING_TEXTS.paused);
      return "flagged" as const;
    }
  }
  const review = await findReview(services.db, subject.eventId ?? undefined);
  if (!review) {
    await recordScreening(services.db, claimed, { state: "done", ruleName: null, outcome: null, flag: null });
    return "skipped" as const;
  }
  const decided = await decideApplication(
    services,
    review,
    { id: subject.id, status: outcome.kind === "approve" ? "approved" : "rejected", reason: outcome.kind === "reject" ? outcome.message : null, screenedAccount: subject.vrchatUserId },
    ruleDecider(rule),
  );
  if (decided.kind === "moved") {
    // An edit linked another account meanwhile: its facts are not these. Screened again, at once.
    await queueScreening(services.db, { kind: subject.kind, id: subject.id }, now);
    return "waiting" as const;
  }
  if (decided.kind === "full") await flagged(SCREENING_TEXTS.full);
  else if (decided.kind === "needs-proof") await flagged(SCREENING_TEXTS.needsProof);
  else await recordScreening(services.db, claimed, { state: "done", ruleName: rule.name, outcome: decided.kind === "decided" ? outcome.kind : null, flag: null, ...read });
  return decided.kind === "decided" ? (outcome.kind === "approve" ? ("approved" as const) : ("rejected" as const)) : ("flagged" as const);
}

/** `deferred`: left for a later run because screening's VRChat allowance was spent (not an attempt). */
export type ScreeningTally = Record<"approved" | "rejected" | "flagged" | "waiting" | "none" | "skipped" | "deferred", number>;

/** The scheduled job: screens what is due, `limit` at a time. */
export async function runScreenings(services: ScreeningServices, now: Date, limit = 25): Promise<ScreeningTally> {
  const tally: ScreeningTally = { approved: 0, rejected: 0, flagged: 0, waiting: 0, none: 0, skipped: 0, deferred: 0 };
  const claimed = await claimDueScreenings(services.db as Database, now, limit);
  if (claimed.length === 0) return tally;
  const rules = await listRules(services.db);
  for (const [index, one] of claimed.entries()) {
    try {
      tally[await screenOne(services, one, rules, now)] += 1;
    } catch (error) {
      if (error instanceof LookupBudgetError || isSlowDown(error)) {
        // Nothing was read for it, nor for those after it: they go back to the queue as they were
        // (after a 429 the client sends nothing until VRChat's Retry-After has passed).
        const left = claimed.slice(index);
        await releaseScreenings(services.db as Database, left);
        tally.deferred += left.length;
        break;
      }
      // Let go of it: it is tried again at the next run.
      log.error("screening an application failed", { error });
      await recordScreening(services.db, one, { state: "waiting", retryAt: new Date(now.getTime() + retryAfterMs(one.attempts)), ruleName: "" });
      tally.waiting += 1;
    }
  }
  return tally;
}
