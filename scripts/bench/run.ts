/**
 * npm run bench                  every part, on PGlite and (with TEST_DATABASE_URL) PostgreSQL
 * npm run bench -- --quick       fewer and shorter repetitions (a few minutes)
 * npm run bench -- --only 2,4    some parts only (1 page weight, 2 throughput, 3 upstream,
 *                                4 admin at scale, 5 submissions, 6 Lighthouse,
 *                                7 an approval that acts in VRChat, 8 a person's file,
 *                                9 screening at volume, 10 announcements, 11 the role bridge
 *                                and the moderation history, 12 ten evenings read from their
 *                                instances and an evening's page)
 *
 * Builds the production bundle, runs real server processes against fakes on loopback, prints
 * one table with every figure beside its goal, and writes bench-results/latest.json and
 * bench-results/latest.md (the table for docs/benchmarks.md). See docs/benchmarks.md.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../../tests/fakes/vrchat.ts";
import { APPLICATIONS, measureAdminScale } from "./admin-scale.ts";
import { measureAnnouncements } from "./announcements.ts";
import { measureApproval } from "./approval.ts";
import { measureModeration } from "./moderation.ts";
import { measureEvenings } from "./evenings.ts";
import { measureLighthouse } from "./lighthouse-scores.ts";
import { CHROMIUM_PATH } from "../../tests/setup/chromium.ts";
import { measurePageWeight } from "./page-weight.ts";
import { measurePersonFile } from "./person-file.ts";
import { measureScreeningLoad } from "./screening-load.ts";
import { installFullForm } from "./full-form.ts";
import { failed, markdownTable, textTable, type Figure } from "./report.ts";
import { buildProduction, eventIdIn, root, startSite, withPostgres, type DatabaseKind, type Site } from "./site.ts";
import { DEPLOYED_DEFENCES, measureSubmissions, measureSustainedRate } from "./submissions.ts";
import { CONNECTIONS, measureThroughput } from "./throughput.ts";
import { measureUpstream } from "./upstream.ts";

const { values: args } = parseArgs({
  options: { quick: { type: "boolean", default: false }, only: { type: "string" } },
});
const only = args.only ? new Set(args.only.split(",").map((part) => part.trim())) : null;
const wanted = (part: number) => !only || only.has(String(part));

const SETTINGS = args.quick
  ? { throughputRuns: 1, throughputSeconds: 3, reviewSamples: 10, exportSamples: 2, applicants: 1_000, duplicates: 50, rateSeconds: 5, lighthouseRuns: 1, windows: 3, approvals: 3, fileSamples: 100, screeningMinutes: 2, announcements: 20, moderationSamples: 50, fillSeconds: 30, eveningMinutes: 2 }
  : { throughputRuns: 3, throughputSeconds: 5, reviewSamples: 20, exportSamples: 5, applicants: 5_000, duplicates: 250, rateSeconds: 15, lighthouseRuns: 3, windows: 5, approvals: 10, fileSamples: 300, screeningMinutes: 5, announcements: 20, moderationSamples: 200, fillSeconds: 60, eveningMinutes: 4 };
/** The arrival rates (applicants a second) part 5 climbs until the p99 passes 100 ms. */
const SUSTAINED_RATES = [20, 40, 60, 80, 100, 120, 150, 180, 220, 270];
const UPSTREAM = { visitors: 200, windowSeconds: 3 };
const SUBMITTERS = 200;

const postgresUrl = process.env.TEST_DATABASE_URL || undefined;
const started = Date.now();
const progress = (message: string) => {
  const seconds = Math.round((Date.now() - started) / 1000);
  console.error(`[${String(Math.floor(seconds / 60)).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}] ${message}`);
};

