import { APIError } from "better-auth/api";
import { KeyRound, ShieldAlert } from "lucide-react";
import { useId } from "react";
import { data, Form, href, redirect, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { fieldClass } from "~/components/ui/field";
import { appContext } from "~/context";
import { acceptInvitation, getInvitation } from "~/features/accounts/team.server";
import { INVITATION_INVALID } from "~/features/accounts/team-texts";
import { GuardCard } from "~/features/sanctum/admin-screens";
import { CROSS_SITE_MESSAGE, isSameOrigin } from "~/utils/admin-guard.server";
import { CLIENT_IP_HEADER, MAX_PASSWORD_LENGTH, withAuthCookies } from "~/utils/auth.server";
import { log } from "~/utils/log.server";
import { roleName } from "~/utils/roles";
import type { Route } from "./+types/_site.admin.join.$token";

/** An owner's invitation: the address and role it is for, or (404) why it opens nothing. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { db } = context.get(appContext);
  const invitation = await getInvitation(db, params.token, new Date());
  const headers = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };
  if (!invitation) return data({ invitation: null }, { status: 404, headers });
  return data({ invitation: { email: invitation.email, role: roleName(invitation.role) } }, { headers });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { db, auth, clientAddress } = context.get(appContext);
  if (!isSameOrigin(request)) return data({ error: CROSS_SITE_MESSAGE, field: null }, { status: 403 });
  const form = await request.formData().catch(() => null);
  const username = String(form?.get("username") ?? "");
  const password = String(form?.get("password") ?? "");
  const confirm = String(form?.get("confirm") ?? "");
  if (password.length > MAX_PASSWORD_LENGTH) return data({ error: `A passphrase is at most ${MAX_PASSWORD_LENGTH} characters.`, field: "password" }, { status: 400 });
  if (password !== confirm) return data({ error: "Passwords do not match", field: "confirm" }, { status: 400 });
  const accepted = await acceptInvitation(db, auth, { token: params.token, username, password }, new Date());
  if (!accepted.ok) return data({ error: accepted.message, field: accepted.field ?? null }, { status: accepted.message === INVITATION_INVALID ? 404 : 400 });
  try {
    // The new member is signed in at once (their role's two-factor requirement then applies).
    const { headers } = await auth.api.signInEmail({
      body: { email: accepted.email, password, rememberMe: true },
      headers: new Headers({ [CLIENT_IP_HEADER]: clientAddress, "user-agent": request.headers.get("user-agent") ?? "" }),
      returnHeaders: true,
    });
    const response = redirect(href("/admin"));
    withAuthCookies(headers, response.headers);
    return response;
  } catch (error) {
    if (!(error instanceof APIError)) log.error("signing a new member in failed", { error });
    return redirect(href("/admin/sign-in"));
  }
}

export function meta() {
  return [{ title: "Join the Sanctum · Dwell" }, { name: "robots", content: "noindex" }, { name: "referrer", content: "no-referrer" }];
}

export default function JoinPage({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const errorId = useId();
  const { invitation } = loaderData;
  if (!invitation) {
    return (
      <GuardCard icon={<ShieldAlert className="size-10" />} title="Invitation not valid">
        <p role="alert" className="text-mist-300">{INVITATION_INVALID}</p>
      </GuardCard>
    );
  }
  const invalid = (field: string) => (actionData?.field === field ? { "aria-invalid": true, "aria-describedby": errorId } : {});
  return (
    <GuardCard icon={<KeyRound className="size-10" />} title="Join the Sanctum">
      <p className="text-mist-300">
        For <span className="font-semibold break-all text-mist-100">{invitation.email}</span>, as {invitation.role}.
      </p>
      <Form method="post" className="mt-6 space-y-4 text-left">
        <div id={errorId} role="alert">
          {actionData?.error ? <p className="rounded-lg border border-red-400/40 bg-red-500/10 px-3 py-2 text-sm text-red-200">{actionData.error}</p> : null}
        </div>
        <div className="space-y-2">
          <label htmlFor="join-username" className="block text-sm font-semibold text-mist-100">Username</label>
          <input id="join-username" name="username" required maxLength={64} autoComplete="username" className={fieldClass} {...invalid("username")} />
        </div>
        <div className="space-y-2">
          <label htmlFor="join-password" className="block text-sm font-semibold text-mist-100">Cosmic Passphrase</label>
          <input id="join-password" name="password" type="password" required autoComplete="new-password" className={fieldClass} {...invalid("password")} />
        </div>
        <div className="space-y-2">
          <label htmlFor="join-confirm" className="block text-sm font-semibold text-mist-100">Confirm Passphrase</label>
          <input id="join-confirm" name="confirm" type="password" required autoComplete="new-password" className={fieldClass} {...invalid("confirm")} />
        </div>
        <Button type="submit" size="lg" className="w-full" disabled={busy} aria-busy={busy}>
          {busy ? "Joining..." : "Join the team"}
        </Button>
      </Form>
    </GuardCard>
  );
}
