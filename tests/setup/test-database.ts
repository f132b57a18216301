/**
 * Real databases for tests, never mocks: an in-memory PGlite always, and a PostgreSQL database
 * too when TEST_DATABASE_URL is set. Each call gets its own empty, migrated database.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { describe } from "vitest";
import { openPostgres, type DatabaseHandle } from "~/db/db.server";
import { openMigratedPglite } from "./pglite-template";

export type DatabaseKind = "pglite" | "postgres";

/**
 * The databases the suites run on: PGlite always, PostgreSQL too with TEST_DATABASE_URL.
 * TEST_DATABASES=postgres narrows a run to PostgreSQL: `npm run test:postgres`, which CI runs
 * after `npm test` has run everything on PGlite.
 */
export const DATABASE_KINDS: DatabaseKind[] = (() => {
  const available: DatabaseKind[] = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
  const asked = process.env.TEST_DATABASES?.split(",").map((kind) => kind.trim());
  return asked ? available.filter((kind) => asked.includes(kind)) : available;
})();
export const ON_PGLITE = DATABASE_KINDS.includes("pglite");
export const ON_POSTGRES = DATABASE_KINDS.includes("postgres");

/** The template database the global setup migrates once; test databases are copies of it. */
export const POSTGRES_TEMPLATE = "dwell_test_template";

export function postgresUrl(database: string): string {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error("postgresUrl() needs TEST_DATABASE_URL: call it inside a suite that runs only with it");
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

export interface TestDatabase extends DatabaseHandle {
  /** Connection URL, for PostgreSQL only (other processes can open it). */
  url?: string;
}

export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === "pglite") return openMigratedPglite();
  const name = `dwell_test_${randomUUID().replaceAll("-", "")}`;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${POSTGRES_TEMPLATE}`);
  } finally {
    await admin.end();
  }
  const url = postgresUrl(name);
  const handle = openPostgres(url, 20);
  return {
    ...handle,
    url,
    async close() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await cleanup.connect();
      try {
        await cleanup.query(`drop database if exists ${name} with (force)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}

/** Runs a suite once per available database. */
export function describeEachDatabase(name: string, suite: (kind: DatabaseKind) => void) {
  for (const kind of DATABASE_KINDS) describe(`${name} [${kind}]`, () => suite(kind));
}
