import { APIError } from "better-auth/api";
import { useId } from "react";
import { data, Form, href, Link, useNavigation, useSearchParams } from "react-router";
import { z } from "zod";
import { Notice } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { fieldClass } from "~/components/ui/field";
import { appContext } from "~/context";
import { endOtherSessions } from "~/features/accounts/accounts.server";
import { TOO_MANY_CHECKS, withinPassphraseChecks } from "~/features/accounts/sign-in-guard.server";
import { describeEnrolment, typedCode, type Enrolment } from "~/features/accounts/two-factor.server";
import { SignOutButton } from "~/features/sanctum/admin-screens";
import { getMemberDiscord } from "~/features/accounts/team.server";
import { requireStaff } from "~/utils/admin-guard.server";
import { withAuthCookies } from "~/utils/auth.server";
import { log } from "~/utils/log.server";
import type { Route } from "./+types/_site.admin.security";

const WRONG_PASSWORD = "That passphrase is not right.";
const WRONG_CODE = "That code is not right. Please try again with the current code from your app.";
/** Password and code checks on this page, per admin: enough for typos, too few for guessing. */

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context);
  const { config, db, discordOAuth } = context.get(appContext);
  const discordUserId = await getMemberDiscord(db, viewer.id);
  return { twoFactorEnabled: viewer.twoFactorEnabled, required: config.REQUIRE_ADMIN_2FA, discord: { linked: discordUserId, canLink: discordOAuth !== null } };
}

const SecurityActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("enable"), password: z.string().min(1).max(128) }),
  z.object({ intent: z.literal("confirm"), code: z.string().max(32), totpUri: z.string().max(1000) }),
  z.object({ intent: z.literal("disable"), password: z.string().min(1).max(128), code: z.string().max(32) }),
  z.object({ intent: z.literal("recovery-codes"), password: z.string().min(1).max(128) }),
]);

type SecurityResult =
  | { stage: "confirm"; enrolment: Enrolment; recoveryCodes?: string[]; error?: string }
  | { stage: "recovery-codes"; recoveryCodes: string[]; message: string }
  | { message: string }
  | { error: string };

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context);
  const { auth, db } = context.get(appContext);
  const form = await request.formData().catch(() => null);
  const parsed = SecurityActionSchema.safeParse(form ? Object.fromEntries(form) : {});
  if (!parsed.success) return data<SecurityResult>({ error: "Please fill in every field." }, { status: 400 });
  const change = parsed.data;
  if (!(await withinPassphraseChecks(db, viewer.id, new Date()))) return data<SecurityResult>({ error: TOO_MANY_CHECKS }, { status: 429 });
  const headers = request.headers;

  try {
    if (change.intent === "enable") {
      const enabled = await auth.api.enableTwoFactor({ body: { password: change.password, method: "totp" }, headers });
      const enrolment = enabled.method === "totp" ? describeEnrolment(enabled.totpURI) : null;
      if (!enrolment || enabled.method !== "totp") throw new Error("the authenticator address could not be read");
      return { stage: "confirm", enrolment, recoveryCodes: enabled.backupCodes } satisfies SecurityResult;
    }
    if (change.intent === "confirm") {
      const enrolment = describeEnrolment(change.totpUri);
      if (!enrolment) return data<SecurityResult>({ error: "Please start the set-up again." }, { status: 400 });
      try {
        const answer = await auth.api.verifyTOTP({ body: { code: typedCode(change.code) }, headers, returnHeaders: true });
        // Whoever else holds a session of this account (taken with the passphrase alone) is out now.
        if (!(await endOtherSessions(db, viewer.id, answer.headers))) log.warn("two-factor turned on, but its new session was not found: other sessions kept", { userId: viewer.id });
        log.info("an admin turned on two-factor sign-in", { userId: viewer.id });
        return data<SecurityResult>({ message: "Two-factor sign-in is on. From now on, signing in asks for a code from your app. Your other sessions were signed out." }, { headers: withAuthCookies(answer.headers) });
      } catch (error) {
        if (error instanceof APIError) return data<SecurityResult>({ stage: "confirm", enrolment, error: WRONG_CODE }, { status: 400 });
        throw error;
      }
    }
    if (change.intent === "disable") {
      // The password and a current code: a stolen session alone cannot turn it off.
      try {
        await auth.api.verifyTOTP({ body: { code: typedCode(change.code) }, headers });
      } catch (error) {
        if (error instanceof APIError) return data<SecurityResult>({ error: WRONG_CODE }, { status: 400 });
        throw error;
      }
      const answer = await auth.api.disableTwoFactor({ body: { password: change.password }, headers, returnHeaders: true });
      log.info("an admin turned off two-factor sign-in", { userId: viewer.id });
      return data<SecurityResult>({ message: "Two-factor sign-in is off." }, { headers: withAuthCookies(answer.headers) });
    }
    const generated = await auth.api.generateBackupCodes({ body: { password: change.password }, headers });
    return {
      stage: "recovery-codes",
      recoveryCodes: generated.backupCodes,
      message: "New recovery codes: the earlier ones no longer work.",
    } satisfies SecurityResult;
  } catch (error) {
    if (error instanceof APIError) {
      const message = error.body?.code === "INVALID_PASSWORD" ? WRONG_PASSWORD : error.message;
      return data<SecurityResult>({ error: message }, { status: 400 });
    }
    log.error("a two-factor change failed", { error, intent: change.intent });
    return data<SecurityResult>({ error: "An unexpected error occurred" }, { status: 503 });
  }
}

