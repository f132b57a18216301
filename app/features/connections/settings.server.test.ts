import { afterAll, beforeAll, expect, it } from "vitest";
import { connectionSettings, profiles, teamHistory } from "~/db/schema";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { effectiveConfig, readStoredSettings, saveSettings, settingsRevisionNow, settingsSealKey, settingViews, SettingsConflict, SettingsRefused } from "./settings.server";

const TOKEN = "telegram-bot-token-0123456789:secretpart";
const actor = { id: "00000000-0000-4000-8000-000000000001", username: "Oak" };

describeEachDatabase("the connections' saved settings", (kind) => {
  let database: TestDatabase;
  const key = settingsSealKey("a-test-secret-that-is-long-enough-1234");
  const source = { MAIL_FROM: "Dwell <hello@dwell.example>" };
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await database.db.insert(profiles).values({ id: actor.id, username: actor.username, email: "oak@dwell.example", role: "owner" });
  });
  afterAll(() => database.close());
  const deps = () => ({ key, source });

  it("keeps a secret sealed at rest, shows only its last 4 characters, and records the change without it", async () => {
    const saved = await saveSettings(database.db, deps(), { area: "telegram", values: { TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_CHAT_ID: "-1001" }, seenRevision: 0, actor });
    expect(saved.revision).toBe(1);
    const rows = await database.db.select().from(connectionSettings);
    const token = rows.find((row) => row.key === "TELEGRAM_BOT_TOKEN")!;
    expect(token.secret).toBe(true);
    expect(token.value).not.toContain("secretpart");
    expect(rows.find((row) => row.key === "TELEGRAM_CHAT_ID")!.value).toBe("-1001");
    const stored = await readStoredSettings(database.db, key);
    expect(stored.values.TELEGRAM_BOT_TOKEN).toBe(TOKEN);
    const views = settingViews(source, stored.values);
    expect(views.TELEGRAM_BOT_TOKEN).toEqual({ name: "TELEGRAM_BOT_TOKEN", from: "saved", value: "part" });
    expect(JSON.stringify(views)).not.toContain("secret");
    const history = await database.db.select().from(teamHistory);
    expect(history.map((row) => row.change).join("\n")).toContain("TELEGRAM_BOT_TOKEN set (…part)");
    expect(history.map((row) => row.change).join("\n")).not.toContain(TOKEN);
    // Another key (another site's secret) opens nothing: the setting reads as unset.
    expect((await readStoredSettings(database.db, settingsSealKey("another-secret-that-is-long-enough-12345"))).values.TELEGRAM_BOT_TOKEN).toBeUndefined();
  });

  it("lets the environment win: its settings are shown as set there and cannot be saved", async () => {
    const refused = await saveSettings(database.db, deps(), { area: "mail", values: { MAIL_FROM: "Someone <x@y.example>" }, seenRevision: await settingsRevisionNow(database.db), actor }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SettingsRefused);
    expect((refused as SettingsRefused).problems).toEqual([{ name: "MAIL_FROM", problem: "environment", detail: "set in the server's environment (MAIL_FROM): change it there" }]);
    expect(settingViews(source, {}).MAIL_FROM).toEqual({ name: "MAIL_FROM", from: "environment", value: "Dwell <hello@dwell.example>" });
    // The saved value never replaces the environment's.
    expect(effectiveConfig({ TELEGRAM_CHAT_ID: "-2002" }, { TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_CHAT_ID: "-1001" }).TELEGRAM_CHAT_ID).toBe("-2002");
  });

  it("refuses what would not start the site, naming the setting, and writes nothing", async () => {
    const before = await settingsRevisionNow(database.db);
    const refused = await saveSettings(database.db, deps(), { area: "telegram", values: { TELEGRAM_CHAT_ID: null }, seenRevision: before, actor }).catch((error: unknown) => error);
    expect((refused as SettingsRefused).problems).toEqual([{ name: "TELEGRAM_CHAT_ID", problem: "invalid", detail: "required when TELEGRAM_BOT_TOKEN is set" }]);
    const badGroup = await saveSettings(database.db, deps(), { area: "vrchat", values: { VRCHAT_GROUP_ID: "the dwellers" }, seenRevision: before, actor }).catch((error: unknown) => error);
    expect((badGroup as SettingsRefused).problems.map((problem) => problem.name)).toContain("VRCHAT_GROUP_ID");
    expect(await settingsRevisionNow(database.db)).toBe(before);
    expect((await readStoredSettings(database.db, key)).values.TELEGRAM_CHAT_ID).toBe("-1001");
  });

  it("refuses a save over another owner's change to the same section made since the page was read", async () => {
    const seen = await settingsRevisionNow(database.db);
    await saveSettings(database.db, deps(), { area: "telegram", values: { TELEGRAM_CHAT_ID: "-3003" }, seenRevision: seen, actor });
    const late = await saveSettings(database.db, deps(), { area: "telegram", values: { TELEGRAM_CHAT_ID: "-4004" }, seenRevision: seen, actor }).catch((error: unknown) => error);
    expect(late).toBeInstanceOf(SettingsConflict);
    // Another section is not held back by it.
    await saveSettings(database.db, deps(), { area: "switches", values: { VRCHAT_PUBLISH_EVENTS: "true" }, seenRevision: seen, actor });
    const stored = await readStoredSettings(database.db, key);
    expect(stored.values).toMatchObject({ TELEGRAM_CHAT_ID: "-3003", VRCHAT_PUBLISH_EVENTS: "true" });
    // Both owners at once: one wins, the other is told.
    const now = await settingsRevisionNow(database.db);
    const outcomes = await Promise.allSettled([
      saveSettings(database.db, deps(), { area: "telegram", values: { TELEGRAM_CHAT_ID: "-5005" }, seenRevision: now, actor }),
      saveSettings(database.db, deps(), { area: "telegram", values: { TELEGRAM_CHAT_ID: "-6006" }, seenRevision: now, actor }),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
  });

  it("removes a secret", async () => {
    const seen = await settingsRevisionNow(database.db);
    await saveSettings(database.db, deps(), { area: "telegram", values: { TELEGRAM_BOT_TOKEN: null, TELEGRAM_CHAT_ID: null }, seenRevision: seen, actor });
    const stored = await readStoredSettings(database.db, key);
    expect(stored.values.TELEGRAM_BOT_TOKEN).toBeUndefined();
    const history = await database.db.select().from(teamHistory);
    expect(history.map((row) => row.change).join("\n")).toContain("TELEGRAM_BOT_TOKEN removed");
  });
});
