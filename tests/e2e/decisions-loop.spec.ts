/**
 * The loop, as the applicant and an admin meet it in Chromium, against the VRChat fake: apply,
 * the admin opens the card (it says the join request with that name will be linked, and links
 * nothing), approves, the decision links it and VRChat sees one accept, and the applicant's status
 * page says 'Approved' with the message. Also the messages page, and a bulk approval from the list
 * whose confirmation says what VRChat will do.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { fakeUserId, fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { createAccountWithCommand } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess, HOOK_TIMEOUT_MS } from "../setup/server-process";
import { hydrated } from "./hydrated";

const ADMIN = { email: "decider@dwell.example", password: "moonlight-decider" };
const INVITE = "https://discord.gg/dwellers";

test.describe.configure({ mode: "serial" });
let fake: FakeVRChat;
let server: ServerProcess;
let dataDir: string;

test.beforeAll(async () => {
  // Starting a server of its own: see HOOK_TIMEOUT_MS.
  test.setTimeout(HOOK_TIMEOUT_MS);
  fake = await startFakeVRChat();
  fake.group.people.push(
    { id: fakeUserId(21), displayName: "Ember Wisp", status: "requested", thumbnailUrl: null },
    { id: fakeUserId(22), displayName: "Ember Wisp Two", status: "none" },
    { id: fakeUserId(23), displayName: "Ash Crow", status: "requested" },
    { id: fakeUserId(24), displayName: "Iron Owl", status: "requested" },
    { id: fakeUserId(25), displayName: "Bulk Wren", status: "requested" },
  );
  dataDir = mkdtempSync(join(tmpdir(), "dwell-e2e-decisions-"));
  server = await startServerProcess({
    DATA_DIR: dataDir,
    ...fakeVRChatEnv(fake),
    VRCHAT_MEMBERSHIP_ACTIONS: "true",
    DISCORD_INVITE_URL: INVITE,
    RATE_LIMIT_APPLICATIONS: "1000",
    RATE_LIMIT_SIGN_IN: "1000",
  });
  createAccountWithCommand(dataDir, ADMIN.email, ADMIN.password, "admin");
});
test.afterAll(async () => {
  await server?.stop();
  await fake?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function applyToGroup(page: Page, name: string) {
  await page.goto(`${server.url}/apply`);
  await hydrated(page);
  await page.getByLabel("What is your VRChat username?").fill(name);
  await page.getByLabel("What is your Discord username?").fill(`${name.replaceAll(" ", "")}-discord`);
  await page.getByLabel("How did you find the Dwellers?").selectOption({ index: 1 });
  await page.getByLabel("Tell us about yourself").fill("I keep the embers warm.");
  await page.getByRole("button", { name: "Complete the Ritual" }).click();
  await expect(page.getByRole("heading", { name: "The Ritual Is Complete" })).toBeVisible();
}

async function signIn(page: Page, path: string) {
  await page.goto(`${server.url}${path}`);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Enter Sanctum" }).click();
}

test("apply, link the join request, approve: one accept in VRChat, and the applicant reads 'Approved'", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const applicant = await browser.newPage();
  await applyToGroup(applicant, "Ember Wisp");
  const statusLink = applicant.getByRole("link", { name: "Check your application status" });
  await expect(statusLink).toBeVisible();
  await statusLink.click();
  await expect(applicant.getByRole("heading", { name: "Joining the Dwellers" })).toBeVisible();
  await expect(applicant.getByTestId("application-status")).toHaveText("Pending");
  const statusUrl = applicant.url();
  expect(statusUrl).toMatch(/\/applications\/status\/[A-Za-z0-9_-]{43}$/);

  await signIn(page, "/admin/applications");
  await expect(page.getByRole("heading", { name: "Ritual Applications" })).toBeVisible();
  await hydrated(page);
  const card = page.getByRole("list", { name: "Applications" }).getByRole("listitem").filter({ hasText: "Ember Wisp" });
  await card.getByText("Show responses").click();
  // Opening the card links nothing: it says the one join request with this name is linked at the decision.
  await expect(card.getByTestId("link-note")).toHaveText(
    "The one join request under this name: it is linked when the application is decided, unless you choose otherwise. A name is a claim: the decision acts on it in VRChat once you confirm it is theirs.",
  );
  await expect(card.getByTestId("link-vrchat-linked")).toHaveCount(0);
  const candidates = card.getByRole("list", { name: "Candidates in VRChat" });
  await expect(candidates.getByRole("listitem").filter({ hasText: fakeUserId(21) })).toContainText("Requested to join");
  // The search's other match is there, with its standing, to pick instead.
  await expect(candidates.getByRole("listitem").filter({ hasText: "Ember Wisp Two" })).toContainText("Not in the group");
  await expect(candidates.getByRole("link", { name: /Profile of Ember Wisp on VRChat/ })).toHaveAttribute("href", `https://vrchat.com/home/user/${fakeUserId(21)}`);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: "test-results/decisions-card-wide.png", fullPage: true });

  await card.getByRole("button", { name: "Approve" }).click();
  await expect(card.getByText(`VRChat: Ember Wisp (${fakeUserId(21)})`)).toBeVisible();
  // Linked by a name, which anyone can type: decided here, and VRChat waits for a person to confirm the account.
  await expect(card.getByTestId("unconfirmed")).toContainText("Matched by name only");
  await expect(card.getByTestId("link-vrchat-name-only")).toHaveText("Matched by name only: not yet confirmed as theirs");
  expect(fake.actions).toEqual([]);
  await page.screenshot({ path: "test-results/decisions-card-unconfirmed-wide.png", fullPage: true });
  await card.getByRole("button", { name: "Confirm: this is them" }).click();
  await expect(card.getByText(`VRChat: confirmed by staff: Ember Wisp (${fakeUserId(21)})`)).toBeVisible();
  await expect(card.getByText("Join request accepted in VRChat").first()).toBeVisible({ timeout: 20_000 });
  await expect(card.getByTestId("unconfirmed")).toHaveCount(0);
  expect(fake.actions).toEqual([expect.objectContaining({ kind: "accept", userId: fakeUserId(21) })]);
  await expect(card.getByText(/VRChat: Join request accepted in VRChat/)).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "test-results/decisions-card-narrow.png", fullPage: true });

  await applicant.goto(statusUrl);
  await expect(applicant.getByTestId("application-status")).toHaveText("Approved");
  await expect(applicant.getByTestId("decision-message")).toContainText("Welcome among the Dwellers, Ember Wisp!");
  await expect(applicant.getByTestId("decision-message")).toContainText(INVITE);
  await applicant.setViewportSize({ width: 390, height: 844 });
  await applicant.screenshot({ path: "test-results/decisions-status-narrow.png", fullPage: true });
  expect(fake.actions).toHaveLength(1);
});

test("an admin edits a decision message with a preview, and the next applicant reads it", async ({ page, browser }) => {
  await signIn(page, "/admin/messages");
  await expect(page.getByRole("heading", { name: "Decision Messages" })).toBeVisible();
  await hydrated(page);
  const group = page.getByRole("region", { name: "Joining the group" });
  const rejected = group.getByLabel("Not accepted");
  await rejected.fill("Not this moon, {username}. Come to {discord_invite} anyway.");
  await expect(group.getByTestId("preview-rejected")).toHaveText(`Not this moon, Wanderer. Come to ${INVITE} anyway.`);
  await group.getByRole("button", { name: "Save" }).nth(1).click();
  await expect(page.getByText("Message saved.")).toBeVisible();
  await expect(group.getByText("Written for here")).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: "test-results/decisions-messages-wide.png", fullPage: true });

  const applicant = await browser.newPage();
  await applyToGroup(applicant, "Ember Wisp Two");
  await applicant.getByRole("link", { name: "Check your application status" }).click();
  await applicant.waitForURL(/\/applications\/status\//);
  const statusUrl = applicant.url();

  await page.goto(`${server.url}/admin/applications`);
  await hydrated(page);
  const card = page.getByRole("list", { name: "Applications" }).getByRole("listitem").filter({ hasText: "Ember Wisp Two" });
  await card.getByRole("button", { name: "Reject" }).click();
  await expect(card.getByText("Rejected", { exact: true })).toBeVisible();
  // No join request under the name: the decision stands, and the card says how to finish it in VRChat.
  await expect(card.getByTestId("not-linked")).toContainText("Not linked in VRChat");
  await applicant.goto(statusUrl);
  await expect(applicant.getByTestId("application-status")).toHaveText("Not accepted");
  await expect(applicant.getByTestId("decision-message")).toHaveText(`Not this moon, Ember Wisp Two. Come to ${INVITE} anyway.`);
  // Not linked to a VRChat account: nothing was done there.
  expect(fake.actions).toHaveLength(1);
});

/** 'Confirm: this is them' on a decided card whose account was matched by name: the decision then acts in VRChat. */
async function confirmAccount(card: Locator) {
  await expect(card.getByTestId("unconfirmed")).toBeVisible();
  await card.locator("summary", { hasText: "Show responses" }).click();
  await card.getByRole("button", { name: "Confirm: this is them" }).click();
  await expect(card.getByText(/VRChat: confirmed by staff: /)).toBeVisible();
}

