import { ArrowLeft, Sparkles } from "lucide-react";
import { useEffect } from "react";
import { data, href, Link } from "react-router";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Toaster } from "~/components/ui/toaster";
import { appContext } from "~/context";
import { ApplicationForm } from "~/features/applications/application-form";
import {
  listFormQuestions,
  submitApplication,
  SUBMIT_FAILED_MESSAGE,
  type ApplicationScope,
} from "~/features/applications/applications.server";
import { applicationClosedNotice, EVENT_NOT_FOUND_MESSAGE } from "~/features/events/application-notice";
import { applicationState } from "~/features/events/event-timing";
import { getEvent } from "~/features/events/events.server";
import { toApplicationNotification } from "~/features/notifications/application-notification";
import {
  checkFormFilling,
  countDuplicate,
  countRefusal,
  formStartedAt,
  formStartedToken,
  probingTooMuch,
  SITE_BUSY_MESSAGE,
  STARTED_FIELD,
  withinSiteCeiling,
} from "~/features/applications/spam-guard.server";
import { profileLinkAnswer } from "~/features/applications/answers";
import { newStatusToken } from "~/features/decisions/decisions.server";
import { linkAccount } from "~/features/applications/linked-accounts.server";
import { logLookupFailure } from "~/features/vrchat/vrchat-membership.server";
import { enqueueNotification } from "~/features/notifications/outbox.server";
import { log } from "~/utils/log.server";
import { clientKey } from "~/utils/client-key.server";
import { hitRateLimit } from "~/utils/rate-limit.server";
import { withOwnText } from "~/utils/preview-text";
import type { Route } from "./+types/_site.apply";
import { prefix } from "~/utils/text";

const RATE_WINDOW_MS = 10 * 60 * 1000;
const PROFILE_NOT_FOUND_MESSAGE = "VRChat has no profile at that link. Please check it, or leave the question empty if it is optional.";
const RATE_LIMITED_MESSAGE =
  "You have sent a lot of applications in a short time. Please wait a few minutes and try again.";

const TEXT = {
  group: {
    heading: "The Ritual of Entry",
    submit: "Complete the Ritual",
    done: "The Ritual Is Complete",
    toast: "Application submitted successfully!",
    loadFailed: "Failed to load application form",
  },
  event: {
    submit: "Submit Application",
    done: "Application Submitted",
    toast: "Event application submitted successfully!",
    loadFailed: "Failed to load event application form",
  },
} as const;

export async function loader({ params, context }: Route.LoaderArgs) {
  const { db, auth } = context.get(appContext);
  const formStarted = formStartedToken((await auth.$context).secret, new Date());
  if (!params.id) {
    try {
      return { mode: "group" as const, questions: await listFormQuestions(db, { kind: "group" }), formStarted, loadError: null };
    } catch (error) {
      log.error("failed to load the group application form", { error });
      return data({ mode: "group" as const, questions: [], formStarted, loadError: TEXT.group.loadFailed }, { status: 503 });
    }
  }

  let event;
  try {
    event = await getEvent(db, params.id);
  } catch (error) {
    log.error("failed to load an event for its application form", { error, eventId: params.id });
    return data({ mode: "missing" as const, loadError: "Failed to load event details" }, { status: 503 });
  }
  if (!event) return data({ mode: "missing" as const, loadError: null }, { status: 404 });
  const summary = { id: event.id, title: event.title };
  const closed = applicationClosedNotice(applicationState(event, new Date()));
  if (!event.applicationRequired || closed) {
    const notice = closed ?? "Applications are not currently available";
    return { mode: "closed" as const, event: summary, notice, loadError: null };
  }
  try {
    const questions = await listFormQuestions(db, { kind: "event", eventId: event.id });
    return { mode: "event" as const, event: summary, questions, formStarted, loadError: null };
  } catch (error) {
    log.error("failed to load an event's application questions", { error, eventId: event.id });
    return data(
      { mode: "event" as const, event: summary, questions: [], formStarted, loadError: TEXT.event.loadFailed },
      { status: 503 },
    );
  }
}

