/**
 * One ban list as an admin meets it in Chromium, against the VRChat and Discord fakes: a person who
 * applied (their VRChat account linked by their profile link) is banned from the Bans page with the
 * reason; VRChat and Discord carry it out once each, their application is rejected, and their card
 * says who banned them, when and why; a second ban is refused; an unban lifts it in both.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { fakeDiscordBotEnv, fakeSnowflake, startFakeDiscordBot, type FakeDiscordBot } from "../fakes/discord-bot";
import { fakeUserId, fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { createAccountWithCommand } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess, HOOK_TIMEOUT_MS } from "../setup/server-process";
import { expectNoSeriousViolations } from "./axe";
import { hydrated } from "./hydrated";

const ADMIN = { email: "banwarden@dwell.example", password: "moonlight-banwarden" };
const CROW = { id: fakeUserId(81), discord: fakeSnowflake(81), name: "Pushy Crow" };
const FOX = { id: fakeUserId(82), name: "Sly Fox" };

let fake: FakeVRChat;
let bot: FakeDiscordBot;
let server: ServerProcess;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(HOOK_TIMEOUT_MS);
  [fake, bot] = await Promise.all([startFakeVRChat(), startFakeDiscordBot()]);
  fake.group.people.push({ id: CROW.id, displayName: CROW.name, status: "requested" }, { id: FOX.id, displayName: FOX.name, status: "requested", thumbnailUrl: `${fake.url}/api/1/file/fox.png` });
  bot.members.push({ id: CROW.discord, username: "pushycrow", globalName: CROW.name });
  dataDir = mkdtempSync(join(tmpdir(), "dwell-e2e-bans-"));
  server = await startServerProcess({ DATA_DIR: dataDir, RATE_LIMIT_SIGN_IN: "1000", VRCHAT_MEMBERSHIP_ACTIONS: "true", ...fakeVRChatEnv(fake), ...fakeDiscordBotEnv(bot) });
  createAccountWithCommand(dataDir, ADMIN.email, ADMIN.password, "admin");
});
test.afterAll(async () => {
  await server?.stop();
  await fake?.close();
  await bot?.close();
  await rm(dataDir, { recursive: true, force: true });
});

test("a ban from the Bans page reaches VRChat and Discord, rejects the application, shows on the card, and is lifted by an unban", async ({ page, browser }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${server.url}/admin/questions`);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Enter Sanctum" }).click();
  // Signed in once the form has gone: only then does "hydrated" speak of the page signed in to.
  await expect(page.getByRole("button", { name: "Enter Sanctum" })).toHaveCount(0);
  await hydrated(page);
  const add = page.locator("form", { has: page.getByRole("button", { name: "Add Question" }) });
  await add.getByLabel("Question", { exact: true }).fill("Your VRChat profile link");
  await add.getByLabel("Question Type").selectOption("VRChat Profile Link");
  await add.getByRole("button", { name: "Add Question" }).click();
  await expect(page.locator("ol > li").filter({ hasText: "Your VRChat profile link" })).toBeVisible();

  // Crow and Fox apply with their profile links.
  for (const person of [CROW, FOX]) {
    const visitor = await browser.newPage();
    await visitor.goto(`${server.url}/apply`);
    await visitor.getByLabel("What is your VRChat username?").fill(person.name);
    await visitor.getByLabel("What is your Discord username?").fill(person.name.replace(" ", "").toLowerCase());
    await visitor.getByLabel("How did you find the Dwellers?").selectOption("A friend");
    await visitor.getByLabel("Tell us about yourself").fill("I push.");
    await visitor.getByLabel("Your VRChat profile link").fill(`https://vrchat.com/home/user/${person.id}`);
    await visitor.getByRole("button", { name: "Complete the Ritual" }).click();
    await expect(visitor.getByRole("heading", { name: "The Ritual Is Complete" })).toBeVisible();
    await visitor.close();
  }

  await page.getByRole("link", { name: "Bans" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Bans" })).toBeVisible();
  await expect(page.getByText("Nobody is banned")).toBeVisible();
  await hydrated(page);
  const form = page.locator("form", { has: page.getByRole("button", { name: "Ban", exact: true }) });
  // Nobody named: refused, and said why.
  await form.getByLabel("Reason").fill("Harassed members at the door.");
  await form.getByRole("button", { name: "Ban", exact: true }).click();
  await expect(page.getByText("Give their VRChat profile link or user id, their Discord user id, or both.").first()).toBeVisible();
  await form.getByLabel("VRChat profile link or user id").fill(`https://vrchat.com/home/user/${CROW.id}`);
  await form.getByLabel("Discord user id (optional)").fill(CROW.discord);
  await form.getByRole("button", { name: "Ban", exact: true }).click();
  await expect(page.getByText(`${CROW.name} is banned. 1 open application was rejected.`)).toBeVisible();

  const entry = page.getByRole("list", { name: "Bans" }).getByRole("listitem").filter({ hasText: CROW.name });
  await expect(entry.getByTestId("ban-line")).toHaveText(/^Banned on \w{3} \d{1,2}, \d{4} by banwarden: Harassed members at the door\.$/);
  await expect(async () => {
    await page.reload();
    await expect(entry.getByTestId("ban-action")).toHaveText(["Banned in VRChat", "Banned in Discord"], { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  expect(fake.actions.filter((action) => action.kind === "ban").map((action) => action.userId)).toEqual([CROW.id]);
  expect(bot.bans.get(CROW.discord)).toBe("Harassed members at the door.");
  await hydrated(page);
  await expectNoSeriousViolations(page, "the Bans page");
  await page.screenshot({ path: "test-results/bans-wide.png", fullPage: true });

  // A second ban of the same person is refused.
  await form.getByLabel("VRChat profile link or user id").fill(CROW.id);
  await form.getByLabel("Reason").fill("Again.");
  await form.getByRole("button", { name: "Ban", exact: true }).click();
  await expect(page.getByText(/is already banned \(on .* by banwarden\)\. Nothing was changed\./).first()).toBeVisible();

  // Their application: rejected, and the card says who banned them, when and why.
  await page.goto(`${server.url}/admin/applications?status=all`);
  const card = page.getByRole("list", { name: "Applications" }).getByRole("listitem").filter({ hasText: CROW.name });
  await expect(card.getByText("Rejected", { exact: true })).toBeVisible();
  await expect(card.getByTestId("banned")).toHaveText(/^Banned on .* by banwarden: Harassed members at the door\.$/);

  // 'Ban' on Fox's card, with the reason asked in a dialog. Fox's account was matched by her name and
  // link: the dialog shows it and asks whether it is hers; confirmed, the ban reaches VRChat.
  await hydrated(page);
  const fox = page.getByRole("list", { name: "Applications" }).getByRole("listitem").filter({ hasText: FOX.name });
  await fox.getByRole("button", { name: `Ban ${FOX.name}` }).click();
  const dialog = page.getByRole("alertdialog");
  const claims = dialog.getByTestId("ban-claims");
  await expect(claims).toContainText("Matched by name only: is this the person you are banning?");
  await expect(claims).toContainText(`VRChat: ${FOX.name} (${FOX.id}) · Matched by name only`);
  await expect(claims.getByTestId("ban-picture")).toHaveAttribute("src", `${fake.url}/api/1/file/fox.png`);
  await dialog.getByLabel("Reason").fill("Stole a lantern.");
  await page.screenshot({ path: "test-results/ban-dialog-wide.png" });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "test-results/ban-dialog-narrow.png" });
  await page.setViewportSize({ width: 1280, height: 900 });
  await dialog.getByLabel("Yes, this account is theirs: ban it in VRChat too").check();
  await dialog.getByRole("button", { name: "Ban", exact: true }).click();
  await expect(page.getByText(`${FOX.name} is banned.`)).toBeVisible();
  await expect(fox.getByTestId("banned")).toHaveText(/^Banned on .* by banwarden: Stole a lantern\.$/);
  await expect(fox.getByText("Rejected", { exact: true })).toBeVisible();
  await expect.poll(() => fake.actions.filter((action) => action.kind === "ban").map((action) => action.userId), { timeout: 30_000 }).toEqual([CROW.id, FOX.id]);

  // The unban lifts it in VRChat and Discord.
  await page.goto(`${server.url}/admin/bans`);
  await hydrated(page);
  await entry.getByRole("button", { name: "Unban" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Unban" }).click();
  await expect(page.getByText(`${CROW.name} is no longer banned.`)).toBeVisible();
  await expect.poll(() => fake.actions.filter((action) => action.kind === "unban").length, { timeout: 30_000 }).toBe(1);
  await expect.poll(() => bot.bans.has(CROW.discord), { timeout: 30_000 }).toBe(false);
  await page.reload();
  await expect(entry).toContainText("Lifted");
  const narrow = await browser.newPage({ viewport: { width: 390, height: 844 }, storageState: await page.context().storageState() });
  await narrow.goto(`${server.url}/admin/bans`);
  await narrow.screenshot({ path: "test-results/bans-narrow.png", fullPage: true });
  await narrow.close();
});
