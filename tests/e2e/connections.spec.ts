/**
 * A fresh install set up in Chromium, as its owner meets it: the Sanctum asks for the setup code from
 * the server's log (five wrong codes stop it; a restart gives a new one), the owner is made and turns on
 * two-factor sign-in, then connects VRChat with the current 6-digit code, Discord and Telegram against
 * the project's fakes, and the site shows the live group without a restart. The page says what the bots
 * lack ('Bans reach VRChat: needs Manage Group Bans', the Discord bot below the member role), shows the
 * environment's settings read-only, never a secret, and is closed to an admin.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { FAKE_DISCORD_TOKEN, FAKE_GUILD_ID, startFakeDiscordBot, type FakeDiscordBot } from "../fakes/discord-bot";
import { startFakeTelegram } from "../fakes/telegram";
import { FAKE_BOT_PERMISSIONS, FAKE_GROUP_ID, FAKE_PASSWORD, FAKE_TOTP_SECRET, FAKE_USERNAME, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { authenticator } from "../setup/authenticator";
import { createAccountWithCommand } from "../setup/sanctum-client";
import { HOOK_TIMEOUT_MS, startServerProcess, type ServerProcess } from "../setup/server-process";
import { expectNoSeriousViolations } from "./axe";
import { hydrated } from "./hydrated";

const OWNER = { name: "Oak", email: "oak@dwell.example", password: "the-oak-keeps-the-keys" };
const ADMIN = { email: "ash@dwell.example", password: "the-ash-reads-the-logs" };
const TELEGRAM_TOKEN = "4242:tg-secret-token-abcdef";

let vrchat: FakeVRChat;
let discord: FakeDiscordBot;
let telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
let server: ServerProcess;
let dataDir: string;

const env = () => ({
  DATA_DIR: dataDir,
  RATE_LIMIT_SIGN_IN: "1000",
  VRCHAT_API_URL: vrchat.url,
  VRCHAT_CACHE_SECONDS: "2",
  DISCORD_API_URL: discord.url,
  TELEGRAM_API_URL: telegram.url,
  // The environment's own: shown as set there.
  MAIL_FROM: "Dwell <env@dwell.example>",
});
const setupCode = () => [...server.output().matchAll(/"setupCode":"([A-Z0-9-]+)"/g)].at(-1)![1]!;

test.beforeAll(async () => {
  test.setTimeout(HOOK_TIMEOUT_MS);
  [vrchat, discord] = await Promise.all([startFakeVRChat(), startFakeDiscordBot()]);
  telegram = await startFakeTelegram({ token: TELEGRAM_TOKEN, chats: ["-1001"] });
  dataDir = mkdtempSync(join(tmpdir(), "dwell-e2e-setup-"));
  server = await startServerProcess(env());
});
test.afterAll(async () => {
  await server?.stop();
  await Promise.all([vrchat?.close(), discord?.close(), telegram?.close()]);
  await rm(dataDir, { recursive: true, force: true });
});

async function fillSetup(page: Page, code: string) {
  await page.getByLabel("Setup code").fill(code);
  await page.getByLabel("Your name").fill(OWNER.name);
  await page.getByLabel("E-mail").fill(OWNER.email);
  await page.getByLabel("Cosmic Passphrase").fill(OWNER.password);
  await page.getByLabel("Confirm Passphrase").fill(OWNER.password);
  await page.getByRole("button", { name: "Make the owner and sign in" }).click();
}

/** A section of the Connections page, by its heading. */
const section = (page: Page, name: string) => page.locator("section, div").filter({ has: page.getByRole("heading", { name, exact: true }) }).last();

