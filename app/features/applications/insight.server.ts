/**
 * The applications over the last 12 weeks, for the Sanctum's dashboard: how many came each week
 * (group and events), what share of those decided were approved, and how long a decision took
 * (the median from sending to the last review). Spam is left out, as everywhere else.
 */
import { and, gte, isNull, sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { applications, eventApplications } from "~/db/schema";

export const INSIGHT_WEEKS = 12;
const WEEK = 7 * 24 * 60 * 60 * 1000;

/** Monday 00:00 UTC of the week `at` is in (ISO weeks, as PostgreSQL's date_trunc('week') counts). */
export function weekStart(at: Date): Date {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - sinceMonday * 24 * 60 * 60 * 1000);
}

export interface WeekCount {
  /** The week's Monday, yyyy-MM-dd. */
  week: string;
  group: number;
  event: number;
}

export interface DecisionFigures {
  decided: number;
  approved: number;
  /** Approved among those decided, 0–1; null with nothing decided. */
  approvalRate: number | null;
  /** Median hours from sending to decision; null with nothing decided. */
  medianHoursToDecision: number | null;
}

export interface ApplicationInsight {
  weeks: WeekCount[];
  group: DecisionFigures;
  event: DecisionFigures;
}

type Table = typeof applications | typeof eventApplications;

function perWeek(db: Database, table: Table, since: Date) {
  return db
    .select({
      week: sql<string>`to_char(date_trunc('week', ${table.submittedAt} at time zone 'UTC'), 'YYYY-MM-DD')`,
      n: sql<number>`count(*)::int`,
    })
    .from(table)
    .where(and(isNull(table.spamAt), gte(table.submittedAt, since)))
    .groupBy(sql`1`);
}

/** Decided (approved or rejected) in the period, by when they were last reviewed. */
async function decisions(db: Database, table: Table, since: Date): Promise<DecisionFigures> {
  const [row] = await db
    .select({
      decided: sql<number>`count(*)::int`,
      approved: sql<number>`(count(*) filter (where ${table.status} = 'approved'))::int`,
      medianSeconds: sql<number | null>`percentile_cont(0.5) within group (order by extract(epoch from ${table.reviewedAt} - ${table.submittedAt}))`,
    })
    .from(table)
    .where(and(isNull(table.spamAt), sql`${table.status} in ('approved', 'rejected')`, gte(table.reviewedAt, since)));
  const decided = row?.decided ?? 0;
  const approved = row?.approved ?? 0;
  const median = row?.medianSeconds === null || row?.medianSeconds === undefined ? null : Number(row.medianSeconds);
  return {
    decided,
    approved,
    approvalRate: decided > 0 ? approved / decided : null,
    medianHoursToDecision: median === null ? null : Math.max(0, median) / 3600,
  };
}

export async function applicationInsight(db: Database, now: Date): Promise<ApplicationInsight> {
  const first = new Date(weekStart(now).getTime() - (INSIGHT_WEEKS - 1) * WEEK);
  const [group, event, groupDecisions, eventDecisions] = await Promise.all([
    perWeek(db, applications, first),
    perWeek(db, eventApplications, first),
    decisions(db, applications, first),
    decisions(db, eventApplications, first),
  ]);
  const weeks = Array.from({ length: INSIGHT_WEEKS }, (_, i) => {
    const week = new Date(first.getTime() + i * WEEK).toISOString().slice(0, 10);
    return { week, group: group.find((row) => row.week === week)?.n ?? 0, event: event.find((row) => row.week === week)?.n ?? 0 };
  });
  return { weeks, group: groupDecisions, event: eventDecisions };
}
