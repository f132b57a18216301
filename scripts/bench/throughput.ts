/**
 * Part 2: server throughput and latency. autocannon with 50 connections against the public pages
 * and the group data API, beside /api/health (the floor: the same server doing almost nothing).
 * Targets take turns run by run, so a noisy moment does not fall on one target only.
 */
import autocannon from "autocannon";
import { figure, spread, type Figure } from "./report.ts";
import { sleep, type Site } from "./site.ts";

const PART = "2 throughput";
export const CONNECTIONS = 50;
const JAPANESE = "ja-JP,ja;q=0.9,en;q=0.5";

interface Target {
  label: string;
  path: string;
  /** Public pages carry the latency goal. */
  page: boolean;
  /** A Japanese browser's header, for the pages in Japanese (the sites offer en,ja). */
  language?: string;
}

export interface ThroughputOptions {
  runs: number;
  durationSeconds: number;
  eventId: string;
  /** An announcement on /news (the demo content has two). */
  newsId: string;
}

interface Sample {
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

async function hammer(url: string, durationSeconds: number, language?: string): Promise<Sample> {
  // Requests still queued from the previous run must not land in this one's figures: one request
  // that waits its turn behind them drains the queue.
  const drain = await fetch(new URL("/api/health", url)).catch(() => null);
  await drain?.body?.cancel();
  await sleep(500);
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: durationSeconds,
    // A returning visitor: the time zone cookie is set (see app/utils/viewer-time-zone.tsx).
    headers: { cookie: "tz=UTC", ...(language ? { "accept-language": language } : {}) },
  });
  // A run in which no response came back has no latency to report, and it is not a fast one.
  const answered = result.requests.total > 0;
  return {
    rps: result.requests.average,
    p50: answered ? result.latency.p50 : Number.POSITIVE_INFINITY,
    p99: answered ? result.latency.p99 : Number.POSITIVE_INFINITY,
    failures: result.errors + result.non2xx,
  };
}

export async function measureThroughput(site: Site, { runs, durationSeconds, eventId, newsId }: ThroughputOptions): Promise<Figure[]> {
  const targets: Target[] = [
    { label: "/api/health (floor)", path: "/api/health", page: false },
    { label: "/", path: "/", page: true },
    { label: "/events", path: "/events", page: true },
    { label: "/events/{id}", path: `/events/${eventId}`, page: true },
    { label: "/ in Japanese", path: "/", page: true, language: JAPANESE },
    { label: "/events in Japanese", path: "/events", page: true, language: JAPANESE },
    { label: "/events/{id} in Japanese", path: `/events/${eventId}`, page: true, language: JAPANESE },
    { label: "/news", path: "/news", page: true },
    { label: "/news/{id}", path: `/news/${newsId}`, page: true },
    { label: "/api/group-data", path: "/api/group-data", page: false },
  ];
  // One short round first: JIT, database caches and connection pools warm up off the record.
  for (const target of targets) await hammer(`${site.url}${target.path}`, 1, target.language);

  const samples = new Map<Target, Sample[]>(targets.map((t) => [t, []]));
  for (let run = 0; run < runs; run++) {
    for (const target of targets) samples.get(target)!.push(await hammer(`${site.url}${target.path}`, durationSeconds, target.language));
  }

  const floorRps = spread(samples.get(targets[0]!)!.map((s) => s.rps)).median;
  const database = site.kind;
  return targets.flatMap((target) => {
    const list = samples.get(target)!;
    const rps = list.map((s) => s.rps);
    const failures = list.reduce((sum, s) => sum + s.failures, 0);
    const ratio = spread(rps).median / floorRps;
    const failed = failures ? `, ${failures} errors or non-2xx` : "";
    const isFloor = target === targets[0];
    return [
      figure(PART, `${target.label} req/s`, "req/s", rps, {
        database,
        note: isFloor ? `${CONNECTIONS} connections${failed}` : `${ratio.toFixed(2)} × floor${failed}`,
      }),
      figure(PART, `${target.label} p50`, "ms", list.map((s) => s.p50), { database }),
      figure(PART, `${target.label} p99`, "ms", list.map((s) => s.p99), {
        database,
        goal: target.page ? { op: "<", value: 100, text: "< 100 ms" } : undefined,
      }),
    ];
  });
}
