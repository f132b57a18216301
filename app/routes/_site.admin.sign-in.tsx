import { APIError } from "better-auth/api";
import { data, href, redirect } from "react-router";
import { eq } from "drizzle-orm";
import { appContext } from "~/context";
import { profiles } from "~/db/schema";
import { firstOwnerNeeded } from "~/features/accounts/first-owner.server";
import { passwordProblem } from "~/features/accounts/password-policy.server";
import { clearSignInFailures, isKnownDevice, KNOWN_DEVICE_DAYS, knownDeviceToken, recordSignInFailure, signInWait } from "~/features/accounts/sign-in-guard.server";
import { SignInScreen } from "~/features/sanctum/admin-screens";
import { crossSiteMessage, isSameOrigin } from "~/utils/admin-guard.server";
import { CLIENT_IP_HEADER, INVALID_CREDENTIALS, isEmailAddress, MAX_PASSWORD_LENGTH, withAuthCookies } from "~/utils/auth.server";
import { log } from "~/utils/log.server";
import { clientKey } from "~/utils/client-key.server";
import { safeAdminPath } from "~/utils/safe-next";
import { siteCookie } from "~/utils/site-cookie.server";

/** The cookie that marks a browser as one its owner signed in from (see sign-in-guard.server). */
const KNOWN_DEVICE_COOKIE = "dwell-device";
import { m } from "~/paraglide/messages";
import type { Route } from "./+types/_site.admin.sign-in";


/** Visited directly, the page is the sign-in screen (it is also what a form post without JavaScript shows). */
export async function loader({ context }: Route.LoaderArgs) {
  // A fresh install has no one to sign in: the first owner is made on the setup page.
  if (await firstOwnerNeeded(context.get(appContext).db)) throw redirect(href("/admin/setup"));
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const { auth, db, config, clientAddress } = context.get(appContext);
  if (!isSameOrigin(request)) return data({ error: crossSiteMessage() }, { status: 403 });
  const form = await request.formData().catch(() => null);
  const email = String(form?.get("email") ?? "").trim().toLowerCase();
  const password = String(form?.get("password") ?? "");
  const next = safeAdminPath(form?.get("next"));
  if (!email || !password) return data({ error: m.signin_enter_both() }, { status: 400 });
  // No account has such an address: answered as a wrong one, before any lookup.
  if (!isEmailAddress(email) || password.length > MAX_PASSWORD_LENGTH) {
    return data({ error: m.signin_invalid() }, { status: 400 });
  }

  // Only failures count, per (account, client) and per client: see sign-in-guard.server.ts.
  const now = new Date();
  const attempt = { email, client: clientKey(clientAddress), freeFailuresPerClient: config.RATE_LIMIT_SIGN_IN };
  const [account] = await db.select({ twoFactor: profiles.twoFactorEnabled }).from(profiles).where(eq(profiles.email, email));
  const secret = (await auth.$context).secret;
  const device = siteCookie(config.PUBLIC_URL, KNOWN_DEVICE_COOKIE);
  const knownDevice = isKnownDevice(secret, email, device.read(request), now);
  const wait = await signInWait(db, attempt, now, { twoFactor: account?.twoFactor ?? false, knownDevice });
  if (wait > 0) {
    return data({ error: m.signin_too_many() }, { status: 429, headers: { "Retry-After": String(Math.ceil(wait / 1000)) } });
  }

  try {
    const { headers, response: answer } = await auth.api.signInEmail({
      body: { email, password, rememberMe: true },
      headers: new Headers({
        [CLIENT_IP_HEADER]: clientAddress,
        "user-agent": request.headers.get("user-agent") ?? "",
      }),
      returnHeaders: true,
    });
    await clearSignInFailures(db, attempt);
    // A passphrase set before the policy still opens the Sanctum; the dashboard asks for a new one.
    // (and the Team page shows when each member last signed in).
    await db.update(profiles).set({ passwordChangeDue: passwordProblem(password) !== null, lastSignInAt: now }).where(eq(profiles.email, email));
    // With two-factor sign-in on, the passphrase opens only the code step (its cookie is set here).
    const needsCode = (answer as { twoFactorRedirect?: boolean }).twoFactorRedirect === true;
    const response = redirect(needsCode ? `${href("/admin/two-factor")}?${new URLSearchParams({ next })}` : next);
    withAuthCookies(headers, response.headers);
    // This browser is now the owner's own device for this account: a stranger's failures elsewhere never hold it back.
    response.headers.append("Set-Cookie", device.set(knownDeviceToken(secret, email, now), KNOWN_DEVICE_DAYS * 24 * 60 * 60));
    return response;
  } catch (error) {
    if (error instanceof APIError) {
      await recordSignInFailure(db, attempt, now);
      // better-auth's own words for a wrong passphrase, in the page's language; any other refusal as it says.
      return data({ error: !error.message || error.message === INVALID_CREDENTIALS ? m.signin_invalid() : error.message }, { status: 401 });
    }
    log.error("sign-in failed", { error });
    return data({ error: m.unexpected_error() }, { status: 503 });
  }
}

export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

export function meta() {
  return [{ title: m.signin_page_title() }];
}

/** Without JavaScript the form posts here; the answer is the sign-in screen with its message. */
export default function SignInPage({ actionData }: Route.ComponentProps) {
  return <SignInScreen next="/admin" initial={actionData} />;
}
