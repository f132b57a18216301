/**
 * Values kept encrypted at rest (AES-256-GCM), each purpose with its own key derived from the
 * site's secret (AUTH_SECRET): the database alone (a backup, a dump) opens none of them.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const SEALED = "v1:";

/** The key for one purpose ("vrchat session cookies", "connection settings"). */
export function sealingKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "dwell", purpose, 32));
}

export function seal(key: Buffer, value: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const sealed = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
  return SEALED + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
}

export const isSealed = (value: string) => value.startsWith(SEALED);

/** The value, or null when it does not open with this key (the secret changed, or it was altered). */
export function unseal(key: Buffer, value: string): string | null {
  try {
    const bytes = Buffer.from(value.slice(SEALED.length), "base64url");
    const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
