import { ArrowLeft } from "lucide";
import { Icon } from "~/components/ui/icon";
import { data, href, Link, redirect } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { LazyToaster } from "~/components/ui/lazy-toast";
import { appContext } from "~/context";
import { ApplicationForm } from "~/features/applications/application-form";
import { answersAsSent } from "~/flows/submit-application.server";
import { fieldOf, questionsIn } from "~/utils/form-questions";
import { editApplication, openEdit } from "~/flows/edit-application.server";
import { m } from "~/paraglide/messages";
import { clientKey } from "~/utils/client-key.server";
import { applicantPageAddress } from "~/utils/language.server";
import { log } from "~/utils/log.server";
import type { Route } from "./+types/_site.applications.status.$token.edit";



/** 'Edit my answers': the form as sent, with the answers as kept (or why it can no longer change). */
export async function loader({ params, context, request }: Route.LoaderArgs) {
  const { db, language } = context.get(appContext);
  try {
    const view = await openEdit({ db }, params.token, new Date());
    if (view.kind === "missing") return data({ view: { kind: "closed" as const, reason: m.status_invalid_link() } }, { status: 404 });
    const theirs = applicantPageAddress(request, language, view.language ?? null);
    if (theirs) return redirect(theirs, { headers: { "Cache-Control": "no-store" } });
    if (view.kind === "closed") return { view: { kind: "closed" as const, reason: view.reason } };
    const { questions, values, eventTitle } = view;
    return { view: { kind: "open" as const, questions: questionsIn(questions, language), values, eventTitle, isEvent: view.application.kind === "event" } };
  } catch (error) {
    log.error("failed to open an application for editing", { error });
    return data({ view: { kind: "closed" as const, reason: m.edit_read_failed() } }, { status: 503 });
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const form = await request.formData().catch(() => null);
  if (!form) return data({ ok: false as const, error: m.submit_unreadable() }, { status: 400 });
  const values = answersAsSent(form);
  try {
    const secret = (await services.auth.$context).secret;
    const outcome = await editApplication(
      { ...services, secret },
      { token: params.token, fields: (name) => fieldOf(form, name), client: clientKey(services.clientAddress), now: new Date() },
    );
    if (outcome.ok) return redirect(`${href("/applications/status/:token", { token: params.token })}?edited=${outcome.changed ? "yes" : "none"}`);
    return data({ ok: false as const, error: outcome.error, questionId: outcome.questionId, values }, { status: outcome.status });
  } catch (error) {
    log.error("failed to save an applicant's edit", { error });
    return data({ ok: false as const, error: m.edit_save_failed(), values }, { status: 503 });
  }
}

export function headers() {
  return { "Cache-Control": "no-store" };
}

export function meta() {
  return [{ title: m.edit_title() }, { name: "robots", content: "noindex" }, { name: "referrer", content: "same-origin" }];
}

export default function EditAnswersPage({ loaderData, actionData, params }: Route.ComponentProps) {
  const { view } = loaderData;
  const back = href("/applications/status/:token", { token: params.token });
  return (
    <div className="mx-auto max-w-2xl px-4 py-12 sm:px-6">
      <LazyToaster />
      <Button asChild variant="ghost" className="mb-4">
        <Link to={back}>
          <Icon node={ArrowLeft} className="size-4" />
          {m.edit_back()}
        </Link>
      </Button>
      <Card className="p-6 sm:p-10">
        <h1 className="font-display text-3xl text-mist-100 sm:text-4xl">{m.status_edit_answers()}</h1>
        {view.kind === "open" ? (
          <>
            <p className="mt-2 text-mist-300">
              {m.edit_intro({ what: view.isEvent ? (view.eventTitle ?? m.edit_an_event()) : m.status_joining() })}
            </p>
            <div className="mt-8">
              <ApplicationForm questions={view.questions} values={view.values} submitLabel={m.edit_save()} failure={actionData && !actionData.ok ? actionData : undefined} />
            </div>
          </>
        ) : (
          <p className="mt-4 text-mist-300" data-testid="edit-closed">
            {view.reason}
          </p>
        )}
      </Card>
    </div>
  );
}
