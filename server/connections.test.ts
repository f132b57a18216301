import { afterAll, beforeAll, expect, it } from "vitest";
import { profiles } from "~/db/schema";
import { saveSettings, settingsRevisionNow, settingsSealKey } from "~/features/connections/settings.server";
import { loadConfig } from "~/utils/env.server";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../tests/setup/test-database";
import { SETTINGS_LOOK_MS, startConnections, type LiveConnections } from "./connections";

const SECRET = "a-test-secret-that-is-long-enough-1234";
const actor = { id: "00000000-0000-4000-8000-000000000002", username: "Oak" };

describeEachDatabase("the connections, taken without a restart", (kind) => {
  let database: TestDatabase;
  const processes: LiveConnections[] = [];
  const source = { DEMO_CONTENT: "false" };
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await database.db.insert(profiles).values({ id: actor.id, username: actor.username, email: "oak@dwell.example", role: "owner" });
    // Two processes on one database, each with its own set of connections.
    for (let i = 0; i < 2; i++) processes.push(await startConnections({ db: database.db, databaseKind: kind, secret: SECRET, source }, loadConfig(source)));
  });
  afterAll(async () => {
    await Promise.all(processes.map((live) => live.close()));
    await database.close();
  });

  it("takes a setting saved in one process in every process, within seconds, and stops the old set", async () => {
    const [first, second] = processes as [LiveConnections, LiveConnections];
    expect(first.current().targets).toEqual([]);
    const before = first.current();
    await saveSettings(database.db, { key: settingsSealKey(SECRET), source }, { area: "telegram", values: { TELEGRAM_BOT_TOKEN: "telegram-bot-token-0123456789", TELEGRAM_CHAT_ID: "-1001" }, seenRevision: await settingsRevisionNow(database.db), actor });
    // The saving process takes it at once.
    await first.refresh();
    expect(first.current().targets).toEqual(["telegram"]);
    expect(first.current().config.TELEGRAM_CHAT_ID).toBe("-1001");
    expect(first.current()).not.toBe(before);
    // The other sees the revision move on its next look.
    const deadline = Date.now() + SETTINGS_LOOK_MS * 3;
    while (second.current().targets.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(second.current().targets).toEqual(["telegram"]);
    expect(second.current().revision).toBe(first.current().revision);
  }, 30_000);
});
