import { data, href, Link } from "react-router";
import { z } from "zod";
import { BackLink, ErrorAlert, Notice } from "~/components/ui/alert";
import { appContext } from "~/context";
import { APPLICATION_STATUSES } from "~/db/enums";
import { ApplicationCard } from "~/features/applications/application-card";
import { banLinesFor } from "~/features/bans/bans.server";
import { attendeeEntry, DECISION_ACTION_TARGETS, NOT_LINKED_DECIDED, ONLY_RULES_REOPEN, REOPEN_NOTE, type ScreeningLine } from "~/features/applications/application-card-lines";
import { NEEDS_PROOF_MESSAGE, needsProofMessage } from "~/features/applications/proof";
import { listScreenings } from "~/features/screening/screenings.server";
import { listPlaces } from "~/features/applications/capacity.server";
import { fullMessage, placesTakenText } from "~/features/applications/places";
import { Pagination, ReviewEmpty, SummaryTiles, useActionsProgress } from "~/features/applications/application-review";
import { listFormQuestions } from "~/features/applications/applications.server";
import { BULK_FORM_ID, BulkDecisions, bulkOutcomeMessage, useSelection, type BulkResult } from "~/features/applications/bulk-decisions";
import { ReviewFilters, type AnswerChoice } from "~/features/applications/review-filters";
import { NO, YES, type FormQuestion } from "~/utils/form-questions";
import { describeApplication, listAudit, listForReview, REVIEW_PAGE_SIZE, ReviewQuerySchema } from "~/features/applications/review.server";
import { BULK_STATUSES, markSpam } from "~/features/applications/review-changes.server";
import { attendanceRecords, markAttendance, type AttendanceRecord } from "~/features/applications/attendance.server";
import { formatShortDate, isEventPast } from "~/features/events/event-timing";
import { listJobsFor, retryOutboxJob } from "~/features/notifications/outbox.server";
import { DiscordLinkPanel } from "~/features/discord/discord-link-panel";
import { VRChatLinkPanel } from "~/features/vrchat/vrchat-link-panel";
import { decideApplication, decideApplications, decideServices, findReview, type Decider } from "~/flows/decide.server";
import { getSiteSettings } from "~/features/accounts/team.server";
import { requireOnEvent, requireStaff } from "~/utils/admin-guard.server";
import { allows, allowsOnEvent } from "~/utils/roles";
import { log } from "~/utils/log.server";
import { useViewerTimeZone } from "~/utils/viewer-time-zone";
import type { Route } from "./+types/_site.admin.applications";
import { linkIntent } from "./admin-application-links.server";
import { banApplicant } from "~/flows/bans.server";
import { m } from "~/paraglide/messages";
import { formatCount } from "~/utils/language";
import { personPath } from "~/utils/person-key";

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

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context, params.eventId ? "sanctum" : "group.review");
  const { db, vrchat: services, discord: bot } = context.get(appContext);
  const query = ReviewQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const vrchat = { configured: services.membership !== null, actions: services.membershipActions, roles: services.roles !== null, invitesFromApprovals: false };
  const discord = { configured: bot !== null };
  const loadError = params.eventId ? m.apps_load_event_failed() : m.apps_fetch_failed();
  const nothing = { event: null, review: null, questions: [], audit: [], jobs: [], vrchat, discord, query, may: { export: false, messages: false, ban: false }, records: {} as Record<string, AttendanceRecord>, requiresProof: false, screenings: {} as Record<string, ScreeningLine>, banned: {} as Record<string, string> };
  let found;
  try {
    found = await findReview(db, params.eventId);
  } catch (error) {
    log.error("failed to load applications for review", { error });
    return data({ error: loadError, ...nothing }, { status: 503 });
  }
  if (!found) return data({ error: m.event_not_found_admin(), ...nothing }, { status: 404 });
  if (found.event) requireOnEvent(viewer, "review", found.event);
  // What the page offers beyond deciding: the server checks each again.
  const may = {
    export: found.event ? allowsOnEvent(viewer, "export", found.event) : allows(viewer.role, "group.export"),
    messages: allows(viewer.role, "messages"),
    ban: allows(viewer.role, "bans"),
    people: allows(viewer.role, "people"),
  };
  try {
    const [review, questions, settings] = await Promise.all([listForReview(db, found.scope, query), listFormQuestions(db, found.scope), getSiteSettings(db)]);
    vrchat.invitesFromApprovals = vrchat.actions && settings.eventApprovalInvites;
    const ids = review.applications.map((a) => a.id);
    const [audit, jobs, screenings, banned] = await Promise.all([
      listAudit(db, ids),
      listJobsFor(db, ids, DECISION_ACTION_TARGETS),
      listScreenings(db, found.scope.kind, ids),
      banLinesFor(db, review.applications),
    ]);
    const places = found.event ? ((await listPlaces(db, [found.event.id])).get(found.event.id) ?? null) : null;
    const event = found.event
      ? { id: found.event.id, title: found.event.title, applicationRequired: found.event.applicationRequired, places, ended: isEventPast(found.event, new Date()) }
      : null;
    // How the same people did at the group's other events, for the cards.
    const records: Record<string, AttendanceRecord> = found.event ? await attendanceRecords(db, found.event.id, review.applications) : {};
    const requiresProof = found.event ? found.event.requiresProof : settings.groupRequiresProof;
    return { error: null, event, review, questions, audit, jobs, vrchat, discord, query, may, records, requiresProof, screenings, banned };
  } catch (error) {
    log.error("failed to load applications for review", { error });
    return data({ error: loadError, ...nothing }, { status: 503 });
  }
}

const ChangeSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("status"),
    id: z.string(),
    status: z.enum(APPLICATION_STATUSES),
    notes: z.string().max(5000).optional(),
    block: z.literal("on").optional(),
    /** The admin confirmed approving past the event's last place. */
    overCapacity: z.literal("yes").optional(),
  }),
  z.object({ intent: z.literal("notes"), id: z.string(), notes: z.string().max(5000) }),
]);

const AttendanceSchema = z.object({
  value: z.enum(["attended", "no_show", "clear"], { error: () => m.apps_choose_attendance() }),
  ids: z.array(z.string().max(100)).min(1, { error: () => m.apps_select_one() }).max(REVIEW_PAGE_SIZE),
});
export const ATTENDANCE_TOO_EARLY = m.apps_attendance_too_early;

const SpamSchema = z.object({ intent: z.enum(["spam", "not-spam"]), id: z.string().max(100) });


const BulkSchema = z.object({
  status: z.enum([...BULK_STATUSES, "spam"]),
  overCapacity: z.literal("yes").optional(),
  ids: z.array(z.string().max(100)).min(1, { error: () => m.apps_select_one() }).max(REVIEW_PAGE_SIZE),
});

export async function action({ request, params, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, params.eventId ? "sanctum" : "group.review");
  const app = context.get(appContext);
  const { db, vrchat, discord, notifications } = app;
  const services = decideServices(app);
  const found = await findReview(db, params.eventId);
  if (!found) return data({ error: m.event_not_found_admin() }, { status: 404 });
  if (found.event) requireOnEvent(viewer, "review", found.event);
  const form = await request.formData().catch(() => null);
  const reviewer = { id: viewer.id, username: viewer.username };
  const decider: Decider = { ...reviewer, via: "sanctum", role: viewer.role };

  const intent = form?.get("intent");
  if (intent === "link-vrchat" || intent === "unlink-vrchat" || intent === "link-discord" || intent === "unlink-discord") {
    return linkIntent(intent, form, { services, vrchat, discord, found, decider });
  }
  if (intent === "ban") {
    if (!allows(viewer.role, "bans")) return data({ error: m.apps_bans_owners() }, { status: 403 });
    const ban = z.object({ id: z.uuid(), reason: z.string().trim().min(1, { error: () => m.apps_ban_reason() }).max(1_000) }).safeParse({ id: form?.get("id"), reason: form?.get("reason") ?? "" });
    if (!ban.success) return data({ error: ban.error.issues[0]!.message }, { status: 400 });
    const target = { kind: found.scope.kind, id: ban.data.id, eventId: found.event?.id ?? null };
    const banned = await banApplicant(services, target, ban.data.reason, decider).catch((error: unknown) => {
      log.error("failed to ban an applicant", { error });
      return { kind: "failed" as const };
    });
    if (banned.kind === "failed") return data({ error: m.apps_ban_failed() }, { status: 503 });
    if (banned.kind === "missing") return data({ error: m.apps_update_failed() }, { status: 404 });
    if (banned.kind === "no-account") return data({ error: m.apps_link_first() }, { status: 409 });
    if (banned.kind === "already") return data({ error: `${banned.ban.displayName} is already banned. Nothing was changed.` }, { status: 409 });
    return { ok: true as const, message: `${banned.ban.displayName} is banned.` };
  }
  if (intent === "retry-job") {
    const jobId = z.uuid().safeParse(form?.get("job"));
    if (!jobId.success) return data({ error: m.apps_update_failed() }, { status: 400 });
    try {
      // Only a job of an application under this review (a host's own event's): never another's.
      const inReview = async (sourceId: string) => {
        const application = await describeApplication(db, found.scope.kind, sourceId);
        return application !== null && (found.scope.kind === "group" || application.eventId === found.scope.eventId);
      };
      if (!(await retryOutboxJob(db, jobId.data, inReview))) return data({ error: m.apps_not_waiting() }, { status: 409 });
      notifications.wake();
      return { ok: true as const, message: m.apps_trying_again() };
    } catch (error) {
      log.error("failed to retry an action", { error });
      return data({ error: m.apps_update_failed() }, { status: 503 });
    }
  }
  if (intent === "spam" || intent === "not-spam") {
    const marked = SpamSchema.safeParse({ intent, id: form?.get("id") });
    if (!marked.success) return data({ error: m.apps_update_failed() }, { status: 400 });
    try {
      const outcome = await markSpam(db, found.scope, [marked.data.id], intent === "spam", reviewer, new Date());
      if (outcome === "conflict") {
        return data({ error: m.apps_spam_taken() }, { status: 409 });
      }
      if (outcome.changed + outcome.unchanged === 0) return data({ error: m.apps_update_failed() }, { status: 404 });
      return { ok: true as const, message: intent === "spam" ? m.apps_marked_spam() : m.apps_not_spam() };
    } catch (error) {
      log.error("failed to mark an application as spam", { error });
      return data({ error: m.apps_update_failed() }, { status: 503 });
    }
  }

  if (intent === "attendance") {
    const marked = AttendanceSchema.safeParse({ value: form?.get("attendance"), ids: form?.getAll("ids") });
    if (!found.event) return data({ error: m.apps_attendance_events() }, { status: 400 });
    if (!marked.success) return data({ error: marked.error.issues[0]?.message ?? m.apps_update_failed() }, { status: 400 });
    if (!isEventPast(found.event, new Date())) return data({ error: ATTENDANCE_TOO_EARLY() }, { status: 409 });
    try {
      const value = marked.data.value === "clear" ? null : marked.data.value;
      const outcome = await markAttendance(db, found.event.id, marked.data.ids, value, reviewer);
      const who = outcome.changed === 1 ? m.apps_one_attendee() : m.apps_attendees({ count: formatCount(outcome.changed) });
      const said = value === "attended" ? m.apps_marked_attended({ who }) : value === "no_show" ? m.apps_marked_no_show({ who }) : m.apps_marked_cleared({ who });
      const left = outcome.unchanged + outcome.missing;
      return { ok: true as const, message: `${said}${left > 0 ? m.apps_left_as_were({ count: formatCount(left) }) : ""}` };
    } catch (error) {
      log.error("failed to mark attendance", { error });
      return data({ error: m.apps_update_failed() }, { status: 503 });
    }
  }
  if (intent === "bulk") {
    const bulk = BulkSchema.safeParse({ status: form?.get("status"), ids: form?.getAll("ids"), overCapacity: form?.get("overCapacity") ?? undefined });
    const failed = found.scope.kind === "event" ? m.apps_status_failed() : bulk.success && bulk.data.status === "rejected" ? m.apps_reject_many_failed() : m.apps_approve_many_failed();
    if (!bulk.success) {
      const noneSelected = bulk.error.issues.some((issue) => issue.path[0] === "ids" && issue.code === "too_small");
      return data({ error: noneSelected ? m.apps_select_one() : failed }, { status: 400 });
    }
    try {
      const status = bulk.data.status;
      if (status === "spam") {
        const outcome = await markSpam(db, found.scope, bulk.data.ids, true, reviewer, new Date());
        if (outcome === "conflict") throw new Error("marking as spam cannot conflict");
        return { ok: true as const, bulk: { status, outcome } } satisfies BulkResult;
      }
      const outcome = await decideApplications(services, found, { ids: bulk.data.ids, status, overCapacity: bulk.data.overCapacity === "yes" }, decider);
      if (outcome.kind === "full") return data({ error: fullMessage(outcome.places, outcome.approving), full: true as const }, { status: 409 });
      if (outcome.kind === "needs-proof") return data({ error: needsProofMessage(outcome.count) }, { status: 409 });
      return { ok: true as const, bulk: { status, outcome } } satisfies BulkResult;
    } catch (error) {
      log.error("failed to review applications in bulk", { error });
      return data({ error: failed }, { status: 503 });
    }
  }

  const parsed = ChangeSchema.safeParse(form ? Object.fromEntries(form) : {});
  const failed =
    found.scope.kind === "event"
      ? m.apps_status_failed()
      : !parsed.success || parsed.data.intent !== "status"
        ? m.apps_update_failed()
        : parsed.data.status === "approved"
          ? m.apps_approve_failed()
          : parsed.data.status === "pending"
            ? m.apps_reopen_failed()
            : m.apps_reject_failed();
  if (!parsed.success) return data({ error: failed }, { status: 400 });
  const change = parsed.data;
  // Group applications are approved or rejected once, from pending (spec); event ones any to any.
  if (found.scope.kind === "group" && change.intent === "notes") return data({ error: failed }, { status: 400 });
  try {
    const notes = change.notes === undefined ? undefined : change.notes.trim() || null;
    const outcome = await decideApplication(
      services,
      found,
      {
        id: change.id,
        status: change.intent === "status" ? change.status : undefined,
        notes,
        block: change.intent === "status" && change.block === "on",
        overCapacity: change.intent === "status" && change.overCapacity === "yes",
      },
      decider,
    );
    if (outcome.kind === "conflict") return data({ error: change.intent === "status" && change.status === "pending" && found.scope.kind === "group" ? ONLY_RULES_REOPEN() : failed }, { status: 409 });
    if (outcome.kind === "full") return data({ error: fullMessage(outcome.places, 1), full: true as const }, { status: 409 });
    if (outcome.kind === "missing") return data({ error: failed }, { status: 404 });
    if (outcome.kind === "needs-proof") return data({ error: NEEDS_PROOF_MESSAGE() }, { status: 409 });
    return outcome.notLinked ? { ok: true as const, message: NOT_LINKED_DECIDED() } : { ok: true as const, message: change.intent === "status" && change.status === "pending" && found.scope.kind === "group" ? REOPEN_NOTE() : undefined };
  } catch (error) {
    log.error("failed to review an application", { error });
    return data({ error: failed }, { status: 503 });
  }
}

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.eventId ? m.apps_title_event() : m.apps_title_group() }];
}

