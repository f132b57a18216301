import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ConfigError, type Config } from "./env.server";

/**
 * The secret that signs sessions. Set AUTH_SECRET in production. With the embedded database and
 * no secret, one is made on first start and kept beside the data (DATA_DIR/auth-secret, readable
 * by the owner only). With PostgreSQL every process must share it, so it must be configured.
 */
export async function resolveAuthSecret(config: Config): Promise<string> {
  if (config.AUTH_SECRET) return config.AUTH_SECRET;
  if (config.DATABASE_URL) {
    throw new ConfigError(
      "Invalid configuration:\n  AUTH_SECRET: required with DATABASE_URL (every server process must share it); " +
        "generate one with: openssl rand -base64 32",
    );
  }
  const path = join(config.DATA_DIR, "auth-secret");
  try {
    const stored = (await readFile(path, "utf8")).trim();
    if (stored.length >= 32) return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const secret = randomBytes(32).toString("base64url");
  await mkdir(config.DATA_DIR, { recursive: true });
  await writeFile(path, `${secret}\n`, { mode: 0o600 });
  return secret;
}
