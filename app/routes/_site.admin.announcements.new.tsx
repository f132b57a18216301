import { data, href, redirect } from "react-router";
import { BackLink, ErrorAlert } from "~/components/ui/alert";
import { appContext } from "~/context";
import { AnnouncementEditor } from "~/features/announcements/announcement-editor";
import { AnnouncementPreview } from "~/features/announcements/announcement-preview";
import { createAnnouncement } from "~/features/announcements/announcements.server";
import { getOpenInstance } from "~/features/events/event-instances.server";
import { shortJoinLink } from "~/features/vrchat/vrchat-location";
import { m } from "~/paraglide/messages";
import { requireStaff } from "~/routes/staff-guard.server";
import { log } from "~/utils/log.server";
import { editorOptions, eventPicture, isFormIntent, NEW_VALUES, placesOf, readForm, requireAnnouncer } from "./admin-announcements.server";
import type { Route } from "./+types/_site.admin.announcements.new";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { event } = await requireAnnouncer(request, context, new URL(request.url).searchParams.get("event"));
  const app = context.get(appContext);
  const options = await editorOptions(app, request, { published: false, picture: null, mode: "new", event: event && { id: event.id, title: event.title } });
  // Every place set up is chosen at first; an event's announcement starts with its title and words.
  const values = NEW_VALUES(placesOf(app));
  if (event) {
    // An open instance anyone may enter ('Group Public', no applications): its join link goes with it.
    // A role-only event's link never goes in a post: the approved get theirs by direct message.
    const open = event.instanceAccess === "public" && !event.applicationRequired ? await getOpenInstance(app.db, event.id) : null;
    const join = open?.shortName ? `\n\n${m.ann_join_line({ link: shortJoinLink(open.shortName) })}` : "";
    values.texts = { [options.defaultLanguage]: { title: event.title, text: `${event.description}${join}`.trim() } };
  }
  return { options, values };
}

export async function action({ request, context }: Route.ActionArgs) {
  // Staff first: nobody else's form is read at all.
  await requireStaff(request, context);
  const app = context.get(appContext);
  const form = await request.formData().catch(() => null);
  const eventField = form?.get("event");
  const { viewer, event } = await requireAnnouncer(request, context, typeof eventField === "string" && eventField ? eventField : null);
  if (!form) return data({ error: m.ann_form_unreadable(), errors: {}, values: null, preview: null }, { status: 400 });
  const intent = form.get("intent");
  if (!isFormIntent(intent) || intent === "save") return data({ error: m.unknown_action(), errors: {}, values: null, preview: null }, { status: 400 });
  const options = await editorOptions(app, request, { published: false, picture: null, mode: "new", event: event && { id: event.id, title: event.title } });
  const read = await readForm(app, request, form, intent, options, { id: null, publishAt: null, hasPicture: false });
  if (!read.choice) return data({ error: m.ann_fix_fields(), errors: read.errors, values: read.values, preview: null }, { status: 400 });
  if (intent === "preview") return { error: null, errors: {}, values: read.values, preview: read.preview };
  try {
    // An event's announcement carries the event's own picture unless another was chosen.
    const picture = event && read.picture.kind === "keep" && form.get("eventPicture") === "on" ? await eventPicture(app, event) : read.picture;
    const id = await createAnnouncement(app.db, { ...read.choice, eventId: event?.id ?? null }, picture, viewer, new Date());
    app.notifications.wake();
    return redirect(`${href("/admin/announcements/:id", { id })}?done=${intent}`);
  } catch (error) {
    log.error("failed to save an announcement", { error });
    return data({ error: m.ann_not_saved(), errors: {}, values: read.values, preview: null }, { status: 503 });
  }
}

export function meta() {
  return [{ title: m.ann_new_title() }];
}

export default function NewAnnouncement({ loaderData, actionData }: Route.ComponentProps) {
  const values = actionData?.values ?? loaderData.values;
  const back = loaderData.options.event ? href("/admin/events") : href("/admin/announcements");
  return (
    <div className="space-y-6">
      <BackLink to={back}>{loaderData.options.event ? m.ann_back_events() : m.ann_back()}</BackLink>
      <h1 className="font-display text-4xl text-mist-100">{m.ann_new()}</h1>
      {actionData?.error ? <ErrorAlert>{actionData.error}</ErrorAlert> : null}
      {actionData?.preview ? <AnnouncementPreview preview={actionData.preview} /> : null}
      {/* A new key after each answer: the fields show what was sent. */}
      <AnnouncementEditor key={JSON.stringify(values)} values={values} options={loaderData.options} errors={actionData?.errors ?? {}} />
    </div>
  );
}
