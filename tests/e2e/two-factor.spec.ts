/**
 * Two-factor sign-in in Chromium, on a site that requires it of admins: enrolment from the key the
 * Security page shows, signing in with a code and with a recovery code, turning it off.
 */
import { HOOK_TIMEOUT_MS } from "../setup/server-process";
import { expect, test, type Page } from "@playwright/test";
import { authenticator } from "../setup/authenticator";
import { expectNoSeriousViolations } from "./axe";
import { hydrated } from "./hydrated";
import { startOwnSite, type OwnSite } from "./own-site";

const ADMIN = { email: "keeper@dwell.example", password: "moonlight-keeper" };

test.describe.configure({ mode: "serial", timeout: 90_000 });

let site: OwnSite;
let secret = "";
let recoveryCodes: string[] = [];

test.beforeAll(async () => {
  // Starting a server of its own: see HOOK_TIMEOUT_MS.
  test.setTimeout(HOOK_TIMEOUT_MS);
  site = await startOwnSite(ADMIN, { REQUIRE_ADMIN_2FA: "true" });
});
test.afterAll(async () => {
  await site?.stop();
});

/** The authenticator app, from the key the page showed: a code not used yet each time. */
const app = authenticator(() => secret);

async function passphrase(page: Page) {
  await page.goto(`${site.url}/admin`);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Enter Sanctum" }).click();
}

/** The second step: a code (or a recovery code) typed and sent. */
async function secondKey(page: Page, code: string) {
  await page.getByLabel("Code from your authenticator app").fill(code);
  await page.getByRole("button", { name: "Enter Sanctum" }).click();
}

/** Signed in with a code: the Sanctum greets the admin, who then signs out from the dashboard. */
async function enterAndLeave(page: Page, code: string) {
  await passphrase(page);
  await secondKey(page, code);
  await expect(page.getByText(/Welcome, /)).toBeVisible();
  await page.goto(`${site.url}/admin`);
  await signOut(page);
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign Out" }).click();
  await expect(page.getByRole("heading", { name: "Enter the Sanctum" })).toBeVisible();
}

test("an admin is led to the Security page and enrols with the key it shows", async ({ page }) => {
  await passphrase(page);
  await expect(page).toHaveURL(/\/admin\/security\?required$/);
  await expect(page.getByText("Your role signs in with a second key on this site.")).toBeVisible();
  await hydrated(page);
  await expectNoSeriousViolations(page, "the Security page");
  // Nothing else of the Sanctum opens yet.
  await page.getByRole("link", { name: "Ritual Applications" }).click();
  await expect(page).toHaveURL(/\/admin\/security\?required$/);

  await page.getByLabel("Current Passphrase").fill(ADMIN.password);
  await page.getByRole("button", { name: "Set Up Two-Factor Sign-In" }).click();
  await expect(page.getByRole("img", { name: "QR code of your authenticator key" })).toBeVisible();
  secret = (await page.getByTestId("totp-secret").innerText()).replaceAll(/\s/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{32,}$/);
  recoveryCodes = await page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem").allInnerTexts();
  expect(recoveryCodes).toHaveLength(10);
  await expectNoSeriousViolations(page, "the enrolment step");
  await page.screenshot({ path: test.info().outputPath("enrolment.png"), fullPage: true });

  await page.getByLabel("Code from your app").fill("000000");
  await page.getByRole("button", { name: "Turn On Two-Factor Sign-In" }).click();
  await expect(page.getByText("That code is not right.")).toBeVisible();
  await page.getByLabel("Code from your app").fill(await app.fresh());
  await page.getByRole("button", { name: "Turn On Two-Factor Sign-In" }).click();
  await expect(page.getByText("Two-factor sign-in is on.")).toBeVisible();
  await page.getByRole("link", { name: "Ritual Applications" }).click();
  await expect(page.getByRole("heading", { name: /Ritual Applications/ }).first()).toBeVisible();
});

test("signing in takes a code after the passphrase, or a recovery code once", async ({ page }) => {
  // Each code works once: this may wait for the authenticator's next code (30 s).
  test.slow();
  await passphrase(page);
  await expect(page.getByRole("heading", { name: "Your Second Key" })).toBeVisible();
  await hydrated(page);
  await expectNoSeriousViolations(page, "the code step");
  await secondKey(page, await app.fresh());
  await expect(page.getByText(/Welcome, /)).toBeVisible();
  await page.goto(`${site.url}/admin`);
  await signOut(page);

  await enterAndLeave(page, recoveryCodes[0]!);

  await passphrase(page);
  await secondKey(page, recoveryCodes[0]!);
  await expect(page.getByText("That code is not right.")).toBeVisible();
});

test("turning it off takes the passphrase and a code; the site then asks for it again", async ({ page }) => {
  // Each code works once: this may wait for the authenticator's next code (30 s).
  test.slow();
  await passphrase(page);
  await secondKey(page, recoveryCodes[1]!);
  await expect(page.getByText(/Welcome, /)).toBeVisible();
  await page.goto(`${site.url}/admin/security`);
  const off = page.locator("form", { has: page.getByRole("button", { name: "Turn Off Two-Factor Sign-In" }) });
  await off.getByLabel("Current Passphrase").fill(ADMIN.password);
  await off.getByLabel("Code from your app").fill("111111");
  await off.getByRole("button", { name: "Turn Off Two-Factor Sign-In" }).click();
  await expect(page.getByText("That code is not right.")).toBeVisible();
  await off.getByLabel("Current Passphrase").fill(ADMIN.password);
  await off.getByLabel("Code from your app").fill(await app.fresh());
  await off.getByRole("button", { name: "Turn Off Two-Factor Sign-In" }).click();
  await expect(page.getByText("Two-factor sign-in is off.")).toBeVisible();
  await expect(page.getByText("Your role signs in with a second key on this site.")).toBeVisible();
});
