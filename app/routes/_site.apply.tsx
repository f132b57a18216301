import { ArrowLeft, Sparkles } from "lucide";
import { Icon } from "~/components/ui/icon";
import { useEffect } from "react";
import { createContext, data, href, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { LazyToaster, showToast } from "~/components/ui/lazy-toast";
import { appContext } from "~/context";
import { ApplicationForm, SUBMIT_LABEL } from "~/features/applications/application-form";
import { listFormQuestionsKept, submitFailedMessage } from "~/features/applications/applications.server";
import { applicationClosedNotice, eventNotFoundMessage } from "~/features/events/application-notice";
import { applicationState } from "~/features/events/event-timing";
import { getEvent } from "~/features/events/events.server";
import { formGuardsFor, submitPublicApplication, type SubmissionOutcome } from "~/flows/submit-application.server";
import { log } from "~/utils/log.server";
import { withOwnText } from "~/utils/preview-text";
import { m } from "~/paraglide/messages";
import { questionsIn } from "~/utils/form-questions";
import type { Route } from "./+types/_site.apply";

/** The two forms' own texts, in the page's language. */
const TEXT = {
  group: {
    heading: m.apply_group_heading,
    submit: SUBMIT_LABEL.group,
    done: m.apply_group_done,
    toast: m.apply_group_toast,
    loadFailed: m.apply_group_load_failed,
  },
  event: {
    submit: SUBMIT_LABEL.event,
    done: m.apply_event_done,
    toast: m.apply_event_toast,
    loadFailed: m.apply_event_load_failed,
  },
} as const;

/**
 * Set by a submission that was taken: the page shows its confirmation, so the loader that runs
 * after the action (a document post) need not read the questions or make a new challenge.
 */
const submitted = createContext(false);

export async function loader({ params, context }: Route.LoaderArgs) {
  const { db, auth, clientAddress, config, language, sharedRender } = context.get(appContext);
  const done = context.get(submitted);
  const { formStarted, crowdChallenge } = done
    ? { formStarted: "", crowdChallenge: null }
    : await formGuardsFor((await auth.$context).secret, clientAddress, config.CROWD_CHALLENGE_WORK, new Date(), sharedRender);
  if (!params.id) {
    try {
      return { mode: "group" as const, questions: done ? [] : questionsIn(await listFormQuestionsKept(db, { kind: "group" }), language), formStarted, crowdChallenge, loadError: null };
    } catch (error) {
      log.error("failed to load the group application form", { error });
      return data({ mode: "group" as const, questions: [], formStarted, crowdChallenge, loadError: TEXT.group.loadFailed() }, { status: 503 });
    }
  }

  let event;
  try {
    event = await getEvent(db, params.id);
  } catch (error) {
    log.error("failed to load an event for its application form", { error, eventId: params.id });
    return data({ mode: "missing" as const, loadError: m.apply_event_details_failed() }, { status: 503 });
  }
  if (!event) return data({ mode: "missing" as const, loadError: null }, { status: 404 });
  const summary = { id: event.id, title: event.title };
  const closed = applicationClosedNotice(applicationState(event, new Date()));
  if (!event.applicationRequired || closed) {
    const notice = closed ?? m.event_applications_unavailable();
    return { mode: "closed" as const, event: summary, notice, loadError: null };
  }
  try {
    const questions = done ? [] : questionsIn(await listFormQuestionsKept(db, { kind: "event", eventId: event.id }), language);
    return { mode: "event" as const, event: summary, questions, formStarted, crowdChallenge, loadError: null };
  } catch (error) {
    log.error("failed to load an event's application questions", { error, eventId: event.id });
    return data(
      { mode: "event" as const, event: summary, questions: [], formStarted, crowdChallenge, loadError: TEXT.event.loadFailed() },
      { status: 503 },
    );
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const secret = (await services.auth.$context).secret;
  const outcome = await submitPublicApplication(
    { ...services, secret },
    { eventId: params.id, clientAddress: services.clientAddress, request, now: new Date() },
  ).catch((error: unknown): SubmissionOutcome => {
    // The database failing before the answers were read (a limit's count): nothing was stored.
    log.error("failed to take an application", { error });
    return { ok: false, status: 503, error: submitFailedMessage() };
  });
  if (outcome.ok) {
    context.set(submitted, true);
    return outcome;
  }
  const { status, retryAfterSeconds, ...failure } = outcome;
  const headers: HeadersInit = retryAfterSeconds === undefined ? {} : { "Retry-After": String(retryAfterSeconds) };
  return data(failure, { status, headers });
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
    return withOwnText(rootMeta, TEXT.group.heading(), m.apply_group_description());
  }
  if (loaderData && "event" in loaderData) {
    const title = m.apply_event_heading({ event: loaderData.event.title });
    return withOwnText(rootMeta, title, m.apply_event_description({ title }));
  }
  return [{ title: m.apply_title() }];
}

export default function ApplyPage({ loaderData, actionData }: Route.ComponentProps) {
  const submitted = actionData?.ok === true;
  const mode = loaderData.mode;
  const successToast = mode === "group" ? TEXT.group.toast() : TEXT.event.toast();

  useEffect(() => {
    if (loaderData.loadError) showToast("error", loaderData.loadError);
  }, [loaderData.loadError]);
  useEffect(() => {
    if (submitted) showToast("success", successToast);
  }, [submitted, actionData, successToast]);

  if (mode === "missing") {
    return (
      <Shell>
        <Card className="p-10 text-center">
          <p className="font-display text-2xl text-mist-100">{loaderData.loadError ?? eventNotFoundMessage()}</p>
        </Card>
      </Shell>
    );
  }

  const event = mode === "group" ? null : loaderData.event;
  const backToEvent = event ? (
    <Button asChild variant="ghost" size="sm" className="-ml-3">
      <Link to={href("/events/:id", { id: event.id })}>
        <Icon node={ArrowLeft} className="size-4" />
        {m.apply_back_to_event()}
      </Link>
    </Button>
  ) : null;

  if (actionData?.ok === true) {
    return (
      <Shell>
        <Card className="flex flex-col items-center gap-4 p-10 text-center" role="status">
          <Icon node={Sparkles} className="size-12 text-ember-300" />
          <h1 className="font-display text-4xl text-mist-100">{event ? TEXT.event.done() : TEXT.group.done()}</h1>
          {actionData.waitlisted ? (
            <p className="max-w-md font-semibold text-ember-300" data-testid="waitlist-notice">
              {m.apply_waitlisted()}
            </p>
          ) : null}
          <p className="max-w-md text-mist-300">
            {event ? m.apply_event_received({ event: event.title }) : m.apply_group_received()}
          </p>
          <StatusLink token={actionData.statusToken} provable={actionData.provable} />
          {event ? (
            <Button asChild variant="outline">
              <Link to={href("/events/:id", { id: event.id })}>{m.apply_back_to_event()}</Link>
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
        {event ? m.apply_event_heading({ event: event.title }) : TEXT.group.heading()}
      </h1>
      {mode === "group" ? (
        <p className="mt-3 text-mist-300">
          {m.apply_group_intro()}
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
            submitLabel={mode === "group" ? TEXT.group.submit() : TEXT.event.submit()}
            failure={actionData && !actionData.ok ? actionData : undefined}
            formStarted={(actionData && !actionData.ok ? actionData.formStarted : undefined) ?? loaderData.formStarted}
            crowdChallenge={(actionData && !actionData.ok ? actionData.crowdChallenge : undefined) ?? loaderData.crowdChallenge}
          />
        )}
      </Card>
    </Shell>
  );
}

/** The applicant's private link: the only way back to their application, so it says to keep it. */
function StatusLink({ token, provable }: { token: string; provable: boolean }) {
  return (
    <div className="flex flex-col items-center gap-2">
      <Button asChild>
        <Link to={href("/applications/status/:token", { token })}>{m.apply_check_status()}</Link>
      </Button>
      <p className="max-w-md text-sm text-mist-400">
        {m.apply_keep_link()}
      </p>
      {provable ? (
        <Button asChild variant="outline" className="mt-2">
          <Link to={`${href("/applications/status/:token", { token })}#proof-heading`}>{m.apply_prove()}</Link>
        </Button>
      ) : null}
    </div>
  );
}

function Shell({ children }: { children: React.ReactNode }) {
  return (
    <div className="mx-auto max-w-2xl px-4 py-12 sm:px-6">
      {children}
      <LazyToaster />
    </div>
  );
}
