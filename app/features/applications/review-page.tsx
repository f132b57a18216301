/**
 * The review page (the group's applications, or an event's): the heading and its links, the summary,
 * the filters, the bulk bar and the cards. The accounts' panels belong to other features: the route
 * hands them in (`panels`).
 */
import type { ReactNode } from "react";
import { href, Link } from "react-router";
import { BackLink, ErrorAlert, Notice } from "~/components/ui/alert";
import { m } from "~/paraglide/messages";
import { NO, YES, type FormQuestion } from "~/utils/form-questions";
import { formatCount } from "~/utils/language";
import { personPath } from "~/utils/person-key";
import { ApplicationCard } from "./application-card";
import { attendeeEntry, type ActionState, type ScreeningLine } from "./application-card-lines";
import { Pagination, ReviewEmpty, SummaryTiles, useActionsProgress } from "./application-review";
import type { AttendanceRecord } from "./attendance.server";
import { BULK_FORM_ID, BulkDecisions, bulkOutcomeMessage, useSelection, type BulkResult } from "./bulk-decisions";
import { placesTakenText, type Places } from "./places";
import { ReviewFilters, type AnswerChoice } from "./review-filters";
import type { AuditEntry, listForReview, ReviewQuery } from "./review.server";

/** What the page reads (see flows/review-page). */
export interface ReviewPageData {
  error: string | null;
  event: { id: string; title: string; applicationRequired: boolean; places: Places | null; ended: boolean } | null;
  review: Awaited<ReturnType<typeof listForReview>> | null;
  questions: FormQuestion[];
  audit: AuditEntry[];
  jobs: (ActionState & { sourceId: string })[];
  vrchat: { configured: boolean; actions: boolean; roles: boolean; invitesFromApprovals: boolean };
  discord: { configured: boolean };
  query: ReviewQuery;
  may: { export: boolean; messages: boolean; ban: boolean; people: boolean };
  records: Record<string, AttendanceRecord>;
  requiresProof: boolean;
  screenings: Record<string, ScreeningLine>;
  banned: Record<string, string>;
  /** A decided group application that did not act in VRChat: for want of an account, or of its confirmation. */
  accounts: Record<string, { notLinked: boolean; unconfirmed: boolean }>;
}

/** The questions the list may be filtered by, with the answers each can have. */
function answerChoicesOf(questions: readonly FormQuestion[]): AnswerChoice[] {
  return questions.flatMap((question) =>
    question.questionType === "yes_no"
      ? [{ questionId: question.id, question: question.question, values: [YES, NO] }]
      : question.questionType === "select" || question.questionType === "checkboxes"
        ? [{ questionId: question.id, question: question.question, values: question.options ?? [] }]
        : [],
  );
}

export interface ReviewPanels {
  vrchat: (applicationId: string) => ReactNode;
  vrchatLookupUrl: (applicationId: string) => string | null;
  discord: ((applicationId: string) => ReactNode) | null;
}

