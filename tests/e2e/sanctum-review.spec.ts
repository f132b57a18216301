import { expect, test, type Page } from "@playwright/test";
import { createAccount } from "./accounts";
import { hydrated } from "./hydrated";

const ADMIN = { email: "reviewer@dwell.example", password: "moonlight-reviewer", username: "Reviewer" };

test.beforeAll(() => createAccount(ADMIN.email, ADMIN.password, "admin", ADMIN.username));

async function applyToGathering(page: Page, name: string) {
  await page.goto("/events");
  await page.getByRole("link", { name: /The Gathering at the Threshold/ }).first().click();
  await page.getByRole("link", { name: "Apply Now" }).click();
  await page.getByLabel("What is your VRChat username?").fill(name);
  await page.getByLabel("What is your Discord username?").fill(`${name}-discord`);
  await page.getByLabel("Why do you wish to attend?").fill("x".repeat(250));
  await page.getByRole("button", { name: "Submit Application" }).click();
  await expect(page.getByRole("heading", { name: "Application Submitted" })).toBeVisible();
}

async function signIn(page: Page, path: string) {
  await page.goto(path);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Enter Sanctum" }).click();
}

test("an admin finds an event application, approves it with a note, and exports the list", async ({ page, browser }) => {
  const name = `Sparrow${Date.now()}`;
  const visitor = await browser.newPage();
  await applyToGathering(visitor, name);
  await visitor.close();

  await signIn(page, "/admin/events");
  await page.getByRole("link", { name: "View Applications of The Gathering at the Threshold" }).click();
  await expect(page.getByRole("heading", { name: "Event Applications" })).toBeVisible();
  await expect(page.getByText("Total Applications")).toBeVisible();

  // The list follows the search box; there is nothing to press.
  await hydrated(page);
  await page.getByPlaceholder("Search by VRChat username or Discord ID...").fill(name.toLowerCase());
  const list = page.getByRole("list", { name: "Applications" });
  await expect(list.getByRole("listitem")).toHaveCount(1);
  const card = list.getByRole("listitem").first();
  await expect(card.getByText("Pending", { exact: true }).first()).toBeVisible();
  await card.getByText("Show responses").click();
  await expect(card.getByText("Application Responses")).toBeVisible();
  // A long answer is cut at 200 characters in the review.
  await expect(card.getByText(`${"x".repeat(200)}...`)).toBeVisible();
  await expect(card.getByText("No response")).toBeVisible();

  await card.getByLabel("Admin Notes").fill("Knows the hosts.");
  await card.getByLabel("Admin Notes").blur();
  await card.getByRole("button", { name: "Approved" }).click();
  await expect(card.getByText("Approved").first()).toBeVisible();
  await expect(card.getByText(/Reviewed: /)).toBeVisible();
  await expect(card.getByText(`${ADMIN.username}: status pending → approved`)).toBeVisible();
  await expect(card.getByText(`${ADMIN.username}: notes updated`)).toBeVisible();

  await page.getByLabel("Status").selectOption("Rejected");
  await expect(page.getByText("No applications match your filters")).toBeVisible();

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("The_Gathering_at_the_Threshold_applications.csv");
  const csv = await (await file.createReadStream()).toArray();
  const text = Buffer.concat(csv).toString("utf8");
  expect(text.split("\r\n")[0]).toBe(
    '"VRChat Username","Discord ID","Status","Submitted At","Reviewed At","Notes","What is your VRChat username?","What is your Discord username?","Why do you wish to attend?","Which part calls to you?"',
  );
  expect(text).toContain(`"${name}","${name}-discord","approved"`);
  expect(text).toContain('"Knows the hosts."');
});

test("group applications are approved or rejected from pending", async ({ page, browser }) => {
  const name = `Robin${Date.now()}`;
  const visitor = await browser.newPage();
  await visitor.goto("/apply");
  await visitor.getByLabel("What is your VRChat username?").fill(name);
  await visitor.getByLabel("What is your Discord username?").fill(name);
  await visitor.getByLabel("How did you find the Dwellers?").selectOption("A friend");
  await visitor.getByLabel("Tell us about yourself").fill("Hello");
  await visitor.getByRole("button", { name: "Complete the Ritual" }).click();
  await expect(visitor.getByRole("heading", { name: "The Ritual Is Complete" })).toBeVisible();
  await visitor.close();

  await signIn(page, `/admin/applications?q=${name}`);
  await expect(page.getByRole("heading", { name: "Ritual Applications" })).toBeVisible();
  const card = page.getByRole("list", { name: "Applications" }).getByRole("listitem").first();
  await card.getByText("Show responses").click();
  await card.getByRole("button", { name: "Approve" }).click();
  await expect(card.getByText("Approved", { exact: true }).first()).toBeVisible();
  await expect(card.getByRole("button", { name: "Reject" })).toHaveCount(0);
});
