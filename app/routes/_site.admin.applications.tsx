import { data, href } from "react-router";
import { z } from "zod";
import { appContext } from "~/context";
import { APPLICATION_STATUSES } from "~/db/enums";
import { attendanceMarkedText, NOT_LINKED_DECIDED, ONLY_RULES_REOPEN, REOPEN_NOTE, UNCONFIRMED_DECIDED } from "~/features/applications/application-card-lines";
import { NEEDS_PROOF_MESSAGE, needsProofMessage } from "~/features/applications/proof";
import { fullMessage } from "~/features/applications/places";
import { type BulkResult } from "~/features/applications/bulk-decisions";
import { ReviewPage } from "~/features/applications/review-page";
import { isInReview, REVIEW_PAGE_SIZE, ReviewQuerySchema } from "~/features/applications/review.server";
import { BULK_STATUSES, markSpam } from "~/features/applications/review-changes.server";
import { markAttendance } from "~/features/applications/attendance.server";
import { formatShortDate, isEventPast } from "~/features/events/event-timing";
import { emptyReviewPage, readReviewPage } from "~/flows/review-page.server";
import { retryOutboxJob } from "~/features/notifications/outbox.server";
import { DiscordLinkPanel } from "~/features/discord/discord-link-panel";
import { VRChatLinkPanel, vrchatLookupUrl } from "~/features/vrchat/vrchat-link-panel";
import { decideApplication, decideApplications, decideServices, findReview, type Decider } from "~/flows/decide.server";
import { requireOnEvent } from "~/utils/admin-guard.server";
import { requireStaff } from "~/routes/staff-guard.server";
import { allows } from "~/utils/roles";
import { log } from "~/utils/log.server";
import { useViewerTimeZone } from "~/utils/viewer-time-zone";
import type { Route } from "./+types/_site.admin.applications";
import { linkIntent } from "./admin-application-links.server";
import { banApplicant } from "~/flows/bans.server";
import { BAN_CONFIRM_FIELDS, bannedText } from "~/features/applications/ban-applicant-dialog";
import { m } from "~/paraglide/messages";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context, params.eventId ? "sanctum" : "group.review");
  const ctx = context.get(appContext);
  const query = ReviewQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const loadError = params.eventId ? m.apps_load_event_failed() : m.apps_fetch_failed();
  const unavailable = (error: unknown) => {
    log.error("failed to load applications for review", { error });
    return data(emptyReviewPage(ctx, query, loadError), { status: 503 });
  };
  const found = await findReview(ctx.db, params.eventId).catch((error: unknown) => ({ error }));
  if (found && "error" in found) return unavailable(found.error);
  if (!found) return data(emptyReviewPage(ctx, query, m.event_not_found_admin()), { status: 404 });
  if (found.event) requireOnEvent(viewer, "review", found.event);
  return readReviewPage(ctx, found, query, viewer).catch(unavailable);
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


const BanSchema = z.object({
  id: z.uuid(),
  reason: z.string().trim().min(1, { error: () => m.apps_ban_reason() }).max(1_000),
  /** The account matched by name the staff member confirmed in the dialog, as shown there. */
  confirmVRChat: z.string().max(100).optional(),
  confirmDiscord: z.string().max(100).optional(),
});

