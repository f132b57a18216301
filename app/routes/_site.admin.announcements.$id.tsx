import { data, Form, href, redirect } from "react-router";
import { z } from "zod";
import { BackLink, ErrorAlert, SuccessAlert } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { appContext } from "~/context";
import { AnnouncementEditor } from "~/features/announcements/announcement-editor";
import { historyText } from "~/features/announcements/announcement-history";
import { PlaceStates, publishedWhen } from "~/features/announcements/announcement-places";
import { AnnouncementPreview } from "~/features/announcements/announcement-preview";
import { AnnouncementGoneError, deleteAnnouncement, getAnnouncement, placeViews, retryPlace, updateAnnouncement } from "~/features/announcements/announcements.server";
import { m } from "~/paraglide/messages";
import { dateFormat } from "~/utils/language";
import { requireStaff } from "~/routes/staff-guard.server";
import { log } from "~/utils/log.server";
import { editorOptions, isFormIntent, readForm, requireAnnouncer, valuesOf, viewerZone } from "./admin-announcements.server";
import type { Route } from "./+types/_site.admin.announcements.$id";

async function load(context: Route.LoaderArgs["context"], id: string) {
  const parsed = z.uuid().safeParse(id);
  const found = parsed.success ? await getAnnouncement(context.get(appContext).db, parsed.data) : null;
  if (!found) throw data({ message: m.ann_not_found() }, { status: 404 });
  return found;
}

const DONE = ["publish", "schedule", "draft", "save", "retry"] as const;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const found = await load(context, params.id);
  const { event } = await requireAnnouncer(request, context, found.row.eventId);
  const app = context.get(appContext);
  const now = new Date();
  const { row } = found;
  const published = row.publishAt !== null && row.publishAt <= now;
  const picture = found.picture ? { url: href("/admin/announcements/:id/picture", { id: row.id }), width: found.picture.width, height: found.picture.height } : null;
  const options = row.deletedAt ? null : await editorOptions(app, request, { published, picture, mode: "edit", event: event && { id: event.id, title: event.title } });
  const zone = viewerZone(request);
  const done = new URL(request.url).searchParams.get("done");
  return {
    id: row.id,
    title: row.texts[app.language]?.title || Object.values(row.texts)[0]?.title || "",
    membersOnly: row.audience === "members",
    deleted: row.deletedAt !== null,
    publishAt: row.publishAt?.toISOString() ?? null,
    now: now.toISOString(),
    timeZone: zone,
    places: placeViews(row, found.places, now, (id) => href("/news/:id", { id })),
    history: found.history,
    options,
    values: { ...valuesOf(row, zone), places: found.places.filter((place) => place.wanted).map((place) => place.place) },
    done: (DONE as readonly string[]).includes(done ?? "") ? (done as (typeof DONE)[number]) : null,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  await requireStaff(request, context);
  const found = await load(context, params.id);
  const { viewer, event } = await requireAnnouncer(request, context, found.row.eventId);
  const app = context.get(appContext);
  const form = await request.formData().catch(() => null);
  const fail = (error: string, status: number, extra: object = {}) => data({ error, errors: {}, values: null, preview: null, ...extra }, { status });
  if (!form) return fail(m.ann_form_unreadable(), 400);
  const intent = form.get("intent");
  const path = href("/admin/announcements/:id", { id: found.row.id });
  try {
    if (intent === "delete") {
      if (!(await deleteAnnouncement(app.db, found.row.id, viewer, new Date()))) return fail(m.ann_not_found(), 404);
      app.notifications.wake();
      return redirect(href("/admin/announcements"));
    }
    if (intent === "retry") {
      const place = z.enum(["vrchat", "discord"]).safeParse(form.get("place"));
      if (!place.success || !(await retryPlace(app.db, found.row.id, place.data, viewer, new Date()))) return fail(m.ann_retry_nothing(), 409);
      app.notifications.wake();
      return redirect(`${path}?done=retry`);
    }
    if (!isFormIntent(intent) || intent === "publish" || intent === "draft") return fail(m.unknown_action(), 400);
    if (found.row.deletedAt) return fail(m.ann_not_found(), 404);
    const now = new Date();
    const published = found.row.publishAt !== null && found.row.publishAt <= now;
    const options = await editorOptions(app, request, { published, picture: null, mode: "edit", event: event && { id: event.id, title: event.title } });
    const read = await readForm(app, request, form, intent === "schedule" ? "schedule" : intent, options, { id: found.row.id, publishAt: found.row.publishAt, hasPicture: found.row.pictureId !== null });
    if (!read.choice) return data({ error: m.ann_fix_fields(), errors: read.errors, values: read.values, preview: null }, { status: 400 });
    if (intent === "preview") return { error: null, errors: {}, values: read.values, preview: read.preview };
    await updateAnnouncement(app.db, found.row.id, { ...read.choice, eventId: found.row.eventId }, read.picture, viewer, now);
    app.notifications.wake();
    return redirect(`${path}?done=save`);
  } catch (error) {
    if (error instanceof AnnouncementGoneError) return fail(m.ann_not_found(), 404);
    log.error("failed to change an announcement", { error });
    return fail(m.ann_not_saved(), 503);
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? m.ann_card_title({ title: loaderData.title }) : m.ann_page_title() }];
}

