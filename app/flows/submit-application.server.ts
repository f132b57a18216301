/**
 * A visitor's application, from the posted form to the stored row and its notifications: the one
 * function the public form's action calls. The checks run cheapest first, so what costs the site
 * (a database write, a call to VRChat from the bot's allowance) is spent only on a post that every
 * cheaper check let through:
 *   1. the event (found, and open to applications);
 *   2. the honeypot and the fill time (no database, no counting);
 *   3. the client's own limit, a client probing names, and the site-wide ceiling, counted in one
 *      statement that also uses up the post's proof of work when it is past the ceiling (where a
 *      solved one lets a person through);
 *   4. the answers, and a read for a name that already applied;
 *   5. a profile link, looked up in VRChat from the visitors' own small allowance;
 *   6. the row, its history and its notifications, in one transaction.
 */
import { randomBytes } from "node:crypto";
import { m } from "~/paraglide/messages";
import { href } from "react-router";
import type { AppContext } from "~/context";
import {
  listFormQuestionsKept,
  submitApplication,
  submitFailedMessage,
  type ApplicationScope,
  type Vetting,
} from "~/features/applications/applications.server";
import { applicantIdentity, profileLinkAnswer, type Answers, type AnswerValue, type FormQuestion } from "~/features/applications/answers";
import { queueReviewJob } from "~/features/discord/discord-review.server";
import { queueScreening } from "~/features/screening/screenings.server";
import { buildDiscordEmbed } from "~/features/notifications/discord.server";
import {
  checkFormFilling,
  countDuplicate,
  countRefusal,
  formStartedAt,
  formStartedToken,
  admitSubmission,
  clientRetryAfterMs,
  siteBusyMessage,
  STARTED_FIELD,
  crowdRetryMessage,
} from "~/features/applications/spam-guard.server";
import { CROWD_FIELD, issueCrowdChallenge, proofVerdict, readCrowdProof, SOLVED_CEILING_FACTOR } from "~/features/applications/crowd-challenge.server";
import { newStatusToken } from "~/features/decisions/decisions.server";
import { applicationClosedNotice, eventNotFoundMessage } from "~/features/events/application-notice";
import { applicationState } from "~/features/events/event-timing";
import { getEvent } from "~/features/events/events.server";
import { toApplicationNotification } from "~/features/notifications/application-notification";
import { enqueueNotification } from "~/features/notifications/outbox.server";
import { logLookupFailure } from "~/features/vrchat/vrchat-membership.server";
import { clientKey } from "~/utils/client-key.server";
import { log } from "~/utils/log.server";
import { fieldOf } from "~/utils/form-questions";
import { hitRateLimit } from "~/utils/rate-limit.server";
import { prefix, sameName } from "~/utils/text";
import { rejectIfBanned } from "./bans.server";
import { decideServices } from "./decide.server";

/** A client's profile-link lookups in VRChat per hour; past them, its links are kept unchecked. */
export const PROFILE_LOOKUPS_PER_CLIENT_HOUR = 3;

export const profileNotFoundMessage = () => m.submit_profile_not_found();
export const rateLimitedMessage = () => m.submit_rate_limited();

export type SubmissionOutcome =
  /** `provable`: it names a VRChat account the applicant may prove is theirs, on the status page. */
  | { ok: true; statusToken: string; waitlisted: boolean; provable: boolean }
  | {
      ok: false;
      status: 400 | 403 | 404 | 409 | 429 | 503;
      error: string;
      questionId?: string;
      /** The answers as sent, to fill the form again. */
      values?: Record<string, AnswerValue>;
      /** A fill-time token to send the form again with. */
      formStarted?: string;
      /** A new crowd challenge for the form's script to solve before it is sent again. */
      crowdChallenge?: string | null;
      retryAfterSeconds?: number;
    };

type Services = Pick<AppContext, "db" | "config" | "notifications" | "vrchat" | "discord"> & Partial<Pick<AppContext, "language">> & { secret: string };

/**
 * What a shared copy of a form carries in place of each visitor's guards (server/page-cache.ts fills
 * them in): text no page has otherwise, made of characters written as they are everywhere in a page.
 */
const FORM_GUARD_MARKS = {
  formStarted: `dwell-form-started-${randomBytes(12).toString("base64url")}`,
  crowdChallenge: `dwell-crowd-challenge-${randomBytes(12).toString("base64url")}`,
};

/**
 * What a form served now to this client carries against scripts: its fill-time token and a crowd
 * challenge; for a copy shared by every visitor (`shared`), the marks where each visitor's go.
 */
