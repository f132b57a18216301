/**
 * An applicant fixes their application from its status page: the one function the edit page's
 * action calls. While the application waits (Pending, or Waitlisted) and its form lets applicants
 * edit, the new answers meet every rule a new application meets (the form's, the duplicate check,
 * the profile link's lookup), the change is recorded in the card's history, the staff's channels
 * hear of it once ('Application edited'), the review message in Discord shows the new answers, the
 * screening rules look again, and a banned account meets the ban list. A decision made meanwhile
 * wins: the edit is then refused and nothing is written.
 */
import { m } from "~/paraglide/messages";
import { href } from "react-router";
import type { AppContext } from "~/context";
import { getSiteSettings } from "~/features/accounts/site-settings.server";
import { EDITS_PER_HOUR, nextEditAllowedAt, readEditable, saveAnswerEdit, EDITABLE_STATUSES, type EditableApplication, type LinkChange } from "~/features/applications/answer-edits.server";
import { applicantIdentity, checkAnswers, profileLinkAnswer, storedAnswers, type Answers, type AnswerValue, type FormQuestion } from "~/features/applications/answers";
import { DUPLICATE_MESSAGE, listFormQuestions } from "~/features/applications/applications.server";
import { getApplicationStatus } from "~/features/decisions/decisions.server";
import { replaceReviewEmbed } from "~/features/discord/discord-review.server";
import { hasEventStarted, type EventSchedule } from "~/features/events/event-timing";
import { getEvent } from "~/features/events/events.server";
import { toApplicationNotification } from "~/features/notifications/application-notification";
import { buildDiscordEmbed } from "~/features/notifications/discord.server";
import { enqueueEditNotice } from "~/features/notifications/edit-notices.server";
import { queueScreening } from "~/features/screening/screenings.server";
import { answerText, valuesByText } from "~/utils/form-questions";
import { log } from "~/utils/log.server";
import { sameName } from "~/utils/text";
import { vrchatUserIdFrom } from "~/utils/vrchat-profile-link";
import { rejectIfBanned } from "./bans.server";
import { decideServices } from "./decide.server";
import { checkProfileLink } from "./submit-application.server";

/** What the applicant reads about an edit, in their page's language. */
export const EDIT_TEXTS = {
  decided: m.edit_decided,
  withdrawn: m.edit_withdrawn,
  off: m.edit_off,
  started: m.edit_started,
  raced: m.edit_raced,
  saved: m.edit_saved,
  unchanged: m.edit_unchanged,
} as const;

type Services = Pick<AppContext, "db" | "config" | "notifications" | "vrchat" | "discord"> & { secret: string };

/** Where an application stands for an edit: editable (with its form and answers), or why not. */
export type EditView =
  | { kind: "missing" }
  | { kind: "closed"; reason: string; language?: string | null }
  | { kind: "open"; language: string | null; application: EditableApplication; questions: FormQuestion[]; eventId: string | null; eventTitle: string | null; values: Record<string, AnswerValue> };

/** Why an application can no longer be edited by its applicant (null: it can be). */
export async function editClosedReason(
  db: Services["db"],
  application: { kind: "group" | "event"; status: string },
  event: (EventSchedule & { applicantEdits: boolean }) | null,
  now: Date,
): Promise<string | null> {
  if (application.status === "withdrawn") return EDIT_TEXTS.withdrawn();
  if (!(EDITABLE_STATUSES as readonly string[]).includes(application.status)) return EDIT_TEXTS.decided();
  if (application.kind === "event") {
    if (!event?.applicantEdits) return EDIT_TEXTS.off();
    if (hasEventStarted(event, now)) return EDIT_TEXTS.started();
    return null;
  }
  return (await getSiteSettings(db)).groupApplicantEdits ? null : EDIT_TEXTS.off();
}

/** The application behind a status link, as its edit page shows it (read only: a GET never writes). */
export async function openEdit({ db }: Pick<Services, "db">, token: string, now: Date): Promise<EditView> {
  const status = await getApplicationStatus(db, token, now);
  if (!status) return { kind: "missing" };
  const event = status.eventId ? await getEvent(db, status.eventId) : null;
  if (status.kind === "event" && !event) return { kind: "missing" };
  const reason = await editClosedReason(db, status, event, now);
  if (reason) return { kind: "closed", reason, language: status.language };
  const application = await readEditable(db, status.kind, status.id);
  if (!application) return { kind: "missing" };
  const questions = await listFormQuestions(db, status.kind === "event" ? { kind: "event", eventId: status.eventId! } : { kind: "group" });
  // The form opens with the answers as kept: by question id, or (kept before ids) by text.
  const byText = valuesByText(application.answers);
  const values: Record<string, AnswerValue> = {};
  for (const question of questions) {
    const kept = application.answers.find((answer) => answer.questionId === question.id)?.value ?? (application.answers.some((answer) => answer.questionId === null) ? byText[question.question] : undefined);
    if (kept !== undefined) values[question.id] = kept;
  }
  return { kind: "open", language: status.language, application, questions, eventId: status.eventId, eventTitle: event?.title ?? null, values };
}

export type EditOutcome =
  | { ok: true; changed: boolean; message: string }
  | { ok: false; status: 400 | 404 | 409 | 429; error: string; questionId?: string };

