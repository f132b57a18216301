/**
 * The messages an applicant reads once their application is decided: on their status page, and in
 * the Discord direct message when the site sends one. Admins write one per outcome; these
 * placeholders are filled in when the decision is made, and the result is kept with the application.
 * Each may be written in every language the site offers; an applicant reads the one in the language
 * they applied in (see decisions.server).
 */
import { m } from "~/paraglide/messages";

export const DECISION_OUTCOMES = ["approved", "rejected"] as const;
export type DecisionOutcome = (typeof DECISION_OUTCOMES)[number];

export type MessageKind = "group" | "event";

/** A status link stops working this long after the decision (a pending one keeps working). */
export const STATUS_LINK_DAYS = 90;

/** A message stays within one Discord message (2,000 characters) with room for the event's link. */
export const DECISION_MESSAGE_MAX_LENGTH = 1500;

export const PLACEHOLDERS = [
  { name: "{username}", means: "the applicant's VRChat username" },
  { name: "{event}", means: "the event's title (for the group: the Dwellers)" },
  { name: "{date}", means: "the event's date and time (for the group: the day of the decision)" },
  { name: "{discord_invite}", means: "the site's Discord invite link" },
] as const;

const DEFAULT_MESSAGES = {
  group: { approved: m.decision_default_group_approved, rejected: m.decision_default_group_rejected },
  event: { approved: m.decision_default_event_approved, rejected: m.decision_default_event_rejected },
} as const;

/** The catalogue's message for an outcome, in the current language, its placeholders left for renderDecisionMessage. */
export function defaultDecisionMessage(kind: MessageKind, outcome: DecisionOutcome): string {
  return DEFAULT_MESSAGES[kind][outcome]({ username: "{username}", event: "{event}", date: "{date}", discord_invite: "{discord_invite}" });
}

export interface MessageValues {
  username: string;
  event: string;
  date: string;
  discordInvite: string | null;
}

/** The message with its placeholders filled; any other `{word}` (`{constructor}` too) is left as written. */
export function renderDecisionMessage(template: string, values: MessageValues): string {
  const byName: Record<string, string> = {
    username: values.username.trim() || m.decision_friend(),
    event: values.event,
    date: values.date,
    discord_invite: values.discordInvite ?? m.decision_our_discord(),
  };
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(byName, name) ? byName[name]! : whole));
}

/** The values a preview in the Sanctum shows. */
export function exampleValues(kind: MessageKind, discordInvite: string | null): MessageValues {
  return kind === "group"
    ? { username: "Wanderer", event: "the Dwellers", date: "Saturday, November 28, 2026", discordInvite }
    : { username: "Wanderer", event: "Moonlit Gathering", date: "Saturday, November 28, 2026 at 8:00 PM UTC", discordInvite };
}

export const OUTCOME_HEADING: Record<DecisionOutcome, string> = { approved: "Approved", rejected: "Not accepted" };