/** A group application's card, from the list (not opened: the decision links by itself). */
async function cardOf(page: Page, name: string) {
  await page.goto(`${server.url}/admin/applications`);
  await hydrated(page);
  return page.getByRole("list", { name: "Applications" }).getByRole("listitem").filter({ hasText: name });
}

test("a rejection that also blocks, and a refused permission shown with 'Retry'", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const applicant = await browser.newPage();
  await applyToGroup(applicant, "Ash Crow");
  await applyToGroup(applicant, "Iron Owl");
  await signIn(page, "/admin/applications");
  await expect(page.getByRole("heading", { name: "Ritual Applications" })).toBeVisible();

  let card = await cardOf(page, "Ash Crow");
  await card.getByLabel("and block").check();
  await card.getByRole("button", { name: "Reject" }).click();
  // Matched by name: the rejection (and its block) waits for the account to be confirmed as theirs.
  await confirmAccount(card);
  await expect(card.getByText("Join request rejected and blocked in VRChat").first()).toBeVisible({ timeout: 20_000 });
  expect(fake.actions.at(-1)).toMatchObject({ kind: "reject", userId: fakeUserId(23), block: true });

  fake.setEndpoint("respondRequest", { status: 403, message: "You don't have permission to do that." });
  card = await cardOf(page, "Iron Owl");
  await card.getByRole("button", { name: "Approve" }).click();
  await confirmAccount(card);
  const actions = card.getByTestId("decision-actions");
  await expect(actions.getByText(/Failed: VRChat refused the bot account \(You don't have permission to do that\.\)/)).toBeVisible({ timeout: 20_000 });
  fake.setEndpoint("respondRequest", "normal");
  await actions.getByRole("button", { name: "Retry" }).click();
  await expect(actions.getByText("Join request accepted in VRChat")).toBeVisible({ timeout: 20_000 });
  expect(fake.actions.filter((action) => action.userId === fakeUserId(24))).toEqual([expect.objectContaining({ kind: "accept" })]);
});

test("a bulk approval from the list: its confirmation says what VRChat will do, asks about the accounts matched by name, and each is linked at the decision", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const applicant = await browser.newPage();
  await applyToGroup(applicant, "Bulk Wren");
  await applyToGroup(applicant, "Nobody Wren");
  await signIn(page, "/admin/applications");
  await expect(page.getByRole("heading", { name: "Ritual Applications" })).toBeVisible();
  await hydrated(page);
  const list = page.getByRole("list", { name: "Applications" });
  await list.getByRole("checkbox", { name: "Select Bulk Wren" }).check();
  await list.getByRole("checkbox", { name: "Select Nobody Wren" }).check();
  await page.getByRole("button", { name: "Approve selected" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText(
    "0 will be accepted in VRChat; 1 needs an account first (choose it on the card). 1 is matched by name only: decided here, and acted on in VRChat once you confirm its account on its card.",
  );
  await dialog.getByLabel("The account matched by name is theirs (I checked): act on it in VRChat now.").check();
  await page.screenshot({ path: "test-results/decisions-bulk-confirm.png" });
  await dialog.getByRole("button", { name: "Approve 2 applications" }).click();
  await expect(page.getByText("2 applications approved. 1 not linked in VRChat: choose its account on its card.")).toBeVisible();
  const bulk = list.getByRole("listitem").filter({ hasText: "Bulk Wren" });
  await expect(bulk.getByText("Join request accepted in VRChat").first()).toBeVisible({ timeout: 20_000 });
  expect(fake.actions.filter((action) => action.userId === fakeUserId(25))).toEqual([expect.objectContaining({ kind: "accept" })]);
  await expect(list.getByRole("listitem").filter({ hasText: "Nobody Wren" }).getByTestId("not-linked")).toBeVisible();
});
