import { data } from "react-router";
import { appContext } from "~/context";
import { SignInScreen } from "~/features/sanctum/admin-screens";
import { CROSS_SITE_MESSAGE, isSameOrigin } from "~/utils/admin-guard.server";
import { log } from "~/utils/log.server";
import { hitRateLimit } from "~/utils/rate-limit.server";
import type { Route } from "./+types/_site.admin.forgot-password";

/** Visited directly, the page is the sign-in screen (it is also what a form post without JavaScript shows). */
export function loader() {
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const { auth, db, config, clientAddress, mailTransport } = context.get(appContext);
  if (!isSameOrigin(request)) return data({ error: CROSS_SITE_MESSAGE }, { status: 403 });
  const form = await request.formData().catch(() => null);
  const email = String(form?.get("email") ?? "").trim().toLowerCase();
  if (!email) return data({ error: "Please enter your email address first" }, { status: 400 });
  const limit = await hitRateLimit(db, {
    key: `password-reset:${clientAddress}`,
    limit: config.RATE_LIMIT_SIGN_IN,
    windowMs: 15 * 60 * 1000,
    now: new Date(),
  });
  if (!limit.allowed) return data({ error: "Too many requests. Please wait a few minutes and try again." }, { status: 429 });
  try {
    // The answer is the same whether or not the account exists.
    await auth.api.requestPasswordReset({ body: { email } });
  } catch (error) {
    log.error("password reset request failed", { error });
    return data({ error: "An unexpected error occurred" }, { status: 503 });
  }
  return { sent: true, viaLog: mailTransport === "log" };
}

export default function ForgotPasswordPage({ actionData }: Route.ComponentProps) {
  return <SignInScreen next="/admin" initial={actionData} />;
}
