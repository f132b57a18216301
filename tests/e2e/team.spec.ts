/**
 * A team in Chromium, as its people meet it: an owner invites a reviewer (no mail is set up here,
 * so the page shows the link once), the reviewer joins, is made to set up two-factor sign-in (the
 * owner requires it of reviewers), decides an application, and is refused the event editor and
 * the export; the owner removes them, and the page they still have open stops working.
 */
import { expect, test, type Page } from "@playwright/test";
import { HOOK_TIMEOUT_MS } from "../setup/server-process";
import { authenticator } from "../setup/authenticator";
import { postForm } from "../setup/sanctum-client";
import { expectNoSeriousViolations } from "./axe";
import { hydrated } from "./hydrated";
import { startOwnSite, type OwnSite } from "./own-site";

const OWNER = { email: "keeper@dwell.example", password: "moonlight-keeper" };
const REVIEWER = { email: "sky@dwell.example", username: "Sky", password: "a-reviewer-passphrase" };

test.describe.configure({ mode: "serial", timeout: 240_000 });

let site: OwnSite;
let secret = "";
const app = authenticator(() => secret);

test.beforeAll(async () => {
  // Starting a server of its own: see HOOK_TIMEOUT_MS.
  test.setTimeout(HOOK_TIMEOUT_MS);
  site = await startOwnSite(OWNER);
  // Someone applies to join the group, through the public form.
  const page = await fetch(`${site.url}/apply`).then((response) => response.text());
  const fields = [...page.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
  const sent = await postForm(site.url, "/apply", Object.fromEntries(fields.map((field, i) => [field, ["Team Moth", "team-moth", "A friend", "I tend the lanterns", ""][i]!])));
  expect(sent.status).toBe(200);
  await sent.body?.cancel();
});
test.afterAll(async () => {
  await site?.stop();
});

async function signIn(page: Page, who: { email: string; password: string }) {
  await page.goto(`${site.url}/admin`);
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Enter Sanctum" }).click();
  await expect(page.getByText(/Welcome, /)).toBeVisible();
}

test("the owner invites a reviewer, who joins, sets up two-factor, decides, and is refused the rest; removed, their page stops working", async ({ browser, page: ownerPage }) => {
  await signIn(ownerPage, OWNER);
  await ownerPage.getByRole("link", { name: "Team" }).click();
  await expect(ownerPage.getByRole("heading", { name: "Team", exact: true })).toBeVisible();
  await hydrated(ownerPage);
  await expectNoSeriousViolations(ownerPage, "the Team page");

  // Reviewers must sign in with a second key.
  await ownerPage.getByRole("checkbox", { name: "Reviewer", exact: true }).check();
  await ownerPage.getByRole("button", { name: "Save two-factor settings" }).click();
  await expect(ownerPage.getByText("Two-factor settings saved.")).toBeVisible();

  await ownerPage.getByLabel("E-mail").fill(REVIEWER.email);
  await ownerPage.getByLabel("Role", { exact: true }).first().selectOption("reviewer");
  await ownerPage.getByRole("button", { name: "Send invite" }).click();
  await expect(ownerPage.getByText(`Invitation made for ${REVIEWER.email}.`)).toBeVisible();
  const link = await ownerPage.getByLabel("Invitation link").inputValue();
  // Built from the site's own address (PUBLIC_URL; unset here: http://localhost and its port), never the request's Host.
  expect(link).toMatch(new RegExp(`^${site.server.publicUrl}/admin/join/[A-Za-z0-9_-]{43}$`));
  await ownerPage.screenshot({ path: test.info().outputPath("team-invited.png"), fullPage: true });

  // The reviewer, in a browser of their own.
  const reviewerContext = await browser.newContext();
  const reviewer = await reviewerContext.newPage();
  await reviewer.goto(link);
  await expect(reviewer.getByText(`For ${REVIEWER.email}, as Reviewer.`)).toBeVisible();
  await hydrated(reviewer);
  await expectNoSeriousViolations(reviewer, "the invitation page");
  await reviewer.getByLabel("Username").fill(REVIEWER.username);
  await reviewer.getByLabel("Cosmic Passphrase").fill(REVIEWER.password);
  await reviewer.getByLabel("Confirm Passphrase").fill(REVIEWER.password);
  await reviewer.getByRole("button", { name: "Join the team" }).click();
  await expect(reviewer).toHaveURL(/\/admin\/security\?required$/);
  await expect(reviewer.getByText("Your role signs in with a second key on this site.")).toBeVisible();
  await reviewer.getByLabel("Current Passphrase").fill(REVIEWER.password);
  await reviewer.getByRole("button", { name: "Set Up Two-Factor Sign-In" }).click();
  secret = (await reviewer.getByTestId("totp-secret").innerText()).replaceAll(/\s/g, "");
  await reviewer.getByLabel("Code from your app").fill(await app.fresh());
  await reviewer.getByRole("button", { name: "Turn On Two-Factor Sign-In" }).click();
  await expect(reviewer.getByText("Two-factor sign-in is on.")).toBeVisible();

  // The link was for one person, once.
  const elsewhere = await browser.newContext();
  const again = await elsewhere.newPage();
  await again.goto(link);
  await expect(again.getByText("This invitation is not valid: it was used, withdrawn, or it has expired.")).toBeVisible();
  await elsewhere.close();

  // What a reviewer sees: applications to decide, no editor, no export, no team.
  const sidebar = reviewer.getByRole("navigation", { name: "Sanctum" });
  await expect(sidebar.getByRole("link", { name: "Team" })).toHaveCount(0);
  await expect(sidebar.getByRole("link", { name: "Ritual Questions" })).toHaveCount(0);
  await expect(sidebar.getByRole("link", { name: "Screening" })).toHaveCount(0);
  await sidebar.getByRole("link", { name: "Ritual Applications" }).click();
  await expect(reviewer.getByRole("link", { name: "Export CSV" })).toHaveCount(0);
  const card = reviewer.getByRole("listitem").filter({ hasText: "Team Moth" });
  await card.getByRole("button", { name: "Approve" }).click();
  await expect(card.getByText("Approved", { exact: true })).toBeVisible();
  // The reviewer stays on the address their invitation gave them (their session's cookie is for it).
  const reviewersSite = site.server.publicUrl;
  await reviewer.goto(`${reviewersSite}/admin/events?new`);
  await expect(reviewer.getByText("This part of the Sanctum is not open to the Reviewer role.")).toBeVisible();
  const exported = await reviewer.request.get(`${reviewersSite}/admin/applications/export`);
  expect(exported.status()).toBe(403);
  await reviewer.goto(`${reviewersSite}/admin/applications`);
  await hydrated(reviewer);

  // The decision is in the history under the reviewer's name.
  await ownerPage.goto(`${site.url}/admin/applications?status=all`);
  const ownersCard = ownerPage.getByRole("listitem").filter({ hasText: "Team Moth" });
  await ownersCard.getByText("Show responses").click();
  await expect(ownersCard.getByText(/Sky: status pending → approved/)).toBeVisible();

  // The owner removes them: the reviewer's open page stops working at its next request.
  await ownerPage.goto(`${site.url}/admin/team`);
  await hydrated(ownerPage);
  await ownerPage.getByRole("button", { name: "Remove Sky" }).click();
  await ownerPage.getByRole("alertdialog").getByRole("button", { name: "Remove Sky" }).click();
  await expect(ownerPage.getByText("Removed from the team: their sessions have ended.")).toBeVisible();
  await expect(ownerPage.getByText("keeper removed Sky (sky@dwell.example, Reviewer)")).toBeVisible();
  await reviewer.getByRole("navigation", { name: "Sanctum" }).getByRole("link", { name: "Dashboard" }).click();
  await expect(reviewer.getByRole("heading", { name: "Enter the Sanctum" })).toBeVisible();
  await reviewerContext.close();
});

test("the last owner cannot be removed or demoted, and says so", async ({ page }) => {
  await signIn(page, OWNER);
  await page.goto(`${site.url}/admin/team`);
  await hydrated(page);
  const me = page.getByTestId("team-member").filter({ hasText: "(you)" });
  await me.getByLabel("Role").selectOption("admin");
  await me.getByRole("button", { name: /Change role/ }).click();
  await expect(page.getByText("The team's last owner cannot be removed or given another role: make someone else an owner first.")).toBeVisible();
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`team-${width}.png`), fullPage: true });
  }
});
