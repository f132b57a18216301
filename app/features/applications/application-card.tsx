import { ChevronDown } from "lucide";
import { Icon } from "~/components/ui/icon";
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Link, useFetcher } from "react-router";
import { toast } from "sonner";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { BanApplicantDialog } from "./ban-applicant-dialog";
import { Card } from "~/components/ui/card";
import { fieldClass } from "~/components/ui/field";
import { APPLICATION_STATUSES, type ApplicationStatus } from "~/db/enums";
import type { FormQuestion } from "./answers";
import { AnswerView } from "./answer-view";
import { OverCapacityDialog } from "./over-capacity-dialog";
import { NEEDS_PROOF_TEXT } from "./proof";
import type { AuditEntry, ReviewedApplication } from "./review.server";
import type { AttendanceRecord } from "./attendance.server";
import { m } from "~/paraglide/messages";
import { statusLabel } from "~/utils/status-label";
import {
  PROFILE_CHECK_TEXT,
  STATUS_TONE,
  History,
  ActionLine,
  NOT_LINKED_LABEL,
  NOT_LINKED_HOW,
  UNCONFIRMED_HOW,
  UNCONFIRMED_LABEL,
  ENTRY_TEXT,
  ATTENDANCE_LABEL,
  attendanceRecordText,
  screeningText,
  reopenable,
  REOPEN_NOTE,
  type ScreeningLine,
  type ActionState,
  type CardSelection,
  type AttendeeEntry,
  LinkedVRChatLine,
} from "./application-card-lines";