export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

export function meta() {
  return [{ title: "Security · The Sanctum · Dwell" }, { name: "robots", content: "noindex" }];
}

function Field({ name, label, type = "password", autoComplete, hint }: { name: string; label: string; type?: string; autoComplete: string; hint?: string }) {
  const id = useId();
  return (
    <div className="space-y-2">
      <label htmlFor={id} className="block text-sm font-semibold text-mist-100">{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        inputMode={name === "code" ? "numeric" : undefined}
        required
        className={fieldClass}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      {hint ? <p id={`${id}-hint`} className="text-sm text-mist-400">{hint}</p> : null}
    </div>
  );
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div className="space-y-2">
      <h3 className="font-semibold text-mist-100">Recovery codes</h3>
      <p className="text-sm text-mist-300">
        Keep these somewhere safe now: they are not shown again. Each signs you in once, without your app.
      </p>
      <ol aria-label="Recovery codes" className="grid grid-cols-2 gap-2 font-mono text-mist-100 sm:grid-cols-5">
        {codes.map((code) => (
          <li key={code} className="rounded-lg bg-night-950/70 px-2 py-1 text-center">{code}</li>
        ))}
      </ol>
    </div>
  );
}

function EnrolmentStep({ enrolment, recoveryCodes, error }: { enrolment: Enrolment; recoveryCodes?: string[]; error?: string }) {
  const { size, path } = enrolment.qr;
  return (
    <div className="space-y-6">
      <p className="text-mist-300">
        Scan this code with your authenticator app (or type the key below into it), then enter the six digits it shows.
      </p>
      <div className="flex flex-wrap items-start gap-6">
        <svg
          role="img"
          aria-label="QR code of your authenticator key"
          viewBox={`-4 -4 ${size + 8} ${size + 8}`}
          className="size-48 shrink-0 rounded-lg bg-white"
          shapeRendering="crispEdges"
        >
          <path d={path} fill="#000" />
        </svg>
        <div className="min-w-0 space-y-2">
          <p className="text-sm font-semibold text-mist-100">Key</p>
          <code data-testid="totp-secret" className="block rounded-lg bg-night-950/70 px-3 py-2 font-mono break-words text-ember-300">
            {enrolment.secret}
          </code>
        </div>
      </div>
      {recoveryCodes ? <RecoveryCodes codes={recoveryCodes} /> : null}
      <Form method="post" className="max-w-sm space-y-4">
        <input type="hidden" name="intent" value="confirm" />
        <input type="hidden" name="totpUri" value={enrolment.totpUri} />
        {error ? <p role="alert" className="text-sm text-red-300">{error}</p> : null}
        <Field name="code" label="Code from your app" type="text" autoComplete="one-time-code" />
        <Button type="submit">Turn On Two-Factor Sign-In</Button>
      </Form>
    </div>
  );
}

