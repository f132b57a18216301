/**
 * An applicant withdraws their event application from its status page: it becomes "withdrawn"
 * (the tiles, the filter, the CSV, the status page), the review message in Discord says so, and the
 * place it held (or its turn in line) goes to the first on the waitlist, as the event chose. One
 * transaction under the event's row lock: twenty withdrawals at once move up exactly twenty.
 */
import { getApplicationStatus } from "~/features/decisions/decisions.server";
import { queueReviewJob } from "~/features/discord/discord-review.server";
import { hasEventStarted } from "~/features/events/event-timing";
import { getEvent } from "~/features/events/events.server";
import { promoteFromWaitlist, withdrawEventApplication } from "~/features/applications/review-changes.server";
import { APPLICANT_ACTOR } from "~/utils/actors";
import type { DecideServices } from "./decision-effects.server";
import { linkMovedUp, refillFor } from "./refill.server";
import { queueRoleChange } from "./event-role.server";
import { m } from "~/paraglide/messages";

export type WithdrawOutcome =
  | { kind: "withdrawn" }
  /** Sent twice (a second tab, a double click): nothing more to do. */
  | { kind: "already" }
  | { kind: "not-withdrawable"; reason: string }
  | { kind: "missing" };

/** Why an application cannot be withdrawn, in the applicant's page's language. */
export const WITHDRAW_TEXTS = { group: m.withdraw_group, started: m.withdraw_started, rejected: m.withdraw_rejected } as const;

export async function withdrawApplication(services: DecideServices, token: string, now: Date): Promise<WithdrawOutcome> {
  const status = await getApplicationStatus(services.db, token, now);
  if (!status) return { kind: "missing" };
  if (status.kind !== "event" || !status.eventId) return { kind: "not-withdrawable", reason: WITHDRAW_TEXTS.group() };
  const event = await getEvent(services.db, status.eventId);
  if (!event) return { kind: "missing" };
  if (status.status === "withdrawn") return { kind: "already" };
  if (hasEventStarted(event, now)) return { kind: "not-withdrawable", reason: WITHDRAW_TEXTS.started() };
  const review = { scope: { kind: "event" as const, eventId: event.id }, event };
  const refill = refillFor(services, review, now);
  const result = await services.db.transaction(async (tx) => {
    const done = await withdrawEventApplication(tx, event.id, status.id, now);
    if (done !== "withdrawn") return done;
    if (services.discordReview) {
      await queueReviewJob(tx, { job: "edit", applicationKind: "event", applicationId: status.id, status: "withdrawn", by: APPLICANT_ACTOR }, now);
    }
    // The role it held (or was waiting for) is taken away before the place goes to another.
    if (services.vrchat.roles) await queueRoleChange(tx, status.id, event.id, { id: "applicant", name: APPLICANT_ACTOR }, now);
    if (refill) await promoteFromWaitlist(tx, event.id, now, refill.onMoved);
    return done;
  });
  if (result === "withdrawn") {
    services.wake();
    // A withdrawal is the applicant's act: finding the accounts of the one moved up spends the visitors' lookups.
    await linkMovedUp(services, review, refill, "visitors");
    return { kind: "withdrawn" };
  }
  if (result === "already") return { kind: "already" };
  if (result === "missing") return { kind: "missing" };
  return { kind: "not-withdrawable", reason: WITHDRAW_TEXTS.rejected() };
}
