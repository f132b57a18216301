/** Signs in someone who has just made their account (the first owner, an invited member). */
import { APIError } from "better-auth/api";
import { href, redirect } from "react-router";
import { CLIENT_IP_HEADER, withAuthCookies, type Auth } from "~/utils/auth.server";
import { log } from "~/utils/log.server";

/** Into the Sanctum with a session; to the sign-in when it cannot be made (their role's two-factor rule then applies there). */
export async function signInNewAccount(auth: Auth, account: { email: string; password: string }, request: Request, clientAddress: string): Promise<Response> {
  try {
    const { headers } = await auth.api.signInEmail({
      body: { email: account.email, password: account.password, rememberMe: true },
      headers: new Headers({ [CLIENT_IP_HEADER]: clientAddress, "user-agent": request.headers.get("user-agent") ?? "" }),
      returnHeaders: true,
    });
    const response = redirect(href("/admin"));
    withAuthCookies(headers, response.headers);
    return response;
  } catch (error) {
    if (!(error instanceof APIError)) log.error("signing a new account in failed", { error });
    return redirect(href("/admin/sign-in"));
  }
}
