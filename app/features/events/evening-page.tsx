/**
 * How an evening went, for its hosts and the group's staff: the figures, the people in its instance
 * minute by minute (start, end and peak marked), who came without applying, what the guests thought,
 * and for a series the same over its occurrences and its regulars.
 */
import { useMemo } from "react";
import { Card } from "~/components/ui/card";
import { TrendChart } from "~/components/ui/trend-chart";
import { m } from "~/paraglide/messages";
import { formatCount, intlLocale } from "~/utils/language";
import { useViewerTimeZone } from "~/utils/viewer-time-zone";
import type { EveningFigures } from "./evening.server";

/** An evening's figures as the page gets them (features/events/evening.server), with what the instance and the guests said. */
export interface EveningView extends Omit<EveningFigures, "eventId"> {
  unreadable: boolean;
  withoutApplying: string[];
  ratings: { average: number | null; count: number; comments: { rating: number; comment: string; at: string }[] };
  series: {
    occurrences: (Pick<EveningFigures, "eventId" | "start" | "seen" | "medianStay" | "approved" | "came" | "showRate"> & { average: number | null; answers: number })[];
    regulars: { name: string; evenings: number }[];
  } | null;
}

const percent = (rate: number | null) => (rate === null ? "—" : `${Math.round(rate * 100)} %`);
const stars = (average: number | null) => (average === null ? "—" : m.ev_stars({ average: average.toFixed(1) }));

