/**
 * The applicant's status page, read from everything it shows (reads only: a GET never writes): the
 * application behind the private link, its place on the waitlist, its way into the event, the proof
 * of its VRChat account, its Discord link, and whether it may still be edited or withdrawn.
 */
import { ratingLinkFor } from "./event-ratings.server";
import type { AppContext } from "~/context";
import { WITHDRAWABLE_STATUSES } from "~/db/enums";
import { waitlistPosition } from "~/features/applications/capacity.server";
import type { StatusView } from "~/features/applications/status-page";
import { getApplicationStatus } from "~/features/decisions/decisions.server";
import { hasEventStarted } from "~/features/events/event-timing";
import { getEvent } from "~/features/events/events.server";
import { m } from "~/paraglide/messages";
import { applicantDiscordView, type ApplicantDiscordView } from "./applicant-discord.server";
import { EDIT_TEXTS, editClosedReason } from "./edit-application.server";
import { attendeeWayIn } from "./event-role.server";
import { proofView } from "./prove-account.server";

export type StatusPageRead =
  | { kind: "missing" }
  | { kind: "found"; language: string | null; status: StatusView; discord: ApplicantDiscordView };

/** `notice`: what the page was sent back with (`?edited=`, `?discord=`). */
export async function readStatusPage(
  { db, vrchat, config, discordOAuth, auth }: Pick<AppContext, "db" | "vrchat" | "config" | "discordOAuth" | "auth">,
  token: string,
  notice: { edited: string | null; discord: string | null },
  now: Date,
): Promise<StatusPageRead> {
  const status = await getApplicationStatus(db, token, now);
  if (!status) return { kind: "missing" };
  const { id, eventId } = status;
  const position = status.kind === "event" && status.status === "waitlist" ? await waitlistPosition(db, id) : null;
  // An event application may be withdrawn until its event starts.
  const event = eventId ? await getEvent(db, eventId) : null;
  const canWithdraw = event !== null && (WITHDRAWABLE_STATUSES as readonly string[]).includes(status.status) && !hasEventStarted(event, now);
  // An approved attendee's way in: the instance's link once it is open and they hold the event's role.
  const wayIn = event && status.status === "approved" ? await attendeeWayIn({ db, roles: vrchat.roles }, id, now) : null;
  const groupUrl = wayIn?.joinGroupFirst && config.VRCHAT_GROUP_ID ? `https://vrchat.com/home/group/${config.VRCHAT_GROUP_ID}` : null;
  // Proof is offered only where Dwell can read VRChat to check it; a Discord link where Discord's sign-in is set up.
  const proof = vrchat.membership ? await proofView(db, { kind: status.kind, id, status: status.status }, now) : { kind: "none" as const };
  const discord = discordOAuth ? await applicantDiscordView(db, { kind: status.kind, id, status: status.status }) : { kind: "none" as const };
  // 'Edit my answers' while it waits and its form allows it; a decided one says why it cannot.
  const editClosed = await editClosedReason(db, status, event, now);
  // "How was it?": an attendee who came, asked after the event, for the 7 days after it.
  const rating = status.kind === "event" && status.status === "approved" ? await ratingLinkFor(db, config.PUBLIC_URL, (await auth.$context).secret, id, now, config.RATING_DELAY_MINUTES) : null;
  const said = notice.edited === "yes" ? EDIT_TEXTS.saved() : notice.edited === "none" ? EDIT_TEXTS.unchanged() : notice.discord === "linked" ? m.adl_linked_notice() : null;
  return {
    kind: "found",
    language: status.language,
    discord,
    status: {
      kind: status.kind,
      eventTitle: status.eventTitle,
      status: status.status,
      submittedAt: status.submittedAt.toISOString(),
      decidedAt: status.decidedAt?.toISOString() ?? null,
      message: status.message,
      messageLanguage: status.messageLanguage,
      waitlistPosition: position,
      canWithdraw,
      wayIn,
      groupUrl,
      proof,
      canEdit: editClosed === null,
      // Why a decided application cannot change (a form closed to edits, or a withdrawn one, says nothing).
      editClosed: editClosed === EDIT_TEXTS.off() || editClosed === EDIT_TEXTS.withdrawn() ? null : editClosed,
      notice: said,
      rating,
    },
  };
}