function failure(
  status: number,
  error: string,
  extra: { questionId?: string; values?: Record<string, string>; formStarted?: string } = {},
  headers?: HeadersInit,
) {
  return data({ ok: false as const, error, ...extra }, { status, headers });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { db, config, auth, clientAddress, notifications, vrchat } = context.get(appContext);
  const now = new Date();
  const client = clientKey(clientAddress);

  const limit = await hitRateLimit(db, {
    key: `applications:${client}`,
    limit: config.RATE_LIMIT_APPLICATIONS,
    windowMs: RATE_WINDOW_MS,
    now,
  });
  if (!limit.allowed) {
    await countRefusal(db, "client-limit", now);
    return failure(429, RATE_LIMITED_MESSAGE, {}, { "Retry-After": String(Math.ceil(limit.retryAfterMs / 1000)) });
  }
  if (!(await withinSiteCeiling(db, config.RATE_LIMIT_APPLICATIONS_SITE, now))) {
    await countRefusal(db, "site-ceiling", now);
    log.warn("the site-wide application ceiling was reached", { perMinute: config.RATE_LIMIT_APPLICATIONS_SITE });
    return failure(429, SITE_BUSY_MESSAGE, {}, { "Retry-After": "60" });
  }

  let scope: ApplicationScope = { kind: "group" };
  let eventTitle: string | null = null;
  let eventUrl: string | null = null;
  if (params.id) {
    const event = await getEvent(db, params.id);
    if (!event) return failure(404, EVENT_NOT_FOUND_MESSAGE);
    const state = applicationState(event, now);
    if (state !== "open") return failure(403, applicationClosedNotice(state) ?? "Applications are not currently available");
    scope = { kind: "event", eventId: event.id };
    eventTitle = event.title;
    eventUrl = new URL(href("/events/:id", { id: event.id }), request.url).toString();
  }

  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return failure(400, "The form could not be read. Please try again.");
  }
  const fields = (name: string) => form.get(name) ?? undefined;
  const values = Object.fromEntries(
    [...form].flatMap(([name, value]) =>
      name.startsWith("answer.") && typeof value === "string" ? [[name.slice(7), prefix(value, 10_000)]] : [],
    ),
  );

  const secret = (await auth.$context).secret;
  const filling = checkFormFilling(form, { secret, minFillMs: config.FORM_MIN_FILL_SECONDS * 1000, now });
  if (!filling.ok) {
    await countRefusal(db, filling.refusal, now);
    // The form keeps the time it was first served: sending it again a moment later is accepted.
    const started = form.get(STARTED_FIELD);
    const formStarted = typeof started === "string" && formStartedAt(secret, started, now) !== null ? started : formStartedToken(secret, now);
    return failure(filling.status, filling.message, { values, formStarted });
  }

  if (await probingTooMuch(db, client, config.RATE_LIMIT_DUPLICATES, now)) {
    await countRefusal(db, "probe-limit", now);
    return failure(429, RATE_LIMITED_MESSAGE, { values }, { "Retry-After": "3600" });
  }

  try {
    const questions = await listFormQuestions(db, scope);
    // A VRChat profile link is looked up at once: one that VRChat does not know is refused. When
    // VRChat cannot be asked, the application is taken anyway and an admin links it later.
    let account: { userId: string; displayName: string } | null = null;
    const lookUpProfile = async (answers: Record<string, string>) => {
      const profile = scope.kind === "group" ? profileLinkAnswer(questions, answers) : null;
      if (!profile || !vrchat.membership) return null;
      try {
        const found = await vrchat.membership.describeUser(profile.userId);
        if (!found) return { message: PROFILE_NOT_FOUND_MESSAGE, questionId: profile.questionId };
        account = { userId: found.id, displayName: found.displayName };
      } catch (error) {
        logLookupFailure(error);
      }
      return null;
    };
    const status = newStatusToken();
    const result = await submitApplication(db, {
      scope,
      questions,
      fields,
      now,
      statusTokenHash: status.hash,
      vet: lookUpProfile,
      onStored: (tx, stored) =>
        enqueueNotification(tx, toApplicationNotification(stored, eventTitle, eventUrl), notifications.targets, stored.id),
    });
    if (!result.ok) {
      if (result.status === 409) {
        await countDuplicate(db, client, now);
        log.info("an application repeated a name or Discord ID", { scope: scope.kind });
      }
      return failure(result.status, result.message, { questionId: result.questionId, values });
    }
    notifications.wake();
    if (account) {
      await linkAccount(db, "group", result.application.id, "vrchat", account, { id: null, name: "the applicant (their form)" }).catch((error: unknown) =>
        log.error("failed to link the VRChat account an applicant gave", { error }),
      );
    }
    return { ok: true as const, statusToken: status.token, waitlisted: result.application.status === "waitlist" };
  } catch (error) {
    log.error("failed to store an application", { error, scope: scope.kind });
    return failure(503, SUBMIT_FAILED_MESSAGE, { values });
  }
}

/** An action's own headers (Retry-After on a 429) reach the document response only through here. */
export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  return actionHeaders.has("Retry-After") ? actionHeaders : loaderHeaders;
}

