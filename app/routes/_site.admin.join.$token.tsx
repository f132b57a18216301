import { KeyRound, ShieldAlert } from "lucide";
import { Icon } from "~/components/ui/icon";
import { useId } from "react";
import { data, Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { fieldClass } from "~/components/ui/field";
import { appContext } from "~/context";
import { acceptInvitation, getInvitation } from "~/features/accounts/team.server";
import { invitationInvalid } from "~/features/accounts/team-texts";
import { GuardCard } from "~/features/sanctum/admin-screens";
import { crossSiteMessage, isSameOrigin } from "~/utils/admin-guard.server";
import { MAX_PASSWORD_LENGTH } from "~/utils/auth.server";
import { signInNewAccount } from "~/features/accounts/new-account-session.server";
import { roleName } from "~/utils/roles";
import type { Route } from "./+types/_site.admin.join.$token";
import { m } from "~/paraglide/messages";
import { Interpolated } from "~/components/ui/interpolated";

/** An owner's invitation: the address and role it is for, or (404) why it opens nothing. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { db } = context.get(appContext);
  const invitation = await getInvitation(db, params.token, new Date());
  const headers = { "Cache-Control": "no-store", "Referrer-Policy": "same-origin" };
  if (!invitation) return data({ invitation: null }, { status: 404, headers });
  return data({ invitation: { email: invitation.email, role: roleName(invitation.role) } }, { headers });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { db, auth, clientAddress } = context.get(appContext);
  if (!isSameOrigin(request)) return data({ error: crossSiteMessage(), field: null }, { status: 403 });
  const form = await request.formData().catch(() => null);
  const username = String(form?.get("username") ?? "");
  const password = String(form?.get("password") ?? "");
  const confirm = String(form?.get("confirm") ?? "");
  if (password.length > MAX_PASSWORD_LENGTH) return data({ error: m.join_too_long({ max: MAX_PASSWORD_LENGTH }), field: "password" }, { status: 400 });
  if (password !== confirm) return data({ error: m.passwords_differ(), field: "confirm" }, { status: 400 });
  const accepted = await acceptInvitation(db, auth, { token: params.token, username, password }, new Date());
  if (!accepted.ok) return data({ error: accepted.message, field: accepted.field ?? null }, { status: accepted.message === invitationInvalid() ? 404 : 400 });
  // The new member is signed in at once (their role's two-factor requirement then applies).
  return signInNewAccount(auth, { email: accepted.email, password }, request, clientAddress);
}

export function meta() {
  return [{ title: m.join_title() }, { name: "robots", content: "noindex" }, { name: "referrer", content: "same-origin" }];
}

export default function JoinPage({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const errorId = useId();
  const { invitation } = loaderData;
  if (!invitation) {
    return (
      <GuardCard icon={<Icon node={ShieldAlert} className="size-10" />} title={m.join_invalid_heading()}>
        <p role="alert" className="text-mist-300">{invitationInvalid()}</p>
      </GuardCard>
    );
  }
  const invalid = (field: string) => (actionData?.field === field ? { "aria-invalid": true, "aria-describedby": errorId } : {});
  return (
    <GuardCard icon={<Icon node={KeyRound} className="size-10" />} title={m.join_heading()}>
      <p className="text-mist-300">
        <Interpolated message={m.join_for} parts={{ email: <span className="font-semibold break-all text-mist-100">{invitation.email}</span>, role: invitation.role }} />
      </p>
      <Form method="post" className="mt-6 space-y-4 text-left">
        <div id={errorId} role="alert">
          {actionData?.error ? <p className="rounded-lg border border-red-400/40 bg-red-500/10 px-3 py-2 text-sm text-red-200">{actionData.error}</p> : null}
        </div>
        <div className="space-y-2">
          <label htmlFor="join-username" className="block text-sm font-semibold text-mist-100">{m.join_username()}</label>
          <input id="join-username" name="username" required maxLength={64} autoComplete="username" className={fieldClass} {...invalid("username")} />
        </div>
        <div className="space-y-2">
          <label htmlFor="join-password" className="block text-sm font-semibold text-mist-100">{m.join_passphrase()}</label>
          <input id="join-password" name="password" type="password" required autoComplete="new-password" className={fieldClass} {...invalid("password")} />
        </div>
        <div className="space-y-2">
          <label htmlFor="join-confirm" className="block text-sm font-semibold text-mist-100">{m.password_confirm()}</label>
          <input id="join-confirm" name="confirm" type="password" required autoComplete="new-password" className={fieldClass} {...invalid("confirm")} />
        </div>
        <Button type="submit" size="lg" className="w-full" disabled={busy} aria-busy={busy}>
          {busy ? m.join_joining() : m.join_submit()}
        </Button>
      </Form>
    </GuardCard>
  );
}
