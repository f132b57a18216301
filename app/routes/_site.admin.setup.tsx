import { KeyRound } from "lucide";
import { useId } from "react";
import { data, Form, href, redirect, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { fieldClass } from "~/components/ui/field";
import { Icon } from "~/components/ui/icon";
import { appContext } from "~/context";
import { createFirstOwner, firstOwnerNeeded, SETUP_CODE_FILE } from "~/features/accounts/first-owner.server";
import { GuardCard } from "~/features/sanctum/admin-screens";
import { m } from "~/paraglide/messages";
import { crossSiteMessage, isSameOrigin } from "~/utils/admin-guard.server";
import { MAX_PASSWORD_LENGTH } from "~/utils/auth.server";
import { signInNewAccount } from "~/features/accounts/new-account-session.server";
import type { Route } from "./+types/_site.admin.setup";

/** Only while no staff account exists; afterwards the Sanctum's sign-in. */
export async function loader({ context }: Route.LoaderArgs) {
  if (!(await firstOwnerNeeded(context.get(appContext).db))) throw redirect(href("/admin/sign-in"));
  return data({ file: SETUP_CODE_FILE }, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { db, auth, config, clientAddress } = context.get(appContext);
  if (!isSameOrigin(request)) return data({ error: crossSiteMessage(), field: null }, { status: 403 });
  const form = await request.formData().catch(() => null);
  const text = (name: string) => String(form?.get(name) ?? "");
  const password = text("password");
  if (password.length > MAX_PASSWORD_LENGTH) return data({ error: m.join_too_long({ max: MAX_PASSWORD_LENGTH }), field: "password" }, { status: 400 });
  if (password !== text("confirm")) return data({ error: m.passwords_differ(), field: "confirm" }, { status: 400 });
  const made = await createFirstOwner({ db, auth, dataDir: config.DATA_DIR }, { code: text("code").slice(0, 64), username: text("username"), email: text("email").slice(0, 320), password }, new Date());
  if (!made.ok) return data({ error: made.message, field: made.field ?? null }, { status: made.status });
  // The new owner is signed in at once.
  return signInNewAccount(auth, { email: made.email, password }, request, clientAddress);
}

export function meta() {
  return [{ title: m.setup_title() }, { name: "robots", content: "noindex" }];
}

export default function SetupPage({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const errorId = useId();
  const invalid = (field: string) => (actionData?.field === field ? { "aria-invalid": true, "aria-describedby": errorId } : {});
  const fields = [
    { name: "username", label: m.setup_name(), type: "text", autoComplete: "username", maxLength: 64 },
    { name: "email", label: m.setup_email_label(), type: "email", autoComplete: "email", maxLength: 320 },
    { name: "password", label: m.join_passphrase(), type: "password", autoComplete: "new-password" },
    { name: "confirm", label: m.password_confirm(), type: "password", autoComplete: "new-password" },
  ];
  return (
    <GuardCard icon={<Icon node={KeyRound} className="size-10" />} title={m.setup_heading()}>
      <p className="text-mist-300">{m.setup_intro({ file: loaderData.file })}</p>
      <Form method="post" className="mt-6 space-y-4 text-left">
        <div id={errorId} role="alert">
          {actionData?.error ? <p className="rounded-lg border border-red-400/40 bg-red-500/10 px-3 py-2 text-sm text-red-200">{actionData.error}</p> : null}
        </div>
        <div className="space-y-2">
          <label htmlFor="setup-code" className="block text-sm font-semibold text-mist-100">{m.setup_code()}</label>
          <input id="setup-code" name="code" required maxLength={64} autoComplete="one-time-code" spellCheck={false} className={`${fieldClass} font-mono uppercase`} {...invalid("code")} />
        </div>
        {fields.map((field) => (
          <div key={field.name} className="space-y-2">
            <label htmlFor={`setup-${field.name}`} className="block text-sm font-semibold text-mist-100">{field.label}</label>
            <input id={`setup-${field.name}`} name={field.name} type={field.type} required maxLength={field.maxLength} autoComplete={field.autoComplete} className={fieldClass} {...invalid(field.name)} />
          </div>
        ))}
        <Button type="submit" size="lg" className="w-full" disabled={busy} aria-busy={busy}>
          {busy ? m.setup_making() : m.setup_submit()}
        </Button>
      </Form>
    </GuardCard>
  );
}
