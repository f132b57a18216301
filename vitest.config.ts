import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { TEST_NODE_FLAGS } from "./tests/setup/node-flags.ts";
import { LongestFirst } from "./tests/setup/sequencer.ts";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    // PGlite boots a WASM PostgreSQL per test file: on two idle cores that takes a few seconds, and
    // on two cores shared with the other suites and a slow memory (a virtual machine whose new pages
    // each cost the host a fault: decision 030) a test that makes a database from nothing took over
    // 30 s. A passing test is not slowed by this; a hanging one fails later.
    testTimeout: 90_000,
    // A hook may start a server process: on a busy machine that can take a minute or more
    // (tests/setup/server-process.ts, HOOK_TIMEOUT_MS).
    hookTimeout: 180_000,
    pool: "forks",
    // The test files' own embedded databases, like the servers they start (tests/setup/node-flags.ts).
    execArgv: TEST_NODE_FLAGS,
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
          // A worker runs its files one after another in one module graph, rather than a new process
          // and a new import of the app for each file: 121 s and 237 core-seconds became 59 s and 113
          // (decision 030). These files share nothing through it: each opens its own database, and
          // none replaces a module or changes process.env (a spy is restored after its test). A file
          // that must do either belongs in a project of its own with `isolate: true`.
          isolate: false,
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
