/**
 * The group's member and online counts over time, for the Sanctum's charts. Each VRChat refresh
 * that read the group adds its counts to three buckets (its minute, hour and day, in UTC); a
 * bucket keeps the last member count read in it and the highest online count. Minutes are kept
 * for a day and hours for 90 days, days for good: at most 1,440 + 2,160 rows and one a day.
 */
import { and, asc, eq, gte, lt, or, sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { groupSamples, type SampleResolution } from "~/db/schema";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** How long each resolution is kept. */
export const SAMPLE_RETENTION_MS: Record<Exclude<SampleResolution, "day">, number> = { minute: DAY, hour: 90 * DAY };

export const TREND_RANGES = ["24h", "30d", "1y"] as const;
export type TrendRange = (typeof TREND_RANGES)[number];

/** Which resolution each range is drawn from, and how far back it reaches. */
const RANGE_SOURCE: Record<TrendRange, { resolution: SampleResolution; spanMs: number }> = {
  "24h": { resolution: "minute", spanMs: DAY },
  "30d": { resolution: "hour", spanMs: 30 * DAY },
  "1y": { resolution: "day", spanMs: 365 * DAY },
};

const STEP: Record<SampleResolution, number> = { minute: MINUTE, hour: HOUR, day: DAY };

export function bucketOf(resolution: SampleResolution, at: Date): Date {
  return new Date(Math.floor(at.getTime() / STEP[resolution]) * STEP[resolution]);
}

export interface GroupCounts {
  memberCount: number;
  onlineCount: number;
}

/** Adds one refresh's counts to its buckets, and drops what is past its keeping. */
export async function recordGroupSample(db: Database, counts: GroupCounts, now: Date): Promise<void> {
  const rows = (["minute", "hour", "day"] as const).map((resolution) => ({
    resolution,
    bucket: bucketOf(resolution, now),
    memberCount: counts.memberCount,
    onlineCount: counts.onlineCount,
    updatedAt: now,
  }));
  await db.transaction(async (tx) => {
    await tx
      .insert(groupSamples)
      .values(rows)
      .onConflictDoUpdate({
        target: [groupSamples.resolution, groupSamples.bucket],
        set: {
          memberCount: sql`excluded.member_count`,
          onlineCount: sql`greatest(${groupSamples.onlineCount}, excluded.online_count)`,
          readings: sql`${groupSamples.readings} + 1`,
          updatedAt: sql`excluded.updated_at`,
        },
      });
    await tx
      .delete(groupSamples)
      .where(
        or(
          and(eq(groupSamples.resolution, "minute"), lt(groupSamples.bucket, new Date(now.getTime() - SAMPLE_RETENTION_MS.minute))),
          and(eq(groupSamples.resolution, "hour"), lt(groupSamples.bucket, new Date(now.getTime() - SAMPLE_RETENTION_MS.hour))),
        ),
      );
  });
}

export interface TrendPoint {
  /** The bucket's start, ISO 8601. */
  at: string;
  members: number;
  online: number;
}

/** The period a range covers, ending now. */
export function trendPeriod(range: TrendRange, now: Date): { from: Date; to: Date } {
  return { from: new Date(now.getTime() - RANGE_SOURCE[range].spanMs), to: now };
}

/** The samples of a range, oldest first. */
export async function listGroupTrend(db: Database, range: TrendRange, now: Date): Promise<TrendPoint[]> {
  const { resolution, spanMs } = RANGE_SOURCE[range];
  const rows = await db
    .select({ bucket: groupSamples.bucket, members: groupSamples.memberCount, online: groupSamples.onlineCount })
    .from(groupSamples)
    .where(and(eq(groupSamples.resolution, resolution), gte(groupSamples.bucket, bucketOf(resolution, new Date(now.getTime() - spanMs)))))
    .orderBy(asc(groupSamples.bucket));
  return rows.map((row) => ({ at: row.bucket.toISOString(), members: row.members, online: row.online }));
}