/** EDITS_PER_HOUR reached: when the applicant may edit again (a time of day, in UTC). */
const tooMany = (allowedAt: Date): EditOutcome => ({ ok: false, status: 429, error: m.edit_too_many({ count: EDITS_PER_HOUR, time: allowedAt.toISOString().slice(11, 16) }) });

/**
 * What the new answers make of the VRChat link: a proven account, or one a staff member chose,
 * stays (it is an identity, not a claim); a link the form made from a matching name is made again
 * from the new answers (the profile link looked up, from the visitors' allowance, only if it changed).
 */
async function linkAfterEdit(services: Services, client: string, application: EditableApplication, questions: readonly FormQuestion[], answers: Answers, now: Date): Promise<LinkChange | { refused: { message: string; questionId: string } }> {
  if (application.vrchatLinkedHow === "proven" || application.vrchatLinkedHow === "staff") return { kind: "keep" };
  const profile = profileLinkAnswer(questions, answers);
  const before = application.answers.map((answer) => (answer.type === "vrchat_profile" ? vrchatUserIdFrom(answerText(answer.value)) : null)).find((id) => id) ?? null;
  const username = applicantIdentity(questions, answers).vrchatUsername;
  if (!profile) return application.vrchatLinkedHow === "name" ? { kind: "drop" } : { kind: "keep" };
  if (profile.userId === before && application.vrchatLinkedHow === "name" && application.vrchatDisplayName && sameName(application.vrchatDisplayName, username)) return { kind: "keep" };
  if (profile.userId === before && application.vrchatLinkedHow === null && username === application.vrchatUsername) return { kind: "keep" };
  const vetting = await checkProfileLink(services, client, questions, answers, now);
  if (!vetting) return { kind: "keep" };
  if ("refused" in vetting) return vetting;
  return { kind: "finding", finding: vetting.found };
}

export async function editApplication(services: Services, { token, fields, client, now }: { token: string; fields: (name: string) => unknown; client: string; now: Date }): Promise<EditOutcome> {
  const view = await openEdit(services, token, now);
  if (view.kind === "missing") return { ok: false, status: 404, error: m.status_invalid_link() };
  if (view.kind === "closed") return { ok: false, status: 409, error: view.reason };
  const { application, questions, eventId } = view;
  const checked = checkAnswers(questions, fields);
  if (!checked.ok) return { ok: false, status: 400, error: checked.message, questionId: checked.questionId };
  const identity = applicantIdentity(questions, checked.answers);
  // Past the hour's edits, refused before the profile link's lookup spends a call.
  const allowedAt = await nextEditAllowedAt(services.db, application, now);
  if (allowedAt) return tooMany(allowedAt);
  const link = await linkAfterEdit(services, client, application, questions, checked.answers, now);
  if ("refused" in link) return { ok: false, status: 400, error: link.refused.message, questionId: link.refused.questionId };
  const answers = storedAnswers(questions, checked.answers);
  const scope = application.kind === "event" ? ("event" as const) : ("group" as const);
  const { notifications, config } = services;
  const outcome = await saveAnswerEdit(services.db, { kind: scope, id: application.id }, { answers, ...identity, link }, now, async (tx) => {
    const eventUrl = eventId ? `${config.PUBLIC_URL}${href("/events/:id", { id: eventId })}` : null;
    const notification = {
      ...toApplicationNotification(
        { scope: { kind: scope }, ...identity, submittedAt: now, status: application.status, answers: answers.map((answer) => ({ question: answer.question, answer: answerText(answer.value) })) },
        view.eventTitle,
        eventUrl,
      ),
      edited: true,
    };
    // At most one notice per application per ten minutes: later edits join the one that waits.
    await enqueueEditNotice(tx, notification, notifications.targets, application.id, now);
    if (services.discord && config.DISCORD_REVIEW_CHANNEL_ID) {
      await replaceReviewEmbed(tx, scope, application.id, { ...buildDiscordEmbed(notification) }, application.status as "pending" | "waitlist", now);
    }
    // New answers may meet the screening rules otherwise (and an account newly linked is read once).
    const linked = link.kind === "keep" ? application.vrchatUserId : link.kind === "finding" && link.finding.check === "confirmed" ? link.finding.account.userId : null;
    await queueScreening(tx, { kind: scope, id: application.id, vrchatUserId: linked }, now);
  });
  if (outcome.kind === "too-many") return tooMany(outcome.allowedAt);
  if (outcome.kind === "decided") return { ok: false, status: 409, error: EDIT_TEXTS.raced() };
  if (outcome.kind === "duplicate") return { ok: false, status: 409, error: DUPLICATE_MESSAGE[scope]() };
  if (outcome.kind === "unchanged") return { ok: true, changed: false, message: EDIT_TEXTS.unchanged() };
  notifications.wake();
  // An edit naming a banned account meets the ban list as a new application does.
  await rejectIfBanned(decideServices(services), { kind: scope, id: application.id, eventId }).catch((error: unknown) =>
    log.error("could not check an edited application against the ban list", { error }),
  );
  return { ok: true, changed: true, message: EDIT_TEXTS.saved() };
}
