import { expect, test, type Page } from "@playwright/test";
import { createAccount } from "./accounts";

const ADMIN = { email: "planner@dwell.example", password: "moonlight-planner" };

test.beforeAll(() => createAccount(ADMIN.email, ADMIN.password, "admin", "Planner"));

async function signIn(page: Page) {
  await page.goto("/admin/events");
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Enter Sanctum" }).click();
  await expect(page.getByRole("heading", { name: "Event Prophecies" })).toBeVisible();
}

test("an admin creates, edits and deletes a prophecy", async ({ page }) => {
  // Several screens, each saved: more than the default 30 s on a busy machine.
  test.setTimeout(90_000);
  const title = `Aurora Vigil ${Date.now()}`;
  await signIn(page);
  await page.getByRole("link", { name: "Create New Prophecy" }).click();
  await expect(page.getByRole("heading", { name: "Create New Prophecy" })).toBeVisible();

  // The spec's required fields, checked by the server.
  await page.getByRole("button", { name: "Create Prophecy" }).click();
  await expect(page.getByRole("alert").filter({ hasText: /./ })).toHaveText("Title is required");

  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Description").fill("We watch the lights.");
  await page.getByLabel("Event Date").fill("2030-01-15");
  await page.getByLabel("Event Time").fill("21:30");
  await page.getByLabel("Timezone").selectOption("EST");
  await page.getByLabel("World Name").fill("Northern Shore");
  await expect(page.getByLabel("Application Deadline")).toBeHidden();
  await page.getByLabel("Requires Application").check();
  await page.getByLabel("Application Deadline").fill("2030-01-10");
  await page.getByLabel("Max Attendees").fill("0");
  await page.getByRole("button", { name: "Create Prophecy" }).click();
  await expect(page.getByRole("alert").filter({ hasText: /./ })).toHaveText(/Max Attendees must be at least 1/);
  await page.getByLabel("Max Attendees").fill("");
  await page.getByRole("button", { name: "Create Prophecy" }).click();

  const card = page.getByRole("article", { name: title });
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
  await expect(card.getByText("0 applications")).toBeVisible();

  // The public page shows the deadline at the end of the chosen day, in the event's zone.
  await page.goto("/events");
  await page.getByRole("link", { name: new RegExp(title) }).click();
  await page.getByRole("tab", { name: "Application Info" }).click();
  await expect(page.getByText("Thursday, January 10, 2030 at 11:59 PM EST")).toBeVisible();
  await expect(page.getByText("Unlimited")).toBeVisible();

  await page.goto("/admin/events");
  await page.getByRole("link", { name: `Edit Event ${title}` }).click();
  await page.getByLabel("World Name").fill("Southern Shore");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Southern Shore")).toBeVisible();

  // Delete, through the dialog; cancelling first keeps it.
  await page.getByRole("button", { name: `Delete ${title}` }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText("Are you sure you want to delete this prophecy? This action cannot be undone.");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: `Delete ${title}` })).toBeFocused();
  await page.getByRole("button", { name: `Delete ${title}` }).click();
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("heading", { name: title })).toHaveCount(0);
});
