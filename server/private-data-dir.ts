/**
 * The data folder holds the embedded database (applicants' answers), the auth secret and the bot
 * account's session: only the account the server runs as may read it. New files are created
 * owner-only (umask 077), and what an earlier version or the database engine made readable to
 * others is narrowed at every start: folders 0700, files 0600.
 */
import { chmod, lstat, mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** From now on this process creates files and folders for its owner only. */
export function createPrivateFilesOnly() {
  process.umask(0o077);
}

/** Narrows the folder and everything under it (symbolic links are left alone, not followed). */
export async function makeOwnerOnly(path: string): Promise<void> {
  const info = await lstat(path);
  if (info.isSymbolicLink()) return;
  if (info.isDirectory()) {
    if ((info.mode & 0o777) !== PRIVATE_DIR_MODE) await chmod(path, PRIVATE_DIR_MODE);
    for (const entry of await readdir(path)) await makeOwnerOnly(join(path, entry));
    return;
  }
  if ((info.mode & 0o777) !== PRIVATE_FILE_MODE) await chmod(path, PRIVATE_FILE_MODE);
}

/** Creates the data folder owner-only, or narrows an existing one. */
export async function securePrivateDataDir(dataDir: string): Promise<void> {
  createPrivateFilesOnly();
  await mkdir(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  await makeOwnerOnly(dataDir);
}