function quietly(command: string, commandArgs: string[]): string | null {
  try {
    return execFileSync(command, commandArgs, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    // Only descriptive: a missing tool leaves its line empty.
    return null;
  }
}

async function describeMachine() {
  const cpus = os.cpus();
  const postgres = postgresUrl
    ? await withPostgres(postgresUrl, async (query) => (await query<{ version: string }>("select version()"))[0]!.version).catch(() => null)
    : null;
  return {
    cpu: cpus[0]?.model ?? "unknown",
    cores: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    chromium: quietly(CHROMIUM_PATH, ["--version"]),
    postgres,
    commit: quietly("git", ["rev-parse", "--short", "HEAD"]),
    uncommittedChanges: (quietly("git", ["status", "--porcelain"]) ?? "").split("\n").filter(Boolean).length,
    loadAverageAtStart: os.loadavg().map((n) => Math.round(n * 100) / 100),
  };
}

const figures: Figure[] = [];
const details: Record<string, unknown> = {};

/** Runs one part; a part that throws is reported as such and the run goes on. */
async function part(name: string, measure: () => Promise<void>) {
  try {
    await measure();
  } catch (error) {
    progress(`${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    figures.push(failed(name, error));
  }
}

/** Parts 2, 4, 5 and 8 on one database. */
async function serverParts(site: Site, eventId: string) {
  if (wanted(2)) {
    await part("2 throughput", async () => {
      progress(`part 2: throughput, ${CONNECTIONS} connections, ${SETTINGS.throughputRuns} × ${SETTINGS.throughputSeconds} s per target [${site.kind}]`);
      const newsId = /href="\/news\/([0-9a-f-]{36})"/.exec(await (await fetch(`${site.url}/news`)).text())?.[1];
      if (!newsId) throw new Error("no announcement on /news");
      figures.push(...(await measureThroughput(site, { runs: SETTINGS.throughputRuns, durationSeconds: SETTINGS.throughputSeconds, eventId, newsId })));
    });
  }
  if (wanted(4)) {
    await part("4 admin at scale", async () => {
      progress(`part 4: admin at scale, ${APPLICATIONS.toLocaleString("en-US")} applications [${site.kind}]`);
      figures.push(...(await measureAdminScale(site, { eventId, reviewSamples: SETTINGS.reviewSamples, exportSamples: SETTINGS.exportSamples })));
    });
  }
  if (wanted(8)) {
    await part("8 person's file", async () => {
      progress(`part 8: a person's file with 50 applications and 50 attendances, ${SETTINGS.fileSamples} requests [${site.kind}]`);
      figures.push(...(await measurePersonFile(site, fake, { samples: SETTINGS.fileSamples })));
    });
  }
  if (wanted(5)) {
    await part("5 submissions", async () => {
      progress(`part 5: ${SETTINGS.applicants} applicants + ${SETTINGS.duplicates} duplicates, ${SUBMITTERS} at a time, every defence on, the form of 30 questions [${site.kind}]`);
      // A site of its own, as deployed: every defence at its production default.
      const deployed = await startSite({ kind: site.kind, postgresUrl, env: { ...fakeVRChatEnv(fake), ...DEPLOYED_DEFENCES } });
      try {
        await installFullForm(deployed);
        figures.push(...(await measureSubmissions(deployed, { applicants: SETTINGS.applicants, duplicates: SETTINGS.duplicates, concurrency: SUBMITTERS })));
      } finally {
        await deployed.close();
      }
      progress(`part 5: the rate one process sustains with p99 < 100 ms, ${SETTINGS.rateSeconds} s per rate [${site.kind}]`);
      const unbounded = await startSite({ kind: site.kind, postgresUrl, env: { ...fakeVRChatEnv(fake), ...DEPLOYED_DEFENCES, RATE_LIMIT_APPLICATIONS_SITE: "1000000" } });
      try {
        await installFullForm(unbounded);
        figures.push(...(await measureSustainedRate(unbounded, { rates: SUSTAINED_RATES, seconds: SETTINGS.rateSeconds })));
      } finally {
        await unbounded.close();
      }
    });
  }
}

async function onSite(kind: DatabaseKind, fake: FakeVRChat, run: (site: Site, eventId: string) => Promise<void>) {
  progress(`starting a server on ${kind}`);
  // Other parts still run when this database cannot be set up.
  await part(`server on ${kind}`, () => runOnSite(kind, fake, run));
}

async function runOnSite(kind: DatabaseKind, fake: FakeVRChat, run: (site: Site, eventId: string) => Promise<void>) {
  // NODE_ENV is passed on as given, so a run can show what an unset one costs (docs/benchmarks.md).
  const nodeEnv: Record<string, string> = process.env.NODE_ENV ? { NODE_ENV: process.env.NODE_ENV } : {};
  const site = await startSite({ kind, postgresUrl, env: { ...fakeVRChatEnv(fake), ...nodeEnv } });
  try {
    const eventId = eventIdIn(await (await fetch(`${site.url}/events`)).text());
    await run(site, eventId);
  } finally {
    await site.close();
  }
}

const machine = await describeMachine();
progress(`building the production bundle (node ${machine.node}, ${machine.cores} cores, load ${machine.loadAverageAtStart.join(" ")})`);
buildProduction();

