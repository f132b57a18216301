/**
 * Backups of a PostgreSQL database and their restore (see server/backup.ts): pg_dump's custom
 * format, restored by pg_restore and psql in one transaction, into a database that holds nothing
 * of Dwell's yet (or, forced, over one no other session uses).
 * Outside the server bundle this module runs straight under Node, hence the relative imports with extensions.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chmod, mkdir, mkdtemp, open, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import pg from "pg";
import { BackupError, isGzip, isPgDump, type BackupResult, type RestoreResult } from "./backup.ts";

type PostgresTool = "pg_dump" | "pg_restore" | "psql";

/** Debian keeps every installed version's programs under /usr/lib/postgresql/<version>/bin. */
const DEBIAN_POSTGRES = "/usr/lib/postgresql";

/**
 * The program on PATH, else the newest under /usr/lib/postgresql (a newer pg_dump reads older
 * servers; an older one refuses newer servers).
 */
export function findPostgresTool(name: PostgresTool): string {
  const versions = existsSync(DEBIAN_POSTGRES)
    ? readdirSync(DEBIAN_POSTGRES)
        .filter((version) => /^\d+$/.test(version))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const candidate of [name, ...versions.map((version) => join(DEBIAN_POSTGRES, version, "bin", name))]) {
    if (spawnSync(candidate, ["--version"], { stdio: "ignore" }).status === 0) return candidate;
  }
  throw new BackupError(
    `${name} was not found (on PATH or under ${DEBIAN_POSTGRES}/*/bin). Install PostgreSQL's client programs ` +
      "(Debian: apt-get install postgresql-client), of the server's version or newer.",
  );
}

/**
 * Where a PostgreSQL program connects: the URL without its password, which travels in
 * PGPASSWORD instead, so it is never on a command line (visible to every user in ps).
 */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password) || parsed.searchParams.get("password") || "";
  parsed.password = "";
  parsed.searchParams.delete("password");
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (password) env.PGPASSWORD = password;
  return { dbname: parsed.toString(), env };
}

/** Runs a program to its end; resolves with what it wrote, rejects with its error output. */
function run(program: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((done, reject) => {
    const child = spawn(program, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    let errors = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (errors += chunk));
    child.once("error", reject);
    child.once("close", (code) => {
      if (code === 0) done(output);
      else reject(new BackupError(`${basename(program)} failed: ${errors.trim() || `exit code ${code}`}`));
    });
  });
}

export async function backupPostgres(url: string, path: string): Promise<BackupResult> {
  const pgDump = findPostgresTool("pg_dump");
  const { dbname, env } = connection(url);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const partial = `${path}.partial`;
  try {
    await run(pgDump, ["--format=custom", "--no-password", `--file=${partial}`, `--dbname=${dbname}`], env);
    await chmod(partial, 0o600);
    await rename(partial, path);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  const handle = await open(path, "r");
  try {
    return { path, bytes: (await handle.stat()).size };
  } finally {
    await handle.close();
  }
}

/**
 * Empties what Dwell keeps in the database (the public schema and drizzle's), so the restore
 * leaves nothing behind that the backup does not have, such as a table a later version added.
 */
const EMPTY_DWELL_SCHEMAS = `
set client_min_messages = warning;
drop schema if exists drizzle cascade;
do $$
declare object record;
begin
  for object in
    select format('drop %s if exists %I.%I cascade', case c.relkind when 'v' then 'view'
      when 'm' then 'materialized view' when 'S' then 'sequence' else 'table' end, n.nspname, c.relname) as statement
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'S')
      and not exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype in ('a', 'i'))
  loop
    execute object.statement;
  end loop;
  for object in
    select format('drop type if exists %I.%I cascade', n.nspname, t.typname) as statement
    from pg_type t join pg_namespace n on n.oid = t.typnamespace
    where n.nspname = 'public' and t.typtype in ('e', 'd')
  loop
    execute object.statement;
  end loop;
end $$;
`;

async function otherSessions(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ count: number }>(
      "select count(*)::int as count from pg_stat_activity " +
        "where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'",
    );
    return result.rows[0]!.count;
  } finally {
    await client.end();
  }
}

async function inspectPostgres(url: string): Promise<{ tables: number; migrations: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const migrations = await client.query<{ count: number }>("select count(*)::int as count from drizzle.__drizzle_migrations");
    const tables = await client.query<{ count: number }>(
      "select count(*)::int as count from pg_tables where schemaname in ('public', 'drizzle')",
    );
    return { tables: tables.rows[0]!.count, migrations: migrations.rows[0]!.count };
  } finally {
    await client.end();
  }
}

/**
 * Replaces the database's content with a pg_dump backup. pg_restore first turns the whole archive
 * into SQL (reading every part of it, so a damaged file stops here); psql then empties Dwell's
 * schemas and runs that SQL in one transaction: on any error nothing changes.
 */
export async function restorePostgres(url: string, file: string, options: { force?: boolean } = {}): Promise<RestoreResult> {
  let head: Uint8Array;
  try {
    const handle = await open(file, "r");
    try {
      head = (await handle.read(Buffer.alloc(5), 0, 5, 0)).buffer;
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new BackupError(`Cannot read ${file}: ${(error as Error).message}. Nothing was changed.`);
  }
  const refuse = (why: string) => new BackupError(`${file} is not a usable PostgreSQL backup: ${why}. Nothing was changed.`);
  if (isGzip(head)) throw refuse("it is a backup of the embedded database; restore it without DATABASE_URL");
  if (!isPgDump(head)) throw refuse("it is not a pg_dump archive (custom format)");

  const pgRestore = findPostgresTool("pg_restore");
  const psql = findPostgresTool("psql");
  const { dbname, env } = connection(url);
  const contents = await run(pgRestore, ["--list", file], env).catch((error: Error) => {
    throw refuse(error.message);
  });
  if (!/ TABLE drizzle __drizzle_migrations /.test(contents)) throw refuse("it is not a backup of a Dwell database");

  const sessions = await otherSessions(url);
  if (sessions > 0 && !options.force) {
    throw new BackupError(
      `${sessions} other connection(s) to this database are open: stop every Dwell server first, then run npm run restore again ` +
        "(or add --force if those connections are not Dwell's). Nothing was changed.",
    );
  }

  const scratch = await mkdtemp(join(tmpdir(), "dwell-restore-"));
  try {
    const script = join(scratch, "restore.sql");
    await run(pgRestore, ["--clean", "--if-exists", "--no-owner", "--no-acl", `--file=${script}`, file], env).catch((error: Error) => {
      throw refuse(error.message);
    });
    await run(
      psql,
      ["--no-psqlrc", "--quiet", "--no-password", "--single-transaction", "--set=ON_ERROR_STOP=1", `--command=${EMPTY_DWELL_SCHEMAS}`, `--file=${script}`, `--dbname=${dbname}`],
      env,
    ).catch((error: Error) => {
      throw new BackupError(`The restore failed and was rolled back; nothing was changed. ${error.message}`);
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return { ...(await inspectPostgres(url)), keptAside: null };
}
