import { APIError } from "better-auth/api";
import { eq } from "drizzle-orm";
import { data, Form, href, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { z } from "zod";
import { Notice } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { appContext, type AppContext } from "~/context";
import { endOtherSessions } from "~/features/accounts/accounts.server";
import { TOO_MANY_CHECKS, withinPassphraseChecks } from "~/features/accounts/sign-in-guard.server";
import { describeEnrolment, typedCode, type Enrolment } from "~/features/accounts/two-factor.server";
import { DiscordAccount, EnrolmentStep, Field, LanguageChoice, RecoveryCodes } from "~/features/accounts/security-parts";
import { SignOutButton } from "~/features/sanctum/admin-screens";
import { getMemberDiscord } from "~/features/accounts/team.server";
import { requireStaff } from "~/routes/staff-guard.server";
import { withAuthCookies } from "~/utils/auth.server";
import { log } from "~/utils/log.server";
import { profiles } from "~/db/schema";
import { m } from "~/paraglide/messages";
import type { Route } from "./+types/_site.admin.security";

const WRONG_PASSWORD = m.sec_wrong_password;
const WRONG_CODE = m.sec_wrong_code;
/** Password and code checks on this page, per admin: enough for typos, too few for guessing. */

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context);
  const { config, db, discordOAuth } = context.get(appContext);
  const discordUserId = await getMemberDiscord(db, viewer.id);
  const languages = config.SITE_LANGUAGES;
  return {
    twoFactorEnabled: viewer.twoFactorEnabled,
    required: config.REQUIRE_ADMIN_2FA,
    discord: { linked: discordUserId, canLink: discordOAuth !== null },
    languages,
    language: viewer.language && languages.includes(viewer.language) ? viewer.language : "",
  };
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
  const { auth, db, config } = context.get(appContext);
  const form = await request.formData().catch(() => null);
  // One's language needs no passphrase: it changes nothing but how the Sanctum reads.
  if (form?.get("intent") === "language") return saveLanguage(db, viewer.id, form.get("language"), config.SITE_LANGUAGES);
  const parsed = SecurityActionSchema.safeParse(form ? Object.fromEntries(form) : {});
  if (!parsed.success) return data<SecurityResult>({ error: m.sec_fill_every_field() }, { status: 400 });
  const change = parsed.data;
  if (!(await withinPassphraseChecks(db, viewer.id, new Date()))) return data<SecurityResult>({ error: TOO_MANY_CHECKS() }, { status: 429 });
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
      if (!enrolment) return data<SecurityResult>({ error: m.sec_start_again() }, { status: 400 });
      try {
        const answer = await auth.api.verifyTOTP({ body: { code: typedCode(change.code) }, headers, returnHeaders: true });
        // Whoever else holds a session of this account (taken with the passphrase alone) is out now.
        if (!(await endOtherSessions(db, viewer.id, answer.headers))) log.warn("two-factor turned on, but its new session was not found: other sessions kept", { userId: viewer.id });
        log.info("an admin turned on two-factor sign-in", { userId: viewer.id });
        return data<SecurityResult>({ message: m.sec_2fa_on_message() }, { headers: withAuthCookies(answer.headers) });
      } catch (error) {
        if (error instanceof APIError) return data<SecurityResult>({ stage: "confirm", enrolment, error: WRONG_CODE() }, { status: 400 });
        throw error;
      }
    }
    if (change.intent === "disable") {
      // The password and a current code: a stolen session alone cannot turn it off.
      try {
        await auth.api.verifyTOTP({ body: { code: typedCode(change.code) }, headers });
      } catch (error) {
        if (error instanceof APIError) return data<SecurityResult>({ error: WRONG_CODE() }, { status: 400 });
        throw error;
      }
      const answer = await auth.api.disableTwoFactor({ body: { password: change.password }, headers, returnHeaders: true });
      log.info("an admin turned off two-factor sign-in", { userId: viewer.id });
      return data<SecurityResult>({ message: m.sec_2fa_off_message() }, { headers: withAuthCookies(answer.headers) });
    }
    const generated = await auth.api.generateBackupCodes({ body: { password: change.password }, headers });
    return {
      stage: "recovery-codes",
      recoveryCodes: generated.backupCodes,
      message: m.sec_new_codes_message(),
    } satisfies SecurityResult;
  } catch (error) {
    if (error instanceof APIError) {
      const message = error.body?.code === "INVALID_PASSWORD" ? WRONG_PASSWORD() : error.message;
      return data<SecurityResult>({ error: message }, { status: 400 });
    }
    log.error("a two-factor change failed", { error, intent: change.intent });
    return data<SecurityResult>({ error: m.unexpected_error() }, { status: 503 });
  }
}