export async function formGuardsFor(secret: string, clientAddress: string, crowdWork: number, now: Date, shared = false) {
  if (shared) return { formStarted: FORM_GUARD_MARKS.formStarted, crowdChallenge: crowdWork > 0 ? FORM_GUARD_MARKS.crowdChallenge : null };
  const client = clientKey(clientAddress);
  return { formStarted: formStartedToken(secret, now, client), crowdChallenge: await issueCrowdChallenge(secret, client, now, crowdWork) };
}

/** A shared copy of a form's holes, filled with this client's guards when it is served. */
export function formGuardHoles(secret: string, clientAddress: string, crowdWork: number) {
  return {
    marks: [FORM_GUARD_MARKS.formStarted, FORM_GUARD_MARKS.crowdChallenge],
    async fill() {
      const guards = await formGuardsFor(secret, clientAddress, crowdWork, new Date());
      return [guards.formStarted, guards.crowdChallenge ?? ""];
    },
  };
}

/** The answers as sent, by question id, cut to a sane size: to fill the form again after a refusal. */
export function answersAsSent(form: FormData): Record<string, AnswerValue> {
  const values: Record<string, AnswerValue> = {};
  for (const [name, value] of form) {
    if (!name.startsWith("answer.") || typeof value !== "string") continue;
    const id = name.slice(7);
    const kept = prefix(value, 10_000);
    const before = values[id];
    if (before === undefined) values[id] = kept;
    else if (Array.isArray(before)) {
      if (before.length < 100) before.push(kept);
    } else values[id] = [before, kept];
  }
  return values;
}

export async function submitPublicApplication(
  services: Services,
  { eventId, clientAddress, request, now }: { eventId: string | undefined; clientAddress: string; request: Request; now: Date },
): Promise<SubmissionOutcome> {
  const { db, config, notifications, secret } = services;
  const client = clientKey(clientAddress);

  let scope: ApplicationScope = { kind: "group" };
  let eventTitle: string | null = null;
  let eventUrl: string | null = null;
  if (eventId) {
    const event = await getEvent(db, eventId);
    if (!event) return { ok: false, status: 404, error: eventNotFoundMessage() };
    const state = applicationState(event, now);
    if (state !== "open") return { ok: false, status: 403, error: applicationClosedNotice(state) ?? m.event_applications_unavailable() };
    scope = { kind: "event", eventId: event.id };
    eventTitle = event.title;
    // The staff's channels get the site's own address (PUBLIC_URL), never the request's Host.
    eventUrl = `${config.PUBLIC_URL}${href("/events/:id", { id: event.id })}`;
  }

  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return { ok: false, status: 400, error: m.submit_unreadable() };
  }
  const values = answersAsSent(form);

  // The honeypot and the fill time first: no database, and junk counts against nothing.
  const filling = checkFormFilling(form, { secret, minFillMs: config.FORM_MIN_FILL_SECONDS * 1000, now, client });
  if (!filling.ok) {
    await countRefusal(db, filling.refusal, now);
    // The form keeps the time it was first served: sending it again a moment later is accepted.
    const started = form.get(STARTED_FIELD);
    const formStarted =
      typeof started === "string" && formStartedAt(secret, started, now, client) !== null ? started : formStartedToken(secret, now, client);
    return { ok: false, status: filling.status, error: filling.message, values, formStarted };
  }

  // The client's limit, its probing for names, and the site-wide count: one statement. A post past
  // the client's limits does not spend the site-wide count.
  // A proof of work is read here (two HMACs); it is used up in the same statement, past the ceiling only.
  const ceiling = config.RATE_LIMIT_APPLICATIONS_SITE;
  const proof = config.CROWD_CHALLENGE_WORK > 0 ? await readCrowdProof(secret, client, form.get(CROWD_FIELD), now) : ({ kind: "missing" } as const);
  const admission = await admitSubmission(db, {
    client,
    clientLimit: config.RATE_LIMIT_APPLICATIONS,
    duplicatesLimit: config.RATE_LIMIT_DUPLICATES,
    siteCeiling: ceiling,
    proof: proof.kind === "valid" ? proof.use : undefined,
    now,
  });
  if (admission.clientCount > config.RATE_LIMIT_APPLICATIONS) {
    await countRefusal(db, "client-limit", now);
    return { ok: false, status: 429, error: rateLimitedMessage(), values, retryAfterSeconds: Math.ceil(clientRetryAfterMs(now) / 1000) };
  }
  if (admission.duplicatesMet >= config.RATE_LIMIT_DUPLICATES) {
    await countRefusal(db, "probe-limit", now);
    return { ok: false, status: 429, error: rateLimitedMessage(), values, retryAfterSeconds: 3600 };
  }
  // Past the ceiling, a crowd: a solved proof of work lets a person through (see crowd-challenge).
  const thisMinute = admission.siteCount ?? 0;
  if (thisMinute > ceiling) {
    const verdict = proofVerdict(proof, admission.proofUses);
    if (verdict !== "solved" || thisMinute > ceiling * SOLVED_CEILING_FACTOR) {
      await countRefusal(db, "site-ceiling", now);
      if (thisMinute === ceiling + 1) log.warn("the site-wide application ceiling was reached: past it, a proof of work is asked", { perMinute: ceiling });
      const started = form.get(STARTED_FIELD);
      return {
        ok: false,
        status: 429,
        error: verdict === "missing" || verdict === "solved" ? siteBusyMessage() : crowdRetryMessage(),
        values,
        formStarted: typeof started === "string" ? started : undefined,
        crowdChallenge: await issueCrowdChallenge(secret, client, now, config.CROWD_CHALLENGE_WORK),
        retryAfterSeconds: 60,
      };
    }
  }

  try {
    const questions = await listFormQuestionsKept(db, scope);
    const status = newStatusToken();
    // The application names a VRChat account the applicant can prove is theirs (on the status page).
    let provable = false;
    const result = await submitApplication(db, {
      scope,
      questions,
      // What the applicant is sent back (their status page, messages) is in the language they applied in.
      language: services.language,
      fields: (name) => fieldOf(form, name),
      now,
      statusTokenHash: status.hash,
      vet:
        questions.some((q) => q.questionType === "vrchat_profile")
          ? (answers) => {
              provable = services.vrchat.membership !== null && profileLinkAnswer(questions, answers) !== null;
              return checkProfileLink(services, client, questions, answers, now);
            }
          : undefined,
      onStored: async (tx, stored) => {
        // The group's screening rules look at it within a few seconds (flows/screen-applications).
        await queueScreening(tx, { kind: scope.kind, id: stored.id, vrchatUserId: stored.vrchatUserId }, now);
        const notification = toApplicationNotification(stored, eventTitle, eventUrl);
        await enqueueNotification(tx, notification, notifications.targets, stored.id);
        // The staff's review channel in Discord gets it with 'Approve' and 'Reject'.
        if (services.discord && config.DISCORD_REVIEW_CHANNEL_ID) {
          await queueReviewJob(tx, { job: "post", applicationKind: scope.kind, applicationId: stored.id, embed: { ...buildDiscordEmbed(notification) } }, now);
        }
      },
    });
    if (!result.ok) {
      if (result.status === 409) {
        await countDuplicate(db, client, now);
        log.info("an application repeated a name or Discord ID", { scope: scope.kind });
      }
      return { ok: false, status: result.status, error: result.message, questionId: result.questionId, values };
    }
    notifications.wake();
    // A banned person's application: rejected now when the owner chose so (never failing the submission).
    const stored = { vrchatUserId: result.application.vrchatUserId, discordUserId: null };
    await rejectIfBanned(decideServices(services), { kind: scope.kind, id: result.application.id, eventId: eventId ?? null }, stored).catch((error: unknown) =>
      log.error("could not check a new application against the ban list", { error }),
    );
    return { ok: true, statusToken: status.token, waitlisted: result.application.status === "waitlist", provable };
  } catch (error) {
    log.error("failed to store an application", { error, scope: scope.kind });
    return { ok: false, status: 503, error: submitFailedMessage(), values };
  }
}

