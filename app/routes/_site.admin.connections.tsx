import { data, Link } from "react-router";
import { appContext } from "~/context";
import { ConnectionSection, WhatWorks, type ConnectionChoices, type ConnectionResult } from "~/features/connections/connections-page";
import { featureStates } from "~/features/connections/features";
import { AREA_FIELDS, CONNECTION_AREAS, type ConnectionArea, type SettingName } from "~/features/connections/setting-fields";
import {
  effectiveConfig,
  environmentNames,
  readStoredSettings,
  saveSettings,
  settingViews,
  SettingsConflict,
  SettingsRefused,
  configProblems,
} from "~/features/connections/settings.server";
import { parseServiceAccountKey } from "~/features/notifications/google-sheets.server";
import { getSiteSettings } from "~/features/accounts/site-settings.server";
import { checkConnections, lastLooks, lookAt } from "~/flows/connection-checks.server";
import { chooseJoinRequestHandling } from "~/flows/join-requests.server";
import { m } from "~/paraglide/messages";
import { requireStaff } from "~/routes/staff-guard.server";
import { ConfigError } from "~/utils/env.server";
import { log } from "~/utils/log.server";
import { hitRateLimit } from "~/utils/rate-limit.server";
import type { Route } from "./+types/_site.admin.connections";

