import { appContext } from "~/context";
import { listFormQuestions } from "~/features/applications/applications.server";
import { csvFileName } from "~/features/applications/csv";
import { exportCsv, type ReviewScope } from "~/features/applications/review.server";
import { getEvent } from "~/features/events/events.server";
import { requireOnEvent } from "~/utils/admin-guard.server";
import { requireStaff } from "~/routes/staff-guard.server";
import type { Route } from "./+types/_site.admin.applications.export";
import { m } from "~/paraglide/messages";

/** The CSV of an event's applications, or of the group's, streamed as it is read. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context, params.eventId ? "sanctum" : "group.export");
  const { db } = context.get(appContext);
  let scope: ReviewScope = { kind: "group" };
  let title = "Ritual";
  if (params.eventId) {
    const event = await getEvent(db, params.eventId);
    if (!event) return new Response(m.event_not_found_admin(), { status: 404 });
    requireOnEvent(viewer, "export", event);
    scope = { kind: "event", eventId: event.id };
    title = event.title;
  }
  const questions = (await listFormQuestions(db, scope)).map((q) => ({ id: q.id, question: q.question }));
  const fileName = csvFileName(title);
  return new Response(exportCsv(db, scope, questions), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "no-store",
    },
  });
}
