/**
 * An authenticator code works once. better-auth accepts a code for its 30-second step and the steps
 * either side, again and again within that minute and a half: a code seen over a shoulder, or
 * taken with the passphrase by a phishing page, would sign in a second time. This plugin runs
 * before better-auth's own check: it finds the step the code belongs to and claims it for the
 * account in one conditional UPDATE, which only a step later than the last claimed one passes; a
 * code of that step or earlier is answered as a wrong code. A code that matches no step is left to
 * better-auth, which counts the failure.
 */
import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import { symmetricDecrypt } from "better-auth/crypto";
import { and, eq, isNull, lt, or } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import type { Database } from "~/db/db.server";
import { twoFactors } from "~/db/schema";

const PERIOD_SECONDS = 30;
const BASE32_PREFIX = "base32:";

/** The step (30-second window since the epoch) whose code `code` is, within one step either side; null when none. */
export function stepOfCode(secret: string, code: string, now: number): number | null {
  const key = secret.startsWith(BASE32_PREFIX)
    ? Secret.fromBase32(secret.slice(BASE32_PREFIX.length).toUpperCase())
    : new Secret({ buffer: new TextEncoder().encode(secret).buffer as ArrayBuffer });
  const totp = new TOTP({ secret: key, digits: 6, period: PERIOD_SECONDS, algorithm: "SHA1" });
  const delta = totp.validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}

/** Claims `step` for the account: false when a code of that step or a later one was accepted already. */
export async function claimTotpStep(db: Database, userId: string, step: number): Promise<boolean> {
  const claimed = await db
    .update(twoFactors)
    .set({ lastTotpStep: step })
    .where(and(eq(twoFactors.userId, userId), or(isNull(twoFactors.lastTotpStep), lt(twoFactors.lastTotpStep, step))))
    .returning({ id: twoFactors.id });
  return claimed.length > 0;
}

const USED_CODE = new APIError("UNAUTHORIZED", { code: "INVALID_CODE", message: "This code was used already" });

export function totpOnce(db: Database) {
  return {
    id: "dwell-totp-once",
    hooks: {
      before: [
        {
          matcher: (context) => context.path === "/two-factor/verify-totp",
          handler: createAuthMiddleware(async (ctx) => {
            const code = typeof ctx.body?.code === "string" ? ctx.body.code : "";
            const userId = await accountOf(ctx);
            if (!userId || !/^\d{6}$/.test(code)) return;
            const [row] = await db.select({ secret: twoFactors.secret }).from(twoFactors).where(eq(twoFactors.userId, userId));
            if (!row) return;
            const secret = await symmetricDecrypt({ key: ctx.context.secretConfig, data: row.secret });
            const step = stepOfCode(secret, code, Date.now());
            if (step === null) return;
            if (!(await claimTotpStep(db, userId, step))) throw USED_CODE;
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** Whose code it is: the signed-in admin's (turning two-factor on or off), or the sign-in challenge's. */
async function accountOf(ctx: HookContext): Promise<string | null> {
  const session = await getSessionFromCtx(ctx).catch(() => null);
  if (session) return session.user.id;
  const cookie = ctx.context.createAuthCookie("two_factor");
  const challenge = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
  if (!challenge) return null;
  const verification = await ctx.context.internalAdapter.findVerificationValue(challenge);
  return verification?.value ?? null;
}
