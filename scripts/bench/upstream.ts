/**
 * Part 3: upstream discipline. Two server processes on one PostgreSQL database, a fake VRChat API,
 * short cache windows, and 200 visitors polling /api/group-data on both processes for five
 * windows. However many visitors, VRChat should see one refresh per window, each reading each
 * endpoint once; and a refresh should make the same number of calls with 1, 6 or 30 live
 * instances (five with up to 100 members).
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FAKE_GROUP_ID, fakeVRChatEnv, startFakeVRChat, type FakeInstance, type FakeVRChat } from "../../tests/fakes/vrchat.ts";
import { startServerProcess, type ServerProcess } from "../../tests/setup/server-process.ts";
import { figure, skipped, type Figure } from "./report.ts";
import { createPostgresDatabase, root, sleep, withPostgres } from "./site.ts";

const PART = "3 upstream";

export interface UpstreamOptions {
  visitors: number;
  windows: number;
  windowSeconds: number;
}

export interface UpstreamResult {
  figures: Figure[];
  calls?: Record<string, number>;
}

/** A throwaway PostgreSQL cluster (scripts/test-postgres.sh) when none was given. */
function startThrowawayPostgres(): { url: string; stop(): void } | { error: string } {
  const env = {
    ...process.env,
    DWELL_TEST_PG_DIR: join(tmpdir(), `dwell-bench-pg-${process.pid}`),
    DWELL_TEST_PG_PORT: String(55_000 + (process.pid % 5_000)),
  };
  const script = join(root, "scripts/test-postgres.sh");
  const started = spawnSync("bash", [script, "start"], { env, encoding: "utf8" });
  if (started.status !== 0) return { error: (started.stderr || started.stdout).trim() || "PostgreSQL did not start" };
  return {
    url: started.stdout.trim().split("\n").at(-1)!,
    stop: () => void spawnSync("bash", [script, "stop"], { env, stdio: "ignore" }),
  };
}

function diff(after: Record<string, number>, before: Record<string, number>): Record<string, number> {
  const changed: Record<string, number> = {};
  for (const [key, count] of Object.entries(after)) if (count !== (before[key] ?? 0)) changed[key] = count - (before[key] ?? 0);
  return changed;
}

/** Calls a refresh makes about the group (a login and its user lookup aside). */
const SESSION_ENDPOINTS = new Set(["login", "totp", "currentUser"]);

function openInstances(count: number): FakeInstance[] {
  return Array.from({ length: count }, (_, i) => ({
    location: `wrld_bench${i}:${1000 + i}~group(${FAKE_GROUP_ID})`,
    memberCount: 1,
    userCount: 3,
    capacity: 40,
    region: "eu",
    type: "group",
    world: { name: `World ${i}`, authorName: "Bench", capacity: 40, recommendedCapacity: 20 },
  }));
}

/** The calls of the next refresh with `count` live instances (the cache asked until it has run). */
async function callsPerRefresh(fake: FakeVRChat, server: ServerProcess, readRefreshes: () => Promise<number>, count: number, windowSeconds: number) {
  fake.group.instances = openInstances(count);
  await sleep(windowSeconds * 1000 + 300);
  const before = { ...fake.calls };
  const refreshes = await readRefreshes();
  const deadline = Date.now() + 20_000;
  while ((await readRefreshes()) === refreshes && Date.now() < deadline) {
    await (await fetch(`${server.url}/api/group-data`)).body?.cancel();
    await sleep(100);
  }
  // Let that refresh finish writing before reading the count.
  await sleep(300);
  const calls = diff({ ...fake.calls }, before);
  return Object.entries(calls)
    .filter(([endpoint]) => !SESSION_ENDPOINTS.has(endpoint))
    .reduce((sum, [, n]) => sum + n, 0);
}

