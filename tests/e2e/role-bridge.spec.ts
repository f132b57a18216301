/**
 * The role bridge and the moderation history as the owner meets them in Chromium, against the VRChat
 * and Discord fakes: an application approved on the review page matches the applicant's Discord
 * account by name only (a claim), so the owner confirms on the person's file that the two accounts are
 * the same person; then links 'Event Regular' both ways, reads the dry run, starts the fill, and sees
 * the role given in Discord and the change in the moderation history, with the moderator's weeks.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { FAKE_REGULAR_ROLE_ID, fakeDiscordBotEnv, fakeSnowflake, startFakeDiscordBot, type FakeDiscordBot } from "../fakes/discord-bot";
import { fakeUserId, fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { createAccountWithCommand, postForm, signIn as signInOverHttp } from "../setup/sanctum-client";
import { HOOK_TIMEOUT_MS, startServerProcess, type ServerProcess } from "../setup/server-process";
import { expectNoSeriousViolations } from "./axe";
import { hydrated } from "./hydrated";

const OWNER = { email: "oak@dwell.example", password: "the-oak-keeps-the-keys" };
const REGULAR = "grol_regular";

let vrchat: FakeVRChat;
let discord: FakeDiscordBot;
let server: ServerProcess;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(HOOK_TIMEOUT_MS);
  vrchat = await startFakeVRChat();
  discord = await startFakeDiscordBot();
  vrchat.group.roles.push({ id: REGULAR, name: "Event Regular", description: "Regulars of the lantern nights", holders: [fakeUserId(1)] });
  vrchat.group.people.push({ id: fakeUserId(1), displayName: "Wren", status: "member" });
  discord.members.push({ id: fakeSnowflake(1), username: "wren_dc", globalName: "Wren" });
  dataDir = mkdtempSync(join(tmpdir(), "dwell-e2e-roles-"));
  server = await startServerProcess({
    DATA_DIR: dataDir,
    RATE_LIMIT_SIGN_IN: "1000",
    RATE_LIMIT_APPLICATIONS: "1000",
    ...fakeVRChatEnv(vrchat),
    ...fakeDiscordBotEnv(discord),
    VRCHAT_MEMBERSHIP_ACTIONS: "true",
    VRCHAT_READ_JOIN_REQUESTS: "false",
    ROLE_BRIDGE_CALLS_PER_MINUTE: "120",
  });
  createAccountWithCommand(dataDir, OWNER.email, OWNER.password, "owner");
  // Wren applies on the public form; staff confirm her VRChat account on the card and approve.
  const cookie = await signInOverHttp(server.url, OWNER.email, OWNER.password);
  const form = await (await fetch(`${server.url}/apply`)).text();
  const fields = [...form.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((match) => match[1]!);
  const applied = await postForm(server.url, "/apply", Object.fromEntries(fields.map((field, i) => [field, ["Wren", "wren_dc", "A friend", "I carry lanterns", ""][i]!])));
  expect(applied.status).toBe(200);
  const list = await (await fetch(`${server.url}/admin/applications?status=all`, { headers: { cookie } })).text();
  const id = /name="id" value="([0-9a-f-]{36})"/.exec(list.slice(list.indexOf(">Wren<")))![1]!;
  expect((await postForm(server.url, "/admin/applications", { intent: "link-vrchat", id, account: fakeUserId(1) }, { cookie })).status).toBe(200);
  expect((await postForm(server.url, "/admin/applications", { intent: "status", id, status: "approved" }, { cookie })).status).toBe(200);
});
test.afterAll(async () => {
  await server?.stop();
  await vrchat?.close();
  await discord?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function signIn(page: Page, path: string) {
  await page.goto(`${server.url}${path}`);
  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel("Password").fill(OWNER.password);
  await page.getByRole("button", { name: "Enter Sanctum" }).click();
}

test("the owner confirms a person in both places, links a role both ways, and sees it filled and in the history", async ({ page }) => {
  test.setTimeout(120_000);
  // Her Discord account was matched by name at the approval: a claim, until someone confirms it.
  await signIn(page, `/admin/people/vrchat-${fakeUserId(1)}`);
  await hydrated(page);
  const pair = page.getByTestId("person-pair");
  await expect(pair).toContainText(`VRChat ${fakeUserId(1)} and Discord ${fakeSnowflake(1)}`);
  await pair.getByRole("button", { name: "Confirm these accounts are the same person" }).click();
  await expect(page.getByText("Confirmed as the same person.")).toBeVisible();
  await expect(pair).toContainText("Known to be the same person in VRChat and Discord.");

  await page.goto(`${server.url}/admin/roles`);
  await hydrated(page);
  await expect(page.getByRole("heading", { name: "Roles in both homes", level: 1 })).toBeVisible();
  await expect(page.getByText("cannot be linked: at or above the bot's own highest role")).toBeVisible();
  await page.getByLabel("VRChat role").selectOption({ label: "Event Regular" });
  await page.getByLabel("Discord role").selectOption({ label: "Event Regular" });
  await page.getByLabel("Direction").selectOption({ label: "Both ways" });
  await page.getByRole("button", { name: "Link", exact: true }).click();
  await expect(page.getByText("Linked. Dwell is reading who holds each role; the dry run follows.")).toBeVisible();
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("dry-run")).toContainText("gain it in Discord: 1 (Wren)", { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  expect(discord.members.find((member) => member.id === fakeSnowflake(1))!.roles).not.toContain(FAKE_REGULAR_ROLE_ID);
  for (const [width, name] of [[390, "narrow"], [1280, "wide"]] as const) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`roles-dry-run-${name}.png`), fullPage: true });
  }
  await expectNoSeriousViolations(page, "the Roles page");

  await hydrated(page);
  await page.getByRole("button", { name: "Start filling" }).click();
  await expect(page.getByText("Filling in: 1 changes, at most 120 a minute.")).toBeVisible();
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("link-state")).toHaveText("Kept in step.", { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  expect(discord.members.find((member) => member.id === fakeSnowflake(1))!.roles).toContain(FAKE_REGULAR_ROLE_ID);

  // The change is in the moderation history, Dwell's own, with the link that caused it.
  await page.goto(`${server.url}/admin/moderation?kind=role_add`);
  const act = page.getByTestId("moderation-act").first();
  await expect(act).toContainText("Role given");
  await expect(act).toContainText("Role link: Event Regular (VRChat) ⇄ Event Regular (Discord)");
  await act.getByRole("link", { name: /oak/i }).click();
  await expect(page.getByTestId("moderator-activity")).toBeVisible();
  await expect(page).toHaveURL(/moderator=staff%3A/);
  // The filters follow the address: the form shows the moderator chosen by the link.
  await expect(page.getByRole("combobox", { name: "Moderator", exact: true })).toHaveValue(/^staff:/);
  await expect(page.getByTestId("moderation-act").first()).toContainText("Wren");
  for (const [width, name] of [[390, "narrow"], [1280, "wide"]] as const) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`moderation-${name}.png`), fullPage: true });
  }
  await expectNoSeriousViolations(page, "the moderation history");
});
