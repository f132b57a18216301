import { useId } from "react";
import { data, Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { fieldClass } from "~/components/ui/field";
import { appContext } from "~/context";
import { formatLongDateTime, zoneOf } from "~/features/events/event-timing";
import { RATING_COMMENT_MAX } from "~/features/events/event-rating";
import { applicationOfToken, ratingState, saveRating } from "~/flows/event-ratings.server";
import { m } from "~/paraglide/messages";
import { log } from "~/utils/log.server";
import type { Route } from "./+types/_site.rate.$token";

/**
 * A personal link: never cached, never sent to another site as a referrer ('same-origin', not
 * 'no-referrer': with that, a browser posts the form without JavaScript as from origin "null", which
 * the site refuses as cross-site).
 */
const PRIVATE = { "Cache-Control": "no-store", "Referrer-Policy": "same-origin" };

async function applicationOf(context: Route.LoaderArgs["context"], token: string) {
  const { auth } = context.get(appContext);
  return applicationOfToken((await auth.$context).secret, token);
}

function view(state: NonNullable<Awaited<ReturnType<typeof ratingState>>>) {
  const when = formatLongDateTime(state.event.start, zoneOf(state.event.timezone));
  if (state.kind === "closed") return { title: state.event.title, when, open: false as const, closesAt: null, rating: null, comment: null };
  return { title: state.event.title, when, open: true as const, closesAt: formatLongDateTime(state.closesAt, zoneOf(state.event.timezone)), rating: state.rating, comment: state.comment };
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { db, config } = context.get(appContext);
  const applicationId = await applicationOf(context, params.token);
  const state = applicationId ? await ratingState(db, applicationId, new Date(), config.RATING_DELAY_MINUTES) : null;
  if (!state) return data({ page: null }, { status: 404, headers: PRIVATE });
  return data({ page: view(state) }, { headers: PRIVATE });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { db, config } = context.get(appContext);
  const applicationId = await applicationOf(context, params.token);
  if (!applicationId) return data({ ok: false, message: m.rate_invalid() }, { status: 404, headers: PRIVATE });
  const form = await request.formData().catch(() => null);
  if (!form) return data({ ok: false, message: m.rate_choose() }, { status: 400, headers: PRIVATE });
  try {
    const outcome = await saveRating(
      db,
      { applicationId, rating: String(form.get("rating") ?? ""), comment: String(form.get("comment") ?? ""), optOut: form.get("optOut") === "yes" },
      new Date(),
      config.RATING_DELAY_MINUTES,
    );
    if (!outcome.ok) return data({ ok: false, message: outcome.message }, { status: outcome.status, headers: PRIVATE });
    return data({ ok: true, message: m.rate_thanks() }, { headers: PRIVATE });
  } catch (error) {
    log.error("a rating could not be kept", { error });
    return data({ ok: false, message: m.unexpected_error() }, { status: 503, headers: PRIVATE });
  }
}

export function headers({ loaderHeaders, actionHeaders }: Route.HeadersArgs) {
  return actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders;
}

export function meta() {
  return [{ title: m.rate_title() }, { name: "robots", content: "noindex" }, { name: "referrer", content: "same-origin" }];
}

export default function RatePage({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const id = useId();
  const { page } = loaderData;
  if (!page) {
    return (
      <main className="mx-auto max-w-xl px-4 py-16">
        <Card className="p-6">
          <h1 className="font-display text-3xl text-mist-100">{m.rate_title()}</h1>
          <p role="alert" className="mt-3 text-mist-300">{m.rate_invalid()}</p>
        </Card>
      </main>
    );
  }
  return (
    <main className="mx-auto max-w-xl px-4 py-16">
      <Card className="p-6">
        <h1 className="font-display text-3xl text-mist-100">{m.rate_heading({ event: page.title })}</h1>
        <p className="mt-1 text-sm text-mist-400">{page.when}</p>
        {actionData ? (
          <p role={actionData.ok ? "status" : "alert"} className={`mt-4 rounded-lg border px-3 py-2 text-sm ${actionData.ok ? "border-emerald-400/40 bg-emerald-500/10 text-emerald-200" : "border-red-400/40 bg-red-500/10 text-red-200"}`}>
            {actionData.message}
          </p>
        ) : null}
        {page.open ? (
          <Form method="post" className="mt-5 space-y-5">
            <fieldset>
              <legend className="text-sm font-semibold text-mist-100">{m.rate_question()}</legend>
              <div className="mt-2 flex flex-wrap gap-3">
                {[1, 2, 3, 4, 5].map((stars) => (
                  <label key={stars} className="flex cursor-pointer items-center gap-1.5 rounded-lg border border-aurora-400/30 px-3 py-2 text-mist-100 has-[:checked]:border-ember-400 has-[:checked]:bg-ember-400/10">
                    <input type="radio" name="rating" value={stars} defaultChecked={page.rating === stars} required />
                    <span aria-hidden="true">{"★".repeat(stars)}</span>
                    <span className="sr-only">{m.rate_stars({ stars })}</span>
                  </label>
                ))}
              </div>
            </fieldset>
            <div className="space-y-1">
              <label htmlFor={`${id}-comment`} className="block text-sm font-semibold text-mist-100">{m.rate_comment()}</label>
              <textarea id={`${id}-comment`} name="comment" rows={4} maxLength={RATING_COMMENT_MAX} defaultValue={page.comment ?? ""} className={fieldClass} />
              <p className="text-xs text-mist-400">{m.rate_private({ closes: page.closesAt ?? "" })}</p>
            </div>
            <label className="flex items-start gap-2 text-sm text-mist-300">
              <input type="checkbox" name="optOut" value="yes" className="mt-1" />
              {m.rate_opt_out()}
            </label>
            <Button type="submit" disabled={busy} aria-busy={busy}>
              {page.rating ? m.rate_change() : m.rate_send()}
            </Button>
          </Form>
        ) : (
          <p className="mt-4 text-mist-300">{m.rate_closed()}</p>
        )}
      </Card>
    </main>
  );
}
