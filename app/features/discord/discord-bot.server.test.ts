import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FAKE_DISCORD_TOKEN, FAKE_GUILD_ID, FAKE_MEMBER_ROLE_ID, fakeSnowflake, startFakeDiscordBot, type FakeDiscordBot } from "../../../tests/fakes/discord-bot";
import { discordUserIdFrom, normalizeHandle } from "./discord-api.server";
import { createDiscordBot, type DiscordBotOptions } from "./discord-bot.server";
import { PRIVATE_MESSAGE_KEPT } from "./discord-jobs.server";

describe("reading a Discord account", () => {
  it("takes a user id or a mention", () => {
    expect(discordUserIdFrom(" 80351110224678912 ")).toBe("80351110224678912");
    expect(discordUserIdFrom("<@!80351110224678912>")).toBe("80351110224678912");
    expect(discordUserIdFrom("moth")).toBeNull();
    expect(discordUserIdFrom("1234")).toBeNull();
  });

  it("reads handles as Discord does: no @, no #0, any case", () => {
    expect(normalizeHandle(" @Moth#0 ")).toBe("moth");
    expect(normalizeHandle("moth.light")).toBe("moth.light");
  });
});

describe("the Discord bot", () => {
  let fake: FakeDiscordBot;
  const moth = fakeSnowflake(1);
  const mothling = fakeSnowflake(2);
  const shy = fakeSnowflake(3);

  beforeEach(async () => {
    fake = await startFakeDiscordBot();
    fake.members.push(
      { id: mothling, username: "mothling", globalName: "Little Moth" },
      { id: moth, username: "moth", globalName: "Moth Light", nick: "Moth of the Hall" },
      { id: shy, username: "shy", dmsClosed: true },
    );
  });
  afterEach(() => fake.close());

  const bot = (options: Partial<DiscordBotOptions> = {}) =>
    createDiscordBot({
      apiUrl: fake.url,
      token: FAKE_DISCORD_TOKEN,
      guildId: FAKE_GUILD_ID,
      memberRoleId: FAKE_MEMBER_ROLE_ID,
      siteUrl: "https://dwell.example",
      timeoutMs: 5_000,
      ...options,
    });
  const job = (userId: string) => ({ applicationKind: "group" as const, applicationId: crypto.randomUUID(), userId, actor: { id: "a", name: "Keeper" } });
  const [role, dm] = [0, 1] as const;

  it("finds members by handle, the exact one first, as the server shows them, and says who asks", async () => {
    const found = await bot().findCandidates("@Moth");
    expect(found.map((c) => [c.username, c.displayName, c.hasRole])).toEqual([
      ["moth", "Moth of the Hall", false],
      ["mothling", "Little Moth", false],
    ]);
    expect(fake.requests[0]).toMatchObject({ method: "GET", path: `/guilds/${FAKE_GUILD_ID}/members/search?query=moth&limit=5` });
    expect(fake.requests[0]!.userAgent).toMatch(/^DiscordBot \(https:\/\/dwell\.example, \d+\.\d+\.\d+\)$/);
    expect(await bot().describeMember(fakeSnowflake(99))).toBeNull();
  });

  it("grants the member role", async () => {
    const outcome = await bot().channels[role].deliver(job(moth));
    expect(outcome).toEqual({ kind: "delivered", result: "Member role granted in Discord" });
    expect(fake.grants).toEqual([`${moth}:${FAKE_MEMBER_ROLE_ID}`]);
    expect((await bot().describeMember(moth))?.hasRole).toBe(true);
  });

  it("sends the decision once, however often the job runs", async () => {
    const message = { ...job(moth), content: "Welcome, <@everyone> Moth!", nonce: "abc123" };
    expect(await bot().channels[dm].deliver(message)).toEqual({ kind: "delivered", result: "Decision sent by direct message" });
    expect(await bot().channels[dm].deliver(message)).toMatchObject({ kind: "delivered" });
    expect(fake.messages).toEqual([expect.objectContaining({ userId: moth, content: "Welcome, <@everyone> Moth!" })]);
  });

  it("keeps no text of a private message (one with a status link) once it is sent", async () => {
    const secret = "https://dwell.example/applications/status/0123456789abcdefghijklmnopqrstuvwxyzABCDEFG";
    const private_ = { ...job(moth), content: `Reminder: ${secret}`, nonce: "rem1", private: true };
    expect(bot().channels[dm].redact(private_)).toMatchObject({ content: PRIVATE_MESSAGE_KEPT, userId: moth });
    expect(bot().channels[dm].redact({ ...private_, private: undefined })).toBeNull();
    expect(await bot().channels[dm].deliver(private_)).toMatchObject({ kind: "delivered" });
    expect(fake.messages.at(-1)?.content).toContain(secret);
  });

  it("shows a refused direct message as such, without retrying it", async () => {
    const outcome = await bot().channels[dm].deliver({ ...job(shy), content: "Hello", nonce: "n1" });
    expect(outcome).toEqual({ kind: "failed", error: "Discord refused the direct message: they do not accept messages from this server's members" });
  });

  it("waits when Discord asks, and names a missing permission or a wrong token", async () => {
    fake.rateLimitNext(1, 2.5);
    expect(await bot().channels[role].deliver(job(moth))).toEqual({ kind: "retry", error: "Discord asked us to slow down", retryAfterMs: 2500, slowDown: true });
    fake.refuseRoles(true);
    expect(await bot().channels[role].deliver(job(moth))).toMatchObject({ kind: "failed", error: expect.stringContaining("no permission to grant the role") });
    expect(await bot({ token: "wrong-token-0123456789" }).channels[role].deliver(job(moth))).toMatchObject({ kind: "failed", error: expect.stringContaining("DISCORD_BOT_TOKEN") });
    expect(await bot().channels[role].deliver({ nonsense: true })).toEqual({ kind: "failed", error: "The job could not be read" });
  });

  it("counts a dead Discord as a failure to retry", async () => {
    const dead = bot({ apiUrl: "http://127.0.0.1:9/api/v10" });
    expect(await dead.channels[role].deliver(job(moth))).toMatchObject({ kind: "retry", error: "Discord could not be reached" });
  });
});
