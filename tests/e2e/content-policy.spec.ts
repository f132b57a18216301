/**
 * The Content-Security-Policy allows no inline style element but the page's own (by nonce) and the
 * toasts' stylesheet (by its hash): the toasts and the dialogs still look and work as designed, no
 * policy violation is reported, and a style element injected into the page is refused.
 */
import { expect, test, type Page } from "@playwright/test";
import { createAccount } from "./accounts";
import { hydrated } from "./hydrated";

const ADMIN = { email: "warden-of-styles@dwell.example", password: "moonlight-of-styles" };

test.beforeAll(() => createAccount(ADMIN.email, ADMIN.password, "admin", "Stylewarden"));

/** Every Content-Security-Policy violation the page reports. */
function violations(page: Page) {
  const seen: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) seen.push(message.text());
  });
  return seen;
}

test("toasts are styled and an injected style element is refused", async ({ page }) => {
  const seen = violations(page);
  await page.goto("/apply");
  await hydrated(page);
  // An empty form: the browser's check says so in a toast.
  await page.getByRole("button", { name: "Complete the Ritual" }).click();
  const toaster = page.locator("[data-sonner-toaster]");
  await expect(toaster.locator("[data-sonner-toast]")).toBeVisible();
  expect(await toaster.evaluate((element) => getComputedStyle(element).position)).toBe("fixed");

  const applied = await page.evaluate(() => {
    const style = document.createElement("style");
    style.textContent = "body { --injected: yes; }";
    document.head.append(style);
    return getComputedStyle(document.body).getPropertyValue("--injected");
  });
  expect(applied).toBe("");
  await expect.poll(() => seen.length).toBe(1);
  expect(seen[0]).toMatch(/style-src-elem/);
});

test("a dialog locks the page's scroll with its nonce'd style element", async ({ page }) => {
  const seen = violations(page);
  await page.goto("/admin/events");
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Enter Sanctum" }).click();
  await expect(page.getByRole("heading", { name: "Event Prophecies" })).toBeVisible();
  await hydrated(page);
  await page.getByRole("button", { name: /^Delete / }).first().click();
  await expect(page.getByRole("alertdialog")).toBeVisible();
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).overflow)).toBe("hidden");
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("alertdialog")).toBeHidden();
  expect(seen).toEqual([]);
});
