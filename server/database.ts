/**
 * The database the configuration names: PostgreSQL (`DATABASE_URL`), or the embedded one in the
 * data folder, taken with the folder's lock (one process at a time). Migrated before use. Also
 * the account commands run without a server.
 */
import type { Socket } from "node:net";
import { chmod } from "node:fs/promises";
import { join } from "node:path";
import { log } from "~/utils/log.server";
import { lockDataDir, type DataDirLock } from "~/db/data-dir-lock.server";
import { migrateDatabase, openPglite, openPostgres } from "~/db/db.server";
import { resolveAuthSecret } from "~/utils/auth-secret.server";
import { createAuth } from "~/utils/auth.server";
import { createMailer } from "~/utils/email.server";
import { loadConfig, type Config } from "~/utils/env.server";
import { runAdminCommand, type AdminReply } from "./admin-commands";
import { PGLITE_FOLDER } from "./backup";
import { createPrivateFilesOnly, makeOwnerOnly, securePrivateDataDir } from "./private-data-dir";

export async function openConfiguredDatabase(config: Config, onAdminConnection?: (socket: Socket) => void) {
  if (config.DATABASE_URL) {
    const database = openPostgres(config.DATABASE_URL, 10, (error) => log.error("postgres pool error", { error }));
    await migrateDatabase(database, config.DATABASE_URL);
    return { database, lock: null };
  }
  await securePrivateDataDir(config.DATA_DIR);
  const lock: DataDirLock = await lockDataDir(config.DATA_DIR, onAdminConnection);
  // Only the owner of the data folder may send account commands.
  await chmod(lock.socketPath, 0o600);
  try {
    const database = await openPglite(join(config.DATA_DIR, PGLITE_FOLDER), config.PGLITE_SHARED_BUFFERS_MB);
    await migrateDatabase(database);
    // The database engine makes its files readable by all; the folder's 0700 already shuts others
    // out, and this keeps each file owner-only too.
    await makeOwnerOnly(config.DATA_DIR);
    return { database, lock };
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/**
 * Runs an account command without a server (none is running, or the database is PostgreSQL,
 * which several processes may open at once). Takes the data folder's lock like a server would.
 */
export async function runAdminCommandOffline(command: unknown, env?: Record<string, string | undefined>): Promise<AdminReply> {
  const config = loadConfig(env);
  createPrivateFilesOnly();
  const secret = await resolveAuthSecret(config);
  const { database, lock } = await openConfiguredDatabase(config);
  try {
    const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM });
    const auth = createAuth({ db: database.db, publicUrl: config.PUBLIC_URL, secret, mailer });
    return await runAdminCommand({ db: database.db, auth }, command);
  } finally {
    await database.close();
    await lock?.release();
  }
}