function Figures({ view }: { view: EveningView }) {
  const rows: [string, string][] = [
    [m.ev_seen(), formatCount(view.seen)],
    [m.ev_median_stay(), view.medianStay === null ? "—" : m.ev_minutes({ minutes: Math.round(view.medianStay) })],
    [m.ev_show_rate(), view.approved === 0 ? "—" : m.ev_came_of({ came: view.came, approved: view.approved, rate: percent(view.showRate) })],
    [m.ev_rating(), view.ratings.count === 0 ? m.ev_no_answers() : m.ev_rating_of({ average: stars(view.ratings.average), count: view.ratings.count })],
  ];
  return (
    <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
      {rows.map(([label, value]) => (
        <div key={label} className="rounded-lg border border-aurora-400/15 px-3 py-2">
          <dt className="text-xs text-mist-400">{label}</dt>
          <dd className="text-lg font-semibold text-mist-100 tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function EveningPage({ view }: { view: EveningView }) {
  const timeZone = useViewerTimeZone();
  const { formatX, formatTick } = useMemo(() => {
    const time = new Intl.DateTimeFormat(intlLocale(), { hour: "2-digit", minute: "2-digit", timeZone });
    return { formatX: (ms: number) => time.format(ms), formatTick: (ms: number) => time.format(ms) };
  }, [timeZone]);
  const chart = useMemo(() => {
    const x = view.minutes.map((minute) => minute.at);
    const series = [{ label: m.ev_people(), values: view.minutes.map((minute) => minute.people), color: "#8b7cf6" }];
    const marks = [
      { at: Date.parse(view.start), label: m.ev_mark_start() },
      { at: Date.parse(view.end), label: m.ev_mark_end() },
      ...(view.peak ? [{ at: view.peak.at, label: m.ev_mark_peak({ people: view.peak.people }) }] : []),
    ];
    const first = Math.min(Date.parse(view.start), x[0] ?? Infinity);
    const last = Math.max(Date.parse(view.end), x.at(-1) ?? -Infinity);
    return { x, series, marks, span: [first, last] as [number, number] };
  }, [view]);
  const date = new Intl.DateTimeFormat(intlLocale(), { dateStyle: "medium", timeZone });
  return (
    <div className="space-y-6">
      <header>
        <h1 className="font-display text-4xl text-mist-100">{m.ev_heading({ event: view.title })}</h1>
        <p className="text-mist-400">{date.format(Date.parse(view.start))}</p>
      </header>
      <Card className="space-y-5 p-5">
        <Figures view={view} />
        {view.unreadable ? <p role="status" className="rounded-lg border border-ember-400/40 bg-ember-400/10 px-3 py-2 text-sm text-ember-200">{m.att_unreadable()}</p> : null}
        <TrendChart title={m.ev_chart_title()} x={chart.x} series={chart.series} span={chart.span} marks={chart.marks} minutes formatX={formatX} formatTick={formatTick} empty={m.ev_chart_empty()} />
        {view.minutes.some((minute) => minute.people === null) ? <p className="text-xs text-mist-400">{m.ev_gaps()}</p> : null}
        {view.withoutApplying.length > 0 ? <p className="text-sm text-mist-300">{m.att_without_applying({ names: view.withoutApplying.join(", ") })}</p> : null}
      </Card>
      <Card className="p-5">
        <h2 className="font-display text-2xl text-mist-100">{m.ev_comments({ count: view.ratings.comments.length })}</h2>
        <p className="mt-1 text-xs text-mist-400">{m.ev_private()}</p>
        {view.ratings.comments.length === 0 ? (
          <p className="mt-3 text-sm text-mist-400">{m.ev_no_comments()}</p>
        ) : (
          <ul className="mt-3 space-y-3">
            {view.ratings.comments.map((comment, i) => (
              <li key={i} className="rounded-lg border border-aurora-400/15 px-3 py-2">
                <p className="text-sm text-ember-300">
                  <span aria-hidden="true">{"★".repeat(comment.rating)}</span>
                  <span className="sr-only">{m.rate_stars({ stars: comment.rating })}</span>
                  <span className="ml-2 text-xs text-mist-400">{date.format(Date.parse(comment.at))}</span>
                </p>
                <p className="mt-1 whitespace-pre-line break-words text-mist-100">{comment.comment}</p>
              </li>
            ))}
          </ul>
        )}
      </Card>
      {view.series ? (
        <Card className="p-5">
          <h2 className="font-display text-2xl text-mist-100">{m.ev_series()}</h2>
          <div className="mt-3 overflow-x-auto">
            <table className="w-full text-left text-sm text-mist-300">
              <thead className="text-mist-100">
                <tr>
                  <th scope="col" className="px-2 py-1">{m.chart_when()}</th>
                  <th scope="col" className="px-2 py-1 text-right">{m.ev_seen()}</th>
                  <th scope="col" className="px-2 py-1 text-right">{m.ev_median_stay()}</th>
                  <th scope="col" className="px-2 py-1 text-right">{m.ev_show_rate()}</th>
                  <th scope="col" className="px-2 py-1 text-right">{m.ev_rating()}</th>
                </tr>
              </thead>
              <tbody>
                {view.series.occurrences.map((occurrence) => (
                  <tr key={occurrence.eventId} className="border-t border-aurora-400/10">
                    <th scope="row" className="px-2 py-1 font-normal">{date.format(Date.parse(occurrence.start))}</th>
                    <td className="px-2 py-1 text-right tabular-nums">{formatCount(occurrence.seen)}</td>
                    <td className="px-2 py-1 text-right tabular-nums">{occurrence.medianStay === null ? "—" : m.ev_minutes({ minutes: Math.round(occurrence.medianStay) })}</td>
                    <td className="px-2 py-1 text-right tabular-nums">{occurrence.approved === 0 ? "—" : `${occurrence.came}/${occurrence.approved} (${percent(occurrence.showRate)})`}</td>
                    <td className="px-2 py-1 text-right tabular-nums">{occurrence.answers === 0 ? "—" : `${stars(occurrence.average)} (${occurrence.answers})`}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <h3 className="mt-4 font-semibold text-mist-100">{m.ev_regulars()}</h3>
          <p className="text-sm text-mist-300">{view.series.regulars.length === 0 ? m.ev_no_regulars() : view.series.regulars.map((regular) => m.ev_regular({ name: regular.name, evenings: regular.evenings })).join(", ")}</p>
        </Card>
      ) : null}
    </div>
  );
}
