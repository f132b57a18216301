import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { TEST_CHROMIUM_FLAGS, TEST_CHROMIUM_PATH as chromiumPath } from "./tests/setup/chromium";

if (!existsSync(chromiumPath)) {
  throw new Error(
    `Chromium was not found at ${chromiumPath}. Install Debian's package (sudo apt-get install chromium-headless-shell, ` +
      "or chromium) or set CHROMIUM_PATH to a Chromium binary.",
  );
}

const port = Number(process.env.E2E_PORT ?? 3199);
export const baseURL = `http://127.0.0.1:${port}`;
// A fresh embedded database per run, seeded with the demo content. Workers load this file again:
// the environment carries the folder to them, so tests can run account commands against it.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), "dwell-e2e-"));
process.env.E2E_DATA_DIR = dataDir;

/**
 * The second lane (decision 030): specs that start a site of their own (its own server, database,
 * fakes or proxies) and spend much of their time waiting on its timers (a refresh, a screening look,
 * a form's fill time, an authenticator's next code). They run beside the first lane, whose specs keep
 * the cores busy, and nothing either lane does can change what the other reads. Which own-site specs
 * go here is a matter of balance: with every test traced the first lane was the longer and the
 * shared site's readers (public-pages, content-policy) ran here; untraced, the first lane ended at
 * 301 s and this one at 477 s, the cores half idle meanwhile, so those readers, sanctum-as-used and
 * languages (own sites too) ran in the first lane. Later the accessibility file grew, and in two
 * runs of `npm test` (2026-12-02) the first lane's tests took 606-612 s against the second's
 * 471 s, the first lane running alone for its last 105 s: sanctum-as-used (48 s) and role-bridge
 * (7 s), own sites both, came back here.
 */
const SECOND_LANE = [
  "bans",
  "behind-proxy",
  "connections",
  "decisions-loop",
  "event-series",
  "forms",
  "group-stats",
  "join-requests",
  "people",
  "proven-account",
  "role-bridge",
  "sanctum-as-used",
  "screening",
  "spam",
  "team",
  "two-factor",
  "vrchat-publish",
].map((name) => `**/${name}.spec.ts`);

/**
 * The third lane, "through-the-evening": specs that live through an event in real minutes (its
 * instance opened, read minute by minute, then marked and rated), almost all of it waiting on the
 * clock. In the first lane the evening alone made the browser suite 150 s longer. `npm test` runs this
 * lane in a Playwright of its own, without the shared site (E2E_WITHOUT_SHARED_SITE), beside the Vitest
 * suites (scripts/test.ts); `npx playwright test` runs it as a third worker.
 */
const THIRD_LANE_NAME = "through-the-evening";
const THIRD_LANE = ["evening", "event-night"].map((name) => `**/${name}.spec.ts`);
/** Set when only the third lane runs: the shared demo site is then not started. */
const withoutSharedSite = process.env.E2E_WITHOUT_SHARED_SITE === "1";

export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: true,
  // One worker per lane (the projects below): on two cores two workers on the same kind of spec made
  // each test about 2.8 times slower (decision 030), while a lane of own-site specs, mostly waiting on
  // their servers' timers, runs beside the shared site's at little cost, and so does a lane of the
  // specs that wait through an evening. E2E_WORKERS overrides.
  workers: Number(process.env.E2E_WORKERS ?? 3),
  retries: process.env.CI ? 1 : 0,
  // A run of the third lane alone keeps its results and report apart from a run of the others beside it
  // (each run empties its own results folder as it starts).
  outputDir: withoutSharedSite ? "test-results-evening" : "test-results",
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never", outputFolder: withoutSharedSite ? "playwright-report-evening" : "playwright-report" }]],
  // A test's whole budget: the longest of the plain ones take 25–32 s under the full suite on two cores
  // (two workers, each beside servers of its own), so 30 s was a coin toss for them.
  timeout: 60_000,
  // Signing in hashes a passphrase and pages hydrate on a 2-core machine that is running servers,
  // proxies and browsers at once: 5 s is not always enough for a page to answer.
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    timezoneId: "America/New_York",
    locale: "en-US",
    // Visitors who prefer reduced motion: the walks test behaviour, and without it the header's
    // endlessly pulsing LIVE NOW dot, drawn without a GPU in every open page, made them about a third
    // slower (decision 030). accessibility.spec.ts looks at every page with motion as most people see it.
    reducedMotion: "reduce",
    // What a failure leaves behind: the page as it was, and the error with the steps that led to it.
    // A trace (every step's page, and a film of each page drawn as it changed) is kept for a test
    // that failed once and is run again (CI's retry): recorded for every test, then thrown away for
    // each that passed, it made the accessibility file take 207 s instead of 161 and the whole suite
    // 612 s instead of 478 (decision 030). To trace a failing test here: npx playwright test <file> --trace on.
    screenshot: "only-on-failure",
    trace: "on-first-retry",
    launchOptions: {
      executablePath: chromiumPath,
      args: TEST_CHROMIUM_FLAGS,
    },
  },
  projects: [
    { name: "shared-site", testIgnore: [...SECOND_LANE, ...THIRD_LANE], workers: 1, use: { ...devices["Desktop Chrome"], channel: undefined } },
    { name: "beside", testMatch: SECOND_LANE, workers: 1, use: { ...devices["Desktop Chrome"], channel: undefined } },
    { name: THIRD_LANE_NAME, testMatch: THIRD_LANE, workers: 1, use: { ...devices["Desktop Chrome"], channel: undefined } },
  ],
  webServer: withoutSharedSite ? undefined : {
    command: "node server/main.ts",
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DEMO_CONTENT: "true",
      // The suite submits many applications from one address; the limit itself is tested elsewhere.
      RATE_LIMIT_APPLICATIONS: "10000",
      RATE_LIMIT_SIGN_IN: "10000",
      RATE_LIMIT_APPLICATIONS_SITE: "10000",
      RATE_LIMIT_DUPLICATES: "10000",
      // A test fills a form faster than a person; the fill-time check has its own tests.
      FORM_MIN_FILL_SECONDS: "0",
      // Tests change events and look at once; the page cache has its own integration test.
      PAGE_CACHE_SECONDS: "0",
      DISCORD_INVITE_URL: "https://discord.gg/dwellers",
      PUBLIC_URL: baseURL,
      // Set but empty: a developer's .env must not point the suite at another database.
      DATABASE_URL: "",
    },
  },
});