/**
 * A VRChat profile link in the answers: looked up once, never retried, from the visitors' own
 * allowance (per client here, site-wide in the membership's lookups), never the staff's.
 * - VRChat has no such account: refused, so the applicant can correct it;
 * - its VRChat name is the username the applicant gave (case and spaces ignored): linked;
 * - another name: kept as the applicant's claim, linked only by a staff member's hand;
 * - VRChat not asked (allowance spent, unreachable): kept, marked unchecked on the card.
 */
export async function checkProfileLink(
  { db, vrchat }: Services,
  client: string,
  questions: readonly FormQuestion[],
  answers: Answers,
  now: Date,
): Promise<Vetting> {
  const profile = profileLinkAnswer(questions, answers);
  if (!profile) return null;
  const username = applicantIdentity(questions, answers).vrchatUsername;
  const unchecked = { found: { check: "unchecked" as const, userId: profile.userId } };
  if (!vrchat.membership) return unchecked;
  const allowance = await hitRateLimit(db, { key: `profile-lookups:${client}`, limit: PROFILE_LOOKUPS_PER_CLIENT_HOUR, windowMs: 60 * 60_000, now });
  if (!allowance.allowed) return unchecked;
  try {
    const account = await vrchat.membership.describeApplicantProfile(profile.userId);
    if (!account) return { refused: { message: profileNotFoundMessage(), questionId: profile.questionId } };
    const found = { userId: account.id, displayName: account.displayName };
    return { found: sameName(account.displayName, username) ? { check: "confirmed", account: found } : { check: "claimed", account: found } };
  } catch (error) {
    logLookupFailure(error);
    return unchecked;
  }
}
