import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { LongestFirst } from "./tests/setup/sequencer.ts";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    // PGlite boots a WASM PostgreSQL per test file; on two cores that takes a few seconds.
    testTimeout: 30_000,
    // A hook may start a server process: on a busy machine that can take a minute or more
    // (tests/setup/server-process.ts, HOOK_TIMEOUT_MS).
    hookTimeout: 180_000,
    pool: "forks",
    // Three files per core: the integration suites spend much of their time waiting on the servers
    // they start, their fakes and their timers (one file per core kept 2 cores 52% busy: 714 s; two
    // per core 72% busy: 294-312 s; three per core: 252 s, the event night's file then the last).
    maxWorkers: availableParallelism() * 3,
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: {
          name: "app",
          include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "scripts/**/*.test.ts"],
          globalSetup: ["tests/setup/postgres-template.ts", "tests/setup/pglite-global.ts"],
        },
      },
      {
        // Runs the real server process, from the production build.
        extends: true,
        test: {
          name: "server",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/setup/postgres-template.ts", "tests/setup/pglite-global.ts", "tests/setup/production-build.ts"],
        },
      },
    ],
  },
});