/**
 * The staff member's language for the Sanctum: one the site offers, or '' for the site's default.
 * Answered with a new page load, so that everything (this page included) reads in it at once.
 */
async function saveLanguage(db: AppContext["db"], id: string, asked: FormDataEntryValue | null, languages: readonly string[]) {
  const language = typeof asked === "string" ? asked : "";
  if (language !== "" && !languages.includes(language)) return data<SecurityResult>({ error: m.language_not_offered() }, { status: 400 });
  await db.update(profiles).set({ language: language || null, updatedAt: new Date() }).where(eq(profiles.id, id));
  return redirect(`${href("/admin/security")}?saved=language`, 303);
}

export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

export function meta() {
  return [{ title: m.sec_title() }, { name: "robots", content: "noindex" }];
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
        <h1 className="font-display text-4xl text-mist-100">{m.sec_heading()}</h1>
        <SignOutButton />
      </div>
      {!enabled && (loaderData.required || searchParams.has("required")) ? (
        <Notice>
          {m.sec_required()}
        </Notice>
      ) : null}
      <Card className="space-y-6 p-6">
        <div>
          <h2 className="font-display text-2xl text-mist-100">{m.sec_2fa_heading()}</h2>
          <p className="mt-1 text-mist-300">
            {enabled ? m.sec_2fa_on() : m.sec_2fa_off()}
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
              <h3 className="font-semibold text-mist-100">{m.sec_turn_it_off()}</h3>
              <input type="hidden" name="intent" value="disable" />
              <Field name="password" label={m.password_current()} autoComplete="current-password" />
              <Field name="code" label={m.sec_code_from_app()} type="text" autoComplete="one-time-code" />
              <Button type="submit" variant="outline" disabled={busy}>{m.sec_turn_off()}</Button>
            </Form>
            <Form method="post" className="space-y-4">
              <h3 className="font-semibold text-mist-100">{m.sec_new_codes()}</h3>
              <input type="hidden" name="intent" value="recovery-codes" />
              <Field name="password" label={m.password_current()} autoComplete="current-password" hint={m.sec_new_codes_hint()} />
              <Button type="submit" variant="outline" disabled={busy}>{m.sec_make_codes()}</Button>
            </Form>
          </div>
        ) : (
          <Form method="post" className="max-w-sm space-y-4">
            <input type="hidden" name="intent" value="enable" />
            <Field name="password" label={m.password_current()} autoComplete="current-password" />
            <Button type="submit" disabled={busy}>{m.sec_set_up()}</Button>
          </Form>
        )}
      </Card>
      {loaderData.languages.length > 1 ? (
        <LanguageChoice languages={loaderData.languages} chosen={loaderData.language} saved={searchParams.get("saved") === "language"} />
      ) : null}
      <DiscordAccount linked={loaderData.discord.linked} canLink={loaderData.discord.canLink} changed={searchParams.get("discord")} />
      <p className="text-sm text-mist-400">
        {m.sec_passphrase_changed_on()}
        <Link to={href("/admin")} className="text-aurora-300 underline underline-offset-4">
          {m.sec_dashboard()}
        </Link>
        {m.sec_passphrase_changed_after()}
      </p>
    </div>
  );
}

