/**
 * The connections' settings an owner saves on the Connections page, beside the server's environment:
 * each is one of the environment's variables (utils/env.server), the environment's own value wins,
 * and the two together are checked as the environment alone is at a start. Secrets are sealed at
 * rest and never read back to a page: only whether they are set and their last 4 characters.
 */
import { eq, inArray } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { connectionSettings, settingsRevision, teamHistory } from "~/db/schema";
import { ConfigError, loadConfig, type Config } from "~/utils/env.server";
import { log } from "~/utils/log.server";
import { isSealed, seal, sealingKey, unseal } from "~/utils/sealed.server";
import { AREA_FIELDS, type ConnectionArea, type SettingName } from "./setting-fields";

export { AREA_FIELDS, CONNECTION_AREAS, type ConnectionArea, type SettingName } from "./setting-fields";

const FIELDS = Object.values(AREA_FIELDS).flat();
const SETTABLE = new Set<string>(FIELDS.map((field) => field.name));
const SECRET = new Set<string>(FIELDS.filter((field) => field.secret).map((field) => field.name));

/** The environment's own values that a saved setting may not replace (set, not blank). */
export function environmentNames(source: Record<string, string | undefined>): Set<SettingName> {
  return new Set(FIELDS.map((field) => field.name).filter((name) => (source[name] ?? "").trim() !== ""));
}

export interface StoredSettings {
  revision: number;
  values: Partial<Record<SettingName, string>>;
}

export const settingsSealKey = (secret: string) => sealingKey(secret, "connection settings");

/** The settings' revision: every process compares it with the one it runs with. */
export async function settingsRevisionNow(db: Database): Promise<number> {
  const [row] = await db.select({ revision: settingsRevision.revision }).from(settingsRevision);
  return row?.revision ?? 0;
}

/** The saved settings, opened. A secret that no longer opens (the site's secret changed) reads as unset. */
export async function readStoredSettings(db: Database, key: Buffer): Promise<StoredSettings> {
  const [revision, rows] = await Promise.all([settingsRevisionNow(db), db.select().from(connectionSettings)]);
  const values: StoredSettings["values"] = {};
  for (const row of rows) {
    if (!SETTABLE.has(row.key)) continue;
    if (row.secret) {
      const opened = isSealed(row.value) ? unseal(key, row.value) : null;
      if (opened === null) {
        log.warn("a saved connection secret could not be decrypted (AUTH_SECRET changed?): enter it again on the Connections page", { setting: row.key });
        continue;
      }
      values[row.key as SettingName] = opened;
    } else {
      values[row.key as SettingName] = row.value;
    }
  }
  return { revision, values };
}

/** The configuration the site runs with: the environment, and what was saved where it says nothing. */
export function effectiveConfig(source: Record<string, string | undefined>, stored: StoredSettings["values"]): Config {
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value.trim() !== ""));
  return loadConfig({ ...stored, ...present });
}

/** How a saved secret is shown: its last 4 characters, never more (and none of a short one). */
export const lastFour = (value: string) => (value.length >= 12 ? value.slice(-4) : "");

/** What the page may show of one setting. */
export type SettingView =
  | { name: SettingName; from: "environment"; value: string | null }
  | { name: SettingName; from: "saved"; value: string | null }
  | { name: SettingName; from: "unset"; value: string | null };

/**
 * Each setting as the page shows it: a secret never (only 'set' and its last 4 characters). Given the
 * site's configuration, a switch nobody set shows what the site does without it (its default), not 'off'.
 */
export function settingViews(source: Record<string, string | undefined>, stored: StoredSettings["values"], config?: Record<string, unknown>): Record<string, SettingView> {
  const environment = environmentNames(source);
  const views: Record<string, SettingView> = {};
  for (const field of FIELDS) {
    const { name } = field;
    const raw = environment.has(name) ? source[name]!.trim() : stored[name];
    const shown = raw === undefined ? null : field.secret ? lastFour(raw) : raw;
    const unset = field.switch && config ? String(config[name]) : null;
    views[name] = environment.has(name) ? { name, from: "environment", value: shown } : raw === undefined ? { name, from: "unset", value: unset } : { name, from: "saved", value: shown };
  }
  return views;
}

/** Each variable a configuration error names, with what is wrong with it (the lines of ConfigError's message). */
export function configProblems(error: ConfigError): { name: string; detail: string }[] {
  return error.message
    .split("\n")
    .slice(1)
    .map((line) => /^\s*([A-Z_0-9]+): (.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ name: match[1]!, detail: match[2]! }));
}

export class SettingsConflict extends Error {
  override name = "SettingsConflict";
}

