/**
 * The Connections page: what works and what is missing, then one section per connection, each with
 * its settings (what the environment sets shown read-only; a secret only as 'set' and its last 4
 * characters), 'Test' (tries what is typed, live) and 'Save'.
 */
import { useId } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { fieldClass } from "~/components/ui/field";
import { useOutcomeToast } from "~/components/ui/use-outcome-toast";
import { m } from "~/paraglide/messages";
import type { FeatureState, Named } from "./features";
import type { ConnectionArea, SettingName } from "./setting-fields";
import type { SettingView } from "./settings.server";

export interface ConnectionChoices {
  groups: Named[];
  guilds: Named[];
  channels: Named[];
  roles: Named[];
}

export interface FieldSpec {
  name: SettingName;
  secret?: boolean;
  switch?: boolean;
}

export type ConnectionResult = { ok?: boolean; error?: string; message?: string; area?: ConnectionArea; features?: FeatureState[]; problems?: { name: string; detail: string }[] };

const AREA_TITLE: Record<ConnectionArea, () => string> = {
  vrchat: () => "VRChat",
  discord: () => "Discord",
  telegram: () => "Telegram",
  sheets: () => "Google Sheets",
  mail: m.conn_area_mail,
  switches: m.conn_area_switches,
};

const LABEL: Partial<Record<SettingName, () => string>> = {
  VRCHAT_USERNAME: m.conn_l_vrchat_username,
  VRCHAT_PASSWORD: m.conn_l_vrchat_password,
  VRCHAT_TOTP_SECRET: m.conn_l_vrchat_totp,
  VRCHAT_GROUP_ID: m.conn_l_vrchat_group,
  VRCHAT_CONTACT: m.conn_l_vrchat_contact,
  DISCORD_BOT_TOKEN: m.conn_l_discord_token,
  DISCORD_GUILD_ID: m.conn_l_discord_guild,
  DISCORD_REVIEW_CHANNEL_ID: m.conn_l_discord_review,
  DISCORD_ANNOUNCE_CHANNEL_ID: m.conn_l_discord_announce,
  DISCORD_STAFF_CHANNEL_ID: m.conn_l_discord_staff,
  DISCORD_MEMBER_ROLE_ID: m.conn_l_discord_member_role,
  DISCORD_PUBLIC_KEY: m.conn_l_discord_public_key,
  DISCORD_CLIENT_ID: m.conn_l_discord_client_id,
  DISCORD_CLIENT_SECRET: m.conn_l_discord_client_secret,
  TELEGRAM_BOT_TOKEN: m.conn_l_telegram_token,
  TELEGRAM_CHAT_ID: m.conn_l_telegram_chat,
  GOOGLE_SERVICE_ACCOUNT_JSON: m.conn_l_sheets_key,
  GOOGLE_SHEETS_ID: m.conn_l_sheets_id,
  SMTP_URL: m.conn_l_smtp,
  MAIL_FROM: m.conn_l_mail_from,
  VRCHAT_MEMBERSHIP_ACTIONS: m.conn_l_membership_actions,
  VRCHAT_PUBLISH_EVENTS: m.conn_l_publish_events,
  VRCHAT_OPEN_INSTANCES: m.conn_l_open_instances,
  VRCHAT_READ_JOIN_REQUESTS: m.conn_l_read_join_requests,
};

/** The fields chosen from what the bot can see, when a look found it. */
const CHOICES: Partial<Record<SettingName, keyof ConnectionChoices>> = {
  VRCHAT_GROUP_ID: "groups",
  DISCORD_GUILD_ID: "guilds",
  DISCORD_REVIEW_CHANNEL_ID: "channels",
  DISCORD_ANNOUNCE_CHANNEL_ID: "channels",
  DISCORD_STAFF_CHANNEL_ID: "channels",
  DISCORD_MEMBER_ROLE_ID: "roles",
};

function FeatureLine({ feature }: { feature: FeatureState }) {
  const mark = { works: "✓", missing: "✗", off: "–", unread: "…" }[feature.state];
  const tone = { works: "text-emerald-300", missing: "text-red-300", off: "text-mist-400", unread: "text-mist-400" }[feature.state];
  return (
    <li className="flex gap-2 text-sm" data-feature={feature.key} data-state={feature.state}>
      <span aria-hidden="true" className={`w-4 shrink-0 font-bold ${tone}`}>
        {mark}
      </span>
      <span className={feature.state === "missing" ? "text-mist-100" : "text-mist-300"}>
        {feature.detail ? `${feature.label}: ${feature.detail}` : feature.state === "unread" ? `${feature.label}: ${m.conn_unread()}` : feature.label}
        {feature.state === "works" ? <span className="sr-only"> ({m.conn_works()})</span> : null}
      </span>
    </li>
  );
}

