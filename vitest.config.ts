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
    // Two files per core: the integration suites spend half their time waiting on the servers they
    // start, their fakes and their timers (with one file per core, 2 cores were 52% busy; 714 s
    // against 472 s with two per core).
    maxWorkers: availableParallelism() * 2,
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
