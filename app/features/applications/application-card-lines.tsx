/** The lines an application's card is made of: its answers, its history, its actions in VRChat and Discord, and who can enter. */
import { CircleAlert, CircleCheck, LoaderCircle } from "lucide";
import { flagText } from "~/utils/screening-flags";
import { Icon } from "~/components/ui/icon";
import { type ReactNode } from "react";
import { Badge } from "~/components/ui/badge";
import { m } from "~/paraglide/messages";
import { formatCount } from "~/utils/language";
import { linkedHowLabel } from "~/utils/vrchat-account";
import type { AuditEntry, ReviewedApplication } from "./review.server";
import type { AttendanceRecord } from "./attendance.server";
import { actorLabel } from "~/utils/actors";

/** A profile link the form did not link: the staff link it by hand once they are sure (VRChat panel). */
export const PROFILE_CHECK_TEXT = { claimed: m.card_claimed, unchecked: m.card_unchecked } as const;

export const STATUS_TONE = { pending: "gold", approved: "live", rejected: "danger", waitlist: "aurora", withdrawn: "muted" } as const;

export function auditLine(entry: AuditEntry, formatDate: (iso: string) => string) {
  if (entry.field === "answers") return m.card_edited_by_applicant({ when: formatDate(entry.at) });
  const what =
    entry.field === "vrchat"
      ? m.card_audit_vrchat({ value: entry.toValue ?? "—" })
      : entry.field === "discord"
        ? m.card_audit_discord({ value: entry.toValue ?? "—" })
        : entry.field === "status"
          ? m.card_audit_status({ from: entry.fromValue ?? "—", to: entry.toValue ?? "—" })
          : entry.field === "attendance"
            ? m.card_audit_attendance({ value: entry.toValue === "attended" ? m.attendance_attended() : entry.toValue === "no_show" ? m.attendance_no_show() : m.card_not_marked() })
            : entry.field === "spam"
              ? entry.toValue === "yes"
                ? m.card_marked_spam()
                : m.card_unmarked_spam()
              : entry.toValue
                ? m.card_notes_updated()
                : m.card_notes_cleared();
  return m.card_audit_line({ when: formatDate(entry.at), who: actorLabel(entry.actorName), what });
}

/** A decision's action in VRChat (an outbox job), as the card shows it. */
export interface ActionState {
  id: string;
  target: string;
  status: "pending" | "delivered" | "failed";
  result: string | null;
  lastError: string | null;
  attempts: number;
}

export const SERVICE_OF: Record<string, string> = { vrchat_membership: "VRChat", vrchat_event_role: "VRChat", discord_role: "Discord", discord_dm: "Discord" };

export function ActionLine({ action, busy, retry }: { action: ActionState; busy: boolean; retry: ReactNode }) {
  const service = SERVICE_OF[action.target] ?? m.card_the_service();
  if (action.status === "delivered") {
    return (
      <p className="flex items-center gap-1.5 text-sm text-emerald-300">
        <Icon node={CircleCheck} className="size-4 shrink-0" />
        {action.result ?? m.card_done_in({ service })}
      </p>
    );
  }
  if (action.status === "failed") {
    return (
      <div className="flex flex-wrap items-center gap-2 text-sm text-red-300">
        <Icon node={CircleAlert} className="size-4 shrink-0" />
        <span>{m.card_failed({ reason: action.lastError ?? m.card_unknown_reason() })}</span>
        {busy ? null : retry}
      </div>
    );
  }
  return (
    <p className="flex items-center gap-1.5 text-sm text-mist-300">
      <Icon node={LoaderCircle} className="size-4 shrink-0 motion-safe:animate-spin" />
      {action.attempts > 0 && action.lastError ? m.card_waiting_retry({ service, error: action.lastError }) : m.card_working({ service })}
    </p>
  );
}

/** A bulk selection box, tied to the bulk decision form by its id so it also posts without JavaScript. */
export interface CardSelection {
  formId: string;
  checked: boolean;
  onChange(checked: boolean): void;
}

/** A decision that could not act in VRChat for want of the applicant's account. */
export const NOT_LINKED_LABEL = m.card_not_linked;
export const NOT_LINKED_HOW = m.card_not_linked_how;
export const NOT_LINKED_DECIDED = () => m.card_not_linked_decided({ label: NOT_LINKED_LABEL(), how: NOT_LINKED_HOW() });
/** A decision that did not act in VRChat because its account is matched by name only (a claim). */
export const UNCONFIRMED_LABEL = m.card_unconfirmed;
export const UNCONFIRMED_HOW = m.card_unconfirmed_how;
export const UNCONFIRMED_DECIDED = () => m.card_unconfirmed_decided({ label: UNCONFIRMED_LABEL(), how: UNCONFIRMED_HOW() });

/** The outbox targets of decisions' actions, shown on the cards. */
export const DECISION_ACTION_TARGETS = ["vrchat_membership", "vrchat_event_role", "discord_role", "discord_dm"] as const;

/** What the screening rules made of an application, as its card shows it. */
export interface ScreeningLine {
  state: string;
  ruleName: string | null;
  outcome: string | null;
  flag: string | null;
}

export const SCREENING_WAITS = m.card_screening_waits;

/** A group application decided by a rule can go back to staff ('Reopen'); a person's decision cannot. */
export const ONLY_RULES_REOPEN = m.card_only_rules_reopen;
export const REOPEN_NOTE = m.card_reopen_note;

/** Whether the card offers 'Reopen': a group decision a rule made, still standing. */
export const reopenable = (line: ScreeningLine | null, status: string) =>
  line !== null && line.state === "done" && line.ruleName !== null && !line.flag && ((line.outcome === "approve" && status === "approved") || (line.outcome === "reject" && status === "rejected"));