const fake = await startFakeVRChat();
try {
  if ([1, 2, 4, 5, 6, 8].some(wanted)) {
    await onSite("pglite", fake, async (site, eventId) => {
      if (wanted(1)) {
        await part("1 page weight", async () => {
          progress("part 1: page weight in Chromium, beside a bare React Router app (/apply with 30 questions, 10 conditions)");
          await installFullForm(site);
          const weight = await measurePageWeight(site, eventId);
          figures.push(...weight.figures);
          details.pageWeight = weight.pages;
        });
      }
      if (wanted(6)) {
        await part("6 lighthouse", async () => {
          progress(`part 6: Lighthouse, ${SETTINGS.lighthouseRuns} run(s) per page`);
          const scores = await measureLighthouse(site, { runs: SETTINGS.lighthouseRuns, eventId });
          figures.push(...scores.figures);
          details.lighthouseLosses = scores.losses;
        });
      }
      await serverParts(site, eventId);
    });
    if (postgresUrl && [2, 4, 5, 8].some(wanted)) await onSite("postgres", fake, serverParts);
  }
  if (wanted(9)) {
    for (const kind of postgresUrl ? (["pglite", "postgres"] as const) : (["pglite"] as const)) {
      await part(`9 screening at volume [${kind}]`, async () => {
        progress(`part 9: 1,000 join requests waiting, applications at 1,000 an hour for ${SETTINGS.screeningMinutes} min, 10 rules [${kind}]`);
        figures.push(...(await measureScreeningLoad({ kind, postgresUrl, minutes: SETTINGS.screeningMinutes })));
      });
    }
  }
  if (wanted(7)) {
    await part("7 approval", async () => {
      progress(`part 7: ${SETTINGS.approvals} approvals in Chromium, then a bulk approval of 20, against the VRChat fake`);
      figures.push(...(await measureApproval({ runs: SETTINGS.approvals })));
    });
  }
  if (wanted(10)) {
    await part("10 announcements", async () => {
      progress(`part 10: ${SETTINGS.announcements} announcements published to the site, VRChat and Discord, against the fakes`);
      figures.push(...(await measureAnnouncements({ runs: SETTINGS.announcements })));
    });
  }
  if (wanted(11)) {
    await part("11 moderation", async () => {
      progress(`part 11: a role link over 2,000 proven people and its fill; /admin/moderation over 100,000 acts (${SETTINGS.moderationSamples} requests a filter), and its CSV`);
      figures.push(...(await measureModeration({ samples: SETTINGS.moderationSamples, fillSeconds: SETTINGS.fillSeconds })));
    });
  }
  if (wanted(12)) {
    await part("12 evenings", async () => {
      progress(`part 12: ten evenings at once, 80 people in each instance, for ${SETTINGS.eveningMinutes} min; the marks at their end; the evening's page with 500 comments (${SETTINGS.moderationSamples} requests)`);
      figures.push(...(await measureEvenings({ minutes: SETTINGS.eveningMinutes, samples: SETTINGS.moderationSamples })));
    });
  }
  if (wanted(3)) {
    await part("3 upstream", async () => {
      progress(`part 3: ${UPSTREAM.visitors} visitors, ${SETTINGS.windows} windows of ${UPSTREAM.windowSeconds} s, two processes on PostgreSQL`);
      const upstream = await measureUpstream(postgresUrl, { ...UPSTREAM, windows: SETTINGS.windows });
      figures.push(...upstream.figures);
      details.upstreamCalls = upstream.calls;
    });
  }
} finally {
  await fake.close();
}

const order = (figure: Figure) => Number.parseInt(figure.part, 10) || 0;
figures.sort((a, b) => order(a) - order(b));
const seconds = Math.round((Date.now() - started) / 1000);
const command = `npm run bench${args.quick ? " -- --quick" : ""}${args.only ? ` -- --only ${args.only}` : ""}`;
const summary = {
  generatedAt: new Date().toISOString(),
  command,
  durationSeconds: seconds,
  machine: { ...machine, loadAverageAtEnd: os.loadavg().map((n) => Math.round(n * 100) / 100) },
  settings: { ...SETTINGS, ...UPSTREAM, connections: CONNECTIONS, submitters: SUBMITTERS, databases: postgresUrl ? ["pglite", "postgres"] : ["pglite"] },
  figures,
  details,
};

const outDir = join(root, "bench-results");
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, "latest.json"), `${JSON.stringify(summary, null, 2)}\n`);
const machineLine =
  `${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB; ${machine.os}; Node ${machine.node}; ` +
  `${machine.chromium ?? "no Chromium"}; ${machine.postgres?.split(",")[0] ?? "no PostgreSQL server given"}; ` +
  `load average ${machine.loadAverageAtStart.join(" ")} at start, ${summary.machine.loadAverageAtEnd.join(" ")} at end`;
writeFileSync(
  join(outDir, "latest.md"),
  `Run of \`${command}\` at ${summary.generatedAt} (${seconds} s), commit ${machine.commit ?? "?"}` +
    `${machine.uncommittedChanges ? ` with ${machine.uncommittedChanges} uncommitted changes` : ""}.\n\n` +
    `Machine: ${machineLine}.\n\n${markdownTable(figures)}\n`,
);

console.log(`\n${textTable(figures)}\n`);
console.log(`Machine: ${machineLine}`);
const missed = figures.filter((figure) => figure.verdict === "MISS").length;
console.log(`${figures.filter((f) => f.verdict === "PASS").length} goals met, ${missed} missed, in ${seconds} s.`);
console.log(`Wrote bench-results/latest.json and bench-results/latest.md (the table for docs/benchmarks.md).`);
