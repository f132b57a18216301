/** The lines an application's card is made of: its answers, its history, its actions in VRChat and Discord, and who can enter. */
import { CircleAlert, CircleCheck, LoaderCircle } from "lucide-react";
import { type ReactNode } from "react";
import { Badge } from "~/components/ui/badge";
import { linkedHowLabel } from "~/utils/vrchat-account";
import type { AuditEntry, ReviewedApplication } from "./review.server";
import type { AttendanceRecord } from "./attendance.server";

/** A profile link the form did not link: the staff link it by hand once they are sure (VRChat panel). */
export const PROFILE_CHECK_TEXT = {
  claimed: "Claimed, not confirmed: VRChat names this account otherwise than the username given. Link it by hand only once you are sure.",
  unchecked: "Not checked with VRChat: VRChat could not be asked when it was sent. Link it by hand only once you are sure.",
} as const;

export const STATUS_TONE = { pending: "gold", approved: "live", rejected: "danger", waitlist: "aurora", withdrawn: "muted" } as const;

export function auditLine(entry: AuditEntry, formatDate: (iso: string) => string) {
  if (entry.field === "answers") return `${formatDate(entry.at)} · Edited by the applicant`;
  const what =
    entry.field === "vrchat"
      ? `VRChat: ${entry.toValue ?? "—"}`
      : entry.field === "discord"
        ? `Discord: ${entry.toValue ?? "—"}`
        : entry.field === "status"
      ? `status ${entry.fromValue ?? "—"} → ${entry.toValue ?? "—"}`
      : entry.field === "attendance"
        ? `attendance: ${entry.toValue === "attended" ? "Attended" : entry.toValue === "no_show" ? "No-show" : "not marked"}`
      : entry.field === "spam"
        ? entry.toValue === "yes"
          ? "marked as spam"
          : "unmarked as spam"
        : entry.toValue
          ? "notes updated"
          : "notes cleared";
  return `${formatDate(entry.at)} · ${entry.actorName}: ${what}`;
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
  const service = SERVICE_OF[action.target] ?? "the service";
  if (action.status === "delivered") {
    return (
      <p className="flex items-center gap-1.5 text-sm text-emerald-300">
        <CircleCheck aria-hidden="true" className="size-4 shrink-0" />
        {action.result ?? `Done in ${service}`}
      </p>
    );
  }
  if (action.status === "failed") {
    return (
      <div className="flex flex-wrap items-center gap-2 text-sm text-red-300">
        <CircleAlert aria-hidden="true" className="size-4 shrink-0" />
        <span>Failed: {action.lastError ?? "unknown reason"}</span>
        {busy ? null : retry}
      </div>
    );
  }
  return (
    <p className="flex items-center gap-1.5 text-sm text-mist-300">
      <LoaderCircle aria-hidden="true" className="size-4 shrink-0 motion-safe:animate-spin" />
      {action.attempts > 0 && action.lastError ? `Waiting to try again in ${service} (${action.lastError})` : `Working on it in ${service}…`}
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
export const NOT_LINKED_LABEL = "Not linked in VRChat";
export const NOT_LINKED_HOW = "Choose their account under 'VRChat' in 'Show responses': the decision then acts there.";
export const NOT_LINKED_DECIDED = `Decided. ${NOT_LINKED_LABEL}: no join request or profile link names them. ${NOT_LINKED_HOW}`;

/** The outbox targets of decisions' actions, shown on the cards. */
export const DECISION_ACTION_TARGETS = ["vrchat_membership", "vrchat_event_role", "discord_role", "discord_dm"] as const;

/** What the screening rules made of an application, as its card shows it. */
export interface ScreeningLine {
  state: string;
  ruleName: string | null;
  outcome: string | null;
  flag: string | null;
}

export const SCREENING_WAITS = "Screening waits for VRChat";

/** A group application decided by a rule can go back to staff ('Reopen'); a person's decision cannot. */
export const ONLY_RULES_REOPEN = "Only a decision made by a screening rule can be reopened, and only while it stands.";
export const REOPEN_NOTE = "Back to Pending for staff to decide. What the rule did in VRChat stays as it is.";

/** Whether the card offers 'Reopen': a group decision a rule made, still standing. */
export const reopenable = (line: ScreeningLine | null, status: string) =>
  line !== null && line.state === "done" && line.ruleName !== null && !line.flag && ((line.outcome === "approve" && status === "approved") || (line.outcome === "reject" && status === "rejected"));

/** The card's screening line: a flag, a wait for VRChat, or the rule that decided; null for nothing to say. */
export function screeningText(line: ScreeningLine, status: string): { tone: "gold" | "muted"; text: string } | null {
  if (line.state === "waiting") return { tone: "gold", text: SCREENING_WAITS };
  if (line.state !== "done") return null;
  if (line.flag) return { tone: "gold", text: line.flag };
  if (line.ruleName && line.outcome === "approve" && status === "approved") return { tone: "muted", text: `Approved by rule "${line.ruleName}"` };
  if (line.ruleName && line.outcome === "reject" && status === "rejected") return { tone: "muted", text: `Rejected by rule "${line.ruleName}"` };
  return null;
}

export { linkedHowLabel } from "~/utils/vrchat-account";

/** The applicant's linked VRChat account, and how it came to be linked. */
export function LinkedVRChatLine({ application }: { application: Pick<ReviewedApplication, "vrchatUserId" | "vrchatDisplayName" | "vrchatLinkedHow" | "vrchatLinkedBy"> }) {
  if (!application.vrchatUserId) return null;
  return (
    <p className="text-sm break-all text-mist-300">
      VRChat:{" "}
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
  given: { badge: "Can enter", tone: "live", text: "Holds the event's role in VRChat." },
  not_member: {
    badge: "Cannot enter yet",
    tone: "gold",
    text: "Not a member of the group in VRChat: event approvals do not invite to the group, so they must ask to join it, and their request meets the group's review (the role follows when they join).",
  },
  not_member_invited: {
    badge: "Cannot enter yet",
    tone: "gold",
    text: "Not a member of the group in VRChat: an approval by an owner, admin or reviewer invites them once, as the owner allows (never a host's, nor a place refilled); the role follows when they join.",
  },
  no_account: { badge: "Cannot enter yet", tone: "gold", text: "No VRChat account linked: choose it under 'VRChat' in 'Show responses' to give them the event's role." },
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

export const ATTENDANCE_LABEL = { attended: "Attended", no_show: "No-show" } as const;

/** "Attended 3 of 4 events · 1 no-show": how the person did at the group's other events. */
export function attendanceRecordText(record: AttendanceRecord): string {
  const total = record.attended + record.noShows;
  const noShows = record.noShows > 0 ? ` · ${record.noShows} ${record.noShows === 1 ? "no-show" : "no-shows"}` : "";
  return `Attended ${record.attended} of ${total} ${total === 1 ? "event" : "events"}${noShows}`;
}