/** 'Test' is a person's press, never a loop: at most this many a connection in ten minutes. */
const TESTS_PER_TEN_MINUTES = 10;

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context, "connections");
  const { db, config, settings } = context.get(appContext);
  const [stored, looks, site] = await Promise.all([readStoredSettings(db, settings.key), lastLooks(db), getSiteSettings(db)]);
  const features = featureStates(config, looks.facts);
  const { vrchat, discord } = looks.facts;
  const choices: ConnectionChoices = {
    groups: vrchat?.ok ? vrchat.groups : [],
    guilds: discord?.ok ? discord.guilds : [],
    channels: discord?.ok ? discord.channels.map((channel) => ({ id: channel.id, name: `#${channel.name}` })) : [],
    roles: discord?.ok ? discord.roles.filter((role) => !role.managed).map((role) => ({ id: role.id, name: `@${role.name}` })) : [],
  };
  const times = Object.values(looks.checkedAt).map((at) => at.getTime());
  return data(
    {
      views: settingViews(settings.source, stored.values, config),
      revision: stored.revision,
      features,
      choices,
      // Written as the dashboard writes its times (UTC), the same on the server and in the browser.
      checkedAt: times.length > 0 ? `${new Date(Math.min(...times)).toISOString().slice(0, 16).replace("T", " ")} UTC` : null,
      mayChange: viewer.twoFactorEnabled,
      joinRequestsByRules: site.joinRequestsByRules,
      twoFactorNote: !viewer.twoFactorEnabled,
      botNotes: vrchat?.ok && !vrchat.twoFactor ? [m.conn_vrchat_no_2fa()] : [],
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

const isArea = (value: unknown): value is ConnectionArea => typeof value === "string" && (CONNECTION_AREAS as readonly string[]).includes(value);

const GROUP_ID = /grp_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const SHEET_LINK = /\/spreadsheets\/d\/([A-Za-z0-9_-]{20,})/;

/** A service-account key file as uploaded: JSON of a few KB, with what a key has. */
const MAX_KEY_BYTES = 64 * 1024;

/** The section's values as typed: absent (a disabled field, a blank secret) keeps what is saved; blank clears it. */
async function typedValues(area: ConnectionArea, form: FormData, environment: Set<SettingName>) {
  const values: Partial<Record<SettingName, string | null>> = {};
  const problems: { name: string; detail: string }[] = [];
  for (const field of AREA_FIELDS[area]) {
    if (environment.has(field.name) && !form.has(field.name)) continue;
    const raw = form.get(field.name);
    if (field.switch) {
      values[field.name] = raw === "true" ? "true" : "false";
      continue;
    }
    if (field.name === "GOOGLE_SERVICE_ACCOUNT_JSON") {
      if (!(raw instanceof File) || raw.size === 0) continue;
      if (raw.size > MAX_KEY_BYTES) {
        problems.push({ name: field.name, detail: m.conn_key_too_large() });
        continue;
      }
      const text = await raw.text();
      try {
        parseServiceAccountKey(text, m.conn_key_file());
        values[field.name] = text;
      } catch (error) {
        problems.push({ name: field.name, detail: error instanceof Error ? error.message : String(error) });
      }
      continue;
    }
    if (field.name === "VRCHAT_GROUP_ID" && (raw !== null || form.has("groupLink"))) {
      // Chosen from the bot's groups, or given by its id or link (which wins).
      const given = String(form.get("groupLink") ?? "").trim() || String(raw ?? "").trim();
      values[field.name] = given ? (GROUP_ID.exec(given)?.[0].toLowerCase() ?? given.slice(0, 200)) : null;
      continue;
    }
    if (raw === null) continue;
    const text = String(raw).trim().slice(0, 4096);
    if (field.secret && text === "") continue;
    values[field.name] = text === "" ? null : text;
  }
  if (area === "sheets") {
    const link = String(form.get("sheetLink") ?? "").trim();
    if (link) {
      const id = SHEET_LINK.exec(link)?.[1];
      if (id) values.GOOGLE_SHEETS_ID = id;
      else problems.push({ name: "GOOGLE_SHEETS_ID", detail: m.conn_sheet_link() });
    }
  }
  return { values, problems };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "connections");
  const { db, auth, settings } = context.get(appContext);
  if (!viewer.twoFactorEnabled) return data({ error: m.conn_needs_2fa() }, { status: 403 });
  const form = await request.formData().catch(() => null);
  const area = form?.get("area");
  if (!form || !isArea(area)) return data({ error: m.unknown_action() }, { status: 400 });
  const intent = form.get("intent");
  const secret = (await auth.$context).secret;
  const environment = environmentNames(settings.source);
  const seenRevision = Number(form.get("revision"));
  const actor = { id: viewer.id, username: viewer.username };
  const lookable = area === "switches" ? null : area;
  try {
    if (intent === "remove") {
      const name = form.get("name");
      const field = AREA_FIELDS[area].find((one) => one.name === name && one.secret);
      if (!field) return data({ error: m.unknown_action() }, { status: 400 });
      const stored = await readStoredSettings(db, settings.key);
      await saveSettings(db, { key: settings.key, source: settings.source }, { area, values: { [field.name]: null }, seenRevision: stored.revision, actor });
      await settings.refresh();
      return { ok: true as const, message: m.conn_removed() };
    }
    const { values, problems } = await typedValues(area, form, environment);
    if (problems.length > 0) return data({ error: m.conn_not_saved(), area, problems }, { status: 400 });
    if (intent === "test") {
      if (!lookable) return data({ error: m.unknown_action() }, { status: 400 });
      const limit = await hitRateLimit(db, { key: `connections-test:${area}`, limit: TESTS_PER_TEN_MINUTES, windowMs: 10 * 60_000, now: new Date() });
      if (!limit.allowed) return data({ error: m.conn_test_wait({ seconds: Math.ceil(limit.retryAfterMs / 1000) }) }, { status: 429 });
      const stored = await readStoredSettings(db, settings.key);
      const candidate = { ...stored.values };
      for (const [name, value] of Object.entries(values)) {
        if (value === null || value === undefined) delete candidate[name as SettingName];
        else candidate[name as SettingName] = value;
      }
      let config;
      try {
        config = effectiveConfig(settings.source, candidate);
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        return data({ error: m.conn_not_saved(), area, problems: configProblems(error) }, { status: 400 });
      }
      const code = oneTimeCode(form);
      const facts = await lookAt(lookable, { db, secret }, config, { oneTimeCode: code });
      if (!facts) return data({ error: m.conn_nothing_to_test(), area }, { status: 400 });
      const features = featureStates(config, { [lookable]: facts }).filter((feature) => feature.area === lookable);
      return { ok: facts.ok, area, features, message: facts.ok ? m.conn_test_done() : undefined, error: "error" in facts ? facts.error : undefined };
    }
    if (intent !== "save") return data({ error: m.unknown_action() }, { status: 400 });
    const saved = await saveSettings(db, { key: settings.key, source: settings.source }, { area, values, seenRevision: Number.isFinite(seenRevision) ? seenRevision : 0, actor });
    // The one switch kept with the site's own settings: join requests without an application (flows/join-requests).
    let joinRulesChanged = false;
    if (area === "switches" && form.get("joinRequestsShown") === "yes") {
      const byRules = form.get("joinRequestsByRules") === "yes";
      if ((await getSiteSettings(db)).joinRequestsByRules !== byRules) {
        await chooseJoinRequestHandling(db, byRules, actor, new Date());
        joinRulesChanged = true;
      }
    }
    const stored = await readStoredSettings(db, settings.key);
    const config = effectiveConfig(settings.source, stored.values);
    // A 6-digit code signs the bot in once, before the new connections start asking VRChat.
    const code = area === "vrchat" ? oneTimeCode(form) : undefined;
    if (code) await lookAt("vrchat", { db, secret }, config, { oneTimeCode: code });
    await settings.refresh();
    // What works now: the connection looked at with what was saved (the switches are VRChat's).
    await checkConnections({ db, secret }, config, saved.revision, [lookable ?? "vrchat"]);
    return { ok: true as const, message: saved.changed.length > 0 || joinRulesChanged ? m.conn_saved() : m.conn_unchanged() };
  } catch (error) {
    if (error instanceof SettingsConflict) return data({ error: m.conn_conflict(), area }, { status: 409 });
    if (error instanceof SettingsRefused) {
      const fromEnvironment = error.problems.some((problem) => problem.problem === "environment");
      return data(
        { error: m.conn_not_saved(), area, problems: error.problems.map((problem) => ({ name: problem.name, detail: problem.problem === "environment" ? m.conn_env_refused({ name: problem.name }) : problem.detail })) },
        { status: fromEnvironment ? 409 : 400 },
      );
    }
    log.error("the connections could not be changed", { error, area });
    return data({ error: m.unexpected_error(), area }, { status: 503 });
  }
}

function oneTimeCode(form: FormData): string | undefined {
  const code = String(form.get("oneTimeCode") ?? "").replace(/\s/g, "");
  return /^\d{6}$/.test(code) ? code : undefined;
}

export function meta() {
  return [{ title: m.conn_title() }];
}

export default function ConnectionsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { views, revision, features, choices, checkedAt, mayChange, twoFactorNote, botNotes, joinRequestsByRules } = loaderData;
  return (
    <div className="space-y-6">
      <header>
        <h1 className="font-display text-4xl text-mist-100">{m.conn_title()}</h1>
        <p className="mt-1 max-w-3xl text-mist-300">{m.conn_intro()}</p>
      </header>
      {twoFactorNote ? (
        <p role="status" className="rounded-lg border border-ember-400/40 bg-ember-400/10 px-3 py-2 text-sm text-ember-200">
          {m.conn_needs_2fa()} <Link to="/admin/security" className="underline">{m.conn_security_link()}</Link>
        </p>
      ) : null}
      <WhatWorks features={features} checkedAt={checkedAt} />
      {CONNECTION_AREAS.map((area) => (
        <ConnectionSection
          key={area}
          area={area}
          fields={AREA_FIELDS[area]}
          views={views}
          features={features.filter((feature) => feature.area === area)}
          choices={choices}
          revision={revision}
          mayChange={mayChange}
          posted={actionData as ConnectionResult | undefined}
          joinRequestsByRules={joinRequestsByRules}
        />
      ))}
      {botNotes.map((note) => (
        <p key={note} className="text-sm text-ember-200">
          {note}
        </p>
      ))}
    </div>
  );
}
