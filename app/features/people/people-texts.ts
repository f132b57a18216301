/** What a person's file and the people search say. */
import { m } from "~/paraglide/messages";
import type { PersonKey } from "~/utils/person-key";

/** A note on a person's file is at most this long. */
export const NOTE_LIMIT = 2_000;

export const PEOPLE_TEXTS = {
  get searchLabel() {
    return m.people_search_label();
  },
  get searchHint() {
    return m.people_search_label();
  },
  searchIntro: "Everyone Dwell knows of: applicants, join requests and bans, by VRChat name or id, Discord handle or id.",
  noneFound: (query: string) => `Dwell knows nobody matching "${query}".`,
  searchVRChat: (query: string) => `Search VRChat for "${query}"`,
  vrchatNone: (query: string) => `VRChat has no one named like "${query}".`,
  vrchatNotConfigured: "VRChat is not configured on this site: only Dwell's own records are searched.",
  vrchatDown: "VRChat could not be asked just now. Try again in a moment.",
  notFound: "There is no such person's file.",
  nothingYet: "Dwell has nothing on file for this person yet: no application, join request, ban or note.",
  liveLoading: "Asking VRChat…",
  liveNone: "VRChat has no user with this id.",
  liveNotLinked: "No VRChat account is linked to this person: VRChat cannot be asked about them.",
  noteAdded: "Note added.",
  noteEmpty: "Write the note first.",
  noteTooLong: (limit: number) => `A note is at most ${limit.toLocaleString("en-US")} characters.`,
  mergeHint: "Paste the other file's address, a VRChat profile link or user id, or a Discord user id.",
  mergeUnknown: "That names no person's file: paste the other file's address, a VRChat profile link or user id, or a Discord user id.",
  mergeSame: "That is this file already.",
  mergeBusy: "That file was merged a moment ago: reload the page.",
  merged: "The two files are now one.",
  splitNone: "That file is not merged into this one.",
  split: "The file is on its own again.",
  banNone: "No VRChat or Discord account is linked to this person: link one on their application first.",
  mergeOnly: "Only owners and admins merge and split files.",
};

export const STANDING_TEXT = {
  member: "Member of the group",
  requested: "Asked to join the group",
  invited: "Invited to the group",
  banned: "Banned from the group",
  blocked: "Has blocked the group",
  none: "Not in the group",
} as const;

export const STATUS_LABEL = { pending: "Pending", approved: "Approved", rejected: "Rejected", waitlist: "Waitlisted", withdrawn: "Withdrawn" } as const;
export const STATUS_TONE = { pending: "gold", approved: "live", rejected: "danger", waitlist: "aurora", withdrawn: "muted" } as const;

export function keyText(key: PersonKey): string {
  if (key.kind === "vrchat") return `VRChat ${key.id}`;
  if (key.kind === "discord") return `Discord ${key.id}`;
  return "An application naming no account";
}

/** What a screening made of an application or a join request, in a line. */
export function screeningLine(screening: { ruleName: string | null; outcome: string | null; flag: string | null; state: string } | null): string | null {
  if (!screening) return null;
  if (screening.state === "waiting") return "Screening waits for VRChat";
  if (screening.state !== "done") return "Waiting to be screened";
  if (screening.flag) return `Flagged by rule "${screening.ruleName ?? "?"}": ${screening.flag}`;
  if (screening.ruleName && screening.outcome === "approve") return `Rule "${screening.ruleName}" approved`;
  if (screening.ruleName && screening.outcome === "reject") return `Rule "${screening.ruleName}" rejected`;
  return "No rule held: left for staff";
}

export function historyLine(entry: { actorName: string; field: string; fromValue: string | null; toValue: string | null }): string {
  switch (entry.field) {
    case "status":
      return `${entry.actorName}: ${entry.fromValue ?? "—"} → ${entry.toValue ?? "—"}`;
    case "vrchat":
      return `${entry.actorName}: VRChat ${entry.toValue ?? "unlinked"}`;
    case "discord":
      return `${entry.actorName}: Discord ${entry.toValue ?? "unlinked"}`;
    case "attendance":
      return `${entry.actorName}: ${entry.toValue === "attended" ? "Attended" : entry.toValue === "no_show" ? "No-show" : "attendance cleared"}`;
    case "spam":
      return `${entry.actorName}: ${entry.toValue === "yes" ? "marked as spam" : "unmarked as spam"}`;
    default:
      return `${entry.actorName}: ${entry.toValue ? "notes updated" : "notes cleared"}`;
  }
}

/** One formatter for every date on a file: making one per date costs more than the rest of the page. */
const DATE = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
export const dateText = (iso: string) => DATE.format(new Date(iso));

/** "5 years", "3 months", "12 days": how old an account is, from the day it joined. */
export function ageText(joinedOn: string, now: Date): string {
  const days = Math.floor((now.getTime() - Date.parse(`${joinedOn}T00:00:00Z`)) / 86_400_000);
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (days >= 365) return plural(Math.floor(days / 365), "year");
  if (days >= 60) return plural(Math.floor(days / 30), "month");
  return plural(Math.max(0, days), "day");
}
