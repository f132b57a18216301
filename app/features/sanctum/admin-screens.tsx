import { KeyRound, LogOut, ShieldAlert } from "lucide";
import { Icon } from "~/components/ui/icon";
import { useId, useState } from "react";
import { Form, href, Link, useFetcher, useLocation } from "react-router";
import { fieldClass } from "~/components/ui/field";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { m } from "~/paraglide/messages";

export interface SignInResult {
  error?: string;
}
export interface ForgotResult {
  error?: string;
  sent?: boolean;
}

export const RESET_EMAIL_SENT = m.signin_reset_sent;

function ErrorText({ id, message }: { id: string; message: string | undefined }) {
  return (
    <div id={id} role="alert" aria-live="assertive">
      {message ? <p className="rounded-lg border border-red-400/40 bg-red-500/10 px-3 py-2 text-sm text-red-200">{message}</p> : null}
    </div>
  );
}

/** 'Enter the Sanctum': shown in place of any admin page to a visitor who is not signed in. */
export function SignInScreen({ next, initial }: { next?: string; initial?: SignInResult & ForgotResult }) {
  const location = useLocation();
  const signIn = useFetcher<SignInResult>();
  const forgot = useFetcher<ForgotResult>();
  const [email, setEmail] = useState("");
  const [dismissed, setDismissed] = useState<ForgotResult | undefined>();
  const errorId = useId();
  const busy = signIn.state !== "idle";
  const sent = forgot.data ?? (initial?.sent ? initial : undefined);

  if (sent?.sent && dismissed !== sent) {
    return (
      <GuardCard icon={<Icon node={KeyRound} className="size-10" />} title={m.signin_check_inbox()}>
        <p role="status" className="text-mist-300">{RESET_EMAIL_SENT()}</p>
        <Button className="mt-6" variant="outline" onClick={() => setDismissed(sent)}>
          {m.signin_back()}
        </Button>
      </GuardCard>
    );
  }

  const error = signIn.data?.error ?? forgot.data?.error ?? initial?.error;
  return (
    <GuardCard icon={<Icon node={KeyRound} className="size-10" />} title={m.signin_title()}>
      <signIn.Form method="post" action={href("/admin/sign-in")} className="space-y-4 text-left" aria-describedby={errorId}>
        <input type="hidden" name="next" value={next ?? location.pathname + location.search} />
        <ErrorText id={errorId} message={error} />
        <div className="space-y-2">
          <label htmlFor="sign-in-email" className="block text-sm font-semibold text-mist-100">{m.signin_email()}</label>
          <input id="sign-in-email" name="email" type="email" autoComplete="username" required className={fieldClass} value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <div className="space-y-2">
          <label htmlFor="sign-in-password" className="block text-sm font-semibold text-mist-100">{m.signin_password()}</label>
          <input id="sign-in-password" name="password" type="password" autoComplete="current-password" required className={fieldClass} />
        </div>
        <Button type="submit" size="lg" className="w-full" disabled={busy} aria-busy={busy}>
          {m.signin_submit()}
        </Button>
      </signIn.Form>
      <forgot.Form method="post" action={href("/admin/forgot-password")} className="mt-4">
        <input type="hidden" name="email" value={email} />
        <button type="submit" className="text-sm text-aurora-300 underline-offset-4 hover:text-ember-300 hover:underline">
          {m.signin_forgot()}
        </button>
      </forgot.Form>
    </GuardCard>
  );
}

export function AccessDeniedScreen() {
  return (
    <GuardCard icon={<Icon node={ShieldAlert} className="size-10" />} title={m.guard_sealed()}>
      <p role="alert" className="text-mist-300">{m.guard_denied()}</p>
      <SignOutButton className="mt-6" />
    </GuardCard>
  );
}

/** A staff member whose role does not open this page or do this. */
export function NotForRoleScreen({ role }: { role: string }) {
  return (
    <GuardCard icon={<Icon node={ShieldAlert} className="size-10" />} title={m.guard_not_for_role_title()}>
      <p role="alert" className="text-mist-300">{m.guard_not_for_role({ role })}</p>
      <Button asChild variant="outline" className="mt-6">
        <Link to={href("/admin")}>{m.guard_back_dashboard()}</Link>
      </Button>
    </GuardCard>
  );
}

export function SignOutButton({ className }: { className?: string }) {
  return (
    <Form method="post" action={href("/admin/sign-out")} className={className}>
      <Button type="submit" variant="outline">
        <Icon node={LogOut} className="size-4" />
        {m.sign_out()}
      </Button>
    </Form>
  );
}

export function GuardCard({ icon, title, children }: { icon: React.ReactNode; title: string; children: React.ReactNode }) {
  return (
    <div className="mx-auto max-w-md px-4 py-20">
      <Card className="p-8 text-center">
        <div className="mx-auto mb-4 flex justify-center text-ember-300" aria-hidden="true">{icon}</div>
        <h1 className="mb-6 font-display text-3xl text-mist-100">{title}</h1>
        {children}
      </Card>
      <p className="mt-6 text-center text-sm text-mist-400">
        <Link to={href("/")} className="hover:text-mist-100">{m.guard_return_calling()}</Link>
      </p>
    </div>
  );
}

/** A signed-in admin changes their own passphrase; their other sessions end. */
export const PASSWORD_CHANGE_DUE = m.password_change_due;

export function ChangePasswordForm() {
  const fetcher = useFetcher<{ message?: string; error?: string }>();
  const id = useId();
  return (
    <Card id="change-passphrase" className="scroll-mt-24 p-6">
      <h2 className="font-display text-2xl text-mist-100">{m.password_change_title()}</h2>
      <fetcher.Form method="post" action={`${href("/admin")}?index`} className="mt-4 grid gap-4 sm:grid-cols-3">
        <input type="hidden" name="intent" value="change-password" />
        <div role="status" className="sm:col-span-3">
          {fetcher.data?.error ? <p className="text-sm text-red-300">{fetcher.data.error}</p> : null}
          {fetcher.data?.message ? <p className="text-sm text-emerald-300">{fetcher.data.message}</p> : null}
        </div>
        {[
          ["currentPassword", m.password_current(), "current-password"],
          ["newPassword", m.password_new(), "new-password"],
          ["confirm", m.password_confirm(), "new-password"],
        ].map(([name, label, autoComplete]) => (
          <div key={name} className="space-y-2">
            <label htmlFor={`${id}-${name}`} className="block text-sm font-semibold text-mist-100">{label}</label>
            <input id={`${id}-${name}`} name={name} type="password" autoComplete={autoComplete} required className={fieldClass} />
          </div>
        ))}
        <div className="sm:col-span-3">
          <Button type="submit" variant="outline" disabled={fetcher.state !== "idle"}>{m.password_change_submit()}</Button>
        </div>
      </fetcher.Form>
    </Card>
  );
}
