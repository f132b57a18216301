import { eq, sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { vrchatSessions } from "~/db/schema";

export interface StoredSession {
  authCookie: string | null;
  twoFactorCookie: string | null;
  loginFailures: number;
  loginPausedUntil: Date | null;
}

/** Where the client keeps the bot account's cookies: the database, so every process shares them. */
export interface SessionStore {
  load(): Promise<StoredSession | null>;
  saveLogin(cookies: { authCookie: string; twoFactorCookie: string | null }): Promise<void>;
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
          authCookie: vrchatSessions.authCookie,
          twoFactorCookie: vrchatSessions.twoFactorCookie,
          loginFailures: vrchatSessions.loginFailures,
          loginPausedUntil: vrchatSessions.loginPausedUntil,
        })
        .from(vrchatSessions)
        .where(eq(vrchatSessions.username, key));
      return row ?? null;
    },
    async saveLogin({ authCookie, twoFactorCookie }) {
      const values = {
        authCookie,
        twoFactorCookie,
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
