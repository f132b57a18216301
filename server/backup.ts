/**
 * Backups of the database and their restore (npm run backup / npm run restore, scripts/db-backup.ts).
 *
 * - Embedded database: a gzipped tar of the PGlite data folder, made by PGlite's dumpDataDir().
 *   While a server runs it owns the folder, so the server writes the dump when asked over the
 *   data folder's socket; otherwise the command opens the folder itself, under the same lock.
 *   A restore is checked by opening it as a database in a new folder, which then takes the place
 *   of the old one; the old one is kept aside.
 * - PostgreSQL: pg_dump's custom format, restored by pg_restore and psql in one transaction
 *   (server/backup-postgres.ts).
 *
 * See docs/decisions/009-backups.md. Outside the server bundle this module runs straight under
 * Node (the commands do not need a build), hence the relative imports with extensions.
 */
import { existsSync } from "node:fs";
import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import { DataDirLockedError, lockDataDir } from "../app/db/data-dir-lock.server.ts";
import { pgliteStartParams } from "../app/db/pglite-start.ts";

/** The embedded database's folder inside DATA_DIR (as the server opens it). */
export const PGLITE_FOLDER = "pgdata";

export class BackupError extends Error {
  override name = "BackupError";
}

export type DatabaseKind = "pglite" | "postgres";

export interface BackupResult {
  path: string;
  bytes: number;
}

export interface RestoreResult {
  /** Tables in the restored database, and the migrations it had reached. */
  tables: number;
  migrations: number;
  /** Embedded database only: where the data it replaced was kept. */
  keptAside: string | null;
}

function timestamp(now: Date): string {
  return now.toISOString().replace(/\.\d+Z$/, "Z").replaceAll(":", "-");
}

export function defaultBackupPath(dataDir: string, kind: DatabaseKind, now = new Date()): string {
  const extension = kind === "pglite" ? "tar.gz" : "dump";
  return join(resolve(dataDir), "backups", `dwell-${timestamp(now)}.${extension}`);
}

/**
 * Writes the file whole or not at all: to a temporary name beside it, then renamed. A backup
 * holds password hashes and sessions, so only its owner may read it.
 */