export default function SecurityPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const busy = navigation.state === "submitting";
  const result = actionData as SecurityResult | undefined;
  const enabled = loaderData.twoFactorEnabled;
  const confirming = result && "stage" in result && result.stage === "confirm" && !enabled ? result : null;
  const error = result && "error" in result && !confirming ? result.error : undefined;
  const message = result && "message" in result ? result.message : undefined;

  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="font-display text-4xl text-mist-100">Security</h1>
        <SignOutButton />
      </div>
      {!enabled && (loaderData.required || searchParams.has("required")) ? (
        <Notice>
          Your role signs in with a second key on this site. Turn on two-factor sign-in to reach the rest of the Sanctum.
        </Notice>
      ) : null}
      <Card className="space-y-6 p-6">
        <div>
          <h2 className="font-display text-2xl text-mist-100">Two-Factor Sign-In</h2>
          <p className="mt-1 text-mist-300">
            {enabled
              ? "On: signing in asks for your passphrase and a code from your authenticator app."
              : "Off: your passphrase alone opens the Sanctum."}
          </p>
        </div>
        <div role="status">
          {message ? <p className="text-emerald-300">{message}</p> : null}
          {error ? <p className="text-red-300">{error}</p> : null}
        </div>
        {result && "stage" in result && result.stage === "recovery-codes" ? <RecoveryCodes codes={result.recoveryCodes} /> : null}
        {confirming ? (
          <EnrolmentStep enrolment={confirming.enrolment} recoveryCodes={confirming.recoveryCodes} error={confirming.error} />
        ) : enabled ? (
          <div className="grid gap-8 lg:grid-cols-2">
            <Form method="post" className="space-y-4">
              <h3 className="font-semibold text-mist-100">Turn it off</h3>
              <input type="hidden" name="intent" value="disable" />
              <Field name="password" label="Current Passphrase" autoComplete="current-password" />
              <Field name="code" label="Code from your app" type="text" autoComplete="one-time-code" />
              <Button type="submit" variant="outline" disabled={busy}>Turn Off Two-Factor Sign-In</Button>
            </Form>
            <Form method="post" className="space-y-4">
              <h3 className="font-semibold text-mist-100">New recovery codes</h3>
              <input type="hidden" name="intent" value="recovery-codes" />
              <Field name="password" label="Current Passphrase" autoComplete="current-password" hint="The ten codes you have now stop working." />
              <Button type="submit" variant="outline" disabled={busy}>Make New Recovery Codes</Button>
            </Form>
          </div>
        ) : (
          <Form method="post" className="max-w-sm space-y-4">
            <input type="hidden" name="intent" value="enable" />
            <Field name="password" label="Current Passphrase" autoComplete="current-password" />
            <Button type="submit" disabled={busy}>Set Up Two-Factor Sign-In</Button>
          </Form>
        )}
      </Card>
      <DiscordAccount linked={loaderData.discord.linked} canLink={loaderData.discord.canLink} changed={searchParams.get("discord")} />
      <p className="text-sm text-mist-400">
        Your passphrase is changed on the <Link to={href("/admin")} className="text-aurora-300 underline underline-offset-4">dashboard</Link>.
      </p>
    </div>
  );
}

/** Who you are in Discord: the account whose presses on the review channel's buttons are yours. */
function DiscordAccount({ linked, canLink, changed }: { linked: string | null; canLink: boolean; changed: string | null }) {
  return (
    <Card className="space-y-4 p-6">
      <div>
        <h2 className="font-display text-2xl text-mist-100">Discord</h2>
        <p className="mt-1 text-mist-300" data-testid="discord-account">
          {linked ? `Linked: Discord user ${linked}. Your presses on the review channel's buttons decide as you.` : "Not linked: the review channel's buttons do not know you."}
        </p>
        {changed === "linked" ? <p role="status" className="mt-1 text-emerald-300">Your Discord account is linked.</p> : null}
        {changed === "unlinked" ? <p role="status" className="mt-1 text-emerald-300">Your Discord account is no longer linked.</p> : null}
      </div>
      {canLink ? (
        <div className="flex flex-wrap gap-2">
          <Form method="post" action={href("/admin/discord-link")}>
            <input type="hidden" name="intent" value="start" />
            <Button type="submit" variant="outline">{linked ? "Link another Discord account" : "Link with Discord"}</Button>
          </Form>
          {linked ? (
            <Form method="post" action={href("/admin/discord-link")}>
              <input type="hidden" name="intent" value="unlink" />
              <Button type="submit" variant="ghost">Unlink</Button>
            </Form>
          ) : null}
        </div>
      ) : (
        <p className="text-sm text-mist-400">An owner sets it on the Team page.</p>
      )}
    </Card>
  );
}