export function ReviewPage({
  page,
  mode,
  posted,
  formatDate,
  panels,
}: {
  page: ReviewPageData;
  mode: "event" | "group";
  /** What a post without JavaScript answered (a bulk decision's outcome, or a refusal). */
  posted: BulkResult | { error: string } | { ok: true; message?: string } | undefined;
  formatDate: (iso: string) => string;
  panels: ReviewPanels;
}) {
  const { error, event, review, questions, audit, jobs, vrchat, query, may } = page;
  useActionsProgress(jobs.some((job) => job.status === "pending"));
  const exportHref = mode === "event" && event ? href("/admin/events/:eventId/applications/export", { eventId: event.id }) : href("/admin/applications/export");
  // Group applications are decided once: only pending ones can be part of a bulk decision.
  const selectable = (review?.applications ?? []).filter((a) => !a.spam && (mode === "event" || a.status === "pending")).map((a) => a.id);
  const selection = useSelection(selectable);
  // Without JavaScript a bulk decision posts the page; its outcome is shown here.
  const bulk = posted && "bulk" in posted && posted.bulk ? bulkOutcomeMessage(mode, posted.bulk.status, posted.bulk.outcome) : null;
  const postError = posted && "error" in posted ? posted.error : null;

  return (
    <div className="space-y-6">
      {mode === "event" ? <BackLink to={href("/admin/events")}>{m.apps_back_events()}</BackLink> : null}
      <div>
        <h1 className="font-display text-4xl text-mist-100">{mode === "event" ? m.apps_heading_event() : m.apps_heading_group()}</h1>
        {event ? (
          <p className="mt-2 text-mist-300">
            {event.title}
            {event.places ? <span className="text-mist-400" data-testid="places-taken"> · {placesTakenText(event.places)}</span> : null}
          </p>
        ) : null}
        {may.messages ? (
          <p className="mt-2 text-sm">
            <Link to={event ? href("/admin/events/:eventId/messages", { eventId: event.id }) : href("/admin/messages")} className="text-aurora-300 underline hover:text-ember-300">
              {m.apps_decision_messages()}
            </Link>
            <span className="text-mist-400">{m.apps_decision_messages_note()}</span>
          </p>
        ) : null}
      </div>
      {error || !review ? (
        <ErrorAlert>{error}</ErrorAlert>
      ) : (
        <>
          {event && !event.applicationRequired ? <Notice>{m.apps_no_applications_needed()}</Notice> : null}
          <SummaryTiles counts={review.counts} mode={mode} />
          {event?.places && event.places.left > 0 && review.counts.waitlist > 0 ? (
            <Notice>
              {m.apps_waitlist_free({
                places: event.places.left === 1 ? m.apps_places_free_one() : m.apps_places_free({ count: formatCount(event.places.left) }),
                applications: review.counts.waitlist === 1 ? m.apps_waitlisted_one() : m.apps_waitlisted({ count: formatCount(review.counts.waitlist) }),
              })}
              <Link to="?status=waitlist" className="text-aurora-300 underline hover:text-ember-300">
                {m.apps_show_waitlist()}
              </Link>
              {m.apps_first_in_line()}
            </Notice>
          ) : null}
          <ReviewFilters mode={mode} exportHref={may.export ? exportHref : null} canExport={review.counts.total > 0} matching={review.matching} answerChoices={answerChoicesOf(questions)} />
          {bulk ? <Notice>{bulk}</Notice> : null}
          {postError ? <ErrorAlert>{postError}</ErrorAlert> : null}
          {/* Kept mounted once the last selectable one is decided, so its outcome is still told. */}
          {review.applications.length > 0 ? (
            <BulkDecisions
              mode={mode}
              selectable={selectable.length}
              selection={selection}
              previewUrl={mode === "group" && vrchat.actions ? href("/admin/applications/approval-preview") : null}
              attendance={event?.ended ?? false}
            />
          ) : null}
          {review.applications.length === 0 ? (
            <ReviewEmpty mode={mode} filtered={review.counts.total + review.counts.spam > 0} />
          ) : (
            <ul className="space-y-3" aria-label={m.apps_list_label()}>
              {review.applications.map((application) => (
                <li key={application.id}>
                  <ApplicationCard
                    application={application}
                    questions={questions}
                    audit={audit.filter((entry) => entry.applicationId === application.id)}
                    actions={jobs.filter((job) => job.sourceId === application.id)}
                    blockOption={vrchat.actions}
                    requiresProof={page.requiresProof}
                    screening={page.screenings[application.id] ?? null}
                    banned={page.banned[application.id] ?? null}
                    banOption={may.ban}
                    fileHref={may.people ? personPath({ ...application, applicationId: application.id }) : null}
                    notLinked={page.accounts[application.id]?.notLinked ?? false}
                    unconfirmed={page.accounts[application.id]?.unconfirmed ?? false}
                    entry={mode === "event" && vrchat.roles ? attendeeEntry(application, vrchat.invitesFromApprovals) : null}
                    vrchatPanel={() => panels.vrchat(application.id)}
                    vrchatLookupUrl={panels.vrchatLookupUrl(application.id)}
                    discordPanel={panels.discord ? () => panels.discord!(application.id) : undefined}
                    mode={mode}
                    formatDate={formatDate}
                    attendance={{ open: event?.ended ?? false, record: page.records[application.id] ?? null }}
                    selection={
                      selectable.includes(application.id)
                        ? { formId: BULK_FORM_ID, checked: selection.isSelected(application.id), onChange: (on) => selection.set(application.id, on) }
                        : null
                    }
                  />
                </li>
              ))}
            </ul>
          )}
          <Pagination page={query.page} pageCount={review.pageCount} />
        </>
      )}
    </div>
  );
}
