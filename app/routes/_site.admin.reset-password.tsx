import { APIError } from "better-auth/api";
import { KeyRound, Sparkles } from "lucide";
import { Icon } from "~/components/ui/icon";
import { useEffect, useId } from "react";
import { data, Form, href, Link, useNavigate, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { appContext } from "~/context";
import { fieldClass } from "~/components/ui/field";
import { GuardCard } from "~/features/sanctum/admin-screens";
import { crossSiteMessage, isSameOrigin } from "~/utils/admin-guard.server";
import { passwordProblem } from "~/features/accounts/password-policy.server";
import { log } from "~/utils/log.server";
import type { Route } from "./+types/_site.admin.reset-password";
import { m } from "~/paraglide/messages";

const REDIRECT_DELAY_MS = 3000;

export function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token");
  return { token: token || null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { auth } = context.get(appContext);
  if (!isSameOrigin(request)) return data({ error: crossSiteMessage() }, { status: 403 });
  const form = await request.formData().catch(() => null);
  const token = String(form?.get("token") ?? "");
  const password = String(form?.get("password") ?? "");
  const confirm = String(form?.get("confirm") ?? "");
  if (!token) return data({ error: m.rp_invalid_link() }, { status: 400 });
  if (!password || !confirm) return data({ error: m.rp_fill_both() }, { status: 400 });
  if (password !== confirm) return data({ error: m.passwords_differ() }, { status: 400 });
  const problem = passwordProblem(password);
  if (problem) return data({ error: problem }, { status: 400 });
  try {
    await auth.api.resetPassword({ body: { newPassword: password, token } });
    return { updated: true as const };
  } catch (error) {
    if (error instanceof APIError) {
      const message = /token/i.test(error.message) ? m.rp_invalid_link() : error.message;
      return data({ error: message }, { status: 400 });
    }
    log.error("password reset failed", { error });
    return data({ error: m.unexpected_error() }, { status: 503 });
  }
}

export function meta() {
  return [{ title: m.rp_title() }];
}

export default function ResetPasswordPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const navigate = useNavigate();
  const errorId = useId();
  const busy = navigation.state === "submitting";
  const updated = actionData && "updated" in actionData;

  useEffect(() => {
    if (!updated) return;
    const timer = setTimeout(() => navigate(href("/admin")), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [updated, navigate]);

  if (updated) {
    return (
      <GuardCard icon={<Icon node={Sparkles} className="size-10" />} title={m.rp_updated()}>
        <p role="status" className="text-mist-300">{m.rp_redirecting()}</p>
        <Button asChild className="mt-6">
          <Link to={href("/admin")}>{m.rp_enter_now()}</Link>
        </Button>
      </GuardCard>
    );
  }

  const error = !loaderData.token ? m.rp_invalid_link() : actionData && "error" in actionData ? actionData.error : undefined;
  return (
    <GuardCard icon={<Icon node={KeyRound} className="size-10" />} title={m.rp_heading()}>
      <Form method="post" className="space-y-4 text-left" aria-describedby={errorId}>
        <input type="hidden" name="token" value={loaderData.token ?? ""} />
        <div id={errorId} role="alert">
          {error ? <p className="rounded-lg border border-red-400/40 bg-red-500/10 px-3 py-2 text-sm text-red-200">{error}</p> : null}
        </div>
        <div className="space-y-2">
          <label htmlFor="new-password" className="block text-sm font-semibold text-mist-100">{m.password_new()}</label>
          <input id="new-password" name="password" type="password" autoComplete="new-password" className={fieldClass} disabled={!loaderData.token} />
        </div>
        <div className="space-y-2">
          <label htmlFor="confirm-password" className="block text-sm font-semibold text-mist-100">{m.password_confirm()}</label>
          <input id="confirm-password" name="confirm" type="password" autoComplete="new-password" className={fieldClass} disabled={!loaderData.token} />
        </div>
        <Button type="submit" size="lg" className="w-full" disabled={busy || !loaderData.token} aria-busy={busy}>
          {busy ? m.rp_updating() : m.rp_update()}
        </Button>
      </Form>
    </GuardCard>
  );
}
