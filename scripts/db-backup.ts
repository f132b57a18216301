/**
 * npm run backup [-- FILE]           writes a backup of the database (default: DATA_DIR/backups/dwell-<time>…)
 * npm run restore -- FILE [--force]  replaces the database with a backup
 *
 * The embedded database is backed up by the running server when there is one (it holds the data
 * folder), else by this command; a restore needs the server stopped. With DATABASE_URL set,
 * pg_dump and pg_restore do the work. See server/backup.ts and docs/decisions/009-backups.md.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { DataDirLockedError, LOCK_SOCKET_NAME } from "../app/db/data-dir-lock.server.ts";
import { loadConfig } from "../app/utils/env.server.ts";
import { backupPgliteDataDir, defaultBackupPath, PGLITE_FOLDER, restorePgliteDataDir, type BackupResult } from "../server/backup.ts";
import { backupPostgres, restorePostgres } from "../server/backup-postgres.ts";
import { root } from "../server/build.ts";
import { askRunningServer } from "./ask-server.ts";

const USAGE = `Usage:
  npm run backup [-- FILE]
  npm run restore -- FILE [--force]`;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const size = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

if (existsSync(join(root, ".env"))) process.loadEnvFile(join(root, ".env"));

const [action, ...rest] = process.argv.slice(2);
function parseArguments() {
  try {
    return parseArgs({ args: rest, allowPositionals: true, options: { force: { type: "boolean" } } });
  } catch (error) {
    fail(`${(error as Error).message}\n${USAGE}`);
  }
}
const parsed = parseArguments();
if (parsed.positionals.length > 1) fail(USAGE);
// npm runs scripts from the project's folder; a relative FILE means where the command was typed.
const fileArgument = parsed.positionals[0] && resolve(process.env.INIT_CWD ?? process.cwd(), parsed.positionals[0]);

async function backup(): Promise<string> {
  const config = loadConfig();
  if (config.DATABASE_URL) {
    const written = await backupPostgres(config.DATABASE_URL, fileArgument || defaultBackupPath(config.DATA_DIR, "postgres"));
    return `Backup of the PostgreSQL database written to ${written.path} (${size(written.bytes)}).`;
  }
  const path = fileArgument || defaultBackupPath(config.DATA_DIR, "pglite");
  const socketPath = join(resolve(config.DATA_DIR), LOCK_SOCKET_NAME);
  const viaServer = async () => {
    const reply = await askRunningServer(socketPath, { command: "backup", path });
    if (reply && !reply.ok) fail(reply.error);
    return reply && (reply.result as BackupResult);
  };
  let written = await viaServer();
  if (!written) {
    try {
      written = await backupPgliteDataDir(config.DATA_DIR, path, config.PGLITE_SHARED_BUFFERS_MB);
    } catch (error) {
      // A server started in between: it holds the folder now, so it writes the backup.
      if (!(error instanceof DataDirLockedError)) throw error;
      written = await viaServer();
      if (!written) throw error;
    }
  }
  return `Backup written to ${written.path} (${size(written.bytes)}).`;
}

async function restore(): Promise<string> {
  if (!fileArgument) fail(`Name the backup file to restore.\n${USAGE}`);
  const config = loadConfig();
  if (config.DATABASE_URL) {
    const restored = await restorePostgres(config.DATABASE_URL, fileArgument, { force: parsed.values.force });
    return (
      `Restored ${fileArgument} into the PostgreSQL database (${restored.tables} tables, ${restored.migrations} migrations applied). ` +
      "Start the servers again; migrations newer than the backup run at start."
    );
  }
  const restored = await restorePgliteDataDir(config.DATA_DIR, fileArgument, new Date(), config.PGLITE_SHARED_BUFFERS_MB);
  const lines = [`Restored ${fileArgument} into ${resolve(config.DATA_DIR, PGLITE_FOLDER)} (${restored.tables} tables, ${restored.migrations} migrations applied).`];
  if (restored.keptAside) {
    lines.push(
      `The database it replaced is kept in ${restored.keptAside}; delete that folder once all is well ` +
        `(or, to go back, put it in place of ${PGLITE_FOLDER} with the server stopped).`,
    );
  }
  lines.push("Start the server with npm start; migrations newer than the backup run at start.");
  return lines.join("\n");
}

try {
  if (action === "backup") console.log(await backup());
  else if (action === "restore") console.log(await restore());
  else fail(USAGE);
} catch (error) {
  // Every failure here is the operator's to act on: the message says what, the stack would not help.
  fail(error instanceof Error ? error.message : String(error));
}
