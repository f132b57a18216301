import { expect, test, type Page } from "@playwright/test";
import { createAccount } from "./accounts";

const ADMIN = { email: "keeper@dwell.example", password: "moonlight-keeper", username: "Keeper" };
const MEMBER = { email: "wanderer@dwell.example", password: "starlight-wanderer" };

test.beforeAll(() => {
  createAccount(ADMIN.email, ADMIN.password, "admin", ADMIN.username);
  createAccount(MEMBER.email, MEMBER.password, "member");
});

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Enter Sanctum" }).click();
}

test("a visitor gets the sign-in screen, and a wrong password says so", async ({ page }) => {
  const response = await page.goto("/admin");
  expect(response?.status()).toBe(401);
  await expect(page.getByRole("heading", { name: "Enter the Sanctum" })).toBeVisible();
  await signIn(page, ADMIN.email, "not-the-password");
  await expect(page.getByRole("alert").filter({ hasText: /./ })).toHaveText("Invalid email or password");
});

test("an admin signs in, sees the dashboard, leaves and signs out", async ({ page }) => {
  await page.goto("/admin");
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page.getByText(`Welcome, ${ADMIN.username}`)).toBeVisible();
  for (const label of ["Total Events", "Upcoming Events", "Total Applications", "Event Applications"]) {
    await expect(page.getByText(label, { exact: true }).first()).toBeVisible();
  }
  await expect(page.getByRole("heading", { name: "Cosmic Status" })).toBeVisible();
  await expect(page.getByText("Harmonious")).toBeVisible();
  await expect(page.getByRole("list", { name: "System checks" })).toContainText("VRChat: not configured");
  await expect(page.getByRole("button", { name: "Sync now" })).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Sanctum" }).getByRole("link", { name: "Dashboard" })).toHaveAttribute("aria-current", "page");

  await page.getByRole("link", { name: "Leave Sanctum" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/admin");
  await expect(page.getByText(`Welcome, ${ADMIN.username}`)).toBeVisible();

  await page.getByRole("button", { name: "Sign Out" }).click();
  await expect(page.getByRole("heading", { name: "Enter the Sanctum" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { name: "Enter the Sanctum" })).toBeVisible();
});

test("an account without the admin role is turned away", async ({ page }) => {
  await page.goto("/admin");
  await signIn(page, MEMBER.email, MEMBER.password);
  await expect(page.getByText("Access Denied - You don't have admin privileges.")).toBeVisible();
  const response = await page.reload();
  expect(response?.status()).toBe(403);
});

test("a forgotten passphrase needs an email, then is sent (to the log here)", async ({ page }) => {
  await page.goto("/admin");
  await page.getByRole("button", { name: "Forgot your cosmic passphrase?" }).click();
  await expect(page.getByRole("alert").filter({ hasText: /./ })).toHaveText("Please enter your email address first");
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByRole("button", { name: "Forgot your cosmic passphrase?" }).click();
  await expect(
    page.getByText("Password reset email sent! Check your inbox and follow the link to reset your password."),
  ).toBeVisible();
  // Where the link went (the server log here) is the operator's business, not a stranger's.
  await expect(page.getByText(/server log|mail server/)).toHaveCount(0);
  await page.getByRole("button", { name: "Back to Login" }).click();
  await expect(page.getByRole("heading", { name: "Enter the Sanctum" })).toBeVisible();
});

test("a reset link without a token is refused", async ({ page }) => {
  await page.goto("/admin/reset-password");
  await expect(page.getByRole("heading", { name: "Renew Your Passphrase" })).toBeVisible();
  await expect(page.getByText("Invalid reset link. Please request a new password reset.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Update Passphrase" })).toBeDisabled();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an admin can still sign in", async ({ page }) => {
    await page.goto("/admin");
    await signIn(page, ADMIN.email, ADMIN.password);
    await expect(page.getByText(`Welcome, ${ADMIN.username}`)).toBeVisible();
  });
});

test("an admin changes their own passphrase", async ({ page }) => {
  const account = { email: `changer${Date.now()}@dwell.example`, password: "first-passphrase" };
  createAccount(account.email, account.password, "admin", "Changer");
  await page.goto("/admin");
  await signIn(page, account.email, account.password);
  await page.getByLabel("Current Passphrase").fill(account.password);
  await page.getByLabel("New Cosmic Passphrase").fill("second-passphrase");
  await page.getByLabel("Confirm Passphrase").fill("second-passphrase-typo");
  await page.getByRole("button", { name: "Change Passphrase" }).click();
  await expect(page.getByText("Passwords do not match")).toBeVisible();
  await page.getByLabel("Confirm Passphrase").fill("second-passphrase");
  await page.getByRole("button", { name: "Change Passphrase" }).click();
  await expect(page.getByText("Passphrase changed.")).toBeVisible();

  await page.getByRole("button", { name: "Sign Out" }).click();
  await signIn(page, account.email, account.password);
  await expect(page.getByText("Invalid email or password")).toBeVisible();
  await page.getByLabel("Password").fill("second-passphrase");
  await page.getByRole("button", { name: "Enter Sanctum" }).click();
  await expect(page.getByText("Welcome, Changer")).toBeVisible();
});