export async function measureUpstream(postgresUrl: string | undefined, options: UpstreamOptions): Promise<UpstreamResult> {
  // Each process looks at a stale row again at most once a second, so a window can stretch by up to
  // a second: fewer refreshes than windows is expected, more would be the failure.
  const goal = { op: "<=" as const, value: options.windows, text: `≤ windows (${options.windows})` };
  let throwaway: { url: string; stop(): void } | null = null;
  if (!postgresUrl) {
    const started = startThrowawayPostgres();
    if ("error" in started) return { figures: [skipped(PART, "upstream refreshes", `no PostgreSQL: ${started.error}`, goal)] };
    throwaway = started;
    postgresUrl = started.url;
  }
  const database = await createPostgresDatabase(postgresUrl, "upstream");
  const fake = await startFakeVRChat();
  const dataDirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), "dwell-bench-upstream-")));
  const servers: ServerProcess[] = [];
  try {
    const env = {
      DATABASE_URL: database.url,
      AUTH_SECRET: randomBytes(32).toString("base64url"),
      VRCHAT_CACHE_SECONDS: String(options.windowSeconds),
      ...fakeVRChatEnv(fake),
    };
    // One after the other: a server that finds the build stale rebuilds it, and two at once collide.
    for (const dir of dataDirs) servers.push(await startServerProcess({ ...env, DATA_DIR: dir }));
    // Both processes up and the cache filled; then wait for it to go stale, so the run starts a window.
    for (const server of servers) {
      const response = await fetch(`${server.url}/api/group-data`);
      if (!response.ok) throw new Error(`/api/group-data answered ${response.status}`);
      await response.body?.cancel();
    }
    await sleep(options.windowSeconds * 1000 + 300);

    const readRefreshes = () =>
      withPostgres(database.url, async (query) => {
        const [row] = await query<{ refreshes: number }>("select coalesce(sum(refreshes), 0)::int as refreshes from group_data_cache");
        return row!.refreshes;
      });
    const refreshesBefore = await readRefreshes();
    const callsBefore = { ...fake.calls };

    const durationMs = options.windows * options.windowSeconds * 1000 - 200;
    const deadline = Date.now() + durationMs;
    let requests = 0;
    let failures = 0;
    const visitor = async (i: number) => {
      const server = servers[i % servers.length]!;
      while (Date.now() < deadline) {
        const response = await fetch(`${server.url}/api/group-data`).catch(() => null);
        requests++;
        if (!response?.ok) failures++;
        await response?.body?.cancel();
      }
    };
    await Promise.all(Array.from({ length: options.visitors }, (_, i) => visitor(i)));
    // A refresh that started at the very end finishes before the count.
    await sleep(500);
    const refreshes = (await readRefreshes()) - refreshesBefore;
    const calls = diff({ ...fake.calls }, callsBefore);
    const upstreamCalls = Object.values(calls).reduce((sum, n) => sum + n, 0);
    const perEndpoint = Object.entries(calls).map(([name, n]) => `${name} ${n}`).join(", ");
    const seconds = durationMs / 1000;
    const refreshFigure = figure(PART, "upstream refreshes", "", [refreshes], {
      goal,
      note: `${options.windows} windows of ${options.windowSeconds} s, 2 processes`,
    });
    if (refreshes === 0) refreshFigure.verdict = "MISS";
    // A refresh reads every data endpoint once (the calendar one month of it), whatever the instances.
    let excess = 0;
    for (const [endpoint, count] of Object.entries(calls)) {
      if (SESSION_ENDPOINTS.has(endpoint)) continue;
      excess += Math.max(0, count - refreshes);
    }
    const perRefresh: Figure[] = [];
    for (const count of [1, 6, 30]) {
      const made = await callsPerRefresh(fake, servers[0]!, readRefreshes, count, options.windowSeconds);
      perRefresh.push(
        figure(PART, `calls per refresh, ${count} live instance${count === 1 ? "" : "s"}`, "", [made], {
          goal: { op: "<=", value: 5, text: "≤ 5 (100 members or fewer)" },
        }),
      );
    }

    return {
      calls,
      figures: [
        refreshFigure,
        figure(PART, "upstream calls per endpoint", "", [upstreamCalls], { note: perEndpoint || "none" }),
        figure(PART, "endpoint calls beyond one per refresh", "", [excess], {
          goal: { op: "=", value: 0, text: "0" },
          note: "logins not counted",
        }),
        ...perRefresh,
        figure(PART, "visitor requests", "", [requests], {
          note: `${options.visitors} visitors, ${Math.round(requests / seconds)} req/s, ${failures} failed`,
        }),
        figure(PART, "visitor requests per upstream call", "", [upstreamCalls ? requests / upstreamCalls : Number.NaN]),
        figure(PART, "failed visitor requests", "", [failures], { goal: { op: "=", value: 0, text: "0" } }),
      ],
    };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await fake.close();
    await database.drop();
    await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
    throwaway?.stop();
  }
}
