/**
 * The Security page's parts: two-factor sign-in's steps (the authenticator's enrolment, the recovery
 * codes), the staff member's language, and their own Discord account. Plain forms, posting to the page.
 */
import { useId } from "react";
import { Form, href } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { fieldClass } from "~/components/ui/field";
import { m } from "~/paraglide/messages";
import { LANGUAGE_NAMES } from "~/utils/language";
import type { Enrolment } from "./two-factor.server";

export function Field({ name, label, type = "password", autoComplete, hint }: { name: string; label: string; type?: string; autoComplete: string; hint?: string }) {
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

export function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div className="space-y-2">
      <h3 className="font-semibold text-mist-100">{m.sec_recovery_codes()}</h3>
      <p className="text-sm text-mist-300">
        {m.sec_recovery_keep()}
      </p>
      <ol aria-label={m.sec_recovery_codes()} className="grid grid-cols-2 gap-2 font-mono text-mist-100 sm:grid-cols-5">
        {codes.map((code) => (
          <li key={code} className="rounded-lg bg-night-950/70 px-2 py-1 text-center">{code}</li>
        ))}
      </ol>
    </div>
  );
}

export function EnrolmentStep({ enrolment, recoveryCodes, error }: { enrolment: Enrolment; recoveryCodes?: string[]; error?: string }) {
  const { size, path } = enrolment.qr;
  return (
    <div className="space-y-6">
      <p className="text-mist-300">
        {m.sec_scan()}
      </p>
      <div className="flex flex-wrap items-start gap-6">
        <svg
          role="img"
          aria-label={m.sec_qr_label()}
          viewBox={`-4 -4 ${size + 8} ${size + 8}`}
          className="size-48 shrink-0 rounded-lg bg-white"
          shapeRendering="crispEdges"
        >
          <path d={path} fill="#000" />
        </svg>
        <div className="min-w-0 space-y-2">
          <p className="text-sm font-semibold text-mist-100">{m.sec_key()}</p>
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
        <Field name="code" label={m.sec_code_from_app()} type="text" autoComplete="one-time-code" />
        <Button type="submit">{m.sec_turn_on()}</Button>
      </Form>
    </div>
  );
}

/** 'Language': how the Sanctum reads for this staff member (a plain form: it works without JavaScript). */
export function LanguageChoice({ languages, chosen, saved }: { languages: readonly string[]; chosen: string; saved: boolean }) {
  const id = useId();
  return (
    <Card className="space-y-4 p-6">
      <div>
        <h2 className="font-display text-2xl text-mist-100">{m.sec_language_heading()}</h2>
        <p className="mt-1 text-mist-300">{m.sec_language_text()}</p>
        {saved ? (
          <p role="status" className="mt-1 text-emerald-300">
            {m.sec_language_saved()}
          </p>
        ) : null}
      </div>
      <Form method="post" className="flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="language" />
        <label htmlFor={id} className="sr-only">
          {m.sec_language_heading()}
        </label>
        <select id={id} name="language" defaultValue={chosen} className={`${fieldClass} w-auto`}>
          <option value="">{m.sec_language_default({ language: LANGUAGE_NAMES[languages[0]!] ?? languages[0]! })}</option>
          {languages.map((language) => (
            <option key={language} value={language} lang={language}>
              {LANGUAGE_NAMES[language] ?? language}
            </option>
          ))}
        </select>
        <Button type="submit" variant="outline">
          {m.sec_language_save()}
        </Button>
      </Form>
    </Card>
  );
}

/** Who you are in Discord: the account whose presses on the review channel's buttons are yours. */
export function DiscordAccount({ linked, canLink, changed }: { linked: string | null; canLink: boolean; changed: string | null }) {
  return (
    <Card className="space-y-4 p-6">
      <div>
        <h2 className="font-display text-2xl text-mist-100">{m.sec_discord()}</h2>
        <p className="mt-1 text-mist-300" data-testid="discord-account">
          {linked ? m.sec_discord_linked({ user: linked }) : m.sec_discord_not_linked()}
        </p>
        {changed === "linked" ? <p role="status" className="mt-1 text-emerald-300">{m.sec_discord_now_linked()}</p> : null}
        {changed === "unlinked" ? <p role="status" className="mt-1 text-emerald-300">{m.sec_discord_now_unlinked()}</p> : null}
      </div>
      {canLink ? (
        <div className="flex flex-wrap gap-2">
          <Form method="post" action={href("/admin/discord-link")}>
            <input type="hidden" name="intent" value="start" />
            <Button type="submit" variant="outline">{linked ? m.sec_discord_link_another() : m.sec_discord_link()}</Button>
          </Form>
          {linked ? (
            <Form method="post" action={href("/admin/discord-link")}>
              <input type="hidden" name="intent" value="unlink" />
              <Button type="submit" variant="ghost">{m.sec_discord_unlink()}</Button>
            </Form>
          ) : null}
        </div>
      ) : (
        <p className="text-sm text-mist-400">{m.sec_discord_owner_sets()}</p>
      )}
    </Card>
  );
}
