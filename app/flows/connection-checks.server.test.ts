import { afterAll, beforeAll, expect, it } from "vitest";
import { featureStates } from "~/features/connections/features";
import { loadConfig } from "~/utils/env.server";
import { FAKE_DISCORD_TOKEN, fakeDiscordBotEnv, startFakeDiscordBot, type FakeDiscordBot } from "../../tests/fakes/discord-bot";
import { FAKE_BOT_PERMISSIONS, FAKE_SESSION_SECRET, fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../../tests/fakes/vrchat";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../tests/setup/test-database";
import { checkConnectionsWhenDue, CONNECTION_LOOK_MS, lastLooks, lookAtDiscord, lookAtVRChat } from "./connection-checks.server";

describeEachDatabase("the looks at the connections", (kind) => {
  let database: TestDatabase;
  let vrchat: FakeVRChat;
  let discord: FakeDiscordBot;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    [vrchat, discord] = await Promise.all([startFakeVRChat(), startFakeDiscordBot()]);
  });
  afterAll(async () => {
    await Promise.all([vrchat.close(), discord.close()]);
    await database.close();
  });

  it("reads again every 10 minutes, so a permission the bot lost shows at the next look, with a few calls each", async () => {
    const config = loadConfig({ ...fakeVRChatEnv(vrchat), ...fakeDiscordBotEnv(discord), VRCHAT_MEMBERSHIP_ACTIONS: "true" });
    const deps = { db: database.db, secret: FAKE_SESSION_SECRET };
    const start = new Date();
    await checkConnectionsWhenDue(deps, config, 0, start);
    const bans = async () => featureStates(config, (await lastLooks(database.db)).facts).find((feature) => feature.key === "vrchat.bans")!;
    expect(await bans()).toMatchObject({ state: "works" });
    const vrchatCalls = vrchat.requests.length;
    const discordCalls = discord.requests.length;
    // The login and four reads; Discord's six.
    expect(vrchatCalls).toBeLessThanOrEqual(6);
    expect(discordCalls).toBe(6);

    vrchat.group.botPermissions = FAKE_BOT_PERMISSIONS.filter((permission) => permission !== "group-bans-manage");
    await checkConnectionsWhenDue(deps, config, 0, new Date(start.getTime() + 60_000));
    expect(vrchat.requests.length).toBe(vrchatCalls);
    expect(await bans()).toMatchObject({ state: "works" });
    await checkConnectionsWhenDue(deps, config, 0, new Date(start.getTime() + CONNECTION_LOOK_MS));
    expect(await bans()).toMatchObject({ state: "missing", detail: "needs Manage Group Bans" });
    // A change of the settings (a new revision) is looked at without waiting.
    vrchat.group.botPermissions = FAKE_BOT_PERMISSIONS;
    await checkConnectionsWhenDue(deps, config, 1, new Date(start.getTime() + CONNECTION_LOOK_MS + 60_000));
    expect(await bans()).toMatchObject({ state: "works" });
  });

  it("tells a bot account without two-factor sign-in", async () => {
    const open = await startFakeVRChat({ requireTotp: false });
    try {
      const facts = await lookAtVRChat({ db: database.db, secret: FAKE_SESSION_SECRET }, loadConfig({ ...fakeVRChatEnv(open), VRCHAT_TOTP_SECRET: "" }));
      expect(facts).toMatchObject({ ok: true, twoFactor: false, member: true });
    } finally {
      await open.close();
    }
  });

  it("says a wrong password or VRChat's 429 plainly, sending the login once and nothing while VRChat asked for quiet", async () => {
    const wrong = loadConfig({ ...fakeVRChatEnv(vrchat), VRCHAT_USERNAME: "someone-else@example.org", VRCHAT_PASSWORD: "not the password" });
    const deps = { db: database.db, secret: FAKE_SESSION_SECRET };
    const before = vrchat.requests.length;
    expect(await lookAtVRChat(deps, wrong, {})).toMatchObject({ ok: false, error: expect.stringContaining("VRChat refused the sign-in: check the username and password") });
    expect(vrchat.requests.length - before).toBe(1);
    // Pressed again at once: a person's press tries again (once), no loop.
    expect(await lookAtVRChat(deps, wrong, {})).toMatchObject({ ok: false });
    expect(vrchat.requests.length - before).toBe(2);
    // The scheduled look after a failure waits out the pause instead of logging in again.
    expect(await lookAtVRChat(deps, wrong)).toMatchObject({ ok: false, error: expect.stringContaining("paused") });
    expect(vrchat.requests.length - before).toBe(2);
    await vrchat.setMode("rate-limited", { retryAfterSeconds: 120 });
    const limited = loadConfig(fakeVRChatEnv(vrchat));
    expect(await lookAtVRChat(deps, limited, {})).toMatchObject({ ok: false, error: expect.stringMatching(/^VRChat asked to wait 1\d\d s before another call/) });
    const during = vrchat.requests.length;
    expect(await lookAtVRChat(deps, limited, {})).toMatchObject({ ok: false, error: expect.stringMatching(/^VRChat asked to wait/) });
    expect(vrchat.requests.length).toBe(during);
    await vrchat.setMode("normal");
  });

  it("says a token is not a bot's, and a 429's wait, without retrying", async () => {
    const base = loadConfig({ ...fakeDiscordBotEnv(discord) });
    expect(await lookAtDiscord({ ...base, DISCORD_BOT_TOKEN: "not-a-bot-token-0123456789" })).toMatchObject({ ok: false, error: expect.stringContaining("it is not a bot's token") });
    // A server the bot is not in: said so, and nothing of it read.
    const elsewhere = await lookAtDiscord({ ...base, DISCORD_GUILD_ID: "123456789012345678" });
    expect(elsewhere).toMatchObject({ ok: true, inGuild: false });
    expect(featureStates({ ...base, DISCORD_GUILD_ID: "123456789012345678" }, { discord: elsewhere! }).find((feature) => feature.key === "discord.bot")).toMatchObject({ state: "missing", detail: expect.stringContaining("the bot is not in the chosen server") });
    const before = discord.requests.length;
    discord.rateLimitNext(1, 7);
    expect(await lookAtDiscord({ ...base, DISCORD_BOT_TOKEN: FAKE_DISCORD_TOKEN })).toMatchObject({ ok: false, error: "Discord asked to wait 7 s: try again then" });
    expect(discord.requests.length - before).toBeLessThanOrEqual(2);
  });
});