export default function ApplicationsReview({ loaderData, actionData, params }: Route.ComponentProps) {
  const { error, event, review, questions, audit, jobs, vrchat, discord, query, may } = loaderData;
  useActionsProgress(jobs.some((job) => job.status === "pending"));
  const timeZone = useViewerTimeZone();
  const formatDate = (iso: string) => formatShortDate(new Date(iso), timeZone);
  const mode = params.eventId ? "event" : "group";
  const exportHref =
    mode === "event" && event
      ? href("/admin/events/:eventId/applications/export", { eventId: event.id })
      : href("/admin/applications/export");
  // Group applications are decided once: only pending ones can be part of a bulk decision.
  const selectable = (review?.applications ?? []).filter((a) => !a.spam && (mode === "event" || a.status === "pending")).map((a) => a.id);
  const selection = useSelection(selectable);
  // Without JavaScript a bulk decision posts the page; its outcome is shown here.
  const posted = actionData && "bulk" in actionData && actionData.bulk ? bulkOutcomeMessage(mode, actionData.bulk.status, actionData.bulk.outcome) : null;
  const postError = actionData && "error" in actionData ? actionData.error : null;

  return (
    <div className="space-y-6">
      {mode === "event" ? (
        <BackLink to={href("/admin/events")}>{m.apps_back_events()}</BackLink>
      ) : null}
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
          <Link
            to={event ? href("/admin/events/:eventId/messages", { eventId: event.id }) : href("/admin/messages")}
            className="text-aurora-300 underline hover:text-ember-300"
          >
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
          {event && !event.applicationRequired ? (
            <Notice>{m.apps_no_applications_needed()}</Notice>
          ) : null}
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
          {posted ? <Notice>{posted}</Notice> : null}
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
                    requiresProof={loaderData.requiresProof}
                    screening={loaderData.screenings[application.id] ?? null}
                    banned={loaderData.banned[application.id] ?? null}
                    banOption={loaderData.may.ban}
                    fileHref={loaderData.may.people ? personPath({ ...application, applicationId: application.id }) : null}
                    notLinked={mode === "group" && vrchat.actions && !application.spam && application.status !== "pending" && application.vrchatUserId === null}
                    entry={mode === "event" && vrchat.roles ? attendeeEntry(application, vrchat.invitesFromApprovals) : null}
                    vrchatPanel={() => <VRChatLinkPanel applicationId={application.id} eventId={event?.id} configured={vrchat.configured} />}
                    discordPanel={
                      discord.configured
                        ? () => (
                            <DiscordLinkPanel
                              applicationId={application.id}
                              lookupUrl={
                                event
                                  ? href("/admin/events/:eventId/applications/:applicationId/discord", { eventId: event.id, applicationId: application.id })
                                  : href("/admin/applications/:applicationId/discord", { applicationId: application.id })
                              }
                            />
                          )
                        : undefined
                    }
                    mode={mode}
                    formatDate={formatDate}
                    attendance={{ open: event?.ended ?? false, record: loaderData.records[application.id] ?? null }}
                    selection={
                      selectable.includes(application.id)
                        ? {
                            formId: BULK_FORM_ID,
                            checked: selection.isSelected(application.id),
                            onChange: (on) => selection.set(application.id, on),
                          }
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
