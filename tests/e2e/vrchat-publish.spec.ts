/**
 * 'Publish to VRChat' as an admin meets it in Chromium, against the VRChat fake: the choices appear
 * when the box is ticked, the event reaches the group's calendar with them, the card says so, the
 * form remembers them, and unticking takes the event off VRChat's calendar.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { createAccountWithCommand } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess, HOOK_TIMEOUT_MS } from "../setup/server-process";
import { expectNoSeriousViolations } from "./axe";
import { hydrated } from "./hydrated";

const ADMIN = { email: "herald@dwell.example", password: "moonlight-herald" };
const DATE = new Date(Date.now() + 12 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);

let fake: FakeVRChat;
let server: ServerProcess;
let dataDir: string;

test.beforeAll(async () => {
  // Starting a server of its own: see HOOK_TIMEOUT_MS.
  test.setTimeout(HOOK_TIMEOUT_MS);
  fake = await startFakeVRChat();
  dataDir = mkdtempSync(join(tmpdir(), "dwell-e2e-publish-"));
  server = await startServerProcess({ DATA_DIR: dataDir, DEMO_CONTENT: "false", VRCHAT_PUBLISH_EVENTS: "true", RATE_LIMIT_SIGN_IN: "1000", ...fakeVRChatEnv(fake) });
  createAccountWithCommand(dataDir, ADMIN.email, ADMIN.password, "admin");
});
test.afterAll(async () => {
  await server?.stop();
  await fake?.close();
  await rm(dataDir, { recursive: true, force: true });
});

test("publish an event to VRChat's calendar from the form, then take it off", async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto(`${server.url}/admin/events`);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Enter Sanctum" }).click();
  await page.getByRole("link", { name: "Create New Prophecy" }).click();
  await hydrated(page);

  await page.getByLabel("Title").fill("Starlight Choir");
  await page.getByLabel("Event Date").fill(DATE);
  await page.getByLabel("Event Time").fill("19:30");
  await page.getByLabel("World Name").fill("The Observatory");
  const category = page.getByLabel("Category");
  await expect(category).toBeHidden();
  await page.getByLabel("Publish to VRChat").check();
  await expect(category).toBeVisible();
  await expectNoSeriousViolations(page, "the event form with 'Publish to VRChat' ticked");
  await category.selectOption({ label: "Music" });
  await page.getByLabel("Members only: the group's members see it").check();
  await page.getByLabel("Language 2").selectOption({ label: "Japanese" });
  await page.getByLabel("iOS").check();
  await page.getByRole("button", { name: "Create Prophecy" }).click();

  const card = page.getByRole("article", { name: "Starlight Choir" });
  await expect(card).toBeVisible();
  await expect(async () => {
    await page.reload();
    await expect(card.getByTestId("vrchat-publication")).toContainText("On VRChat's calendar (members only).", { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(card.getByRole("link", { name: "Open in VRChat" })).toHaveAttribute("href", /^https:\/\/vrchat\.com\/home\/group\/grp_[^/]+\/calendar\/cal_/);
  const entry = fake.group.calendar.find((event) => event.title === "Starlight Choir");
  expect(entry).toMatchObject({
    accessType: "group",
    category: "music",
    languages: ["eng", "jpn"],
    platforms: ["standalonewindows", "android", "ios"],
    startsAt: `${DATE}T19:30:00.000Z`,
  });

  await card.getByRole("link", { name: "Edit Event Starlight Choir" }).click();
  await hydrated(page);
  await expect(page.getByLabel("Publish to VRChat")).toBeChecked();
  await expect(page.getByLabel("Category")).toHaveValue("music");
  await expect(page.getByLabel("Language 2")).toHaveValue("jpn");
  await page.getByLabel("Publish to VRChat").uncheck();
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(card).toBeVisible();
  await expect.poll(() => fake.group.calendar.some((event) => event.title === "Starlight Choir"), { timeout: 15_000 }).toBe(false);
  await expect(async () => {
    await page.reload();
    await expect(card.getByTestId("vrchat-publication")).toHaveCount(0, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  expect(fake.calendarWrites.map((write) => write.kind)).toEqual(["create", "delete"]);
});
