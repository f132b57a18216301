/**
 * npm run backup and npm run restore, run as the operator runs them, around real server processes:
 * on the embedded database (the backup written by the running server over its socket) and on
 * PostgreSQL (pg_dump / pg_restore). A bad file, or a running server, changes nothing.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, statSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { testProcessEnv } from "../setup/node-flags";
import { createAccountWithCommand, runUserCommand } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess } from "../setup/server-process";
import { ON_PGLITE, ON_POSTGRES, postgresUrl } from "../setup/test-database";

const root = fileURLToPath(new URL("../..", import.meta.url));
const KEEPER = "keeper@dwell.example";
const DEMO_EVENT = "Starlight Open Mic";

const dirs: string[] = [];
const running: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(running.map((server) => server.stop("SIGKILL")));
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});
function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), "dwell-backup-"));
  dirs.push(dir);
  return dir;
}
async function start(env: Record<string, string>) {
  const server = await startServerProcess(env);
  running.push(server);
  return server;
}

/** `npm run backup` / `npm run restore`, as a child process. */
function runBackupCommand(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ["scripts/db-backup.ts", ...args], {
      cwd: root,
      env: testProcessEnv({ DATABASE_URL: "", ...env }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("close", (code) => done({ code, stdout, stderr }));
  });
}

function writtenPath(stdout: string): string {
  const match = /written to (\S+) \(/.exec(stdout);
  if (!match) throw new Error(`no path in: ${stdout}`);
  return match[1]!;
}

describe.runIf(ON_PGLITE)("backup and restore of the embedded database", () => {
  it("round-trips through the running server's backup, refusing bad files and a running server", { timeout: 180_000 }, async () => {
    const dataDir = tempDir();
    const env = { DATA_DIR: dataDir };
    const first = await start(env);
    createAccountWithCommand(dataDir, KEEPER, "a long enough passphrase", "admin");

    // The running server holds the folder, so it writes the backup (default name, under DATA_DIR/backups).
    const backup = await runBackupCommand(["backup"], env);
    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);
    const file = writtenPath(backup.stdout);
    expect(file.startsWith(join(dataDir, "backups", "dwell-"))).toBe(true);
    expect(file.endsWith(".tar.gz")).toBe(true);
    expect(first.output()).toContain('"msg":"backup written"');

    const whileRunning = await runBackupCommand(["restore", file], env);
    expect(whileRunning.code).toBe(1);
    expect(whileRunning.stderr).toContain(`A Dwell server is running on the data folder ${dataDir}: stop it first`);
    expect(await first.stop()).toBe(0);

    // Changed after the backup: the account is gone.
    expect(runUserCommand(dataDir, ["remove", "--email", KEEPER]).status).toBe(0);

    const good = await readFile(file);
    const damaged = {
      "cut-short.tar.gz": good.subarray(0, Math.floor(good.length / 2)),
      "not-a-backup.tar.gz": Buffer.from("these are not the data you are looking for"),
      "other-archive.tar": Buffer.alloc(1024),
    };
    for (const [name, bytes] of Object.entries(damaged)) {
      const path = join(dataDir, name);
      await writeFile(path, bytes);
      const refused = await runBackupCommand(["restore", path], env);
      expect(refused.code, name).toBe(1);
      expect(refused.stderr, name).toContain("is not a usable backup of the embedded database");
      expect(refused.stderr, name).toContain("Nothing was changed.");
    }
    expect(readdirSync(dataDir).filter((name) => name.startsWith("pgdata"))).toEqual(["pgdata"]);
    expect(runUserCommand(dataDir, ["list"]).stdout).toContain("No accounts yet");

    const restored = await runBackupCommand(["restore", file], env);
    expect(restored.stderr).toBe("");
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain(`into ${join(dataDir, "pgdata")}`);
    const aside = readdirSync(dataDir).find((name) => name.startsWith("pgdata.before-restore-"));
    expect(aside).toBeDefined();
    expect(restored.stdout).toContain(join(dataDir, aside!));

    // npm start opens the restored folder: the account is back, the demo content is there once.
    const second = await start(env);
    expect(runUserCommand(dataDir, ["list"]).stdout).toContain(KEEPER);
    const page = await (await fetch(`${second.url}/events`)).text();
    expect(page.match(new RegExp(`>${DEMO_EVENT}</h3>`, "g"))?.length).toBe(1);
    expect(await second.stop()).toBe(0);
  });

  it("backs up a stopped site by opening its folder, and says when there is nothing yet", { timeout: 120_000 }, async () => {
    const dataDir = tempDir();
    const empty = await runBackupCommand(["backup"], { DATA_DIR: dataDir });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain("nothing to back up");

    const server = await start({ DATA_DIR: dataDir });
    await server.stop();
    const target = join(tempDir(), "nested", "site.tar.gz");
    const backup = await runBackupCommand(["backup", target], { DATA_DIR: dataDir });
    expect(backup.stderr).toBe("");
    expect(writtenPath(backup.stdout)).toBe(target);
    expect(existsSync(`${target}.partial`)).toBe(false);
    // Only the owner reads a backup: it holds password hashes.
    expect(statSync(target).mode & 0o777).toBe(0o600);
  });
});

