import { useMemo } from "react";
import { Link } from "react-router";
import { clsx } from "clsx";
import { Card } from "~/components/ui/card";
import { m } from "~/paraglide/messages";
import { formatCount, intlLocale } from "~/utils/language";
import { useViewerTimeZone } from "~/utils/viewer-time-zone";
import { TrendChart, type ChartSeries } from "~/components/ui/trend-chart";

export const RANGE_LABEL = { "24h": m.trend_24h, "30d": m.trend_30d, "1y": m.trend_1y } as const;
export type InsightRange = keyof typeof RANGE_LABEL;

export interface InsightData {
  range: InsightRange;
  /** What the group's chart spans (its range, ending now), whatever readings it has. */
  period: { from: string; to: string };
  /** The group's counts as the VRChat refreshes read them; null when VRChat is not configured. */
  group: { at: string; members: number; online: number }[] | null;
  weeks: { week: string; group: number; event: number }[];
  decisions: Record<"group" | "event", { decided: number; approved: number; approvalRate: number | null; medianHoursToDecision: number | null }>;
}

const COLORS = { members: "#b39dff", online: "#34d399", group: "#f2c65a", event: "#9479ff" } as const;

function hours(value: number | null) {
  if (value === null) return "—";
  const tenths = (count: number) => count.toLocaleString(intlLocale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  if (value < 1) return m.trend_minutes({ count: formatCount(Math.round(value * 60)) });
  if (value < 48) return m.trend_hours({ count: tenths(value) });
  return m.trend_days({ count: tenths(value / 24) });
}

const percent = (value: number | null) => (value === null ? "—" : `${Math.round(value * 100)}%`);

/** The dashboard's trends: the group's members and who is online, and the applications of 12 weeks. */
export function InsightPanel({ insight }: { insight: InsightData }) {
  const timeZone = useViewerTimeZone();
  const group = useMemo(() => {
    const points = insight.group ?? [];
    const x = points.map((point) => Date.parse(point.at));
    const series: ChartSeries[] = [
      { label: m.trend_members(), values: points.map((point) => point.members), color: COLORS.members },
      { label: m.trend_online(), values: points.map((point) => point.online), color: COLORS.online },
    ];
    return { x, series, span: [Date.parse(insight.period.from), Date.parse(insight.period.to)] as [number, number] };
  }, [insight.group, insight.period]);
  const weeks = useMemo(() => {
    const x = insight.weeks.map((week) => Date.parse(`${week.week}T00:00:00Z`));
    const series: ChartSeries[] = [
      { label: m.trend_group(), values: insight.weeks.map((week) => week.group), color: COLORS.group },
      { label: m.trend_events(), values: insight.weeks.map((week) => week.event), color: COLORS.event },
    ];
    return { x, series };
  }, [insight.weeks]);
  const formatGroupTime = useMemo(() => {
    const format = new Intl.DateTimeFormat(intlLocale(), insight.range === "24h" ? { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone } : { month: "short", day: "numeric", timeZone });
    return (ms: number) => format.format(ms);
  }, [insight.range, timeZone]);
  const [formatWeek, formatWeekTick] = useMemo(() => {
    const format = new Intl.DateTimeFormat(intlLocale(), { month: "short", day: "numeric", timeZone: "UTC" });
    // The axis has little room: its dates in figures ("9/14").
    const tick = new Intl.DateTimeFormat(intlLocale(), { month: "numeric", day: "numeric", timeZone: "UTC" });
    return [(ms: number) => m.trend_week_of({ date: format.format(ms) }), (ms: number) => tick.format(ms)];
  }, []);

  return (
    <Card className="space-y-8 p-6" aria-labelledby="insight-heading">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="insight-heading" className="font-display text-2xl text-mist-100">{m.trend_heading()}</h2>
        {insight.group ? (
          <nav aria-label={m.trend_period_label()} className="flex gap-1 rounded-lg border border-aurora-400/20 p-1 text-sm">
            {(Object.keys(RANGE_LABEL) as InsightRange[]).map((range) => (
              <Link
                key={range}
                to={`?trend=${range}`}
                preventScrollReset
                aria-current={range === insight.range ? "page" : undefined}
                className={clsx("rounded px-3 py-1", range === insight.range ? "bg-aurora-500/30 text-mist-100" : "text-mist-300 hover:text-ember-300")}
              >
                {RANGE_LABEL[range]()}
              </Link>
            ))}
          </nav>
        ) : null}
      </div>
      {insight.group ? (
        <TrendChart
          title={m.trend_members_title({ range: RANGE_LABEL[insight.range]() })}
          x={group.x}
          span={group.span}
          series={group.series}
          formatX={formatGroupTime}
          empty={m.trend_no_readings()}
        />
      ) : (
        <p className="text-sm text-mist-400">{m.trend_not_configured()}</p>
      )}
      <TrendChart title={m.trend_weeks_title()} x={weeks.x} series={weeks.series} bars formatX={formatWeek} formatTick={formatWeekTick} empty={m.trend_no_weeks()} />
      <dl className="grid gap-4 sm:grid-cols-2">
        {(["group", "event"] as const).map((kind) => {
          const figures = insight.decisions[kind];
          return (
            <div key={kind} className="rounded-xl border border-aurora-400/15 p-4">
              <dt className="text-sm font-semibold text-mist-400">{kind === "group" ? m.trend_group_decided() : m.trend_event_decided()}</dt>
              <dd className="mt-2 text-mist-100">
                {figures.decided === 0 ? <span className="block text-mist-300">{m.trend_none_decided()}</span> : <><span className="font-display text-3xl">{percent(figures.approvalRate)}</span> {m.trend_approved()}</>}
                <span className="block text-sm text-mist-300">
                  {m.trend_decided_line({ approved: formatCount(figures.approved), decided: formatCount(figures.decided), median: hours(figures.medianHoursToDecision) })}
                </span>
              </dd>
            </div>
          );
        })}
      </dl>
    </Card>
  );
}
