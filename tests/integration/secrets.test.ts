/**
 * No secret reaches a browser: the client is built, and the server run, with secret-looking values
 * in every secret setting, and nothing a browser can fetch (the built files, the pages, their data
 * requests, the API, the Sanctum's pages) contains any of them.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeDiscord } from "../fakes/discord";
import { startFakeTelegram } from "../fakes/telegram";
import { FAKE_PASSWORD, FAKE_TOTP_SECRET, fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { testProcessEnv } from "../setup/node-flags";
import { createAccountWithCommand, signIn } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess } from "../setup/server-process";

const root = fileURLToPath(new URL("../..", import.meta.url));
const PROJECT_FILES = ["app", "server", "public", "drizzle", "messages", "project.inlang", "messages.config.ts", "package.json", "tsconfig.json", "vite.config.ts", "react-router.config.ts", "scripts"];

const CANARY = {
  AUTH_SECRET: "canary-auth-secret-7f3a9c1d2e4b6a8f0c1d",
  TELEGRAM_BOT_TOKEN: "987654:canary-telegram-token-Qx7Lm2",
  DISCORD_TOKEN: "canary-discord-webhook-token-Zr8Kp1",
  DISCORD_BOT_TOKEN: "canary-discord-bot-token-Mw2Xc7Lp9Qd4",
  SMTP_PASSWORD: "canary-smtp-password-Vn4Jt6",
  DATABASE_PASSWORD: "canary-database-password-Hy3Ws9",
  GOOGLE_KEY_FILE: "/run/secrets/canary-google-key-Bq5Ld0.json",
};

let work: string;
let vrchat: FakeVRChat;
let telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
let discord: Awaited<ReturnType<typeof startFakeDiscord>>;
let server: ServerProcess;
let secrets: string[];
let secretEnv: Record<string, string>;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function expectNoSecret(where: string, text: string) {
  const found = secrets.filter((secret) => text.includes(secret));
  expect(found, `${where} contains a secret`).toEqual([]);
}

beforeAll(async () => {
  [vrchat, telegram, discord] = await Promise.all([startFakeVRChat(), startFakeTelegram(), startFakeDiscord()]);
  secretEnv = {
    AUTH_SECRET: CANARY.AUTH_SECRET,
    TELEGRAM_BOT_TOKEN: CANARY.TELEGRAM_BOT_TOKEN,
    TELEGRAM_CHAT_ID: "-1001",
    TELEGRAM_API_URL: telegram.url,
    DISCORD_WEBHOOK_URL: `${discord.url}/api/webhooks/1/${CANARY.DISCORD_TOKEN}`,
    DISCORD_BOT_TOKEN: CANARY.DISCORD_BOT_TOKEN,
    DISCORD_GUILD_ID: "111111111111111111",
    DISCORD_API_URL: `${discord.url}/api/v10`,
    SMTP_URL: `smtp://dwell:${CANARY.SMTP_PASSWORD}@127.0.0.1:9`,
    ...fakeVRChatEnv(vrchat),
  };
  secrets = [
    CANARY.AUTH_SECRET,
    CANARY.TELEGRAM_BOT_TOKEN,
    CANARY.DISCORD_TOKEN,
    CANARY.DISCORD_BOT_TOKEN,
    CANARY.SMTP_PASSWORD,
    CANARY.DATABASE_PASSWORD,
    CANARY.GOOGLE_KEY_FILE,
    FAKE_PASSWORD,
    FAKE_TOTP_SECRET,
  ];

  // A copy of the project, built with the secrets in its environment (the real build folder is
  // shared with the other tests). Its browser code is built for the default language alone: every
  // language's is built by the same configuration, with only its texts differing, and the site below
  // speaks that language (SITE_LANGUAGES is not set).
  work = mkdtempSync(join(tmpdir(), "dwell-secrets-"));
  for (const name of PROJECT_FILES) cpSync(join(root, name), join(work, name), { recursive: true });
  symlinkSync(join(root, "node_modules"), join(work, "node_modules"), "dir");
  const build = spawnSync(process.execPath, ["scripts/build.ts", "--languages=en"], {
    cwd: work,
    env: testProcessEnv({
      // As a build started under Vitest inherits it (tests/setup/production-build.ts).
      NODE_ENV: "test",
      ...secretEnv,
      DATABASE_URL: `postgres://dwell:${CANARY.DATABASE_PASSWORD}@127.0.0.1:9/dwell`,
      GOOGLE_SHEETS_ID: "sheet",
      GOOGLE_SERVICE_ACCOUNT_FILE: CANARY.GOOGLE_KEY_FILE,
    }),
    encoding: "utf8",
  });
  if (build.status !== 0) throw new Error(`the build failed:\n${build.stdout}\n${build.stderr}`);

  const dataDir = join(work, "data");
  server = await startServerProcess({ DATA_DIR: dataDir, ...secretEnv }, 60_000, work);
  createAccountWithCommand(dataDir, "keeper@dwell.example", "a long enough passphrase", "admin");
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await Promise.all([vrchat?.close(), telegram?.close(), discord?.close()]);
  if (work) await rm(work, { recursive: true, force: true });
});

describe("secrets", () => {
  it("are in no file of the client build", () => {
    // The default language's browser code alone, as asked.
    expect(Object.keys(JSON.parse(readFileSync(join(work, "build/languages.json"), "utf8")))).toEqual(["en"]);
    const files = filesUnder(join(work, "build/client"));
    expect(files.some((file) => file.endsWith(".js"))).toBe(true);
    for (const file of files) expectNoSecret(file, readFileSync(file, "latin1"));
  });

  it("leave the client build React's production code, whatever NODE_ENV the build was started with", () => {
    const scripts = filesUnder(join(work, "build/client")).filter((file) => file.endsWith(".js"));
    const development = scripts.filter((file) => readFileSync(file, "utf8").includes("react.dev/link/hydration-mismatch"));
    expect(development.map((file) => file.slice(work.length))).toEqual([]);
  });

  it("are in no page, data request, script or API answer, signed out or in", async () => {
    const cookie = await signIn(server.url, "keeper@dwell.example", "a long enough passphrase");
    const events = await (await fetch(`${server.url}/events`)).text();
    const eventPath = /href="(\/events\/[0-9a-f-]{36})"/.exec(events)?.[1];
    expect(eventPath).toBeDefined();
    const pages = ["/", "/events", eventPath!, "/apply", "/admin/sign-in", "/admin/forgot-password"];
    const adminPages = ["/admin", "/admin/events", "/admin/questions", "/admin/applications", "/admin/messages"];
    const fetched = new Map<string, string>();
    const get = async (path: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${server.url}${path}`, { headers });
      expect(response.status, path).toBeLessThan(500);
      const text = await response.text();
      fetched.set(path, text);
      return text;
    };
    for (const path of pages) await get(path);
    for (const path of adminPages) await get(path, { Cookie: cookie });
    // The loaders' data as client-side navigation asks for it.
    for (const path of pages.filter((p) => p.startsWith("/events")).concat(["/_root.data"])) {
      await get(path === "/_root.data" ? path : `${path}.data`);
    }
    for (const path of adminPages) await get(`${path}.data`, { Cookie: cookie });
    for (const path of ["/api/group-data", "/api/health"]) await get(path);
    // Every script and stylesheet the pages load.
    const assets = new Set([...fetched.values()].flatMap((html) => [...html.matchAll(/"(\/assets\/[^"]+)"/g)].map((m) => m[1]!)));
    expect(assets.size).toBeGreaterThan(3);
    for (const asset of assets) await get(asset);

    expect(fetched.get("/admin")).toContain("Telegram");
    for (const [path, text] of fetched) expectNoSecret(path, text);
  });
});
