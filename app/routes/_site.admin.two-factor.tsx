import { APIError } from "better-auth/api";
import { ShieldCheck } from "lucide";
import { Icon } from "~/components/ui/icon";
import { useId } from "react";
import { data, Form, href, redirect, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { fieldClass } from "~/components/ui/field";
import { appContext } from "~/context";
import { typedCode } from "~/features/accounts/two-factor.server";
import { GuardCard } from "~/features/sanctum/admin-screens";
import { crossSiteMessage, isSameOrigin } from "~/utils/admin-guard.server";
import { CLIENT_IP_HEADER, withAuthCookies } from "~/utils/auth.server";
import { log } from "~/utils/log.server";
import { safeAdminPath } from "~/utils/safe-next";
import type { Route } from "./+types/_site.admin.two-factor";
import { m } from "~/paraglide/messages";

/** The second step of signing in, open only to a browser that has just given a correct passphrase. */
const CHALLENGE_COOKIE = /(?:^|;\s*)(?:__Secure-)?dwell\.two_factor=/;

export function loader({ request }: Route.LoaderArgs) {
  if (!CHALLENGE_COOKIE.test(request.headers.get("Cookie") ?? "")) throw redirect(href("/admin"));
  return { next: safeAdminPath(new URL(request.url).searchParams.get("next")) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { auth, clientAddress } = context.get(appContext);
  if (!isSameOrigin(request)) return data({ error: crossSiteMessage() }, { status: 403 });
  const form = await request.formData().catch(() => null);
  const next = safeAdminPath(form?.get("next"));
  const code = typedCode(String(form?.get("code") ?? ""));
  if (!code) return data({ error: m.tf_enter_code() }, { status: 400 });

  const headers = new Headers({ cookie: request.headers.get("Cookie") ?? "", [CLIENT_IP_HEADER]: clientAddress });
  try {
    const answer = /^\d{6}$/.test(code)
      ? await auth.api.verifyTOTP({ body: { code }, headers, returnHeaders: true })
      : await auth.api.verifyBackupCode({ body: { code }, headers, returnHeaders: true });
    const response = redirect(next);
    withAuthCookies(answer.headers, response.headers);
    return response;
  } catch (error) {
    if (error instanceof APIError) {
      const wrong = ["INVALID_CODE", "INVALID_BACKUP_CODE"].includes(String(error.body?.code));
      return data({ error: wrong ? m.tf_wrong_code() : m.tf_start_again() }, { status: wrong ? 400 : 401 });
    }
    log.error("two-factor sign-in failed", { error });
    return data({ error: m.unexpected_error() }, { status: 503 });
  }
}

export function meta() {
  return [{ title: m.tf_title() }, { name: "robots", content: "noindex" }];
}

export default function TwoFactorPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const errorId = useId();
  const busy = navigation.state === "submitting";
  const error = actionData?.error;
  return (
    <GuardCard icon={<Icon node={ShieldCheck} className="size-10" />} title={m.tf_heading()}>
      <Form method="post" className="space-y-4 text-left" aria-describedby={errorId}>
        <input type="hidden" name="next" value={loaderData.next} />
        <div id={errorId} role="alert">
          {error ? <p className="rounded-lg border border-red-400/40 bg-red-500/10 px-3 py-2 text-sm text-red-200">{error}</p> : null}
        </div>
        <div className="space-y-2">
          <label htmlFor="two-factor-code" className="block text-sm font-semibold text-mist-100">
            {m.tf_code_label()}
          </label>
          <input
            id="two-factor-code"
            name="code"
            type="text"
            inputMode="text"
            autoComplete="one-time-code"
            autoFocus
            required
            maxLength={64}
            aria-describedby="two-factor-hint"
            className={fieldClass}
          />
          <p id="two-factor-hint" className="text-sm text-mist-400">
            {m.tf_code_hint()}
          </p>
        </div>
        <Button type="submit" size="lg" className="w-full" disabled={busy} aria-busy={busy}>
          {m.signin_submit()}
        </Button>
      </Form>
      <p className="mt-4 text-sm">
        <a href={href("/admin")} className="text-aurora-300 underline-offset-4 hover:text-ember-300 hover:underline">{m.tf_start_again_link()}</a>
      </p>
    </GuardCard>
  );
}
