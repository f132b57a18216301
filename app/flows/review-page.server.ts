/**
 * What the review page shows of one review (the group's applications, or an event's), read for the
 * staff member looking (reads only): a page of applications with their history, their actions in
 * VRChat and Discord, their screening, their bans, their record at other events, and what each card
 * may say of its account.
 */
import type { AppContext } from "~/context";
import { isConfirmedLink, type StaffRole } from "~/db/enums";
import { getSiteSettings } from "~/features/accounts/site-settings.server";
import { DECISION_ACTION_TARGETS } from "~/features/applications/application-card-lines";
import { listFormQuestions } from "~/features/applications/applications.server";
import { attendanceRecords } from "~/features/applications/attendance.server";
import { listPlaces } from "~/features/applications/capacity.server";
import type { ReviewPageData } from "~/features/applications/review-page";
import { listAudit, listForReview, type ReviewQuery } from "~/features/applications/review.server";
import { banLinesFor } from "~/features/bans/bans.server";
import { isEventPast } from "~/features/events/event-timing";
import { listJobsFor } from "~/features/notifications/outbox.server";
import { listScreenings } from "~/features/screening/screenings.server";
import { allows, allowsOnEvent } from "~/utils/roles";
import type { Review } from "./decide.server";

/** Before anything is read: how the page looks when the review cannot be (a missing event, a failure). */
export function emptyReviewPage(ctx: Pick<AppContext, "vrchat" | "discord">, query: ReviewQuery, error: string): ReviewPageData {
  return {
    error,
    event: null,
    review: null,
    questions: [],
    audit: [],
    jobs: [],
    vrchat: { configured: ctx.vrchat.membership !== null, actions: ctx.vrchat.membershipActions, roles: ctx.vrchat.roles !== null, invitesFromApprovals: false },
    discord: { configured: ctx.discord !== null },
    query,
    may: { export: false, messages: false, ban: false, people: false },
    records: {},
    requiresProof: false,
    screenings: {},
    banned: {},
    accounts: {},
  };
}

export async function readReviewPage(ctx: Pick<AppContext, "db" | "vrchat" | "discord">, found: Review, query: ReviewQuery, viewer: { id: string; role: StaffRole }): Promise<ReviewPageData> {
  const { db } = ctx;
  const page = emptyReviewPage(ctx, query, "");
  // What the page offers beyond deciding: the server checks each again.
  const may = {
    export: found.event ? allowsOnEvent(viewer, "export", found.event) : allows(viewer.role, "group.export"),
    messages: allows(viewer.role, "messages"),
    ban: allows(viewer.role, "bans"),
    people: allows(viewer.role, "people"),
  };
  const [review, questions, settings] = await Promise.all([listForReview(db, found.scope, query), listFormQuestions(db, found.scope), getSiteSettings(db)]);
  const vrchat = { ...page.vrchat, invitesFromApprovals: page.vrchat.actions && settings.eventApprovalInvites };
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
  const records = found.event ? await attendanceRecords(db, found.event.id, review.applications) : {};
  // A group decision that could not act in VRChat: no account linked, or one matched by name only (and never acted on).
  const decidedHere = (application: (typeof review.applications)[number]) => found.scope.kind === "group" && vrchat.actions && !application.spam && application.status !== "pending";
  const acted = new Set(jobs.filter((job) => job.target === "vrchat_membership").map((job) => job.sourceId));
  const accounts = Object.fromEntries(
    review.applications.map((application) => [
      application.id,
      {
        notLinked: decidedHere(application) && application.vrchatUserId === null,
        unconfirmed: decidedHere(application) && application.vrchatUserId !== null && !isConfirmedLink(application.vrchatLinkedHow) && !acted.has(application.id),
      },
    ]),
  );
  const requiresProof = found.event ? found.event.requiresProof : settings.groupRequiresProof;
  return { ...page, error: null, event, review, questions, audit, jobs, vrchat, may, records, requiresProof, screenings, banned, accounts };
}
