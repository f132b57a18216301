import { eq, sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { vrchatSessions } from "~/db/schema";

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
}

export function databaseSessionStore(db: Database, username: string): SessionStore {
  const key = username.trim().toLowerCase();
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
      return row ?? null;
    },
    async saveLogin({ authCookie, twoFactorCookie, userId }) {
      const values = {
        authCookie,
        twoFactorCookie,
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
