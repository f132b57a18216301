/** What a person's file and the people search say. */
import { m } from "~/paraglide/messages";
import { counted, formatCount, formatShortDayUTC } from "~/utils/language";
import type { PersonKey } from "~/utils/person-key";

/** A note on a person's file is at most this long. */
export const NOTE_LIMIT = 2_000;

/** What the people search and a person's file say, in the page's language (read when said). */
export const PEOPLE_TEXTS = {
  get searchLabel() {
    return m.people_search_label();
  },
  get searchHint() {
    return m.people_search_label();
  },
  get searchIntro() {
    return m.people_intro();
  },
  noneFound: (query: string) => m.people_none_found({ query }),
  searchVRChat: (query: string) => m.people_search_vrchat({ query }),
  vrchatNone: (query: string) => m.people_vrchat_none({ query }),
  get vrchatNotConfigured() {
    return m.people_vrchat_off();
  },
  get vrchatDown() {
    return m.people_vrchat_down();
  },
  get notFound() {
    return m.people_not_found();
  },
  get nothingYet() {
    return m.people_nothing_yet();
  },
  get liveLoading() {
    return m.people_live_loading();
  },
  get liveNone() {
    return m.people_live_none();
  },
  get liveNotLinked() {
    return m.people_live_not_linked();
  },
  get noteAdded() {
    return m.people_note_added();
  },
  get noteEmpty() {
    return m.people_note_empty();
  },
  noteTooLong: (limit: number) => m.people_note_too_long({ limit: formatCount(limit) }),
  get mergeHint() {
    return m.people_merge_hint();
  },
  get mergeUnknown() {
    return m.people_merge_unknown();
  },
  get mergeSame() {
    return m.people_merge_same();
  },
  get mergeBusy() {
    return m.people_merge_busy();
  },
  get merged() {
    return m.people_merged();
  },
  get splitNone() {
    return m.people_split_none();
  },
  get split() {
    return m.people_split();
  },
  get banNone() {
    return m.people_ban_none();
  },
  get mergeOnly() {
    return m.people_merge_only();
  },
};

export const STANDING_TEXT = {
  member: m.standing_member,
  requested: m.standing_requested,
  invited: m.standing_invited,
  banned: m.standing_banned,
  blocked: m.standing_blocked,
  none: m.standing_none,
} as const;

export const STATUS_TONE = { pending: "gold", approved: "live", rejected: "danger", waitlist: "aurora", withdrawn: "muted" } as const;

export function keyText(key: PersonKey): string {
  if (key.kind === "vrchat") return `VRChat ${key.id}`;
  if (key.kind === "discord") return `Discord ${key.id}`;
  return m.people_key_none();
}

/** What a screening made of an application or a join request, in a line. */
export function screeningLine(screening: { ruleName: string | null; outcome: string | null; flag: string | null; state: string } | null): string | null {
  if (!screening) return null;
  if (screening.state === "waiting") return m.people_screening_waits();
  if (screening.state !== "done") return m.people_screening_pending();
  if (screening.flag) return m.people_flagged({ rule: screening.ruleName ?? "?", flag: screening.flag });
  if (screening.ruleName && screening.outcome === "approve") return m.people_rule_approved({ rule: screening.ruleName });
  if (screening.ruleName && screening.outcome === "reject") return m.people_rule_rejected({ rule: screening.ruleName });
  return m.people_no_rule();
}

export function historyLine(entry: { actorName: string; field: string; fromValue: string | null; toValue: string | null }): string {
  switch (entry.field) {
    case "status":
      return `${entry.actorName}: ${entry.fromValue ?? "—"} → ${entry.toValue ?? "—"}`;
    case "vrchat":
      return `${entry.actorName}: VRChat ${entry.toValue ?? m.people_unlinked()}`;
    case "discord":
      return `${entry.actorName}: Discord ${entry.toValue ?? m.people_unlinked()}`;
    case "attendance":
      return `${entry.actorName}: ${entry.toValue === "attended" ? m.attendance_attended() : entry.toValue === "no_show" ? m.attendance_no_show() : m.people_attendance_cleared()}`;
    case "spam":
      return `${entry.actorName}: ${entry.toValue === "yes" ? m.card_marked_spam() : m.card_unmarked_spam()}`;
    default:
      return `${entry.actorName}: ${entry.toValue ? m.card_notes_updated() : m.card_notes_cleared()}`;
  }
}

/** One formatter for every date on a file: making one per date costs more than the rest of the page. */
export const dateText = formatShortDayUTC;

/** "5 years", "3 months", "12 days": how old an account is, from the day it joined. */
export function ageText(joinedOn: string, now: Date): string {
  const days = Math.floor((now.getTime() - Date.parse(`${joinedOn}T00:00:00Z`)) / 86_400_000);
  if (days >= 365) return counted(Math.floor(days / 365), m.people_years_one, m.people_years);
  if (days >= 60) return counted(Math.floor(days / 30), m.people_months_one, m.people_months);
  return counted(Math.max(0, days), m.people_days_one, m.people_days);
}
