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
  { name: "{username}", means: m.dm_placeholder_username },
  { name: "{event}", means: m.dm_placeholder_event },
  { name: "{date}", means: m.dm_placeholder_date },
  { name: "{discord_invite}", means: m.dm_placeholder_invite },
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

/** An example day as the page's language writes it, alone and with a time. */
export interface ExampleDates {
  day: string;
  dayAndTime: string;
}

/** The values a preview in the Sanctum shows. */
export function exampleValues(kind: MessageKind, discordInvite: string | null, dates: ExampleDates): MessageValues {
  return kind === "group"
    ? { username: m.dm_example_name(), event: m.decision_the_group(), date: dates.day, discordInvite }
    : { username: m.dm_example_name(), event: m.dm_example_event(), date: dates.dayAndTime, discordInvite };
}

export const OUTCOME_HEADING: Record<DecisionOutcome, () => string> = { approved: m.dm_outcome_approved, rejected: m.dm_outcome_rejected };
