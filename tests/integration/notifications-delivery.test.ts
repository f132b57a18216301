/**
 * Notifications end to end: the real server process, its outbox worker, and loopback fakes of the
 * three channels. Nothing is lost when a channel is down or the server restarts.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeDiscord } from "../fakes/discord";
import { startFakeTelegram } from "../fakes/telegram";
import { askRunningServer } from "../../scripts/ask-server";
import { startServerProcess, type ServerProcess } from "../setup/server-process";

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function groupFields(url: string) {
  const html = await (await fetch(`${url}/apply`)).text();
  return [...html.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
}

async function apply(url: string, fields: string[], name: string) {
  const answers = [name, name, "A friend", `About ${name}`, ""];
  const response = await fetch(`${url}/apply`, {
    method: "POST",
    body: new URLSearchParams(fields.map((field, i) => [field, answers[i]!])),
  });
  expect(response.status).toBe(200);
}

describe("delivery through the outbox", () => {
  let discord: Awaited<ReturnType<typeof startFakeDiscord>>;
  let telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
  let server: ServerProcess | undefined;
  let dataDir: string;

  beforeAll(async () => {
    discord = await startFakeDiscord();
    telegram = await startFakeTelegram();
    dataDir = mkdtempSync(join(tmpdir(), "dwell-outbox-"));
    dirs.push(dataDir);
  });
  afterAll(async () => {
    await server?.stop("SIGKILL");
    await discord.close();
    await telegram.close();
  });

  const env = () => ({
    DATA_DIR: dataDir,
    DISCORD_WEBHOOK_URL: `${discord.url}/api/webhooks/1/token`,
    TELEGRAM_BOT_TOKEN: "123:test-token",
    TELEGRAM_CHAT_ID: "-1001",
    TELEGRAM_API_URL: telegram.url,
  });

  it("delivers each application to every channel", async () => {
    server = await startServerProcess(env());
    const fields = await groupFields(server.url);
    await apply(server.url, fields, "Moth");
    await expect.poll(() => discord.requests.length, { timeout: 15_000 }).toBe(1);
    await expect.poll(() => telegram.requests.length, { timeout: 15_000 }).toBe(1);
    expect(JSON.stringify(discord.requests[0])).toContain("Moth");
  });

  it("keeps applications made while a channel is down and delivers them after a restart", async () => {
    discord.setMode("down");
    const fields = await groupFields(server!.url);
    for (const name of ["Lark", "Wren", "Finch"]) await apply(server!.url, fields, name);
    await expect.poll(() => telegram.requests.length, { timeout: 15_000 }).toBe(4);
    await expect.poll(() => discord.attempts, { timeout: 15_000 }).toBeGreaterThanOrEqual(4);
    expect(discord.requests).toHaveLength(1);
    // The server has recorded Telegram's four deliveries (a delivery sent but not yet recorded when
    // the process dies is sent again after the restart: at least once, by design).
    const telegramPending = async () => {
      const reply = await askRunningServer(join(dataDir, ".dwell.sock"), { command: "health" });
      const health = (reply?.ok ? reply.result : null) as { integrations?: { notifications?: { telegram?: { pending: number } } } } | null;
      return health?.integrations?.notifications?.telegram?.pending;
    };
    await expect.poll(telegramPending, { timeout: 15_000, interval: 500 }).toBe(0);

    // The server goes away with the jobs still pending; the channel comes back; the server too.
    await server!.stop("SIGKILL");
    discord.setMode("normal");
    server = await startServerProcess(env());
    await expect.poll(() => discord.requests.length, { timeout: 30_000 }).toBe(4);
    const delivered = JSON.stringify(discord.requests);
    for (const name of ["Lark", "Wren", "Finch"]) expect(delivered).toContain(name);
    // Nothing was sent twice to the channel that never failed.
    expect(telegram.requests).toHaveLength(4);
  });

  it("links an event application's notification to the event's page", async () => {
    const events = await fetch(`${server!.url}/events`).then((r) => r.text());
    const eventId = /href="\/events\/([0-9a-f-]{36})"[^>]*>(?:(?!<\/a>).)*?The Gathering at the Threshold/s.exec(events)![1]!;
    const form = await fetch(`${server!.url}/events/${eventId}/apply`).then((r) => r.text());
    const fields = [...form.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
    const response = await fetch(`${server!.url}/events/${eventId}/apply`, {
      method: "POST",
      body: new URLSearchParams(fields.map((field, i) => [field, ["Heron", "heron-discord", "To listen"][i] ?? ""])),
    });
    expect(response.status).toBe(200);
    await expect.poll(() => discord.requests.length, { timeout: 15_000 }).toBe(5);
    expect(discord.requests[4]!.body.embeds[0]).toMatchObject({
      title: "New event application: The Gathering at the Threshold",
      url: `${server!.publicUrl}/events/${eventId}`,
    });
  });
});
