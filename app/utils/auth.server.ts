/**
 * Sign-in for the Sanctum, on better-auth with the site's own database. better-auth is used as a
 * library: its HTTP routes are not exposed (no sign-up, no profile editing by users); every auth
 * step goes through the site's own forms, which add rate limits and origin checks.
 * See docs/decisions/006-auth.md. Its `minimal` entry: the tables are Drizzle's (drizzle-kit makes their
 * migrations), so better-auth's own database layer, Kysely, is not loaded (270 fewer modules at each start).
 */
import { betterAuth } from "better-auth/minimal";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { twoFactor } from "better-auth/plugins/two-factor";
import { createHash } from "node:crypto";
import { and, eq, like } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/db.server";
import { accounts, profiles, sessions, twoFactors, USER_ROLES, verifications, type UserRole } from "~/db/schema";
import type { Mailer } from "./email.server";
import { m } from "~/paraglide/messages";
import type { Locale } from "~/paraglide/runtime";
import { personLanguage } from "./language.server";
import { totpOnce } from "./totp-once.server";

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 128;
export const INVALID_CREDENTIALS = "Invalid email or password";
/** How an authenticator app names the Sanctum's entry. */
export const TOTP_ISSUER = "Dwell";

/** An address an account could have: well formed, and within the 254 characters mail allows. */
export function isEmailAddress(text: string): boolean {
  return text.length <= 254 && z.email().safeParse(text).success;
}
export const CLIENT_IP_HEADER = "x-dwell-client-ip";

export function createAuth({
  db,
  publicUrl,
  secret,
  mailer,
}: {
  db: Database;
  publicUrl: string;
  secret: string;
  mailer: Pick<Mailer, "send">;
}) {
  return betterAuth({
    appName: "Dwell",
    baseURL: publicUrl,
    basePath: "/api/auth",
    secret,
    trustedOrigins: [publicUrl],
    database: drizzleAdapter(db, { provider: "pg", schema: { profiles, sessions, accounts, verifications, twoFactors } }),
    user: {
      modelName: "profiles",
      fields: { name: "username" },
      additionalFields: {
        role: { type: "string", required: false, defaultValue: "member", input: false },
        language: { type: "string", required: false, input: false },
        suspendedAt: { type: "date", required: false, input: false },
      },
    },
    session: { modelName: "sessions", expiresIn: 7 * 24 * 60 * 60, updateAge: 24 * 60 * 60 },
    account: { modelName: "accounts" },
    // Tokens are kept as hashes: the database alone (a backup, a leaked dump) opens no account.
    verification: { modelName: "verifications", storeIdentifier: { default: { hash: hashedIdentifier } } },
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) => {
        const link = `${publicUrl}/admin/reset-password?token=${encodeURIComponent(token)}`;
        // In the account's own language for the Sanctum (the Security page), else the site's default.
        const language = personLanguage((user as typeof user & { language?: string | null }).language);
        await mailer.send({
          to: user.email,
          subject: m.mail_reset_subject({}, { locale: language as Locale }),
          text: m.mail_reset_text({ email: user.email, link }, { locale: language as Locale }),
        });
      },
    },
    plugins: [
      // Authenticator codes (TOTP) with ten recovery codes; the Sanctum's own forms drive it. A
      // sign-in challenge allows 5 codes, and 10 wrong ones in a row pause the account's codes 15 min.
      twoFactor({ issuer: TOTP_ISSUER, schema: { twoFactor: { modelName: "twoFactors" } } }),
      // Each code once: see totp-once.
      totpOnce(db),
    ],
    // Counted in the site's own database-backed limits instead (all processes share them).
    rateLimit: { enabled: false },
    advanced: {
      cookiePrefix: "dwell",
      // Secure (and __Secure- prefixed) exactly when the site is served over https.
      useSecureCookies: publicUrl.startsWith("https://"),
      database: { generateId: "uuid" },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

/** Passes on the cookies better-auth set (a session, a two-factor challenge) to the site's answer. */
export function withAuthCookies(from: Headers, to: Headers = new Headers()): Headers {
  for (const cookie of from.getSetCookie()) to.append("Set-Cookie", cookie);
  return to;
}

const RESET_PREFIX = "reset-password:";

/**
 * How a verification's identifier (a reset token, a two-factor challenge) is stored: its SHA-256,
 * with the kind of a reset link kept in front so that an account's links can be found and revoked.
 */
async function hashedIdentifier(identifier: string): Promise<string> {
  const digest = createHash("sha256").update(identifier).digest("base64url");
  return identifier.startsWith(RESET_PREFIX) ? `${RESET_PREFIX}${digest}` : digest;
}

/** Deletes the account's reset links not yet used (each a verification whose value is the account's id). */
export async function revokeResetLinks(db: Database, email: string) {
  const [account] = await db.select({ id: profiles.id }).from(profiles).where(eq(profiles.email, email));
  if (!account) return;
  await db
    .delete(verifications)
    .where(and(eq(verifications.value, account.id), like(verifications.identifier, `${RESET_PREFIX}%`)));
}

export interface Viewer {
  id: string;
  username: string;
  email: string;
  role: UserRole;
  twoFactorEnabled: boolean;
  /** Their chosen language for the Sanctum (null: the site's default). */
  language: string | null;
}

/** The signed-in account, or null. */
export async function getViewer(auth: Auth, request: Request): Promise<Viewer | null> {
  const session = await auth.api.getSession({ headers: request.headers });
  if (!session) return null;
  const { id, name, email, role, twoFactorEnabled, language, suspendedAt } = session.user as typeof session.user & { role?: string; language?: string | null; suspendedAt?: Date | string | null };
  // A suspended account (the tripwire) is not staff until an owner lifts it.
  const known = !suspendedAt && (USER_ROLES as readonly string[]).includes(role ?? "") ? (role as UserRole) : "member";
  return { id, username: name, email, role: known, twoFactorEnabled: twoFactorEnabled === true, language: typeof language === "string" ? language : null };
}