describe.runIf(ON_POSTGRES)("backup and restore on PostgreSQL", () => {
  const name = `dwell_backup_${randomUUID().replaceAll("-", "")}`;
  // Built when the suite runs: without TEST_DATABASE_URL it is collected but never run.
  const databaseUrl = () => postgresUrl(name);
  const admin = () => new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  async function sql(statement: string) {
    const client = new pg.Client({ connectionString: databaseUrl() });
    await client.connect();
    try {
      return await client.query(statement);
    } finally {
      await client.end();
    }
  }
  afterAll(async () => {
    const client = admin();
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  });

  it("round-trips with pg_dump and pg_restore; a bad file or a failing restore changes nothing", { timeout: 180_000 }, async () => {
    const client = admin();
    await client.connect();
    await client.query(`create database ${name}`);
    await client.end();
    const dataDir = tempDir();
    const env = { DATA_DIR: dataDir, DATABASE_URL: databaseUrl(), AUTH_SECRET: "a-secret-for-the-backup-test-0123456789" };

    // The server migrates the new database; the account command opens it beside the server.
    const first = await start(env);
    expect(runUserCommand(dataDir, ["create", "--email", KEEPER], { ...env, USER_PASSWORD: "a long enough passphrase" }).status).toBe(0);
    const backup = await runBackupCommand(["backup"], env);
    expect(backup.stderr).toBe("");
    const file = writtenPath(backup.stdout);
    expect(file.startsWith(join(dataDir, "backups", "dwell-"))).toBe(true);
    expect((await readFile(file)).subarray(0, 5).toString()).toBe("PGDMP");
    await first.stop();

    expect(runUserCommand(dataDir, ["remove", "--email", KEEPER], env).status).toBe(0);
    // Left over by "a later version": the restore must not keep it (a migration would recreate it).
    await sql("create table later_feature (id uuid references profiles (id))");

    const cut = join(dataDir, "cut-short.dump");
    await writeFile(cut, (await readFile(file)).subarray(0, 2_000));
    const refused = await runBackupCommand(["restore", cut], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("is not a usable PostgreSQL backup");
    const embedded = join(dataDir, "embedded.tar.gz");
    await writeFile(embedded, Buffer.from([0x1f, 0x8b, 8, 0]));
    expect((await runBackupCommand(["restore", embedded], env)).stderr).toContain("restore it without DATABASE_URL");

    // A restore that fails halfway (a type squatting a table's name) is rolled back whole.
    await sql("drop table outbox cascade; create type outbox as (x int)");
    const failed = await runBackupCommand(["restore", file], env);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("rolled back");
    expect((await sql("select count(*)::int as count from pg_tables where tablename = 'later_feature'")).rows[0].count).toBe(1);
    expect(runUserCommand(dataDir, ["list"], env).stdout).toContain("No accounts yet");
    await sql("drop type outbox");

    const restored = await runBackupCommand(["restore", file], env);
    expect(restored.stderr).toBe("");
    expect(restored.code).toBe(0);
    expect((await sql("select count(*)::int as count from pg_tables where tablename = 'later_feature'")).rows[0].count).toBe(0);

    const second = await start(env);
    expect((await fetch(`${second.url}/api/health`)).status).toBe(200);
    expect(runUserCommand(dataDir, ["list"], env).stdout).toContain(KEEPER);
    await second.stop();
  });
});
