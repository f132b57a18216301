import "uplot/dist/uPlot.min.css";
import { useEffect, useRef, useState } from "react";
import { m } from "~/paraglide/messages";
import { formatCount } from "~/utils/language";
import type uPlot from "uplot";

export interface ChartSeries {
  label: string;
  /** One value per point of `x` (null: not known there, drawn as a gap). */
  values: (number | null)[];
  color: string;
}

const NO_MARKS: { at: number; label: string }[] = [];

/**
 * The line (0 the first) a mark's word goes on: the first whose words it does not touch. `taken`
 * holds each line's words so far (their horizontal extents), and gets this one.
 */
export function placeLabel(taken: { from: number; to: number }[][], span: { from: number; to: number }): number {
  let line = taken.findIndex((spans) => spans.every((other) => span.to <= other.from || span.from >= other.to));
  if (line < 0) line = taken.push([]) - 1;
  taken[line]!.push(span);
  return line;
}

/**
 * A chart of the Sanctum's trends, drawn in the browser with uPlot (loaded only here, when the
 * chart is shown), with the same figures as a table: the table is what keyboards and screen
 * readers use, and what shows before the script runs or without it.
 */
export function TrendChart({
  title,
  x,
  series,
  span,
  bars = false,
  formatX,
  formatTick = formatX,
  empty,
  marks = NO_MARKS,
  minutes = false,
}: {
  title: string;
  /** Each point's time, in milliseconds. */
  x: number[];
  series: ChartSeries[];
  /** The time the chart spans, in milliseconds (default: from the first point to the last). */
  span?: [number, number];
  /** Bars side by side (counts per period) rather than lines (readings over time). */
  bars?: boolean;
  /** A point's time as the table says it. */
  formatX: (ms: number) => string;
  /** An axis tick's time, shorter (default: as the table). */
  formatTick?: (ms: number) => string;
  /** Said instead of a chart when there is nothing to draw. */
  empty: string;
  /** Moments marked on the chart with a line and a word (a start, an end, a peak). */
  marks?: { at: number; label: string }[];
  /** Readings a minute apart: the time axis steps by whole minutes, never seconds. */
  minutes?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [drawn, setDrawn] = useState(false);

  useEffect(() => {
    const element = box.current;
    if (!element || x.length === 0) return;
    let chart: uPlot | null = null;
    let observer: ResizeObserver | null = null;
    let cancelled = false;
    void import("uplot").then(({ default: UPlot }) => {
      if (cancelled) return;
      const axis = { stroke: "#a79cd6", grid: { stroke: "rgba(167, 156, 214, 0.12)" }, ticks: { stroke: "rgba(167, 156, 214, 0.25)" } };
      const width = () => Math.max(280, element.clientWidth);
      const gap = x.length > 1 ? (x[x.length - 1]! - x[0]!) / (x.length - 1) / 1000 : 3600;
      chart = new UPlot(
        {
          width: width(),
          height: 220,
          legend: { show: false },
          hooks: {
            draw: [
              (u: uPlot) => {
                const context = u.ctx;
                context.save();
                context.strokeStyle = "rgba(255, 200, 120, 0.7)";
                context.fillStyle = "#f5c27a";
                context.font = `${Math.round(11 * devicePixelRatio)}px sans-serif`;
                context.setLineDash([4 * devicePixelRatio, 4 * devicePixelRatio]);
                // Words of marks that fall close together (a peak at the start) go on lines of their own.
                const taken: { from: number; to: number }[][] = [];
                for (const mark of marks) {
                  const left = u.valToPos(mark.at / 1000, "x", true);
                  if (left < u.bbox.left || left > u.bbox.left + u.bbox.width) continue;
                  context.beginPath();
                  context.moveTo(left, u.bbox.top);
                  context.lineTo(left, u.bbox.top + u.bbox.height);
                  context.stroke();
                  const width = context.measureText(mark.label).width;
                  const from = Math.min(left + 4 * devicePixelRatio, u.bbox.left + u.bbox.width - width);
                  const line = placeLabel(taken, { from: from - 4 * devicePixelRatio, to: from + width + 4 * devicePixelRatio });
                  context.fillText(mark.label, from, u.bbox.top + (12 + 14 * line) * devicePixelRatio);
                }
                context.restore();
              },
            ],
          },
          cursor: { drag: { x: false, y: false } },
          scales: {
            x: {
              time: true,
              range: (_u: uPlot, min: number, max: number): [number, number] =>
                span ? [span[0] / 1000, span[1] / 1000] : bars ? [min - gap / 2, max + gap / 2] : [min, max],
            },
            y: { range: (_u: uPlot, _min: number, max: number) => [0, Math.max(1, Math.ceil(max * 1.1))] as [number, number] },
          },
          axes: [
            { ...axis, ...(minutes ? { incrs: [60, 120, 300, 600, 900, 1800, 3600, 7200], space: 80 } : {}), values: (_u: uPlot, ticks: number[]) => ticks.map((tick) => formatTick(tick * 1000)) },
            { ...axis, size: 50 },
          ],
          series: [
            {},
            ...series.map((line, i) => ({
              label: line.label,
              stroke: line.color,
              width: 2,
              ...(bars
                ? { fill: line.color, paths: UPlot.paths.bars!({ size: [0.35, 40], align: (i === 0 ? -1 : 1) as -1 | 1 }), points: { show: false } }
                : { points: { show: x.length < 60 } }),
            })),
          ],
        },
        [x.map((ms) => ms / 1000), ...series.map((line) => line.values)],
        element,
      );
      observer = new ResizeObserver(() => chart?.setSize({ width: width(), height: 220 }));
      observer.observe(element);
      setDrawn(true);
    });
    return () => {
      cancelled = true;
      observer?.disconnect();
      chart?.destroy();
    };
  }, [x, series, span, bars, formatTick, marks, minutes]);

  return (
    <figure className="min-w-0">
      <figcaption className="font-semibold text-mist-100">{title}</figcaption>
      {x.length === 0 ? (
        <p className="mt-2 text-sm text-mist-400">{empty}</p>
      ) : (
        <>
          <ul className="mt-1 flex flex-wrap gap-4 text-xs text-mist-300" aria-hidden="true">
            {series.map((line) => (
              <li key={line.label} className="flex items-center gap-1.5">
                <span className="inline-block size-3 rounded-sm" style={{ backgroundColor: line.color }} />
                {line.label}
              </li>
            ))}
          </ul>
          <div ref={box} className="mt-2 min-h-[220px] w-full" aria-hidden="true" data-testid="trend-chart" data-drawn={drawn || undefined} />
          <details className="mt-2 text-sm">
            <summary className="cursor-pointer text-aurora-300 hover:text-ember-300">{m.chart_data_table({ title })}</summary>
            <div className="mt-2 max-h-64 overflow-auto rounded border border-aurora-400/15" tabIndex={0} role="region" aria-label={m.chart_as_table({ title })}>
              <table className="w-full text-left text-mist-300">
                <caption className="sr-only">{title}</caption>
                <thead className="sticky top-0 bg-night-900 text-mist-100">
                  <tr>
                    <th scope="col" className="px-3 py-1.5">{m.chart_when()}</th>
                    {series.map((line) => (
                      <th key={line.label} scope="col" className="px-3 py-1.5 text-right">{line.label}</th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {x.map((ms, i) => (
                    <tr key={ms} className="border-t border-aurora-400/10">
                      <th scope="row" className="px-3 py-1 font-normal">{formatX(ms)}</th>
                      {series.map((line) => (
                        <td key={line.label} className="px-3 py-1 text-right tabular-nums">{line.values[i] === null ? "—" : formatCount(line.values[i]!)}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </figure>
  );
}
