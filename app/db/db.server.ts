import { existsSync, readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { pgliteStartParams } from "./pglite-start";
import * as schema from "./schema";

/** The one database type the app codes against: the same on PGlite and on PostgreSQL. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: "pglite" | "postgres";
  close(): Promise<void>;
}

/**
 * The project's drizzle/ folder, found by walking up from this module: it runs from app/db/ in
 * development and tests, and from some chunk under build/server/ in production.
 */
function findMigrationsFolder(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, "drizzle");
    if (existsSync(join(candidate, "meta", "_journal.json"))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error("The migrations folder (drizzle/) was not found above the server code.");
    dir = parent;
  }
}
const MIGRATIONS_FOLDER = findMigrationsFolder();

// Any constant works; it only has to be the same in every process sharing the database.
const MIGRATION_LOCK_KEY = 72_616_657;

export function wrapPglite(client: PGlite): DatabaseHandle {
  return {
    db: drizzlePglite({ client, schema, casing: "snake_case" }) as unknown as Database,
    kind: "pglite",
    close: () => client.close(),
  };
}

export async function openPglite(dataDir: string | null, sharedBuffersMb?: number): Promise<DatabaseHandle> {
  const startParams = pgliteStartParams(sharedBuffersMb);
  if (dataDir === null) return wrapPglite(await PGlite.create({ startParams }));
  // PGlite does not create missing parent folders.
  await mkdir(dataDir, { recursive: true });
  return wrapPglite(await PGlite.create(dataDir, { startParams }));
}

/** `onPoolError`: where an idle client's lost connection is told (the server's log; tests leave it quiet). */
export function openPostgres(url: string, poolSize = 10, onPoolError: (error: Error) => void = () => {}): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on("error", onPoolError);
  return {
    db: drizzleNodePg({ client: pool, schema, casing: "snake_case" }) as unknown as Database,
    kind: "postgres",
    close: () => pool.end(),
  };
}

/**
 * Applies pending migrations. On PostgreSQL several processes may start at once, so they take
 * turns under an advisory lock held on one dedicated connection.
 */
export async function migrateDatabase(handle: DatabaseHandle, url?: string): Promise<void> {
  if (handle.kind === "pglite") {
    // The cast is safe: the handle was built by wrapPglite.
    await migratePglite(handle.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
    return;
  }
  if (!url) throw new Error("migrateDatabase needs the PostgreSQL URL");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await migrateNodePg(drizzleNodePg({ client, casing: "snake_case" }), {
      migrationsFolder: MIGRATIONS_FOLDER,
    });
  } finally {
    // Ending the connection releases the advisory lock too.
    await client.end();
  }
}

export async function pingDatabase(db: Database): Promise<void> {
  await db.execute(sql`select 1`);
}

export interface MigrationStatus {
  /** "current": this code's migrations are all applied; "behind": some are not; "ahead": the database has newer ones. */
  state: "current" | "behind" | "ahead";
  applied: number;
  known: number;
}

/** Compares the database's applied migrations with this code's (drizzle records each one's timestamp). */
export async function migrationStatus(db: Database): Promise<MigrationStatus> {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as {
    entries: { when: number }[];
  };
  const known = journal.entries.map((entry) => entry.when);
  // Both drivers answer raw queries with `{ rows }`; drizzle's shared type leaves it unknown.
  const result = (await db.execute(sql`select created_at from drizzle.__drizzle_migrations`)) as unknown as {
    rows: { created_at: string | number }[];
  };
  const applied = result.rows.map((row) => Number(row.created_at));
  const missing = known.filter((when) => !applied.includes(when)).length;
  const unknown = applied.filter((when) => !known.includes(when)).length;
  return { state: unknown > 0 ? "ahead" : missing > 0 ? "behind" : "current", applied: applied.length, known: known.length };
}

/** A unique-index violation, however the driver reports it (its SQLSTATE, or its message). */
export function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    if ((current as { code?: unknown }).code === "23505") return true;
    if (/duplicate|unique/i.test(current.message)) return true;
  }
  return false;
}
