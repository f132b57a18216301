/**
 * A proven VRChat account, as people meet it in Chromium against the VRChat fake: an event that
 * requires one; an applicant proves hers with the code in her bio; an impostor who gave someone
 * else's name and link is matched by name, cannot be approved, and cannot prove an account that is
 * not theirs; the cards say how each account was linked.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Browser } from "@playwright/test";
import { fakeUserId, fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { createAccountWithCommand } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess, HOOK_TIMEOUT_MS } from "../setup/server-process";
import { expectNoSeriousViolations } from "./axe";
import { followLink, hydrated } from "./hydrated";

const ADMIN = { email: "doorwarden@dwell.example", password: "moonlight-doorwarden" };
const TITLE = "Night of the Proven";
const SORREL = { id: fakeUserId(82), name: "Sorrel Finch" };
const ROWAN = { id: fakeUserId(81), name: "Rowan Vale" };

let fake: FakeVRChat;
let server: ServerProcess;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(HOOK_TIMEOUT_MS);
  fake = await startFakeVRChat();
  fake.group.people.push({ id: ROWAN.id, displayName: ROWAN.name, status: "member" }, { id: SORREL.id, displayName: SORREL.name, status: "member" });
  dataDir = mkdtempSync(join(tmpdir(), "dwell-e2e-proof-"));
  server = await startServerProcess({ DATA_DIR: dataDir, DEMO_CONTENT: "false", RATE_LIMIT_SIGN_IN: "1000", ...fakeVRChatEnv(fake) });
  createAccountWithCommand(dataDir, ADMIN.email, ADMIN.password, "admin");
});
test.afterAll(async () => {
  await server?.stop();
  await fake?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** A visitor applies through the event's page with a profile link; the page after sending it. */
async function apply(browser: Browser, name: string, userId: string, width: number) {
  const visitor = await browser.newPage({ viewport: { width, height: 900 } });
  await visitor.goto(`${server.url}/events`);
  await visitor.getByRole("link", { name: new RegExp(TITLE) }).first().click();
  await visitor.getByRole("link", { name: "Apply Now" }).first().click();
  await visitor.getByLabel("What is your VRChat username?").fill(name);
  await visitor.getByLabel("Your VRChat profile link").fill(`https://vrchat.com/home/user/${userId}`);
  await visitor.getByRole("button", { name: "Submit Application" }).click();
  await expect(visitor.getByRole("heading", { name: "Application Submitted" })).toBeVisible();
  return visitor;
}

test("an applicant proves her account with a code in her bio; an impostor matched by name waits", async ({ page, browser }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${server.url}/admin/events`);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Enter Sanctum" }).click();
  await followLink(page.getByRole("link", { name: "Create New Prophecy" }));
  const date = new Date(Date.now() + 6 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  await page.getByLabel("Title").fill(TITLE);
  await page.getByLabel("Event Date").fill(date);
  await page.getByLabel("Event Time").fill("21:00");
  await page.getByLabel("World Name").fill("The Door");
  await page.getByLabel("Requires Application").check();
  await page.getByLabel("Require a proven VRChat account").check();
  await page.getByRole("button", { name: "Create Prophecy" }).click();
  const card = page.getByRole("article", { name: TITLE });
  await followLink(card.getByRole("link", { name: `Edit Questions of ${TITLE}` }));
  const add = page.locator("form", { has: page.getByRole("button", { name: "Add Question" }) });
  await add.getByLabel("Question", { exact: true }).fill("What is your VRChat username?");
  await add.getByRole("button", { name: "Add Question" }).click();
  await expect(page.getByRole("heading", { name: "Current Questions (1)" })).toBeVisible();
  await add.getByLabel("Question", { exact: true }).fill("Your VRChat profile link");
  await add.getByLabel("Question Type").selectOption("VRChat Profile Link");
  await add.getByRole("button", { name: "Add Question" }).click();
  await expect(page.getByRole("heading", { name: "Current Questions (2)" })).toBeVisible();

  // The impostor gives Rowan's name and Rowan's link: VRChat names it so, and it is matched by name.
  const impostor = await apply(browser, ROWAN.name, ROWAN.id, 1280);
  await impostor.getByRole("link", { name: "Check your application status" }).click();
  await impostor.getByRole("button", { name: "Prove this account is yours" }).click();
  await expect(impostor.getByTestId("proof-code")).toHaveText(/^dwell-[2-9A-Z]{4}$/);
  await impostor.getByRole("button", { name: "Check" }).click();
  await expect(impostor.getByRole("status")).toContainText("The code is not in that account's bio or status yet.");
  await impostor.close();

  // Sorrel gives her own: from the confirmation straight to the proof.
  const sorrel = await apply(browser, SORREL.name, SORREL.id, 390);
  await sorrel.getByRole("link", { name: "Prove this account is yours" }).click();
  await hydrated(sorrel);
  await sorrel.getByRole("button", { name: "Prove this account is yours" }).click();
  const code = (await sorrel.getByTestId("proof-code").textContent())!;
  expect(code).toMatch(/^dwell-[2-9A-Z]{4}$/);
  await expect(sorrel.getByTestId("proof-panel")).toContainText(SORREL.name);
  await expectNoSeriousViolations(sorrel, "the status page with a proof code");
  await sorrel.screenshot({ path: "test-results/proven-account-code-narrow.png", fullPage: true });
  fake.group.people.find((person) => person.id === SORREL.id)!.bio = `Finches and lanterns.\n${code}`;
  await sorrel.getByRole("button", { name: "Check" }).click();
  await expect(sorrel.getByTestId("proof-proven")).toContainText(`Your VRChat account (${SORREL.name}) is proven.`);
  await expect(sorrel.getByTestId("proof-panel")).toHaveCount(0);

  // The Sanctum: how each is linked; Rowan's approval is refused, Sorrel's goes through.
  await page.goto(`${server.url}/admin/events`);
  await followLink(page.getByRole("link", { name: `View Applications of ${TITLE}` }));
  const entry = (name: string) => page.getByRole("list", { name: "Applications" }).getByRole("listitem").filter({ hasText: name });
  await expect(entry(ROWAN.name).getByTestId("vrchat-linked-how")).toHaveText("Matched by name");
  await expect(entry(ROWAN.name).getByTestId("needs-proof")).toContainText("Needs a proven VRChat account");
  await expect(entry(SORREL.name).getByTestId("vrchat-linked-how")).toHaveText("Proven by bio code");
  await expect(entry(SORREL.name).getByTestId("needs-proof")).toHaveCount(0);
  await page.screenshot({ path: "test-results/proven-account-cards-wide.png", fullPage: true });
  await entry(ROWAN.name).getByText("Show responses").click();
  await entry(ROWAN.name).getByRole("button", { name: "Approved" }).click();
  await expect(page.getByText("This application can be approved only once the applicant has proven their VRChat account.")).toBeVisible();
  await expect(entry(ROWAN.name).getByRole("button", { name: "Approved" })).toHaveAttribute("aria-pressed", "false");
  await entry(SORREL.name).getByText("Show responses").click();
  await entry(SORREL.name).getByRole("button", { name: "Approved" }).click();
  await expect(entry(SORREL.name).getByRole("button", { name: "Approved" })).toHaveAttribute("aria-pressed", "true");
  await page.reload();
  await expect(entry(ROWAN.name).getByText("Pending", { exact: true }).first()).toBeVisible();
  await sorrel.reload();
  await expect(sorrel.getByTestId("application-status")).toHaveText("Approved");
  await sorrel.close();
});
