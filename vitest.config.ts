import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    // PGlite boots a WASM PostgreSQL per test file; on two cores that takes a few seconds.
    testTimeout: 30_000,
    // A hook may start a server process: on a busy machine that can take a minute or more
    // (tests/setup/server-process.ts, HOOK_TIMEOUT_MS).
    hookTimeout: 180_000,
    pool: "forks",
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "app",
          include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts"],
          globalSetup: ["tests/setup/postgres-template.ts"],
        },
      },
      {
        // Runs the real server process, from the production build.
        extends: true,
        test: {
          name: "server",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/setup/postgres-template.ts", "tests/setup/production-build.ts"],
        },
      },
    ],
  },
});