export function FeatureList({ features }: { features: FeatureState[] }) {
  if (features.length === 0) return <p className="text-sm text-mist-400">{m.conn_nothing()}</p>;
  return (
    <ul className="space-y-1">
      {features.map((feature) => (
        <FeatureLine key={feature.key} feature={feature} />
      ))}
    </ul>
  );
}

/** The page's head: every feature that depends on a connection, ✓ or what is missing. */
export function WhatWorks({ features, checkedAt }: { features: FeatureState[]; checkedAt: string | null }) {
  const missing = features.filter((feature) => feature.state === "missing").length;
  const working = features.filter((feature) => feature.state === "works").length;
  return (
    <Card className="p-5">
      <h2 className="font-display text-2xl text-mist-100">{m.conn_what_works()}</h2>
      <p className="mt-1 text-sm text-mist-300">
        {m.conn_summary({ working, missing })} {checkedAt ? m.conn_checked_at({ when: checkedAt }) : null}
      </p>
      <div className="mt-3">
        <FeatureList features={features} />
      </div>
    </Card>
  );
}

function SettingInput({ field, view, choices, disabled, formId }: { field: FieldSpec; view: SettingView; choices: Named[] | null; disabled: boolean; formId: string }) {
  const id = `${formId}-${field.name}`;
  const label = LABEL[field.name]?.() ?? field.name;
  const fromEnvironment = view.from === "environment";
  const hint = fromEnvironment ? m.conn_from_env({ name: field.name }) : field.secret && view.from === "saved" ? (view.value ? m.conn_secret_set({ last: view.value }) : m.conn_secret_set_short()) : null;
  if (field.switch) {
    return (
      <div className="flex items-start gap-2">
        <input id={id} type="checkbox" name={field.name} value="true" defaultChecked={view.value === "true"} disabled={disabled || fromEnvironment} className="mt-1 size-4" />
        <label htmlFor={id} className="text-sm text-mist-100">
          {label}
          {hint ? <span className="block text-xs text-mist-400">{hint}</span> : null}
        </label>
      </div>
    );
  }
  const common = { id, name: field.name, disabled: disabled || fromEnvironment, className: fieldClass, "aria-describedby": hint ? `${id}-hint` : undefined };
  let input;
  if (field.name === "GOOGLE_SERVICE_ACCOUNT_JSON") {
    input = <input {...common} type="file" accept="application/json,.json" />;
  } else if (choices && choices.length > 0 && !field.secret) {
    input = (
      <select {...common} defaultValue={view.value ?? ""}>
        <option value="">{m.conn_choose()}</option>
        {view.value && !choices.some((choice) => choice.id === view.value) ? <option value={view.value}>{view.value}</option> : null}
        {choices.map((choice) => (
          <option key={choice.id} value={choice.id}>
            {choice.name} ({choice.id})
          </option>
        ))}
      </select>
    );
  } else {
    input = (
      <input
        {...common}
        type={field.secret ? "password" : "text"}
        autoComplete={field.secret ? "new-password" : "off"}
        spellCheck={false}
        defaultValue={field.secret ? "" : (view.value ?? "")}
        placeholder={field.secret && view.from === "saved" ? m.conn_keep_secret() : undefined}
      />
    );
  }
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-semibold text-mist-100">
        {label}
      </label>
      {input}
      {field.name === "VRCHAT_GROUP_ID" && choices && choices.length > 0 ? (
        <input name="groupLink" aria-label={m.conn_l_vrchat_group_link()} placeholder={m.conn_l_vrchat_group_link()} disabled={common.disabled} className={`${fieldClass} mt-2`} spellCheck={false} />
      ) : null}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-mist-400">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

function RemoveSecret({ area, name, label }: { area: ConnectionArea; name: SettingName; label: string }) {
  const fetcher = useFetcher<ConnectionResult>();
  useOutcomeToast(fetcher);
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="remove" />
      <input type="hidden" name="area" value={area} />
      <input type="hidden" name="name" value={name} />
      <Button type="submit" variant="ghost" size="sm">
        {m.conn_remove({ what: label })}
      </Button>
    </fetcher.Form>
  );
}

