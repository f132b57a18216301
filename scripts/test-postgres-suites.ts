/**
 * `npm run test:postgres`: the Vitest suites that run on PostgreSQL, on PostgreSQL alone
 * (TEST_DATABASE_URL). `npm test` runs everything on the embedded database; this is the part that
 * differs on PostgreSQL, without running the rest twice. A suite takes part by using the test
 * database helpers (describeEachDatabase, DATABASE_KINDS, ON_POSTGRES).
 */
import { spawnSync } from "node:child_process";
import { globSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
if (!process.env.TEST_DATABASE_URL) {
  console.error("TEST_DATABASE_URL is not set: `TEST_DATABASE_URL=$(scripts/test-postgres.sh start) npm run test:postgres`");
  process.exit(2);
}

const files = globSync(["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "tests/integration/**/*.test.ts"], { cwd: root })
  .filter((file) => /\b(describeEachDatabase|DATABASE_KINDS|ON_POSTGRES)\b/.test(readFileSync(join(root, file), "utf8")))
  .sort();
console.log(`On PostgreSQL: ${files.length} test files`);
const vitest = spawnSync(process.execPath, [join(root, "node_modules/vitest/vitest.mjs"), "run", ...files], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, TEST_DATABASES: "postgres" },
});
process.exit(vitest.status ?? 1);
