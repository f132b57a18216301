/**
 * Screening as the staff and applicants meet it in Chromium, against the VRChat fake: an admin writes
 * the rules on the Screening page (a rule that can never hold, and a second rule of the same name, are
 * refused); applicants send the group's form; a known user over 30 days and 18+, matched by her name, is
 * flagged until she proves her account on her status page, then approved by the rule (accepted in VRChat
 * once, 'Approved by rule …' on the card); a young account is flagged.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { fakeUserId, fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { createAccountWithCommand } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess, HOOK_TIMEOUT_MS } from "../setup/server-process";
import { expectNoSeriousViolations } from "./axe";
import { hydrated } from "./hydrated";

const ADMIN = { email: "gatewarden@dwell.example", password: "moonlight-gatewarden" };
const MOTH = { id: fakeUserId(61), name: "Moth Lantern" };
const FERN = { id: fakeUserId(62), name: "Fern Sprout" };
const KNOWN = ["system_trust_basic", "system_trust_known", "system_trust_trusted"];

let fake: FakeVRChat;
let server: ServerProcess;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(HOOK_TIMEOUT_MS);
  fake = await startFakeVRChat();
  fake.group.people.push(
    { id: MOTH.id, displayName: MOTH.name, status: "requested", tags: KNOWN, dateJoined: "2023-02-01", ageVerificationStatus: "18+" },
    { id: FERN.id, displayName: FERN.name, status: "requested", tags: [], dateJoined: new Date().toISOString().slice(0, 10) },
  );
  dataDir = mkdtempSync(join(tmpdir(), "dwell-e2e-screening-"));
  server = await startServerProcess({ DATA_DIR: dataDir, RATE_LIMIT_SIGN_IN: "1000", VRCHAT_MEMBERSHIP_ACTIONS: "true", ...fakeVRChatEnv(fake) });
  createAccountWithCommand(dataDir, ADMIN.email, ADMIN.password, "admin");
});
test.afterAll(async () => {
  await server?.stop();
  await fake?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function applyAs(browser: Browser, person: { id: string; name: string }) {
  const visitor = await browser.newPage();
  await visitor.goto(`${server.url}/apply`);
  await visitor.getByLabel("What is your VRChat username?").fill(person.name);
  await visitor.getByLabel("What is your Discord username?").fill(`${person.name.replace(" ", "").toLowerCase()}-d`);
  await visitor.getByLabel("How did you find the Dwellers?").selectOption("A friend");
  await visitor.getByLabel("Tell us about yourself").fill("I keep lanterns.");
  await visitor.getByLabel("Your VRChat profile link").fill(`https://vrchat.com/home/user/${person.id}`);
  await visitor.getByRole("button", { name: "Complete the Ritual" }).click();
  await expect(visitor.getByRole("heading", { name: "The Ritual Is Complete" })).toBeVisible();
  const status = await visitor.getByRole("link", { name: "Check your application status" }).getAttribute("href");
  await visitor.close();
  return `${server.url}${status}`;
}

async function addRule(page: Page, name: string, fill: () => Promise<void>) {
  const form = page.locator("form", { has: page.getByRole("button", { name: "Add Rule" }) });
  await form.getByLabel("Name").fill(name);
  await fill();
  await form.getByRole("button", { name: "Add Rule" }).click();
}

test("rules written on the Screening page approve one applicant and flag another", async ({ page, browser }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${server.url}/admin/screening`);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Enter Sanctum" }).click();
  await hydrated(page);
  await expect(page.getByRole("heading", { level: 1, name: "Screening" })).toBeVisible();
  await expect(page.getByText("No rules yet")).toBeVisible();
  const form = page.locator("form", { has: page.getByRole("button", { name: "Add Rule" }) });

  // A rule that can never hold is refused, and says why.
  await addRule(page, "Impossible", async () => {
    await form.getByLabel("Bio contains any of these words").check();
    await form.getByLabel("Approve automatically").check();
  });
  await expect(page.getByText("Give at least one word.")).toBeVisible();

  await page.reload();
  await hydrated(page);
  await addRule(page, "Known users over 30 days", async () => {
    await form.getByLabel("Trust rank at least").check();
    await form.getByLabel("Trust rank", { exact: true }).selectOption({ label: "Known User" });
    await form.getByLabel("Account older than (days)").check();
    await form.getByLabel("Days", { exact: true }).fill("30");
    await form.getByLabel("Shows 18+ in VRChat").check();
    await form.getByLabel("Approve automatically").check();
  });
  const rules = page.getByRole("list", { name: "Screening rules, first first" });
  await expect(rules.locator(":scope > li")).toHaveCount(1);
  await expect(rules).toContainText("Trust rank at least Known User");
  await addRule(page, "Young accounts", async () => {
    await form.getByLabel("Trust rank at least").check();
    await form.getByLabel("Trust rank", { exact: true }).selectOption({ label: "Visitor" });
    await form.getByLabel("Send to review with a flag").check();
    await form.getByLabel("Flag", { exact: true }).fill("A young account: look closely");
  });
  await expect(rules.locator(":scope > li")).toHaveCount(2);
  // The same name again is refused.
  await addRule(page, "young ACCOUNTS", async () => {
    await form.getByLabel("Shows 18+ in VRChat").check();
    await form.getByLabel("Approve automatically").check();
  });
  await expect(page.getByText("Another rule has this name already: give each rule its own.")).toBeVisible();
  await expect(rules.locator(":scope > li")).toHaveCount(2);
  await expectNoSeriousViolations(page, "the Screening page with two rules");
  await page.screenshot({ path: "test-results/screening-wide.png", fullPage: true });
  const narrow = await browser.newPage({ viewport: { width: 390, height: 844 }, storageState: await page.context().storageState() });
  await narrow.goto(`${server.url}/admin/screening`);
  await narrow.screenshot({ path: "test-results/screening-narrow.png", fullPage: true });
  await narrow.close();

  // The group's form asks for profile links.
  await page.goto(`${server.url}/admin/questions`);
  await hydrated(page);
  const add = page.locator("form", { has: page.getByRole("button", { name: "Add Question" }) });
  await add.getByLabel("Question", { exact: true }).fill("Your VRChat profile link");
  await add.getByLabel("Question Type").selectOption("VRChat Profile Link");
  await add.getByRole("button", { name: "Add Question" }).click();
  await expect(page.locator("ol > li").filter({ hasText: "Your VRChat profile link" })).toBeVisible();

  const moth = await applyAs(browser, MOTH);
  await applyAs(browser, FERN);
  // Her name and public profile link are a claim anyone could make: the rule would approve, so she is flagged for the proof.
  await page.goto(`${server.url}/admin/applications?status=all`);
  const entry = (name: string) => page.getByRole("list", { name: "Applications" }).getByRole("listitem").filter({ hasText: name });
  await expect(async () => {
    await page.reload();
    await expect(entry(MOTH.name).getByTestId("screening")).toHaveText("Approve needs a proven account", { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  expect(fake.actions).toEqual([]);
  // On her status page she proves the account is hers: the code in her bio, then 'Check'. The rule then approves her.
  const status = await browser.newPage();
  await status.goto(moth);
  await expect(status.getByTestId("application-status")).toHaveText("Pending");
  await status.getByTestId("proof-panel").getByRole("button", { name: "Prove this account is yours" }).click();
  const code = (await status.getByTestId("proof-code").textContent())!.trim();
  fake.group.people.find((person) => person.id === MOTH.id)!.bio = `Lantern keeper. ${code}`;
  await status.getByRole("button", { name: "Check" }).click();
  await expect(status.getByTestId("proof-proven")).toBeVisible();
  await expect(async () => {
    await status.goto(moth);
    await expect(status.getByTestId("application-status")).toHaveText("Approved", { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await status.close();
  await expect.poll(() => fake.actions.filter((action) => action.userId === MOTH.id).map((action) => action.kind), { timeout: 30_000 }).toEqual(["accept"]);

  await page.reload();
  await expect(entry(MOTH.name).getByTestId("screening")).toHaveText('Approved by rule "Known users over 30 days"');
  // Fern applied after Moth: her screening may come at the job's next look (every 15 seconds).
  await expect(async () => {
    await page.reload();
    await expect(entry(FERN.name).getByTestId("screening")).toHaveText("A young account: look closely", { timeout: 1_000 });
  }).toPass({ timeout: 45_000 });
  await page.screenshot({ path: "test-results/screening-cards-wide.png", fullPage: true });

  // Staff reject Fern; 'Try these rules' then sets a rule being written beside what was decided, saving nothing.
  await hydrated(page);
  await entry(FERN.name).getByRole("button", { name: "Reject" }).click();
  await expect(entry(FERN.name).getByText("Rejected", { exact: true })).toBeVisible();
  await page.goto(`${server.url}/admin/screening`);
  await hydrated(page);
  await form.getByLabel("Name").fill("Everyone 18+");
  await form.getByLabel("Trust rank at least").check();
  await form.getByLabel("Trust rank", { exact: true }).selectOption({ label: "Visitor" });
  await form.getByLabel("Approve automatically").check();
  await form.getByRole("button", { name: "Try these rules" }).click();
  const trial = page.getByTestId("trial");
  await expect(trial).toContainText("Tried on the last 2 decided applications");
  const row = (name: string) => trial.getByRole("row").filter({ has: page.getByRole("rowheader", { name }) });
  // Moth: approved by the first rule, as she was. Fern: the flag comes first, so the draft never meets her.
  await expect(row("Known users over 30 days")).toContainText(/Known users over 30 days\s*1\s*0\s*0\s*0/);
  await expect(row("Young accounts")).toContainText(/Young accounts\s*0\s*0\s*1\s*0/);
  await expect(row("Everyone 18+ (not saved yet)")).toContainText(/0\s*0\s*0\s*0/);
  await expect(trial).toContainText("Where a rule would have approved or rejected, staff decided the same.");
  // The rule being written is still there, and nothing was added.
  await expect(form.getByLabel("Name")).toHaveValue("Everyone 18+");
  await expect(rules.locator(":scope > li")).toHaveCount(2);
  await page.screenshot({ path: "test-results/screening-trial-wide.png", fullPage: true });
});