// A route's meta replaces the root's, description included.
export function meta({ loaderData, matches }: Route.MetaArgs) {
  // The root's preview tags for this address, with this page's own words.
  const rootMeta = matches[0]?.loaderData && "meta" in matches[0].loaderData ? matches[0].loaderData.meta : null;
  if (loaderData?.mode === "group") {
    return withOwnText(rootMeta, TEXT.group.heading, "Apply to join the Dwellers, a VRChat community.");
  }
  if (loaderData && "event" in loaderData) {
    const title = `Apply for ${loaderData.event.title}`;
    return withOwnText(rootMeta, title, `${title}, an event of the Dwellers on VRChat.`);
  }
  return [{ title: "Apply · Dwell" }];
}

export default function ApplyPage({ loaderData, actionData }: Route.ComponentProps) {
  const submitted = actionData?.ok === true;
  const mode = loaderData.mode;
  const successToast = mode === "group" ? TEXT.group.toast : TEXT.event.toast;

  useEffect(() => {
    if (loaderData.loadError) toast.error(loaderData.loadError);
  }, [loaderData.loadError]);
  useEffect(() => {
    if (submitted) toast.success(successToast);
  }, [submitted, actionData, successToast]);

  if (mode === "missing") {
    return (
      <Shell>
        <Card className="p-10 text-center">
          <p className="font-display text-2xl text-mist-100">{loaderData.loadError ?? EVENT_NOT_FOUND_MESSAGE}</p>
        </Card>
      </Shell>
    );
  }

  const event = mode === "group" ? null : loaderData.event;
  const backToEvent = event ? (
    <Button asChild variant="ghost" size="sm" className="-ml-3">
      <Link to={href("/events/:id", { id: event.id })}>
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to Event
      </Link>
    </Button>
  ) : null;

  if (actionData?.ok === true) {
    return (
      <Shell>
        <Card className="flex flex-col items-center gap-4 p-10 text-center" role="status">
          <Sparkles aria-hidden="true" className="size-12 text-ember-300" />
          <h1 className="font-display text-4xl text-mist-100">{event ? TEXT.event.done : TEXT.group.done}</h1>
          {actionData.waitlisted ? (
            <p className="max-w-md font-semibold text-ember-300" data-testid="waitlist-notice">
              Every place is taken just now, so your application is on the waitlist. If a place frees, the hosts may approve it.
            </p>
          ) : null}
          <p className="max-w-md text-mist-300">
            {event
              ? `Your application for ${event.title} has been received. The hosts will be in touch on Discord.`
              : "Your application has been received. The Dwellers will review it and reach out to you on Discord."}
          </p>
          <StatusLink token={actionData.statusToken} />
          {event ? (
            <Button asChild variant="outline">
              <Link to={href("/events/:id", { id: event.id })}>Back to Event</Link>
            </Button>
          ) : null}
        </Card>
      </Shell>
    );
  }

  return (
    <Shell>
      {backToEvent}
      <h1 className="mt-4 font-display text-4xl text-mist-100 sm:text-5xl">
        {event ? `Apply for ${event.title}` : TEXT.group.heading}
      </h1>
      {mode === "group" ? (
        <p className="mt-3 text-mist-300">
          Answer the questions below to seek entry among the Dwellers. Fields marked * are required.
        </p>
      ) : null}
      <Card className="mt-8 p-6 sm:p-8">
        {mode === "closed" ? (
          <p role="status" className="text-ember-300">{loaderData.notice}</p>
        ) : loaderData.loadError ? (
          <p role="alert" className="text-red-300">{loaderData.loadError}</p>
        ) : (
          <ApplicationForm
            key={mode}
            questions={loaderData.questions}
            submitLabel={mode === "group" ? TEXT.group.submit : TEXT.event.submit}
            failure={actionData && !actionData.ok ? actionData : undefined}
            formStarted={(actionData && !actionData.ok ? actionData.formStarted : undefined) ?? loaderData.formStarted}
          />
        )}
      </Card>
    </Shell>
  );
}

/** The applicant's private link: the only way back to their application, so it says to keep it. */
function StatusLink({ token }: { token: string }) {
  return (
    <div className="flex flex-col items-center gap-2">
      <Button asChild>
        <Link to={href("/applications/status/:token", { token })}>Check your application status</Link>
      </Button>
      <p className="max-w-md text-sm text-mist-400">
        Keep this link: it is private to you, and it is the only way to see your application's status here.
      </p>
    </div>
  );
}

function Shell({ children }: { children: React.ReactNode }) {
  return (
    <div className="mx-auto max-w-2xl px-4 py-12 sm:px-6">
      {children}
      <Toaster />
    </div>
  );
}
