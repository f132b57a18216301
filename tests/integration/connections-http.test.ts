/**
 * Setting Dwell up from the Sanctum, over HTTP against a production server and the fakes of VRChat,
 * Discord, Telegram, Google Sheets and a mail server: a fresh install's first owner made with the
 * setup code from the log; the Connections page refused to admins and, until two-factor is on, to the
 * owner's changes; VRChat connected with the current 6-digit code and the live group shown without a
 * restart; what the bots lack named in plain words (a VRChat permission, a Discord role's place, a
 * channel, a chat, a sheet shared read-only, a mail server that hangs); the environment winning; two
 * owners saving at once; and no secret in a page, the log or a backup.
 */
import { spawn } from "node:child_process";
import { request as httpRequest } from "node:http";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { TOTP, Secret } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_ANNOUNCE_CHANNEL_ID, FAKE_DISCORD_TOKEN, FAKE_GUILD_ID, FAKE_MEMBER_ROLE_ID, FAKE_REVIEW_CHANNEL_ID, FAKE_STAFF_CHANNEL_ID, startFakeDiscordBot, type FakeDiscordBot } from "../fakes/discord-bot";
import { startFakeGoogleSheets } from "../fakes/google-sheets";
import { startFakeSmtp, type FakeSmtp } from "../fakes/smtp";
import { startFakeTelegram } from "../fakes/telegram";
import { FAKE_BOT_PERMISSIONS, FAKE_GROUP_ID, FAKE_PASSWORD, FAKE_TOTP_SECRET, FAKE_USERNAME, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { authenticator } from "../setup/authenticator";
import { testProcessEnv } from "../setup/node-flags";
import { ON_PGLITE } from "../setup/test-database";
import { createAccountWithCommand, postForm, signIn } from "../setup/sanctum-client";
import { HOOK_TIMEOUT_MS, startServerProcess, type ServerProcess } from "../setup/server-process";

const root = fileURLToPath(new URL("../..", import.meta.url));
const OWNER = { email: "oak@dwell.example", password: "the-oak-keeps-the-keys" };
const ADMIN = { email: "ash@dwell.example", password: "the-ash-reads-the-logs" };
const TELEGRAM_TOKEN = "4242:tg-secret-token-abcdef";
const SMTP_PASSWORD = "smtp-secret-passphrase";
const SHEET_ID = "1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789";
const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const clientEmail = "dwell-sheets@dwell-project.iam.gserviceaccount.com";

let vrchat: FakeVRChat;
let discord: FakeDiscordBot;
let smtp: FakeSmtp;
let telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
let sheets: Awaited<ReturnType<typeof startFakeGoogleSheets>>;
let server: ServerProcess;
let dataDir: string;
let owner = "";
let admin = "";

const text = (html: string) => html.replaceAll("<!-- -->", "").replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&").replaceAll("&gt;", ">");
const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
const page = async (path: string, cookie = owner) => {
  const response = await fetch(`${server.url}${path}`, { headers: { cookie }, redirect: "manual" });
  return { status: response.status, location: response.headers.get("location"), html: text(await response.text()) };
};
const revisionOf = async () => Number(/name="revision" value="(\d+)"/.exec((await page("/admin/connections")).html)![1]);
/** A section's form, posted as the page posts it (with the revision the page was read at). */
async function connections(values: Record<string, string>, cookie = owner, revision?: number) {
  const response = await postForm(server.url, "/admin/connections", { revision: String(revision ?? (await revisionOf())), ...values }, { cookie });
  return { status: response.status, body: text(await response.text()) };
}
const currentCode = () => new TOTP({ secret: Secret.fromBase32(FAKE_TOTP_SECRET), digits: 6, period: 30 }).generate();
const until = async (what: string, check: () => Promise<boolean>, ms = 20_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
};

describe.runIf(ON_PGLITE)("setting Dwell up from the Sanctum", () => {
  beforeAll(async () => {
    [vrchat, discord, smtp] = await Promise.all([startFakeVRChat(), startFakeDiscordBot(), startFakeSmtp()]);
    telegram = await startFakeTelegram({ token: TELEGRAM_TOKEN, chats: ["-1001"] });
    sheets = await startFakeGoogleSheets({ publicKey, clientEmail, spreadsheetId: SHEET_ID });
    dataDir = mkdtempSync(join(tmpdir(), "dwell-connections-"));
    server = await startServerProcess({
      DATA_DIR: dataDir,
      RATE_LIMIT_SIGN_IN: "1000",
      VRCHAT_API_URL: vrchat.url,
      VRCHAT_CACHE_SECONDS: "2",
      VRCHAT_TIMEOUT_SECONDS: "3",
      NOTIFICATION_TIMEOUT_SECONDS: "3",
      DISCORD_API_URL: discord.url,
      TELEGRAM_API_URL: telegram.url,
      GOOGLE_SHEETS_API_URL: sheets.url,
      // The environment's own: the page shows it, and cannot change it.
      MAIL_FROM: "Dwell <env@dwell.example>",
    });
  }, HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await server?.stop();
    await Promise.all([vrchat?.close(), discord?.close(), smtp?.close(), telegram?.close(), sheets?.close()]);
    await rm(dataDir, { recursive: true, force: true });
  });

  it("makes the first owner with the setup code from the log, once", async () => {
    expect(await page("/admin", "")).toMatchObject({ status: 302, location: "/admin/setup" });
    expect(await page("/admin/sign-in", "")).toMatchObject({ status: 302, location: "/admin/setup" });
    const setup = await page("/admin/setup", "");
    expect(setup.html).toContain("Make the first owner");
    const code = /"setupCode":"([A-Z0-9-]+)"/.exec(server.output())![1]!;
    expect(readFileSync(join(dataDir, "setup-code.txt"), "utf8").trim()).toBe(code);
    const fields = { username: "Oak", email: OWNER.email, password: OWNER.password, confirm: OWNER.password };
    const wrong = await postForm(server.url, "/admin/setup", { ...fields, code: "AAAA-BBBB-CCCC" });
    expect(wrong.status).toBe(400);
    expect(text(await wrong.text())).toContain("That is not the setup code.");
    const weak = await postForm(server.url, "/admin/setup", { ...fields, code, password: "short", confirm: "short" });
    expect(weak.status).toBe(400);
    const made = await postForm(server.url, "/admin/setup", { ...fields, code });
    expect(made.status).toBe(302);
    expect(made.headers.get("location")).toBe("/admin");
    owner = cookiesOf(made);
    expect((await page("/admin")).status).toBe(200);
    // Once: the page and the code are gone.
    expect(await page("/admin/setup", "")).toMatchObject({ status: 302, location: "/admin/sign-in" });
    const again = await postForm(server.url, "/admin/setup", { ...fields, email: "other@dwell.example", code });
    expect(again.status).toBe(302);
    expect(() => readFileSync(join(dataDir, "setup-code.txt"))).toThrow();
    // The operator's command keeps working beside it.
    createAccountWithCommand(dataDir, ADMIN.email, ADMIN.password, "admin");
    admin = await signIn(server.url, ADMIN.email, ADMIN.password);
  });

  it("is the owner's page, and changes need the owner's two-factor sign-in", async () => {
    expect((await page("/admin/connections", admin)).status).toBe(403);
    expect((await connections({ area: "telegram", intent: "save", TELEGRAM_CHAT_ID: "-1001" }, admin, 0)).status).toBe(403);
    const view = await page("/admin/connections");
    expect(view.status).toBe(200);
    expect(view.html).toContain("Turn on two-factor sign-in to change the connections.");
    expect(view.html).toContain("Set in the server's environment (MAIL_FROM): change it there.");
    expect((await connections({ area: "telegram", intent: "save", TELEGRAM_BOT_TOKEN: TELEGRAM_TOKEN, TELEGRAM_CHAT_ID: "-1001" })).status).toBe(403);
    // Two-factor sign-in turned on, as on the Security page.
    const enrol = await postForm(server.url, "/admin/security", { intent: "enable", password: OWNER.password }, { cookie: owner });
    const enrolled = await enrol.text();
    const secret = (/data-testid="totp-secret"[^>]*>([^<]+)</.exec(enrolled)?.[1] ?? "").replaceAll(" ", "");
    const totpUri = text(/name="totpUri" value="([^"]+)"/.exec(enrolled)![1]!);
    const confirmed = await postForm(server.url, "/admin/security", { intent: "confirm", totpUri, code: await authenticator(() => secret).fresh() }, { cookie: owner });
    const confirmedPage = await confirmed.text();
    expect(confirmed.status).toBe(200);
    expect(confirmedPage).toContain("Two-factor sign-in is on.");
    owner = cookiesOf(confirmed);
    expect((await page("/admin/connections")).html).not.toContain("Turn on two-factor sign-in");
  });

  it("connects VRChat with the current 6-digit code, and the site shows the live group without a restart", async () => {
    const before = await (await fetch(`${server.url}/api/group-data`)).json();
    expect(JSON.stringify(before)).not.toContain("2451");
    const saved = await connections({
      area: "vrchat",
      intent: "save",
      VRCHAT_USERNAME: FAKE_USERNAME,
      VRCHAT_PASSWORD: FAKE_PASSWORD,
      VRCHAT_GROUP_ID: `https://vrchat.com/home/group/${FAKE_GROUP_ID}`,
      VRCHAT_CONTACT: "admins@dwell.example",
      oneTimeCode: currentCode(),
    });
    expect(saved.status, saved.body.slice(0, 400)).toBe(200);
    expect(saved.body).toContain("Saved. It takes effect now, without a restart.");
    await until("the live group", async () => JSON.stringify(await (await fetch(`${server.url}/api/group-data`)).json()).includes("2451"));
    const view = await page("/admin/connections");
    expect(view.html).toMatch(/data-feature="vrchat.live" data-state="works"/);
    expect(view.html).toContain(FAKE_GROUP_ID);
    // The code signed the bot in once; no authenticator secret was kept.
    expect(view.html).toContain("Set (ends in");
    expect(view.html).not.toContain(FAKE_PASSWORD);
  });

  it("says what the bot's VRChat role lacks, on the page and on the dashboard", async () => {
    const on = await connections({ area: "switches", intent: "save", VRCHAT_MEMBERSHIP_ACTIONS: "true", VRCHAT_READ_JOIN_REQUESTS: "true", joinRequestsShown: "yes", joinRequestsByRules: "yes" });
    expect(on.status, on.body.slice(0, 300)).toBe(200);
    // Join requests without an application: kept with the site's own settings, the same as on the Join Requests page.
    expect((await page("/admin/join-requests")).html).toMatch(/value="rules"[^>]*checked|checked[^>]*value="rules"/);
    vrchat.group.botPermissions = FAKE_BOT_PERMISSIONS.filter((permission) => permission !== "group-bans-manage");
    const tested = await connections({ area: "vrchat", intent: "test" });
    expect(tested.status).toBe(200);
    expect(tested.body).toContain("Bans reach VRChat: needs Manage Group Bans");
    expect(tested.body).not.toContain("Decisions act in VRChat: needs");
    // Saved as it is (the group given again by its link beside the list), the dashboard says so too.
    expect((await page("/admin/connections")).html).toContain('name="groupLink"');
    expect((await connections({ area: "vrchat", intent: "save", VRCHAT_GROUP_ID: "", groupLink: `https://vrchat.com/home/group/${FAKE_GROUP_ID}/posts` })).status).toBe(200);
    expect((await page("/admin")).html).toContain("Bans reach VRChat: needs Manage Group Bans");
    vrchat.group.botPermissions = FAKE_BOT_PERMISSIONS;
    // A group the bot is not in.
    vrchat.group.botPermissions = null;
    expect((await connections({ area: "vrchat", intent: "test" })).body).toContain("the bot account is not a member of the group");
    vrchat.group.botPermissions = FAKE_BOT_PERMISSIONS;
  });

  it("connects the Discord bot, offers its channels and roles, and says when its role is below the member role", async () => {
    const notBot = await connections({ area: "discord", intent: "test", DISCORD_BOT_TOKEN: "not-a-bot-token-0123456789", DISCORD_GUILD_ID: FAKE_GUILD_ID });
    expect(notBot.body).toContain("Discord refused the token: it is not a bot's token");
    const saved = await connections({ area: "discord", intent: "save", DISCORD_BOT_TOKEN: FAKE_DISCORD_TOKEN, DISCORD_GUILD_ID: FAKE_GUILD_ID });
    expect(saved.status, saved.body.slice(0, 300)).toBe(200);
    const view = await page("/admin/connections");
    expect(view.html).toContain("#review");
    expect(view.html).toContain("@Dweller");
    const channels = await connections({
      area: "discord",
      intent: "save",
      DISCORD_GUILD_ID: FAKE_GUILD_ID,
      DISCORD_ANNOUNCE_CHANNEL_ID: FAKE_ANNOUNCE_CHANNEL_ID,
      DISCORD_STAFF_CHANNEL_ID: FAKE_STAFF_CHANNEL_ID,
      DISCORD_MEMBER_ROLE_ID: FAKE_MEMBER_ROLE_ID,
    });
    expect(channels.status, channels.body.slice(0, 300)).toBe(200);
    const looked = (await page("/admin/connections")).html;
    expect(looked).toMatch(/data-feature="discord.member-role" data-state="works"/);
    expect(looked).toContain("Alerts in the staff channel: needs Send Messages in #staff-lounge");
    discord.botRolePosition = 1;
    const below = await connections({ area: "discord", intent: "test" });
    expect(below.body).toContain("The member role given on approval: the bot's role is not above 'Dweller'");
    discord.botRolePosition = 3;
    // The review channel needs the key that checks Discord's presses.
    const review = await connections({ area: "discord", intent: "save", DISCORD_REVIEW_CHANNEL_ID: FAKE_REVIEW_CHANNEL_ID });
    expect(review.status).toBe(400);
    expect(review.body).toContain("required when DISCORD_REVIEW_CHANNEL_ID is set");
  });

  it("tells when the Telegram bot cannot reach the chat, and when the sheet or the mail server will not do", async () => {
    const unreachable = await connections({ area: "telegram", intent: "test", TELEGRAM_BOT_TOKEN: TELEGRAM_TOKEN, TELEGRAM_CHAT_ID: "-999" });
    expect(unreachable.body).toContain("The bot cannot reach the chat");
    expect((await connections({ area: "telegram", intent: "save", TELEGRAM_BOT_TOKEN: TELEGRAM_TOKEN, TELEGRAM_CHAT_ID: "-1001" })).status).toBe(200);
    expect((await page("/admin/connections")).html).toMatch(/data-feature="telegram" data-state="works"/);

    const upload = async (content: string | Uint8Array, values: Record<string, string>) => {
      const body = new FormData();
      for (const [name, value] of Object.entries({ area: "sheets", revision: String(await revisionOf()), ...values })) body.set(name, value);
      body.set("GOOGLE_SERVICE_ACCOUNT_JSON", new Blob([content as BlobPart], { type: "application/json" }), "key.json");
      const response = await fetch(`${server.url}/admin/connections`, { method: "POST", body, headers: { cookie: owner, Origin: server.url } });
      return { status: response.status, body: text(await response.text()) };
    };
    const notKey = await upload("{not json", { intent: "save", sheetLink: `https://docs.google.com/spreadsheets/d/${SHEET_ID}/edit#gid=0` });
    expect(notKey.status).toBe(400);
    expect(notKey.body).toContain("is not JSON");
    // A 10 MB file, announced and never sent: the answer comes before any of the body is read.
    const huge = await new Promise<number | undefined>((resolve, reject) => {
      const request = httpRequest(new URL("/admin/connections", server.url), { method: "POST", headers: { Origin: server.url, cookie: owner, "Content-Type": "multipart/form-data; boundary=x", "Content-Length": String(10 * 1024 * 1024) } }, (response) => {
        response.resume();
        resolve(response.statusCode);
        request.destroy();
      });
      request.on("error", reject);
      request.flushHeaders();
    });
    expect(huge).toBe(413);
    const key = JSON.stringify({ type: "service_account", client_email: clientEmail, private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(), token_uri: sheets.tokenUri });
    const saved = await upload(key, { intent: "save", sheetLink: `https://docs.google.com/spreadsheets/d/${SHEET_ID}/edit#gid=0` });
    expect(saved.status, saved.body.slice(0, 300)).toBe(200);
    expect((await page("/admin/connections")).html).toMatch(/data-feature="sheets" data-state="works"/);
    sheets.setReadOnly(true);
    expect((await connections({ area: "sheets", intent: "test" })).body).toContain(`share it with ${clientEmail} as an Editor`);
    sheets.setReadOnly(false);

    await smtp.setMode("hang");
    const started = Date.now();
    const hung = await connections({ area: "mail", intent: "test", SMTP_URL: smtp.url().replace("smtp://", `smtp://dwell:${SMTP_PASSWORD}@`) });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(hung.body).toContain("The mail server did not take the connection");
    await smtp.setMode("normal");
    const refused = await connections({ area: "mail", intent: "save", MAIL_FROM: "Someone <someone@dwell.example>" });
    expect(refused.status).toBe(409);
    expect(refused.body).toContain("set in the server's environment (MAIL_FROM): change it there");
  });

  it("tells the second of two owners saving at once, and keeps the first owner's change", async () => {
    const seen = await revisionOf();
    const first = await connections({ area: "telegram", intent: "save", TELEGRAM_CHAT_ID: "-2002" }, owner, seen);
    expect(first.status).toBe(200);
    const second = await connections({ area: "telegram", intent: "save", TELEGRAM_CHAT_ID: "-3003" }, owner, seen);
    expect(second.status).toBe(409);
    expect(second.body).toContain("Another owner changed these settings since you opened this page");
    expect((await page("/admin/connections")).html).toContain('value="-2002"');
  });

  it("never shows a secret again: not in a page, the log, the team's history or a backup", async () => {
    const secrets = [FAKE_PASSWORD, FAKE_DISCORD_TOKEN, TELEGRAM_TOKEN, SMTP_PASSWORD, "PRIVATE KEY"];
    const pages = [(await page("/admin/connections")).html, (await page("/admin/team")).html, (await page("/admin")).html];
    expect((await page("/admin/team")).html).toContain("changed the connections (vrchat)");
    const backup = await new Promise<string>((done, fail) => {
      const child = spawn(process.execPath, ["scripts/db-backup.ts", "backup"], { cwd: root, env: testProcessEnv({ DATA_DIR: dataDir, DATABASE_URL: "" }), stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      child.once("close", (code) => (code === 0 ? done(/written to (\S+) \(/.exec(out)![1]!) : fail(new Error(out))));
    });
    const archive = gunzipSync(readFileSync(backup)).toString("latin1");
    expect(archive.length).toBeGreaterThan(100_000);
    for (const secret of secrets) {
      for (const html of pages) expect(html).not.toContain(secret);
      expect(server.output()).not.toContain(secret);
      expect(archive).not.toContain(secret);
    }
  });
});