const BulkSchema = z.object({
  status: z.enum([...BULK_STATUSES, "spam"]),
  overCapacity: z.literal("yes").optional(),
  /** The decider's word that the accounts matched by name are the applicants' (the dialog's box). */
  confirmNamed: z.literal("yes").optional(),
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
    const ban = BanSchema.safeParse({ id: form?.get("id"), reason: form?.get("reason") ?? "", confirmVRChat: form?.get(BAN_CONFIRM_FIELDS.vrchat) ?? undefined, confirmDiscord: form?.get(BAN_CONFIRM_FIELDS.discord) ?? undefined });
    if (!ban.success) return data({ error: ban.error.issues[0]!.message }, { status: 400 });
    const target = { kind: found.scope.kind, id: ban.data.id, eventId: found.event?.id ?? null };
    const confirmed = { vrchatUserId: ban.data.confirmVRChat, discordUserId: ban.data.confirmDiscord };
    const banned = await banApplicant(services, target, ban.data.reason, decider, confirmed).catch((error: unknown) => {
      log.error("failed to ban an applicant", { error });
      return { kind: "failed" as const };
    });
    if (banned.kind === "failed") return data({ error: m.apps_ban_failed() }, { status: 503 });
    if (banned.kind === "missing") return data({ error: m.apps_update_failed() }, { status: 404 });
    if (banned.kind === "no-account") return data({ error: m.apps_link_first() }, { status: 409 });
    if (banned.kind === "already") return data({ error: m.apps_already_banned({ name: banned.ban.displayName }) }, { status: 409 });
    return { ok: true as const, message: bannedText(banned.ban) };
  }
  if (intent === "retry-job") {
    const jobId = z.uuid().safeParse(form?.get("job"));
    if (!jobId.success) return data({ error: m.apps_update_failed() }, { status: 400 });
    try {
      // Only a job of an application under this review (a host's own event's): never another's.
      if (!(await retryOutboxJob(db, jobId.data, (sourceId) => isInReview(db, found.scope, sourceId)))) return data({ error: m.apps_not_waiting() }, { status: 409 });
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
      return { ok: true as const, message: attendanceMarkedText(value, outcome) };
    } catch (error) {
      log.error("failed to mark attendance", { error });
      return data({ error: m.apps_update_failed() }, { status: 503 });
    }
  }
  if (intent === "bulk") {
    const bulk = BulkSchema.safeParse({ status: form?.get("status"), ids: form?.getAll("ids"), overCapacity: form?.get("overCapacity") ?? undefined, confirmNamed: form?.get("confirmNamed") ?? undefined });
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
      const outcome = await decideApplications(services, found, { ids: bulk.data.ids, status, overCapacity: bulk.data.overCapacity === "yes", confirmNamed: bulk.data.confirmNamed === "yes" }, decider);
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
    if (outcome.kind === "missing" || outcome.kind === "moved") return data({ error: failed }, { status: 404 });
    if (outcome.kind === "needs-proof") return data({ error: NEEDS_PROOF_MESSAGE() }, { status: 409 });
    if (outcome.notLinked) return { ok: true as const, message: NOT_LINKED_DECIDED() };
    if (outcome.unconfirmed) return { ok: true as const, message: UNCONFIRMED_DECIDED() };
    return { ok: true as const, message: change.intent === "status" && change.status === "pending" && found.scope.kind === "group" ? REOPEN_NOTE() : undefined };
  } catch (error) {
    log.error("failed to review an application", { error });
    return data({ error: failed }, { status: 503 });
  }
}

export function meta({ params }: Route.MetaArgs) {
  return [{ title: params.eventId ? m.apps_title_event() : m.apps_title_group() }];
}

export default function ApplicationsReview({ loaderData, actionData, params }: Route.ComponentProps) {
  const timeZone = useViewerTimeZone();
  const eventId = loaderData.event?.id;
  const { vrchat, discord } = loaderData;
  const discordLookup = (applicationId: string) =>
    eventId ? href("/admin/events/:eventId/applications/:applicationId/discord", { eventId, applicationId }) : href("/admin/applications/:applicationId/discord", { applicationId });
  return (
    <ReviewPage
      page={loaderData}
      mode={params.eventId ? "event" : "group"}
      posted={actionData}
      formatDate={(iso) => formatShortDate(new Date(iso), timeZone)}
      panels={{
        vrchat: (applicationId) => <VRChatLinkPanel applicationId={applicationId} eventId={eventId} configured={vrchat.configured} />,
        vrchatLookupUrl: (applicationId) => (vrchat.configured ? vrchatLookupUrl(applicationId, eventId) : null),
        discord: discord.configured ? (applicationId) => <DiscordLinkPanel applicationId={applicationId} lookupUrl={discordLookup(applicationId)} /> : null,
      }}
    />
  );
}
