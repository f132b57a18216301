/** The figures a benchmark part reports, and how they are printed: a terminal table, JSON, markdown. */
import type { DatabaseKind } from "./site.ts";

export type Verdict = "PASS" | "MISS" | "INFO" | "SKIP";

export interface Goal {
  /** How the median compares with `value` for a pass. */
  op: "<=" | "<" | ">=" | "=";
  value: number;
  /** The goal as the issue words it, e.g. "≤ 1.25 × floor". */
  text: string;
}

export interface Figure {
  part: string;
  name: string;
  database?: DatabaseKind;
  unit: string;
  median: number;
  min: number;
  max: number;
  /** How many measurements the median is taken over. */
  runs: number;
  goal?: Goal;
  verdict: Verdict;
  note?: string;
}

export interface Spread {
  median: number;
  min: number;
  max: number;
  runs: number;
}

/** Median and range of the runs that produced a figure (a run that produced none is left out). */
export function spread(values: number[]): Spread {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, runs: 0 };
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { median, min: sorted[0]!, max: sorted.at(-1)!, runs: sorted.length };
}

/** The value at quantile `q` (0..1) of `values`, nearest rank. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

function meets(goal: Goal, value: number): boolean {
  switch (goal.op) {
    case "<=":
      return value <= goal.value;
    case "<":
      return value < goal.value;
    case ">=":
      return value >= goal.value;
    case "=":
      return value === goal.value;
  }
}

/** A figure judged on its median; without a goal it is information only. */
export function figure(
  part: string,
  name: string,
  unit: string,
  values: number[] | Spread,
  options: { database?: DatabaseKind; goal?: Goal; note?: string } = {},
): Figure {
  const stats = Array.isArray(values) ? spread(values) : values;
  let verdict: Verdict = "INFO";
  if (options.goal) verdict = Number.isFinite(stats.median) && meets(options.goal, stats.median) ? "PASS" : "MISS";
  return { part, name, unit, ...stats, ...options, verdict };
}

export function skipped(part: string, name: string, reason: string, goal?: Goal): Figure {
  return { part, name, unit: "", median: Number.NaN, min: Number.NaN, max: Number.NaN, runs: 0, goal, verdict: "SKIP", note: reason };
}

/** A part that broke off: reported as a miss with its error, so the run still prints the rest. */
export function failed(part: string, error: unknown): Figure {
  const message = error instanceof Error ? error.message.split("\n")[0]! : String(error);
  return { part, name: "did not complete", unit: "", median: Number.NaN, min: Number.NaN, max: Number.NaN, runs: 0, verdict: "MISS", note: message };
}

function format(value: number, unit: string): string {
  if (value === Number.POSITIVE_INFINITY) return "no answer";
  if (!Number.isFinite(value)) return "–";
  const digits = Math.abs(value) >= 100 || Number.isInteger(value) ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  const text = value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: 0 });
  return unit ? `${text} ${unit}` : text;
}

interface Row {
  part: string;
  figure: string;
  db: string;
  median: string;
  range: string;
  goal: string;
  verdict: string;
}

function rows(figures: Figure[]): Row[] {
  return figures.map((f) => ({
    part: f.part,
    figure: f.note && f.verdict !== "SKIP" ? `${f.name} (${f.note})` : f.name,
    db: f.database ?? "",
    median: f.verdict === "SKIP" ? "skipped" : format(f.median, f.unit),
    range: f.runs > 1 ? `${format(f.min, "")}–${format(f.max, f.unit)}` : "",
    goal: f.goal?.text ?? "",
    verdict: f.verdict === "SKIP" ? `SKIP: ${f.note ?? ""}` : f.verdict,
  }));
}

const HEADERS: Row = { part: "Part", figure: "Figure", db: "DB", median: "Median", range: "Min–max", goal: "Goal", verdict: "Result" };
const COLUMNS = Object.keys(HEADERS) as (keyof Row)[];

export function textTable(figures: Figure[]): string {
  const all = [HEADERS, ...rows(figures)];
  const widths = COLUMNS.map((column) => Math.max(...all.map((row) => row[column].length)));
  const line = (row: Row) => COLUMNS.map((column, i) => row[column].padEnd(widths[i]!)).join("  ").trimEnd();
  return [line(HEADERS), widths.map((w) => "-".repeat(w)).join("  "), ...rows(figures).map(line)].join("\n");
}

export function markdownTable(figures: Figure[]): string {
  const escape = (text: string) => text.replaceAll("|", "\\|");
  const line = (row: Row) => `| ${COLUMNS.map((column) => escape(row[column])).join(" | ")} |`;
  return [line(HEADERS), `|${COLUMNS.map(() => " --- ").join("|")}|`, ...rows(figures).map(line)].join("\n");
}
