import { useMemo } from "react";
import { Link } from "react-router";
import { clsx } from "clsx";
import { Card } from "~/components/ui/card";
import { useViewerTimeZone } from "~/utils/viewer-time-zone";
import { TrendChart, type ChartSeries } from "./trend-chart";

export const RANGE_LABEL = { "24h": "24 hours", "30d": "30 days", "1y": "1 year" } as const;
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
  if (value < 1) return `${Math.round(value * 60)} min`;
  if (value < 48) return `${value.toFixed(1)} h`;
  return `${(value / 24).toFixed(1)} days`;
}

const percent = (value: number | null) => (value === null ? "—" : `${Math.round(value * 100)}%`);

/** The dashboard's trends: the group's members and who is online, and the applications of 12 weeks. */
export function InsightPanel({ insight }: { insight: InsightData }) {
  const timeZone = useViewerTimeZone();
  const group = useMemo(() => {
    const points = insight.group ?? [];
    const x = points.map((point) => Date.parse(point.at));
    const series: ChartSeries[] = [
      { label: "Members", values: points.map((point) => point.members), color: COLORS.members },
      { label: "Online now", values: points.map((point) => point.online), color: COLORS.online },
    ];
    return { x, series, span: [Date.parse(insight.period.from), Date.parse(insight.period.to)] as [number, number] };
  }, [insight.group, insight.period]);
  const weeks = useMemo(() => {
    const x = insight.weeks.map((week) => Date.parse(`${week.week}T00:00:00Z`));
    const series: ChartSeries[] = [
      { label: "Group", values: insight.weeks.map((week) => week.group), color: COLORS.group },
      { label: "Events", values: insight.weeks.map((week) => week.event), color: COLORS.event },
    ];
    return { x, series };
  }, [insight.weeks]);
  const formatGroupTime = useMemo(() => {
    const format = new Intl.DateTimeFormat("en-US", insight.range === "24h" ? { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone } : { month: "short", day: "numeric", timeZone });
    return (ms: number) => format.format(ms);
  }, [insight.range, timeZone]);
  const [formatWeek, formatWeekTick] = useMemo(() => {
    const format = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
    return [(ms: number) => `Week of ${format.format(ms)}`, (ms: number) => format.format(ms)];
  }, []);

  return (
    <Card className="space-y-8 p-6" aria-labelledby="insight-heading">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="insight-heading" className="font-display text-2xl text-mist-100">Trends</h2>
        {insight.group ? (
          <nav aria-label="Period of the group's chart" className="flex gap-1 rounded-lg border border-aurora-400/20 p-1 text-sm">
            {(Object.keys(RANGE_LABEL) as InsightRange[]).map((range) => (
              <Link
                key={range}
                to={`?trend=${range}`}
                preventScrollReset
                aria-current={range === insight.range ? "page" : undefined}
                className={clsx("rounded px-3 py-1", range === insight.range ? "bg-aurora-500/30 text-mist-100" : "text-mist-300 hover:text-ember-300")}
              >
                {RANGE_LABEL[range]}
              </Link>
            ))}
          </nav>
        ) : null}
      </div>
      {insight.group ? (
        <TrendChart
          title={`Members and online now, last ${RANGE_LABEL[insight.range]}`}
          x={group.x}
          span={group.span}
          series={group.series}
          formatX={formatGroupTime}
          empty="No readings yet in this period: the counts are kept from each refresh of the group's data from VRChat."
        />
      ) : (
        <p className="text-sm text-mist-400">The group's members and online counts are charted once VRChat is configured.</p>
      )}
      <TrendChart title="Applications per week, last 12 weeks" x={weeks.x} series={weeks.series} bars formatX={formatWeek} formatTick={formatWeekTick} empty="No weeks to show." />
      <dl className="grid gap-4 sm:grid-cols-2">
        {(["group", "event"] as const).map((kind) => {
          const figures = insight.decisions[kind];
          return (
            <div key={kind} className="rounded-xl border border-aurora-400/15 p-4">
              <dt className="text-sm font-semibold text-mist-400">{`${kind === "group" ? "Group" : "Event"} applications, decided in the last 12 weeks`}</dt>
              <dd className="mt-2 text-mist-100">
                {figures.decided === 0 ? <span className="block text-mist-300">None decided yet.</span> : <><span className="font-display text-3xl">{percent(figures.approvalRate)}</span> approved</>}
                <span className="block text-sm text-mist-300">
                  {`${figures.approved.toLocaleString("en-US")} of ${figures.decided.toLocaleString("en-US")} decided · median time to a decision ${hours(figures.medianHoursToDecision)}`}
                </span>
              </dd>
            </div>
          );
        })}
      </dl>
    </Card>
  );
}
