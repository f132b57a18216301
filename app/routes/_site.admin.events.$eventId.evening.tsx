import { data } from "react-router";
import { appContext } from "~/context";
import { EveningPage, type EveningView } from "~/features/events/evening-page";
import { eveningOf } from "~/features/events/evening.server";
import { listInstanceAttendance } from "~/features/events/instance-attendance.server";
import { ratingsOf, ratingSummaries } from "~/flows/event-ratings.server";
import { m } from "~/paraglide/messages";
import { requireOnEvent } from "~/utils/admin-guard.server";
import { requireStaff } from "~/routes/staff-guard.server";
import type { Route } from "./+types/_site.admin.events.$eventId.evening";

/** The event's hosts and the staff who review its applications: never anyone else (the answers are private). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context);
  const { db, config } = context.get(appContext);
  const evening = await eveningOf(db, params.eventId, config.ATTENDANCE_MIN_MINUTES);
  if (!evening) throw data({ message: m.ev_missing() }, { status: 404 });
  requireOnEvent(viewer, "review", evening.event);
  const occurrenceIds = evening.series?.figures.map((figures) => figures.eventId) ?? [];
  const [attendance, ratings, summaries] = await Promise.all([listInstanceAttendance(db, [params.eventId]), ratingsOf(db, [params.eventId]), ratingSummaries(db, occurrenceIds)]);
  const own = attendance.get(params.eventId);
  const { eventId: _eventId, ...figures } = evening.figures;
  const view: EveningView = {
    ...figures,
    unreadable: own?.unreadable ?? false,
    withoutApplying: own?.withoutApplying ?? [],
    ratings: { average: ratings.average, count: ratings.count, comments: ratings.comments.map((comment) => ({ ...comment, at: comment.at.toISOString() })) },
    series: evening.series
      ? {
          occurrences: evening.series.figures.map(({ title: _title, end: _end, minutes: _minutes, peak: _peak, ...occurrence }) => ({
            ...occurrence,
            average: summaries.get(occurrence.eventId)?.average ?? null,
            answers: summaries.get(occurrence.eventId)?.count ?? 0,
          })),
          regulars: evening.series.regulars,
        }
      : null,
  };
  return data({ view }, { headers: { "Cache-Control": "no-store" } });
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? m.ev_heading({ event: loaderData.view.title }) : m.ev_link() }];
}

export default function EveningRoute({ loaderData }: Route.ComponentProps) {
  return <EveningPage view={loaderData.view} />;
}