test("a fresh install is set up from the Sanctum, and says what works and what is missing", async ({ page, browser }) => {
  test.setTimeout(HOOK_TIMEOUT_MS);
  // The Sanctum of a site with no staff: the setup page, not the sign-in.
  await page.goto(`${server.url}/admin`);
  await expect(page).toHaveURL(/\/admin\/setup$/);
  await expect(page.getByRole("heading", { name: "Make the first owner" })).toBeVisible();
  await hydrated(page);
  await expectNoSeriousViolations(page, "the setup page");
  for (let i = 1; i <= 5; i++) {
    await fillSetup(page, `WRNG-C0DE-000${i}`);
    await expect(page.getByRole("alert")).toContainText(i < 5 ? "That is not the setup code." : "Too many wrong setup codes in the last hour");
  }
  // Even the right code is refused for the hour now; a restart gives a new one.
  const refused = setupCode();
  await fillSetup(page, refused);
  await expect(page.getByRole("alert")).toContainText("Too many wrong setup codes in the last hour");
  await server.stop();
  server = await startServerProcess(env());
  expect(setupCode()).not.toBe(refused);
  await page.goto(`${server.url}/admin/setup`);
  await hydrated(page);
  await fillSetup(page, setupCode());
  await expect(page).toHaveURL(new RegExp(`${server.url}/admin$`));

  // Two-factor sign-in first: until then the page is read-only.
  await page.goto(`${server.url}/admin/connections`);
  await expect(page.getByText("Turn on two-factor sign-in to change the connections.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);
  await page.goto(`${server.url}/admin/security`);
  await hydrated(page);
  await page.getByLabel("Current Passphrase").fill(OWNER.password);
  await page.getByRole("button", { name: "Set Up Two-Factor Sign-In" }).click();
  const secret = (await page.getByTestId("totp-secret").innerText()).replaceAll(/\s/g, "");
  await page.getByLabel("Code from your app").fill(await authenticator(() => secret).fresh());
  await page.getByRole("button", { name: "Turn On Two-Factor Sign-In" }).click();
  await expect(page.getByText("Two-factor sign-in is on.")).toBeVisible();

  // The home page shows the example group until VRChat is connected.
  await page.goto(server.url);
  await expect(page.getByText("2,451").first()).toHaveCount(0);

  // VRChat, with the bot's current 6-digit code instead of its authenticator secret.
  await page.goto(`${server.url}/admin/connections`);
  await hydrated(page);
  await expect(page.getByText("Set in the server's environment (MAIL_FROM): change it there.")).toBeVisible();
  const vrchatSection = section(page, "VRChat");
  await vrchatSection.getByLabel("The bot account's username or e-mail").fill(FAKE_USERNAME);
  await vrchatSection.getByLabel("The bot account's password").fill(FAKE_PASSWORD);
  await vrchatSection.getByLabel("The group (chosen, or its id or link)").fill(`https://vrchat.com/home/group/${FAKE_GROUP_ID}`);
  await vrchatSection.getByLabel("How VRChat can reach you (e-mail or URL)").fill("admins@dwell.example");
  await vrchatSection.getByLabel("Or the current 6-digit code").fill(new TOTP({ secret: Secret.fromBase32(FAKE_TOTP_SECRET), digits: 6, period: 30 }).generate());
  await vrchatSection.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved. It takes effect now, without a restart.")).toBeVisible();

  // The switches that act in VRChat; the bot's role lacks 'Manage Group Bans'.
  vrchat.group.botPermissions = FAKE_BOT_PERMISSIONS.filter((permission) => permission !== "group-bans-manage");
  const switches = section(page, "What Dwell may do in VRChat");
  // A switch nobody set shows what the site does without it.
  await expect(switches.getByLabel("Read the group's join requests")).toBeChecked();
  await switches.getByLabel("Decisions and bans act in VRChat").check();
  await switches.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved. It takes effect now, without a restart.").last()).toBeVisible();
  await page.reload();
  await section(page, "VRChat").getByRole("button", { name: "Test" }).click();
  await expect(section(page, "VRChat").getByText("Bans reach VRChat: needs Manage Group Bans")).toBeVisible();

  // Discord: the token, then the server chosen from the bot's servers, and its role below the member role.
  const discordSection = section(page, "Discord");
  await discordSection.getByLabel("Bot token").fill(FAKE_DISCORD_TOKEN);
  await discordSection.getByLabel("Server").fill(FAKE_GUILD_ID);
  await discordSection.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved. It takes effect now, without a restart.").last()).toBeVisible();
  await page.reload();
  await hydrated(page);
  await section(page, "Discord").getByLabel("Member role").selectOption({ label: "@Dweller (222222222222222222)" });
  discord.botRolePosition = 1;
  await section(page, "Discord").getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved. It takes effect now, without a restart.").last()).toBeVisible();
  await page.reload();
  await expect(page.getByText("The member role given on approval: the bot's role is not above 'Dweller': move it higher in Server Settings → Roles").first()).toBeVisible();

  // Telegram: a chat the bot was not added to, then the right one.
  const telegramSection = section(page, "Telegram");
  await telegramSection.getByLabel("Bot token (from @BotFather)").fill(TELEGRAM_TOKEN);
  await telegramSection.getByLabel("Chat id").fill("-999");
  await telegramSection.getByRole("button", { name: "Test" }).click();
  await expect(telegramSection.getByText(/The bot cannot reach the chat/).first()).toBeVisible();
  await telegramSection.getByLabel("Chat id").fill("-1001");
  await telegramSection.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved. It takes effect now, without a restart.").last()).toBeVisible();

  // What works, at the top of the page and on the dashboard.
  await page.reload();
  const summary = section(page, "What works, and what is missing");
  await expect(summary.getByText("Bans reach VRChat: needs Manage Group Bans")).toBeVisible();
  await expect(summary.locator('[data-feature="vrchat.live"][data-state="works"]')).toBeVisible();
  await expect(summary.locator('[data-feature="telegram"][data-state="works"]')).toBeVisible();
  await expectNoSeriousViolations(page, "the Connections page");
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`connections-${width}.png`), fullPage: true });
  }
  // A secret is never on the page.
  const html = await page.content();
  for (const secretValue of [FAKE_PASSWORD, FAKE_DISCORD_TOKEN, TELEGRAM_TOKEN]) expect(html).not.toContain(secretValue);
  await page.goto(`${server.url}/admin`);
  await expect(page.getByText("Bans reach VRChat: needs Manage Group Bans")).toBeVisible();

  // The site shows the live group, without a restart.
  await page.goto(server.url);
  await expect(page.getByText("2,451").first()).toBeVisible();
  for (const secretValue of [FAKE_PASSWORD, FAKE_DISCORD_TOKEN, TELEGRAM_TOKEN]) expect(server.output()).not.toContain(secretValue);

  // An admin cannot open the page.
  createAccountWithCommand(dataDir, ADMIN.email, ADMIN.password, "admin");
  const other = await browser.newContext();
  const adminPage = await other.newPage();
  await adminPage.goto(`${server.url}/admin/connections`);
  await adminPage.getByLabel("Email").fill(ADMIN.email);
  await adminPage.getByLabel("Password").fill(ADMIN.password);
  await adminPage.getByRole("button", { name: "Enter Sanctum" }).click();
  await expect(adminPage.getByText("Not for your role")).toBeVisible();
  await other.close();
});