/** The card's screening line: a flag, a wait for VRChat, or the rule that decided; null for nothing to say. */
export function screeningText(line: ScreeningLine, status: string): { tone: "gold" | "muted"; text: string } | null {
  if (line.state === "waiting") return { tone: "gold", text: SCREENING_WAITS() };
  if (line.state !== "done") return null;
  if (line.flag) return { tone: "gold", text: flagText(line.flag) };
  if (line.ruleName && line.outcome === "approve" && status === "approved") return { tone: "muted", text: m.card_approved_by_rule({ rule: line.ruleName }) };
  if (line.ruleName && line.outcome === "reject" && status === "rejected") return { tone: "muted", text: m.card_rejected_by_rule({ rule: line.ruleName }) };
  return null;
}

export { linkedHowLabel } from "~/utils/vrchat-account";

/** The applicant's linked VRChat account, and how it came to be linked. */
export function LinkedVRChatLine({ application }: { application: Pick<ReviewedApplication, "vrchatUserId" | "vrchatDisplayName" | "vrchatLinkedHow" | "vrchatLinkedBy"> }) {
  if (!application.vrchatUserId) return null;
  return (
    <p className="text-sm break-all text-mist-300">
      {m.card_vrchat()}{" "}
      <a href={`https://vrchat.com/home/user/${application.vrchatUserId}`} target="_blank" rel="noreferrer noopener" className="text-aurora-300 underline">
        {application.vrchatDisplayName ?? application.vrchatUserId}
      </a>{" "}
      <span className="text-xs text-mist-400">({application.vrchatUserId})</span>
      {application.vrchatLinkedHow ? (
        <>
          {" "}
          <Badge tone={application.vrchatLinkedHow === "proven" ? "live" : "muted"} data-testid="vrchat-linked-how">
            {linkedHowLabel(application.vrchatLinkedHow, application.vrchatLinkedBy)}
          </Badge>
        </>
      ) : null}
    </p>
  );
}

/** Whether an approved attendee can get into the event's role-only instance, and why not. */
export type AttendeeEntry = "given" | "not_member" | "not_member_invited" | "no_account";
export const ENTRY_TEXT = {
  given: { badge: m.entry_can_enter, tone: "live", text: m.entry_given },
  not_member: { badge: m.entry_cannot_yet, tone: "gold", text: m.entry_not_member },
  not_member_invited: { badge: m.entry_cannot_yet, tone: "gold", text: m.entry_not_member_invited },
  no_account: { badge: m.entry_cannot_yet, tone: "gold", text: m.entry_no_account },
} as const;

/**
 * Null while the role is being given (its job shows under the card's actions), or not approved.
 * `invites`: an owner allows event approvals to invite non-members to the group.
 */
export function attendeeEntry(application: Pick<ReviewedApplication, "status" | "spam" | "vrchatUserId" | "eventRole">, invites = false): AttendeeEntry | null {
  if (application.status !== "approved" || application.spam) return null;
  if (!application.vrchatUserId) return "no_account";
  if (application.eventRole === "not_member") return invites ? "not_member_invited" : "not_member";
  return application.eventRole === "given" ? "given" : null;
}

export const ATTENDANCE_LABEL = { attended: m.attendance_attended, no_show: m.attendance_no_show } as const;

/** "Attended 3 of 4 events · 1 no-show": how the person did at the group's other events. */
export function attendanceRecordText(record: AttendanceRecord): string {
  const total = record.attended + record.noShows;
  const noShows = record.noShows === 0 ? "" : record.noShows === 1 ? m.attendance_no_shows_one() : m.attendance_no_shows({ count: formatCount(record.noShows) });
  const figures = { attended: formatCount(record.attended), total: formatCount(total), noShows };
  return total === 1 ? m.attendance_record_one(figures) : m.attendance_record(figures);
}

/** What marking attendance did, in a sentence: 'Marked 2 attendees as come.' and those left as they were. */
export function attendanceMarkedText(value: "attended" | "no_show" | null, outcome: { changed: number; unchanged: number; missing: number }) {
  const who = outcome.changed === 1 ? m.apps_one_attendee() : m.apps_attendees({ count: formatCount(outcome.changed) });
  const said = value === "attended" ? m.apps_marked_attended({ who }) : value === "no_show" ? m.apps_marked_no_show({ who }) : m.apps_marked_cleared({ who });
  const left = outcome.unchanged + outcome.missing;
  return `${said}${left > 0 ? m.apps_left_as_were({ count: formatCount(left) }) : ""}`;
}

/** The card's history: every change, by whom and when; an applicant's edit with its answers before and after. */
export function History({ audit, formatDate }: { audit: AuditEntry[]; formatDate: (iso: string) => string }) {
  if (audit.length === 0) return null;
  return (
    <section>
      <h3 className="text-sm font-semibold text-mist-300">{m.review_history()}</h3>
      <ul className="mt-1 space-y-0.5 text-xs text-mist-400">
        {audit.map((entry, i) => (
          <li key={i}>
            {auditLine(entry, formatDate)}
            {entry.field === "answers" ? (
              <dl className="mt-1 grid gap-x-3 border-l border-aurora-400/20 pl-3 whitespace-pre-line sm:grid-cols-[auto_1fr]" data-testid="answers-edit">
                <dt className="font-semibold">{m.review_before()}</dt>
                <dd>{entry.fromValue}</dd>
                <dt className="font-semibold">{m.review_after()}</dt>
                <dd>{entry.toValue}</dd>
              </dl>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