export function ApplicationCard({
  application,
  questions,
  audit,
  mode,
  formatDate,
  selection,
  actions = [],
  blockOption = false,
  requiresProof = false,
  screening = null,
  banned = null,
  banOption = false,
  notLinked = false,
  unconfirmed = false,
  entry = null,
  vrchatPanel,
  vrchatLookupUrl = null,
  discordPanel,
  attendance,
  fileHref = null,
}: {
  /** The applicant's file (for those who may open it). */
  fileHref?: string | null;
  /** Event applications: attendance is marked once the event has ended (`open`); `record`, the person's at other events. */
  attendance?: { open: boolean; record: AttendanceRecord | null };
  application: ReviewedApplication;
  questions: FormQuestion[];
  audit: AuditEntry[];
  mode: "event" | "group";
  formatDate: (iso: string) => string;
  /** Present when the application can be part of a bulk decision. */
  selection: CardSelection | null;
  /** The decision's actions in VRChat and their state. */
  actions?: ActionState[];
  /** A rejection can also block the account (linked, or linked at the decision) from asking to join again. */
  blockOption?: boolean;
  /** Its form or event approves only applicants whose VRChat account is proven. */
  requiresProof?: boolean;
  /** What the screening rules made of it. */
  screening?: ScreeningLine | null;
  /** The applicant is on the group's ban list: 'Banned on DATE by X: reason'. */
  banned?: string | null;
  /** The viewer may ban the applicant (by the accounts linked to the application). */
  banOption?: boolean;
  /** Decided, but not acted on in VRChat: no account is linked. */
  notLinked?: boolean;
  /** Decided without acting in VRChat: its account is matched by name only, waiting for staff to confirm it. */
  unconfirmed?: boolean;
  /** An approved attendee of an event whose instance admits its role: can they get in? */
  entry?: AttendeeEntry | null;
  /** The 'VRChat' panel, drawn when the card is opened (it looks the applicant up), and the lookup it reads. */
  vrchatPanel?: () => ReactNode;
  vrchatLookupUrl?: string | null;
  /** The 'Discord' panel, likewise. */
  discordPanel?: () => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const screened = screening && !application.spam ? screeningText(screening, application.status) : null;
  // The panels look again once the decision or its actions change what VRChat and Discord have.
  const lookupKey = `${application.status}:${actions.map((action) => action.status).join()}`;
  const fetcher = useFetcher<{ ok?: boolean; error?: string; message?: string; full?: boolean }>();
  const busy = fetcher.state !== "idle";
  const [notes, setNotes] = useState(application.notes ?? "");
  // An approval the server refused because the event is full: the admin is asked, once per
  // refusal, whether to go over.
  const [settled, setSettled] = useState<typeof fetcher.data>(undefined);
  const refusal = fetcher.data?.full && settled !== fetcher.data ? (fetcher.data.error ?? null) : null;
  useEffect(() => {
    if (fetcher.data?.full) return;
    if (fetcher.data?.error) toast.error(fetcher.data.error);
    else if (fetcher.data?.message) toast.success(fetcher.data.message);
  }, [fetcher.data]);

  function approveOverCapacity() {
    setSettled(fetcher.data);
    void fetcher.submit({ intent: "status", id: application.id, status: "approved", notes, overCapacity: "yes" }, { method: "post" });
  }

  const byId = new Map(questions.map((q) => [q.id, q]));
  // Group applications are approved or rejected once, from the list (spec); event ones are set to
  // any status from the opened card.
  const decisions: ApplicationStatus[] = mode === "group" && application.status === "pending" && !application.spam ? ["approved", "rejected"] : [];

  // A group decision removes its buttons; the focus one of them held goes to the card's summary,
  // which is still there, instead of falling back to the top of the page.
  const summaryRef = useRef<HTMLElement>(null);
  const hadDecisions = useRef(decisions.length > 0);
  useEffect(() => {
    const had = hadDecisions.current;
    hadDecisions.current = decisions.length > 0;
    if (had && decisions.length === 0 && document.activeElement === document.body) summaryRef.current?.focus();
  }, [decisions.length]);

  // While a change is saved the status buttons refuse clicks but stay focusable: a disabled button
  // would drop the keyboard focus to the top of the page.
  function refuseWhileBusy(event: FormEvent) {
    if (busy) event.preventDefault();
  }

  function saveNotes() {
    if (notes === (application.notes ?? "")) return;
    fetcher.submit({ intent: "notes", id: application.id, notes }, { method: "post" });
  }

  function statusButton(status: ApplicationStatus) {
    const label = mode === "group" ? (status === "approved" ? m.review_approve() : m.review_reject()) : statusLabel(status);
    return (
      <fetcher.Form key={status} method="post" onSubmit={refuseWhileBusy}>
        <input type="hidden" name="intent" value="status" />
        <input type="hidden" name="id" value={application.id} />
        <input type="hidden" name="status" value={status} />
        {mode === "event" ? <input type="hidden" name="notes" value={notes} /> : null}
        {status === "rejected" && blockOption ? (
          <label className="mr-2 inline-flex items-center gap-1.5 text-xs text-mist-300">
            <input type="checkbox" name="block" className="size-4 accent-ember-400" />
            {m.review_and_block()}
          </label>
        ) : null}
        <Button
          type="submit"
          size="sm"
          variant={mode === "event" && status === application.status ? "primary" : "outline"}
          aria-disabled={busy || undefined}
          className="aria-disabled:opacity-50"
          aria-pressed={mode === "event" ? status === application.status : undefined}
        >
          {label}
        </Button>
      </fetcher.Form>
    );
  }

  return (
    <Card className="p-5" aria-busy={busy}>
      <OverCapacityDialog refusal={refusal} onDismiss={() => setSettled(fetcher.data)} onConfirm={approveOverCapacity} />
      <div className="flex flex-wrap items-start gap-3">
        {selection ? (
          <input
            type="checkbox"
            name="ids"
            value={application.id}
            form={selection.formId}
            checked={selection.checked}
            onChange={(event) => selection.onChange(event.target.checked)}
            aria-label={m.review_select({ name: application.vrchatUsername || application.discordId || m.review_this_application() })}
            className="mt-1 size-5 shrink-0 cursor-pointer accent-ember-400"
          />
        ) : null}
        <div className="min-w-0 flex-1 basis-48">
          <p className="font-semibold break-words text-mist-100">
            <span>{application.vrchatUsername || "—"}</span>
            {fileHref ? (
              <Link to={fileHref} className="ml-2 text-sm font-normal text-aurora-300 underline-offset-2 hover:underline" data-testid="person-file-link">
                {m.review_person_file()}
              </Link>
            ) : null}
          </p>
          <p className="text-sm break-words text-mist-400">{application.discordId || "—"}</p>
          <LinkedVRChatLine application={application} />
          {banned ? (
            <p className="mt-1 text-sm break-words" data-testid="banned">
              <Badge tone="danger">{banned}</Badge>
            </p>
          ) : null}
          {screened ? (
            <p className="mt-1 flex flex-wrap items-center gap-2 text-sm">
              <Badge tone={screened.tone} data-testid="screening">
                {screened.text}
              </Badge>
              {mode === "group" && reopenable(screening, application.status) ? (
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  disabled={busy}
                  title={REOPEN_NOTE()}
                  onClick={() => fetcher.submit({ intent: "status", id: application.id, status: "pending" }, { method: "post" })}
                >
                  {m.review_reopen()}
                </Button>
              ) : null}
            </p>
          ) : null}
          {requiresProof && application.vrchatLinkedHow !== "proven" && !application.spam && (application.status === "pending" || application.status === "waitlist") ? (
            <p className="mt-1 text-sm text-ember-300" data-testid="needs-proof">
              <Badge tone="gold">{m.review_needs_proof()}</Badge> <span>{NEEDS_PROOF_TEXT()}</span>
            </p>
          ) : null}
          {notLinked ? (
            <p className="mt-1 text-sm text-ember-300" data-testid="not-linked">
              <Badge tone="gold">{NOT_LINKED_LABEL()}</Badge> <span>{NOT_LINKED_HOW()}</span>
            </p>
          ) : unconfirmed ? (
            <p className="mt-1 text-sm text-ember-300" data-testid="unconfirmed">
              <Badge tone="gold">{UNCONFIRMED_LABEL()}</Badge> <span>{UNCONFIRMED_HOW()}</span>
            </p>
          ) : null}
          {entry ? (
            <p className="mt-1 text-sm text-mist-300" data-testid="attendee-entry">
              <Badge tone={ENTRY_TEXT[entry].tone}>{ENTRY_TEXT[entry].badge()}</Badge> <span>{ENTRY_TEXT[entry].text()}</span>
            </p>
          ) : null}
          {application.discordUserId ? (
            <p className="text-sm break-all text-mist-300">
              {m.review_discord_line({ name: application.discordDisplayName ?? application.discordUserId })}{" "}
              <span className="text-xs text-mist-400">({application.discordUserId})</span>
            </p>
          ) : null}
          <p className="mt-1 text-xs text-mist-400">
            {m.review_submitted({ when: application.submittedAt ? formatDate(application.submittedAt) : m.review_unknown() })}
            {application.reviewedAt ? m.review_reviewed({ when: formatDate(application.reviewedAt) }) : ""}
          </p>
          {attendance?.record ? (
            <p className="mt-1 text-xs text-mist-300" data-testid="attendance-record">
              {attendanceRecordText(attendance.record)}
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {application.spam ? <Badge tone="danger">{m.review_spam()}</Badge> : null}
          <Badge tone={STATUS_TONE[application.status]}>{statusLabel(application.status)}</Badge>
          {attendance?.open && application.status === "approved" && !application.spam ? (
            <div role="group" aria-label={m.review_attendance_of({ name: application.vrchatUsername })} className="flex gap-1">
              {(["attended", "no_show"] as const).map((value) => {
                const current = application.attendance === value;
                return (
                  <fetcher.Form key={value} method="post" onSubmit={refuseWhileBusy}>
                    <input type="hidden" name="intent" value="attendance" />
                    <input type="hidden" name="ids" value={application.id} />
                    {/* Pressed again, the mark is taken back. */}
                    <input type="hidden" name="attendance" value={current ? "clear" : value} />
                    <Button type="submit" size="sm" variant={current ? "primary" : "outline"} aria-pressed={current}>
                      {ATTENDANCE_LABEL[value]()}
                    </Button>
                  </fetcher.Form>
                );
              })}
            </div>
          ) : application.attendance ? (
            <Badge tone={application.attendance === "attended" ? "live" : "muted"}>{ATTENDANCE_LABEL[application.attendance]()}</Badge>
          ) : null}
          {decisions.map(statusButton)}
          {banOption && !banned && (application.vrchatUserId || application.discordUserId) ? (
            <BanApplicantDialog application={application} busy={busy} lookupUrl={vrchatLookupUrl} onBan={(fields) => void fetcher.submit({ intent: "ban", id: application.id, ...fields }, { method: "post" })} />
          ) : null}
          <fetcher.Form method="post" onSubmit={refuseWhileBusy}>
            <input type="hidden" name="intent" value={application.spam ? "not-spam" : "spam"} />
            <input type="hidden" name="id" value={application.id} />
            <Button type="submit" size="sm" variant="ghost" aria-disabled={busy || undefined} className="aria-disabled:opacity-50">
              {application.spam ? m.review_not_spam() : m.review_mark_spam()}
            </Button>
          </fetcher.Form>
        </div>
      </div>
      {actions.length > 0 ? (
        <div className="mt-3 space-y-1" aria-label={m.review_actions_label()} role="group" data-testid="decision-actions">
          {actions.map((action) => (
            <ActionLine
              key={action.id}
              action={action}
              busy={busy}
              retry={
                <fetcher.Form method="post">
                  <input type="hidden" name="intent" value="retry-job" />
                  <input type="hidden" name="job" value={action.id} />
                  <Button type="submit" size="sm" variant="outline">{m.review_retry()}</Button>
                </fetcher.Form>
              }
            />
          ))}
        </div>
      ) : null}
      <details className="group mt-3" onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary
          ref={summaryRef}
          className="inline-flex cursor-pointer list-none items-center gap-1 rounded text-sm text-aurora-300 hover:text-ember-300"
        >
          {m.review_show_responses()}
          <Icon node={ChevronDown} className="size-4 transition-transform group-open:rotate-180" />
        </summary>
        <div className="mt-4 space-y-5 border-t border-aurora-400/15 pt-4">
          <section>
            <h3 className="font-display text-lg text-mist-100">{m.review_responses()}</h3>
            <dl className="mt-2 space-y-3">
              {application.answers.map((answer, index) => (
                <div key={answer.questionId ?? `${index}-${answer.question}`}>
                  <dt className="text-sm font-semibold text-mist-300">
                    {answer.question}
                    {answer.questionId && byId.get(answer.questionId)?.required ? <span className="text-ember-400"> *</span> : null}
                  </dt>
                  <dd className="mt-0.5 whitespace-pre-line text-mist-100">
                    <AnswerView answer={answer} />
                  </dd>
                  {answer.type === "vrchat_profile" && application.vrchatProfileCheck && !application.vrchatUserId ? (
                    <dd className="mt-1 text-sm text-ember-300" data-testid="profile-check">
                      {PROFILE_CHECK_TEXT[application.vrchatProfileCheck]()}
                    </dd>
                  ) : null}
                </div>
              ))}
            </dl>
          </section>
          {vrchatPanel && open && !application.spam ? (
            <section>
              <h3 className="font-display text-lg text-mist-100">VRChat</h3>
              <div className="mt-2" key={lookupKey}>
                {vrchatPanel()}
              </div>
            </section>
          ) : null}
          {discordPanel && open && !application.spam ? (
            <section>
              <h3 className="font-display text-lg text-mist-100">Discord</h3>
              <div className="mt-2" key={lookupKey}>
                {discordPanel()}
              </div>
            </section>
          ) : null}
          {mode === "event" && application.notes ? (
            <section>
              <h3 className="font-display text-lg text-mist-100">{m.review_admin_notes()}</h3>
              <p className="mt-1 whitespace-pre-line text-mist-300">{application.notes}</p>
            </section>
          ) : null}
          {mode === "event" && !application.spam ? <div className="flex flex-wrap gap-2">{APPLICATION_STATUSES.map(statusButton)}</div> : null}
          {mode === "event" ? (
            <div className="space-y-1">
              <label htmlFor={`notes-${application.id}`} className="block text-sm font-semibold text-mist-100">{m.review_admin_notes()}</label>
              <textarea
                id={`notes-${application.id}`}
                value={notes}
                rows={3}
                maxLength={5000}
                onChange={(e) => setNotes(e.target.value)}
                onBlur={saveNotes}
                disabled={busy}
                className={fieldClass}
              />
            </div>
          ) : null}
          <History audit={audit} formatDate={formatDate} />
        </div>
      </details>
    </Card>
  );
}
