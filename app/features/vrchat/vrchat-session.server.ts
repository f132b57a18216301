import { eq, sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { vrchatSessions } from "~/db/schema";
import { log } from "~/utils/log.server";
import { isSealed, seal as sealValue, sealingKey, unseal } from "~/utils/sealed.server";

export interface StoredSession {
  userId: string | null;
  authCookie: string | null;
  twoFactorCookie: string | null;
  loginFailures: number;
  loginPausedUntil: Date | null;
}

/** Where the client keeps the bot account's cookies: the database, so every process shares them. */
export interface SessionStore {
  load(): Promise<StoredSession | null>;
  /** A login's cookies, and the account's user id when the login answer carried it. */
  saveLogin(login: { authCookie: string; twoFactorCookie: string | null; userId: string | null }): Promise<void>;
  saveUserId(userId: string): Promise<void>;
  /** Forgets the auth cookie (VRChat said it is no longer valid); the two-factor cookie stays. */
  dropAuthCookie(): Promise<void>;
  recordLoginFailure(message: string, pausedUntil: Date): Promise<void>;
  /** Until when VRChat asked for no calls at all (its last 429's Retry-After), or null. */
  quietUntil(): Promise<Date | null>;
  /** Keeps a 429's quiet for every process (a later time only ever extends it). */
  recordQuiet(until: Date): Promise<void>;
}

/**
 * The bot's cookies open the group's VRChat account: they are kept encrypted (AES-256-GCM, with a
 * key derived from the site's AUTH_SECRET), so the database alone (a backup, a dump) opens nothing.
 * A value that no longer decrypts (the secret changed) reads as no cookie: the bot logs in again.
 */
function cookieKey(secret: string): Buffer {
  return sealingKey(secret, "vrchat session cookies");
}

function seal(key: Buffer, value: string | null): string | null {
  return value === null ? null : sealValue(key, value);
}

function open(key: Buffer, value: string | null): string | null {
  if (value === null || !isSealed(value)) return value;
  const opened = unseal(key, value);
  if (opened === null) log.warn("a stored VRChat session cookie could not be decrypted (AUTH_SECRET changed?): the bot logs in again");
  return opened;
}

export function databaseSessionStore(db: Database, username: string, secret: string): SessionStore {
  const key = username.trim().toLowerCase();
  const cipherKey = cookieKey(secret);
  return {
    async load() {
      const [row] = await db
        .select({
          userId: vrchatSessions.userId,
          authCookie: vrchatSessions.authCookie,
          twoFactorCookie: vrchatSessions.twoFactorCookie,
          loginFailures: vrchatSessions.loginFailures,
          loginPausedUntil: vrchatSessions.loginPausedUntil,
        })
        .from(vrchatSessions)
        .where(eq(vrchatSessions.username, key));
      if (!row) return null;
      const authCookie = open(cipherKey, row.authCookie);
      const twoFactorCookie = open(cipherKey, row.twoFactorCookie);
      // Cookies stored in clear by an earlier version are sealed the first time they are read.
      const inClear = (value: string | null) => value !== null && !isSealed(value);
      if (inClear(row.authCookie) || inClear(row.twoFactorCookie)) {
        await db
          .update(vrchatSessions)
          .set({ authCookie: seal(cipherKey, authCookie), twoFactorCookie: seal(cipherKey, twoFactorCookie) })
          .where(eq(vrchatSessions.username, key));
      }
      return { ...row, authCookie, twoFactorCookie };
    },
    async saveLogin({ authCookie, twoFactorCookie, userId }) {
      const values = {
        authCookie: seal(cipherKey, authCookie),
        twoFactorCookie: seal(cipherKey, twoFactorCookie),
        ...(userId ? { userId } : {}),
        loginFailures: 0,
        loginPausedUntil: null,
        lastLoginAt: new Date(),
        lastError: null,
      };
      await db
        .insert(vrchatSessions)
        .values({ username: key, ...values })
        .onConflictDoUpdate({ target: vrchatSessions.username, set: values });
    },
    async saveUserId(userId) {
      await db.update(vrchatSessions).set({ userId }).where(eq(vrchatSessions.username, key));
    },
    async dropAuthCookie() {
      await db.update(vrchatSessions).set({ authCookie: null }).where(eq(vrchatSessions.username, key));
    },
    async quietUntil() {
      const [row] = await db.select({ until: vrchatSessions.quietUntil }).from(vrchatSessions).where(eq(vrchatSessions.username, key));
      return row?.until ?? null;
    },
    async recordQuiet(until) {
      await db
        .insert(vrchatSessions)
        .values({ username: key, quietUntil: until })
        .onConflictDoUpdate({ target: vrchatSessions.username, set: { quietUntil: sql`greatest(${vrchatSessions.quietUntil}, ${until.toISOString()}::timestamptz)` } });
    },
    async recordLoginFailure(message, pausedUntil) {
      await db
        .insert(vrchatSessions)
        .values({ username: key, loginFailures: 1, loginPausedUntil: pausedUntil, lastError: message })
        .onConflictDoUpdate({
          target: vrchatSessions.username,
          set: {
            loginFailures: sql`${vrchatSessions.loginFailures} + 1`,
            loginPausedUntil: pausedUntil,
            lastError: message,
          },
        });
    },
  };
}
