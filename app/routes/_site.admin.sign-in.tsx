import { APIError } from "better-auth/api";
import { data, redirect } from "react-router";
import { appContext } from "~/context";
import { SignInScreen } from "~/features/sanctum/admin-screens";
import { CROSS_SITE_MESSAGE, isSameOrigin } from "~/utils/admin-guard.server";
import { CLIENT_IP_HEADER } from "~/utils/auth.server";
import { log } from "~/utils/log.server";
import { hitRateLimit } from "~/utils/rate-limit.server";
import { safeAdminPath } from "~/utils/safe-next";
import type { Route } from "./+types/_site.admin.sign-in";

const WINDOW_MS = 15 * 60 * 1000;
const TOO_MANY = "Too many sign-in attempts. Please wait a few minutes and try again.";

/** Visited directly, the page is the sign-in screen (it is also what a form post without JavaScript shows). */
export function loader() {
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const { auth, db, config, clientAddress } = context.get(appContext);
  if (!isSameOrigin(request)) return data({ error: CROSS_SITE_MESSAGE }, { status: 403 });
  const form = await request.formData().catch(() => null);
  const email = String(form?.get("email") ?? "").trim().toLowerCase();
  const password = String(form?.get("password") ?? "");
  const next = safeAdminPath(form?.get("next"));
  if (!email || !password) return data({ error: "Please enter your email and password." }, { status: 400 });

  // Per address and per account: guessing one account from many addresses is limited too.
  const now = new Date();
  for (const key of [`sign-in:address:${clientAddress}`, `sign-in:account:${email}`]) {
    const limit = await hitRateLimit(db, { key, limit: config.RATE_LIMIT_SIGN_IN, windowMs: WINDOW_MS, now });
    if (!limit.allowed) {
      return data({ error: TOO_MANY }, { status: 429, headers: { "Retry-After": String(Math.ceil(limit.retryAfterMs / 1000)) } });
    }
  }

  try {
    const { headers } = await auth.api.signInEmail({
      body: { email, password, rememberMe: true },
      headers: new Headers({
        [CLIENT_IP_HEADER]: clientAddress,
        "user-agent": request.headers.get("user-agent") ?? "",
      }),
      returnHeaders: true,
    });
    const response = redirect(next);
    for (const cookie of headers.getSetCookie()) response.headers.append("Set-Cookie", cookie);
    return response;
  } catch (error) {
    if (error instanceof APIError) return data({ error: error.message || "Invalid email or password" }, { status: 401 });
    log.error("sign-in failed", { error });
    return data({ error: "An unexpected error occurred" }, { status: 503 });
  }
}

export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

export function meta() {
  return [{ title: "Enter the Sanctum · Dwell" }];
}

/** Without JavaScript the form posts here; the answer is the sign-in screen with its message. */
export default function SignInPage({ actionData }: Route.ComponentProps) {
  return <SignInScreen next="/admin" initial={actionData} />;
}
