/**
 * Sanctum accounts, managed by the operator's commands (npm run user:create / user:list /
 * user:remove): there is no public sign-up.
 */
import { and, asc, eq, ne } from "drizzle-orm";
import { z } from "zod";
import { isUniqueViolation, type Database } from "~/db/db.server";
import { profiles, sessions, twoFactors, USER_ROLES } from "~/db/schema";
import type { Auth } from "~/utils/auth.server";
import { passwordProblem } from "./password-policy.server";

export const NewAccountSchema = z.object({
  email: z.string({ error: "an email address" }).trim().toLowerCase().pipe(z.email({ error: "a valid email address" })),
  password: z.string({ error: "a password" }).superRefine((password, ctx) => {
    const problem = passwordProblem(password);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
  username: z.string().trim().min(1).max(64).optional(),
  role: z.enum(USER_ROLES, { error: "owner, admin, reviewer, host or member" }).default("owner"),
});
export type NewAccount = z.input<typeof NewAccountSchema>;

export class AccountError extends Error {
  override name = "AccountError";
}

function describe(error: z.ZodError) {
  return error.issues.map((issue) => `--${issue.path.join(".")}: ${issue.message}`).join("; ");
}


export async function createAccount(auth: Auth, input: NewAccount) {
  const parsed = NewAccountSchema.safeParse(input);
  if (!parsed.success) throw new AccountError(describe(parsed.error));
  const { email, password, role } = parsed.data;
  const username = parsed.data.username ?? email.split("@")[0]!;
  const ctx = await auth.$context;
  const hash = await ctx.password.hash(password);
  let user;
  try {
    user = await ctx.internalAdapter.createUser({ email, name: username, emailVerified: true, role }, { method: "admin" });
  } catch (error) {
    // The email's unique index decides, even when two commands race.
    if (isUniqueViolation(error)) throw new AccountError(`An account with the email ${email} already exists.`);
    throw error;
  }
  await ctx.internalAdapter.linkAccount({ userId: user.id, providerId: "credential", accountId: user.id, password: hash });
  return { id: user.id, email, username, role };
}

export async function listAccounts(db: Database) {
  return db
    .select({ id: profiles.id, email: profiles.email, username: profiles.username, role: profiles.role, createdAt: profiles.createdAt })
    .from(profiles)
    .orderBy(asc(profiles.createdAt));
}

/**
 * For an admin who lost their authenticator and recovery codes: turns two-factor sign-in off,
 * forgets the secret and codes, and ends the account's sessions. The next sign-in takes the
 * passphrase alone (and, with REQUIRE_ADMIN_2FA, leads to enrolling again).
 */
export async function resetTwoFactor(db: Database, email: string) {
  return db.transaction(async (tx) => {
    const [account] = await tx
      .update(profiles)
      .set({ twoFactorEnabled: false })
      .where(eq(profiles.email, email.trim().toLowerCase()))
      .returning({ id: profiles.id, email: profiles.email });
    if (!account) return null;
    await tx.delete(twoFactors).where(eq(twoFactors.userId, account.id));
    await tx.delete(sessions).where(eq(sessions.userId, account.id));
    return account;
  });
}

/** Removes an account and, with it, its sessions. */
export async function removeAccount(db: Database, email: string): Promise<boolean> {
  const rows = await db
    .delete(profiles)
    .where(eq(profiles.email, email.trim().toLowerCase()))
    .returning({ id: profiles.id });
  return rows.length > 0;
}

const SESSION_COOKIE = /^(?:__Secure-)?dwell\.session_token=([^;]*)/;

/**
 * Ends every session of the account but the one whose cookie better-auth has just set (in
 * `setCookies`, an answer's headers): after a change that should shut out whoever else holds a
 * session, such as turning two-factor sign-in on. False when no new session cookie was found
 * (then nothing is ended).
 */
export async function endOtherSessions(db: Database, userId: string, setCookies: Headers): Promise<boolean> {
  const cookie = setCookies.getSetCookie().map((line) => SESSION_COOKIE.exec(line)?.[1]).find((value) => value);
  if (!cookie) return false;
  // The cookie holds the token and its signature: "token.signature", URL-encoded.
  const token = decodeURIComponent(cookie).split(".")[0]!;
  await db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.token, token)));
  return true;
}