/** A setting that cannot be saved: which one, and why (in the environment's own words). */
export interface SettingProblem {
  name: string;
  problem: "environment" | "invalid";
  detail: string;
}

export class SettingsRefused extends Error {
  override name = "SettingsRefused";
  readonly problems: SettingProblem[];
  constructor(problems: SettingProblem[]) {
    super(problems.map((p) => `${p.name}: ${p.detail}`).join("; "));
    this.problems = problems;
  }
}

export interface SettingsChange {
  area: ConnectionArea;
  /** A new value; null removes the saved one; absent keeps it (a secret's blank field). */
  values: Partial<Record<SettingName, string | null>>;
  /** The revision the owner's page was read at. */
  seenRevision: number;
  actor: { id: string; username: string };
}

/**
 * Saves one section's settings: refused when the environment sets one of them, when another owner
 * changed this section since the page was read, or when the result would not start the site; the
 * settings and the team's history (never a secret's value) are written together, and the revision
 * moved on (each process then takes them).
 */
export async function saveSettings(
  db: Database,
  { key, source }: { key: Buffer; source: Record<string, string | undefined> },
  change: SettingsChange,
): Promise<{ revision: number; changed: string[] }> {
  const fields = AREA_FIELDS[change.area];
  const environment = environmentNames(source);
  const given = fields.filter((field) => change.values[field.name] !== undefined);
  const fromEnvironment = given.filter((field) => environment.has(field.name) && change.values[field.name] !== null);
  if (fromEnvironment.length > 0) {
    throw new SettingsRefused(fromEnvironment.map((field) => ({ name: field.name, problem: "environment", detail: `set in the server's environment (${field.name}): change it there` })));
  }
  const names = given.filter((field) => !environment.has(field.name)).map((field) => field.name);
  return db.transaction(async (tx) => {
    await tx.insert(settingsRevision).values({ id: 1, revision: 0 }).onConflictDoNothing();
    const [{ revision }] = (await tx.select({ revision: settingsRevision.revision }).from(settingsRevision).where(eq(settingsRevision.id, 1)).for("update")) as [{ revision: number }];
    const sectionNames = fields.map((field) => field.name);
    const rows = await tx.select().from(connectionSettings).where(inArray(connectionSettings.key, sectionNames));
    if (rows.some((row) => row.revision > change.seenRevision)) {
      throw new SettingsConflict("another owner changed these settings since this page was read");
    }
    const all = await tx.select().from(connectionSettings);
    const current: Record<string, string> = {};
    for (const row of all) {
      const value = row.secret ? (isSealed(row.value) ? unseal(key, row.value) : null) : row.value;
      if (value !== null) current[row.key] = value;
    }
    const next = { ...current };
    const changed: string[] = [];
    for (const name of names) {
      const value = change.values[name];
      const cleaned = value === null || value === undefined ? null : value.trim();
      if (cleaned === null || cleaned === "") {
        if (next[name] !== undefined) changed.push(SECRET.has(name) ? `${name} removed` : `${name} cleared`);
        delete next[name];
      } else if (next[name] !== cleaned) {
        changed.push(SECRET.has(name) ? `${name} set${lastFour(cleaned) ? ` (…${lastFour(cleaned)})` : ""}` : `${name} = ${cleaned}`);
        next[name] = cleaned;
      }
    }
    if (changed.length === 0) return { revision, changed };
    try {
      effectiveConfig(source, next);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      const problems = configProblems(error).map((problem) => ({ ...problem, problem: "invalid" as const }));
      throw new SettingsRefused(problems.length > 0 ? problems : [{ name: change.area, problem: "invalid", detail: error.message }]);
    }
    const nextRevision = revision + 1;
    for (const name of names) {
      if (next[name] === undefined) {
        await tx.delete(connectionSettings).where(eq(connectionSettings.key, name));
      } else if (next[name] !== current[name]) {
        const secret = SECRET.has(name);
        const value = secret ? seal(key, next[name]) : next[name];
        const row = { key: name, value, secret, revision: nextRevision, updatedAt: new Date(), updatedBy: change.actor.id };
        await tx.insert(connectionSettings).values(row).onConflictDoUpdate({ target: connectionSettings.key, set: row });
      }
    }
    await tx.update(settingsRevision).set({ revision: nextRevision, changedAt: new Date() }).where(eq(settingsRevision.id, 1));
    await tx.insert(teamHistory).values({ actorId: change.actor.id, actorName: change.actor.username, change: `changed the connections (${change.area}): ${changed.join(", ")}` });
    return { revision: nextRevision, changed };
  });
}
