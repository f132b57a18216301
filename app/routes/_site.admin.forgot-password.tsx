import { data } from "react-router";
import { appContext } from "~/context";
import { SignInScreen } from "~/features/sanctum/admin-screens";
import { crossSiteMessage, isSameOrigin } from "~/utils/admin-guard.server";
import { isEmailAddress, revokeResetLinks } from "~/utils/auth.server";
import { clientKey } from "~/utils/client-key.server";
import { log } from "~/utils/log.server";
import { hitRateLimit } from "~/utils/rate-limit.server";
import type { Route } from "./+types/_site.admin.forgot-password";
import { m } from "~/paraglide/messages";

const RESETS_PER_ACCOUNT_PER_HOUR = 3;

/** Visited directly, the page is the sign-in screen (it is also what a form post without JavaScript shows). */
export function loader() {
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const { auth, db, config, clientAddress } = context.get(appContext);
  if (!isSameOrigin(request)) return data({ error: crossSiteMessage() }, { status: 403 });
  const form = await request.formData().catch(() => null);
  const email = String(form?.get("email") ?? "").trim().toLowerCase();
  if (!email) return data({ error: m.fp_email_first() }, { status: 400 });
  if (!isEmailAddress(email)) return data({ error: m.fp_email_invalid() }, { status: 400 });
  // Per client, and per account (3 an hour): nobody can fill an admin's inbox with links.
  const now = new Date();
  for (const { key, limit, windowMs } of [
    { key: `password-reset:${clientKey(clientAddress)}`, limit: config.RATE_LIMIT_SIGN_IN, windowMs: 15 * 60_000 },
    { key: `password-reset-account:${email}`, limit: RESETS_PER_ACCOUNT_PER_HOUR, windowMs: 60 * 60_000 },
  ]) {
    if (!(await hitRateLimit(db, { key, limit, windowMs, now })).allowed) {
      return data({ error: m.fp_too_many() }, { status: 429 });
    }
  }
  try {
    // The answer is the same whether or not the account exists. A new link revokes earlier ones.
    await revokeResetLinks(db, email);
    await auth.api.requestPasswordReset({ body: { email } });
  } catch (error) {
    log.error("password reset request failed", { error });
    return data({ error: m.unexpected_error() }, { status: 503 });
  }
  // The same answer whichever way mail leaves: that links go to the server log is the operator's to know.
  return { sent: true };
}

export default function ForgotPasswordPage({ actionData }: Route.ComponentProps) {
  return <SignInScreen next="/admin" initial={actionData} />;
}