export async function writePrivateFile(path: string, bytes: Uint8Array) {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const partial = `${path}.partial`;
  try {
    const handle = await open(partial, "w", 0o600);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(partial, path);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Embedded database (PGlite)

/** The PGlite client behind a drizzle database, or null when it runs on PostgreSQL. */
export function pgliteClientOf(db: unknown): PGlite | null {
  const client = (db as { $client?: unknown }).$client;
  return client instanceof PGlite ? client : null;
}

/** Dumps an open embedded database to a file. Queries wait while the dump is taken. */
export async function writePgliteBackup(client: PGlite, path: string): Promise<BackupResult> {
  // Not needed for a consistent dump (the write-ahead log is in it), but the restore starts faster.
  await client.exec("checkpoint");
  const dump = await client.dumpDataDir("gzip");
  const bytes = new Uint8Array(await dump.arrayBuffer());
  await writePrivateFile(path, bytes);
  return { path, bytes: bytes.length };
}

/**
 * The backup when no server runs: takes the data folder's lock like a server, so none starts meanwhile.
 * `sharedBuffersMb`: the page cache the server is given (PGLITE_SHARED_BUFFERS_MB), for this open too.
 */
export async function backupPgliteDataDir(dataDir: string, path: string, sharedBuffersMb?: number): Promise<BackupResult> {
  const folder = join(dataDir, PGLITE_FOLDER);
  if (!existsSync(join(folder, "PG_VERSION"))) {
    throw new BackupError(`There is no database in ${resolve(folder)} yet: nothing to back up.`);
  }
  const lock = await lockDataDir(dataDir);
  try {
    const client = await PGlite.create(folder, { startParams: pgliteStartParams(sharedBuffersMb) });
    try {
      return await writePgliteBackup(client, path);
    } finally {
      await client.close();
    }
  } finally {
    await lock.release();
  }
}

export const isGzip = (bytes: Uint8Array) => bytes[0] === 0x1f && bytes[1] === 0x8b;
export const isPgDump = (bytes: Uint8Array) => Buffer.from(bytes.subarray(0, 5)).toString("latin1") === "PGDMP";

const NOT_A_BACKUP = "it is not a file made by npm run backup";

/**
 * The member names of a tar archive, every header checked. PGlite's own loader is not given a
 * damaged archive: on some damage it fails outside any promise and the process dies.
 */
function tarMemberNames(tar: Uint8Array): string[] {
  const names: string[] = [];
  let offset = 0;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) return names;
    const field = (start: number, length: number) =>
      Buffer.from(header.subarray(start, start + length)).toString("latin1").replace(/\0[^]*$/, "");
    let sum = 0;
    for (let index = 0; index < 512; index++) sum += index >= 148 && index < 156 ? 32 : header[index]!;
    if (!field(257, 6).startsWith("ustar") || parseInt(field(148, 8).trim(), 8) !== sum) {
      throw new BackupError(offset === 0 ? NOT_A_BACKUP : `it is damaged (bad archive header at byte ${offset})`);
    }
    const size = parseInt(field(124, 12).trim() || "0", 8);
    const prefix = field(345, 155);
    names.push((prefix ? `${prefix}/${field(0, 100)}` : field(0, 100)).replace(/^\.?\//, ""));
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  if (offset !== tar.length) throw new BackupError(offset === 0 ? NOT_A_BACKUP : "it is damaged (the archive is cut short)");
  return names;
}

/** Reads an embedded-database backup into a tar archive, or says why it is not one. */
async function readPgliteBackup(file: string): Promise<Uint8Array<ArrayBuffer>> {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new BackupError(`Cannot read ${file}: ${(error as Error).message}. Nothing was changed.`);
  }
  const refuse = (why: string) =>
    new BackupError(`${file} is not a usable backup of the embedded database: ${why}. Nothing was changed.`);
  if (isPgDump(bytes)) throw refuse("it is a PostgreSQL backup (pg_dump); restore it with DATABASE_URL set");
  let tar = bytes;
  if (isGzip(bytes)) {
    try {
      tar = await promisify(gunzip)(bytes);
    } catch (error) {
      throw refuse(`it is damaged (${(error as Error).message})`);
    }
  }
  let names: string[];
  try {
    names = tarMemberNames(tar);
  } catch (error) {
    if (error instanceof BackupError) throw refuse(error.message);
    throw error;
  }
  if (!names.includes("PG_VERSION")) throw refuse("it holds no database folder");
  return tar;
}

/** Counts every table's rows, which reads every page: a damaged database fails here, not later. */
async function inspectPglite(client: PGlite): Promise<{ tables: number; migrations: number }> {
  const migrations = await client.query<{ count: number }>(
    "select count(*)::int as count from drizzle.__drizzle_migrations",
  );
  const tables = await client.query<{ name: string }>(
    "select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname in ('public', 'drizzle')",
  );
  for (const { name } of tables.rows) await client.query(`select count(*) from ${name}`);
  return { tables: tables.rows.length, migrations: migrations.rows[0]!.count };
}

/**
 * Replaces the embedded database with a backup. The backup is first opened as a database in a
 * folder of its own; only when that works does it take the place of the current folder, which is
 * kept aside (DATA_DIR/pgdata.before-restore-…). Refused while a server holds the data folder.
 */
export async function restorePgliteDataDir(dataDir: string, file: string, now = new Date(), sharedBuffersMb?: number): Promise<RestoreResult> {
  const tar = await readPgliteBackup(file);
  let lock;
  try {
    lock = await lockDataDir(dataDir);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      throw new BackupError(
        `A Dwell server is running on the data folder ${resolve(dataDir)}: stop it first, then run npm run restore again. Nothing was changed.`,
      );
    }
    throw error;
  }
  try {
    const folder = resolve(dataDir, PGLITE_FOLDER);
    const staging = `${folder}.restoring-${timestamp(now)}`;
    await rm(staging, { recursive: true, force: true });
    await mkdir(staging, { recursive: true, mode: 0o700 });
    let summary;
    try {
      const client = await PGlite.create(staging, { loadDataDir: new Blob([tar], { type: "application/x-tar" }), startParams: pgliteStartParams(sharedBuffersMb) });
      try {
        summary = await inspectPglite(client);
      } finally {
        await client.close();
      }
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      const reason = error instanceof Error ? error.message : String(error);
      throw new BackupError(`${file} is not a usable backup of the embedded database: it does not open as a Dwell database (${reason}). Nothing was changed.`);
    }
    let keptAside: string | null = null;
    if (existsSync(folder)) {
      keptAside = `${folder}.before-restore-${timestamp(now)}`;
      await rename(folder, keptAside);
    }
    try {
      await rename(staging, folder);
    } catch (error) {
      if (keptAside) await rename(keptAside, folder);
      throw error;
    }
    return { ...summary, keptAside };
  } finally {
    await lock.release();
  }
}
