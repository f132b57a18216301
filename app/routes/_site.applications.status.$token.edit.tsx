import { ArrowLeft } from "lucide-react";
import { data, href, Link, redirect } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { LazyToaster } from "~/components/ui/lazy-toast";
import { appContext } from "~/context";
import { ApplicationForm } from "~/features/applications/application-form";
import { answersAsSent } from "~/flows/submit-application.server";
import { fieldOf } from "~/utils/form-questions";
import { editApplication, openEdit } from "~/flows/edit-application.server";
import { clientKey } from "~/utils/client-key.server";
import { log } from "~/utils/log.server";
import type { Route } from "./+types/_site.applications.status.$token.edit";

const INVALID = "This status link is not valid, or it has expired.";
const FAILED = "Your answers could not be saved just now. Please try again in a moment.";

/** 'Edit my answers': the form as sent, with the answers as kept (or why it can no longer change). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { db } = context.get(appContext);
  try {
    const view = await openEdit({ db }, params.token, new Date());
    if (view.kind === "missing") return data({ view: { kind: "closed" as const, reason: INVALID } }, { status: 404 });
    if (view.kind === "closed") return { view };
    const { questions, values, eventTitle } = view;
    return { view: { kind: "open" as const, questions, values, eventTitle, isEvent: view.application.kind === "event" } };
  } catch (error) {
    log.error("failed to open an application for editing", { error });
    return data({ view: { kind: "closed" as const, reason: "Your application could not be read just now. Please try again in a moment." } }, { status: 503 });
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const services = context.get(appContext);
  const form = await request.formData().catch(() => null);
  if (!form) return data({ ok: false as const, error: "The form could not be read. Please try again." }, { status: 400 });
  const values = answersAsSent(form);
  try {
    const secret = (await services.auth.$context).secret;
    const outcome = await editApplication(
      { ...services, secret },
      { token: params.token, fields: (name) => fieldOf(form, name), client: clientKey(services.clientAddress), now: new Date() },
    );
    if (outcome.ok) return redirect(`${href("/applications/status/:token", { token: params.token })}?edited=${outcome.message.startsWith("Nothing") ? "none" : "yes"}`);
    return data({ ok: false as const, error: outcome.error, questionId: outcome.questionId, values }, { status: outcome.status });
  } catch (error) {
    log.error("failed to save an applicant's edit", { error });
    return data({ ok: false as const, error: FAILED, values }, { status: 503 });
  }
}

export function headers() {
  return { "Cache-Control": "no-store" };
}

export function meta() {
  return [{ title: "Edit my answers · Dwell" }, { name: "robots", content: "noindex" }, { name: "referrer", content: "no-referrer" }];
}

export default function EditAnswersPage({ loaderData, actionData, params }: Route.ComponentProps) {
  const { view } = loaderData;
  const back = href("/applications/status/:token", { token: params.token });
  return (
    <div className="mx-auto max-w-2xl px-4 py-12 sm:px-6">
      <LazyToaster />
      <Button asChild variant="ghost" className="mb-4">
        <Link to={back}>
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back to my application
        </Link>
      </Button>
      <Card className="p-6 sm:p-10">
        <h1 className="font-display text-3xl text-mist-100 sm:text-4xl">Edit my answers</h1>
        {view.kind === "open" ? (
          <>
            <p className="mt-2 text-mist-300">
              {view.isEvent ? (view.eventTitle ?? "An event") : "Joining the Dwellers"}: change what you need and save. The admins see what changed.
            </p>
            <div className="mt-8">
              <ApplicationForm questions={view.questions} values={view.values} submitLabel="Save my answers" failure={actionData && !actionData.ok ? actionData : undefined} />
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