export function ConnectionSection({
  area,
  fields,
  views,
  features,
  choices,
  revision,
  mayChange,
  posted,
  joinRequestsByRules = false,
}: {
  /** The switches' section: whether join requests without an application are decided by the screening rules. */
  joinRequestsByRules?: boolean;
  /** What a form posted without JavaScript answered (the page's action data). */
  posted?: ConnectionResult;
  area: ConnectionArea;
  fields: FieldSpec[];
  views: Record<string, SettingView>;
  features: FeatureState[];
  choices: ConnectionChoices;
  revision: number;
  mayChange: boolean;
}) {
  const fetcher = useFetcher<ConnectionResult>();
  useOutcomeToast(fetcher);
  const formId = useId();
  const busy = fetcher.state !== "idle";
  const answer = fetcher.data ?? (posted?.area === area ? posted : undefined);
  const tested = answer?.area === area && answer.features ? answer.features : null;
  const problems = answer?.area === area ? (answer.problems ?? []) : [];
  const removable = fields.filter((field) => field.secret && views[field.name]?.from === "saved");
  return (
    <Card className="p-5" aria-labelledby={`${formId}-title`}>
      <h2 id={`${formId}-title`} className="font-display text-2xl text-mist-100">
        {AREA_TITLE[area]()}
      </h2>
      {area === "switches" ? null : (
        <div className="mt-2">
          <FeatureList features={tested ?? features} />
          {tested ? <p className="mt-1 text-xs text-mist-400">{m.conn_tested_now()}</p> : null}
        </div>
      )}
      {answer?.area === area && answer.error && problems.length === 0 && fetcher.data === undefined ? (
        <p role="alert" className="mt-3 rounded-lg border border-red-400/40 bg-red-500/10 px-3 py-2 text-sm text-red-200">
          {answer.error}
        </p>
      ) : null}
      {problems.length > 0 ? (
        <ul role="alert" className="mt-3 space-y-1 rounded-lg border border-red-400/40 bg-red-500/10 px-3 py-2 text-sm text-red-200">
          {problems.map((problem) => (
            <li key={problem.name}>
              {LABEL[problem.name as SettingName]?.() ?? problem.name}: {problem.detail}
            </li>
          ))}
        </ul>
      ) : null}
      <fetcher.Form method="post" encType={area === "sheets" ? "multipart/form-data" : undefined} className="mt-4 grid gap-4 md:grid-cols-2">
        <input type="hidden" name="area" value={area} />
        <input type="hidden" name="revision" value={revision} />
        {fields.map((field) => (
          <SettingInput key={field.name} field={field} view={views[field.name]!} choices={CHOICES[field.name] ? choices[CHOICES[field.name]!] : null} disabled={!mayChange} formId={formId} />
        ))}
        {area === "vrchat" ? (
          <div className="space-y-1">
            <label htmlFor={`${formId}-code`} className="block text-sm font-semibold text-mist-100">
              {m.conn_l_vrchat_code()}
            </label>
            <input id={`${formId}-code`} name="oneTimeCode" inputMode="numeric" pattern="[0-9]{6}" maxLength={6} autoComplete="one-time-code" disabled={!mayChange} className={fieldClass} />
            <p className="text-xs text-mist-400">{m.conn_code_hint()}</p>
          </div>
        ) : null}
        {area === "sheets" ? (
          <div className="space-y-1">
            <label htmlFor={`${formId}-link`} className="block text-sm font-semibold text-mist-100">
              {m.conn_l_sheets_link()}
            </label>
            <input id={`${formId}-link`} name="sheetLink" type="url" disabled={!mayChange} className={fieldClass} />
          </div>
        ) : null}
        {area === "switches" ? (
          <div className="flex items-start gap-2">
            <input type="hidden" name="joinRequestsShown" value="yes" />
            <input id={`${formId}-join-rules`} type="checkbox" name="joinRequestsByRules" value="yes" defaultChecked={joinRequestsByRules} disabled={!mayChange} className="mt-1 size-4" />
            <label htmlFor={`${formId}-join-rules`} className="text-sm text-mist-100">
              {m.conn_join_rules()}
            </label>
          </div>
        ) : null}
        {mayChange ? (
          <div className="flex flex-wrap gap-2 md:col-span-2">
            {area === "switches" ? null : (
              <Button type="submit" name="intent" value="test" variant="outline" disabled={busy} aria-busy={busy && fetcher.formData?.get("intent") === "test"}>
                {m.conn_test()}
              </Button>
            )}
            <Button type="submit" name="intent" value="save" disabled={busy} aria-busy={busy && fetcher.formData?.get("intent") === "save"}>
              {m.conn_save()}
            </Button>
          </div>
        ) : null}
      </fetcher.Form>
      {mayChange && removable.length > 0 ? (
        <div className="mt-3 flex flex-wrap gap-2">
          {removable.map((field) => (
            <RemoveSecret key={field.name} area={area} name={field.name} label={LABEL[field.name]?.() ?? field.name} />
          ))}
        </div>
      ) : null}
    </Card>
  );
}