export default function AnnouncementCard({ loaderData, actionData }: Route.ComponentProps) {
  const { title, membersOnly, deleted, publishAt, now, timeZone, places, history, options, done } = loaderData;
  const values = actionData?.values ?? loaderData.values;
  const at = (iso: string) => dateFormat({ dateStyle: "medium", timeStyle: "short", timeZone }).format(new Date(iso));
  return (
    <div className="space-y-6">
      <BackLink to={href("/admin/announcements")}>{m.ann_back()}</BackLink>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="font-display text-4xl text-mist-100">{title}</h1>
        {membersOnly ? <Badge tone="gold">{m.ann_members_only()}</Badge> : null}
        {deleted ? <Badge tone="muted">{m.ann_deleted()}</Badge> : null}
      </div>
      <p className="text-sm text-mist-400">{publishedWhen(publishAt, now, timeZone)}</p>
      {done ? <SuccessAlert>{doneText(done)}</SuccessAlert> : null}
      {actionData?.error ? <ErrorAlert>{actionData.error}</ErrorAlert> : null}

      <Card className="p-5">
        <h2 className="font-display text-xl text-mist-100">{m.ann_where_heading()}</h2>
        <PlaceStates places={places} mayRetry={!deleted} />
      </Card>

      {actionData?.preview ? <AnnouncementPreview preview={actionData.preview} /> : null}
      {options ? (
        <section aria-labelledby="edit-heading" className="space-y-4">
          <h2 id="edit-heading" className="font-display text-2xl text-mist-100">
            {m.ann_edit_heading()}
          </h2>
          <AnnouncementEditor key={JSON.stringify(values)} values={values} options={options} errors={actionData?.errors ?? {}} />
        </section>
      ) : null}

      {deleted ? null : (
        <Card className="space-y-3 border-red-400/30 p-5">
          <h2 className="font-display text-xl text-mist-100">{m.ann_delete_heading()}</h2>
          <p className="text-sm text-mist-300">{m.ann_delete_text()}</p>
          <Form method="post">
            <input type="hidden" name="intent" value="delete" />
            <Button type="submit" variant="danger" size="sm">
              {m.ann_delete()}
            </Button>
          </Form>
        </Card>
      )}

      <Card className="p-5">
        <h2 className="font-display text-xl text-mist-100">{m.ann_history_heading()}</h2>
        <ul className="mt-3 space-y-1 text-sm text-mist-300">
          {history.map((entry, i) => (
            <li key={i}>
              <time dateTime={entry.createdAt}>{at(entry.createdAt)}</time> · {entry.actorName}: {historyText(entry.change, timeZone)}
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}

function doneText(done: (typeof DONE)[number]): string {
  switch (done) {
    case "publish":
      return m.ann_done_publish();
    case "schedule":
      return m.ann_done_schedule();
    case "draft":
      return m.ann_done_draft();
    case "save":
      return m.ann_done_save();
    case "retry":
      return m.ann_done_retry();
  }
}
