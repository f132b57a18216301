/**
 * Join requests as the owner and staff meet them in Chromium, against the VRChat fake: the requests
 * made in VRChat show in the Sanctum with what VRChat says of each and what the rules say; the owner
 * lets the rules decide (a known user is accepted in VRChat by the rule, a young account is left);
 * staff reject and block one, and accept another from the bulk bar.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { fakeUserId, fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { createAccountWithCommand } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess, HOOK_TIMEOUT_MS } from "../setup/server-process";
import { expectNoSeriousViolations } from "./axe";
import { hydrated } from "./hydrated";

const OWNER = { email: "doorwarden@dwell.example", password: "moonlight-doorwarden" };
const ASH = { id: fakeUserId(71), name: "Ash Lantern" };
const FERN = { id: fakeUserId(72), name: "Fern Shoot" };
const HERON = { id: fakeUserId(73), name: "Grey Heron" };
const WILLOW = { id: fakeUserId(74), name: "Willow Wisp" };
const KNOWN = ["system_trust_basic", "system_trust_known", "system_trust_trusted"];

let fake: FakeVRChat;
let server: ServerProcess;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(HOOK_TIMEOUT_MS);
  fake = await startFakeVRChat();
  fake.group.people.push(
    { id: ASH.id, displayName: ASH.name, status: "requested", tags: KNOWN, dateJoined: "2023-02-01", ageVerificationStatus: "18+", requestedAt: "2026-11-20T18:00:00.000Z" },
    { id: FERN.id, displayName: FERN.name, status: "requested", tags: [], dateJoined: new Date().toISOString().slice(0, 10), requestedAt: "2026-11-21T18:00:00.000Z" },
    { id: HERON.id, displayName: HERON.name, status: "requested", tags: ["system_trust_basic"], dateJoined: "2024-06-01", requestedAt: "2026-11-22T18:00:00.000Z" },
    { id: WILLOW.id, displayName: WILLOW.name, status: "requested", tags: [], dateJoined: "2025-06-01", requestedAt: "2026-11-23T18:00:00.000Z" },
  );
  dataDir = mkdtempSync(join(tmpdir(), "dwell-e2e-join-requests-"));
  server = await startServerProcess({ DATA_DIR: dataDir, RATE_LIMIT_SIGN_IN: "1000", VRCHAT_MEMBERSHIP_ACTIONS: "true", ...fakeVRChatEnv(fake) });
  createAccountWithCommand(dataDir, OWNER.email, OWNER.password, "owner");
});
test.afterAll(async () => {
  await server?.stop();
  await fake?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const entry = (page: Page, name: string) => page.getByRole("list", { name: "Join requests" }).getByRole("listitem").filter({ hasText: name });

test("join requests made in VRChat are screened, decided by the rules when the owner lets them, and answered by staff", async ({ page, browser }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${server.url}/admin/screening`);
  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel("Password").fill(OWNER.password);
  await page.getByRole("button", { name: "Enter Sanctum" }).click();
  await hydrated(page);
  const form = page.locator("form", { has: page.getByRole("button", { name: "Add Rule" }) });
  await form.getByLabel("Name").fill("Known users over 30 days");
  await form.getByLabel("Trust rank at least").check();
  await form.getByLabel("Trust rank", { exact: true }).selectOption({ label: "Known User" });
  await form.getByLabel("Account older than (days)").check();
  await form.getByLabel("Days", { exact: true }).fill("30");
  await form.getByLabel("Approve automatically").check();
  await form.getByRole("button", { name: "Add Rule" }).click();
  await expect(page.getByRole("list", { name: "Screening rules, first first" }).locator(":scope > li")).toHaveCount(1);

  // The requests show once read from VRChat (about a minute), with what the rules say.
  await page.getByRole("link", { name: "Join Requests" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Join Requests" })).toBeVisible();
  await expect(async () => {
    await page.reload();
    await expect(entry(page, ASH.name).getByTestId("join-request-state")).toHaveText('Rule "Known users over 30 days" would accept', { timeout: 1_000 });
  }).toPass({ timeout: 90_000 });
  await expect(entry(page, ASH.name)).toContainText("Known User");
  await expect(entry(page, ASH.name)).toContainText("Shows 18+");
  // Each request is screened in its turn (the screening's calls keep their pace): the page shows
  // what was done when it was read, so it is read again until the next one is screened too.
  await expect(async () => {
    await page.reload();
    await expect(entry(page, FERN.name)).toContainText("No rule holds: for staff", { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await expect(entry(page, FERN.name)).toContainText("No application on the site.");
  expect(fake.actions).toEqual([]);
  await hydrated(page);
  await expectNoSeriousViolations(page, "the Join Requests page");

  // The owner lets the rules decide: Ash is accepted in VRChat by the rule; the others stay for staff.
  await page.getByLabel("Apply the screening rules").check();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("The screening rules now decide join requests that come without an application.")).toBeVisible();
  await expect.poll(() => fake.actions.filter((action) => action.userId === ASH.id).map((action) => action.kind), { timeout: 60_000 }).toEqual(["accept"]);
  await page.reload();
  await expect(entry(page, ASH.name).getByTestId("join-request-state")).toHaveText('Accepted by rule "Known users over 30 days"');

  // Staff reject and block Fern, and accept Heron from the bulk bar.
  await hydrated(page);
  await entry(page, FERN.name).getByRole("button", { name: "Reject and block" }).click();
  await expect(entry(page, FERN.name).getByTestId("join-request-state")).toHaveText(/^Rejected and blocked by /);
  await entry(page, HERON.name).getByLabel(`Select ${HERON.name}`).check();
  await page.getByRole("button", { name: "Accept selected (1)" }).click();
  await expect(entry(page, HERON.name).getByTestId("join-request-state")).toHaveText(/^Accepted by /);
  await expect.poll(() => fake.actions.map((action) => [action.userId, action.kind, action.block ?? false]).sort(), { timeout: 30_000 }).toEqual(
    [
      [ASH.id, "accept", false],
      [FERN.id, "reject", true],
      [HERON.id, "accept", false],
    ].sort(),
  );
  // Willow withdraws her request in VRChat while the list (read up to a minute ago) still shows it:
  // accepting it then must not become a group invite she never asked for; the list says it is gone.
  fake.group.people.find((person) => person.id === WILLOW.id)!.status = "none";
  await entry(page, WILLOW.name).getByRole("button", { name: "Accept", exact: true }).click();
  await expect(entry(page, WILLOW.name).getByTestId("join-request-state")).toHaveText(/^Accepted by /);
  await expect(async () => {
    await page.reload();
    await expect(entry(page, WILLOW.name).getByTestId("join-request-action")).toHaveText("In VRChat: The join request is gone from VRChat (withdrawn, or answered there): nothing was done", { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  expect(fake.actions.filter((action) => action.userId === WILLOW.id)).toEqual([]);
  // Each answer's outcome in VRChat, as the action worker reported it.
  await expect(async () => {
    await page.reload();
    await expect(entry(page, FERN.name).getByTestId("join-request-action")).toHaveText("In VRChat: Join request rejected and blocked in VRChat", { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(entry(page, ASH.name).getByTestId("join-request-action")).toHaveText("In VRChat: Join request accepted in VRChat");
  await page.screenshot({ path: "test-results/join-requests-wide.png", fullPage: true });

  // 'Ban' from the list, with the reason asked in a dialog: banned in VRChat, and on the Bans page.
  await hydrated(page);
  await entry(page, HERON.name).getByRole("button", { name: `Ban ${HERON.name}` }).click();
  await page.getByRole("alertdialog").getByLabel("Reason").fill("Came back under a new name.");
  await page.getByRole("alertdialog").getByRole("button", { name: "Ban", exact: true }).click();
  await expect(page.getByText(`${HERON.name} is banned.`)).toBeVisible();
  await expect.poll(() => fake.actions.filter((action) => action.kind === "ban").map((action) => action.userId), { timeout: 30_000 }).toEqual([HERON.id]);
  await page.goto(`${server.url}/admin/bans`);
  await expect(page.getByRole("list", { name: "Bans" }).getByRole("listitem").filter({ hasText: HERON.name })).toContainText("by doorwarden: Came back under a new name.");
  const narrow = await browser.newPage({ viewport: { width: 390, height: 844 }, storageState: await page.context().storageState() });
  await narrow.goto(`${server.url}/admin/join-requests`);
  await narrow.screenshot({ path: "test-results/join-requests-narrow.png", fullPage: true });
  await narrow.close();
});
