/**
 * The messages an applicant reads once their application is decided: on their status page, and in
 * the Discord direct message when the site sends one. Admins write one per outcome; these
 * placeholders are filled in when the decision is made, and the result is kept with the application.
 */
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

export const DEFAULT_DECISION_MESSAGES: Record<MessageKind, Record<DecisionOutcome, string>> = {
  group: {
    approved:
      "Welcome among the Dwellers, {username}! The ritual is complete and your application has been approved. Accept the group's invite in VRChat, and come and find us on Discord: {discord_invite}",
    rejected:
      "Thank you for seeking entry among the Dwellers, {username}. We cannot accept your application at this time. May your travels in VRChat be bright.",
  },
  event: {
    approved:
      "Good news, {username}: your place at {event} is confirmed. We gather on {date}. Watch the Dwellers' Discord for the instance invite: {discord_invite}",
    rejected:
      "Thank you for applying for {event}, {username}. We could not offer you a place this time; we hope to see you at a gathering soon.",
  },
};

export interface MessageValues {
  username: string;
  event: string;
  date: string;
  discordInvite: string | null;
}

/** The message with its placeholders filled; any other `{word}` (`{constructor}` too) is left as written. */
export function renderDecisionMessage(template: string, values: MessageValues): string {
  const byName: Record<string, string> = {
    username: values.username.trim() || "friend",
    event: values.event,
    date: values.date,
    discord_invite: values.discordInvite ?? "our Discord server",
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
