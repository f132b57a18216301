import { expect, test, type Browser, type Page } from "@playwright/test";
import { createAccount } from "./accounts";
import { followLink, hydrated } from "./hydrated";

const ADMIN = { email: "capacity@dwell.example", password: "moonlight-capacity", username: "Warden" };

test.beforeAll(() => createAccount(ADMIN.email, ADMIN.password, "admin", ADMIN.username));

async function signIn(page: Page) {
  await page.goto("/admin/events");
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Enter Sanctum" }).click();
  await expect(page.getByRole("link", { name: "Create New Prophecy" })).toBeVisible();
}

/** A visitor applies through the event's page; the confirmation's text and status link. */
async function apply(browser: Browser, title: string, name: string) {
  const visitor = await browser.newPage();
  await visitor.goto("/events");
  await visitor.getByRole("link", { name: new RegExp(title) }).first().click();
  await visitor.getByRole("link", { name: "Apply Now" }).first().click();
  await visitor.getByLabel("What is your VRChat username?").fill(name);
  await visitor.getByRole("button", { name: "Submit Application" }).click();
  await expect(visitor.getByRole("heading", { name: "Application Submitted" })).toBeVisible();
  const confirmation = await visitor.getByRole("status").first().innerText();
  const statusUrl = await visitor.getByRole("link", { name: "Check your application status" }).getAttribute("href");
  await visitor.close();
  return { confirmation, statusUrl: statusUrl! };
}

test("an event's places: visitors see what is left, a full event keeps a waitlist, and going over asks first", async ({ page, browser }) => {
  test.setTimeout(240_000);
  const title = `Lantern Walk ${Date.now()}`;
  await signIn(page);
  await page.getByRole("link", { name: "Create New Prophecy" }).click();
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Event Date").fill("2031-05-01");
  await page.getByLabel("Event Time").fill("20:00");
  await page.getByLabel("World Name").fill("The Hollow");
  await page.getByLabel("Requires Application").check();
  await page.getByLabel("Max Attendees").fill("1");
  await page.getByRole("button", { name: "Create Prophecy" }).click();
  await page.getByRole("link", { name: `Edit Questions of ${title}` }).click();
  const add = page.locator("form", { has: page.getByRole("button", { name: "Add Question" }) });
  await add.getByLabel("Question", { exact: true }).fill("What is your VRChat username?");
  await add.getByRole("button", { name: "Add Question" }).click();
  await expect(page.getByRole("heading", { name: "Current Questions (1)" })).toBeVisible();

  const visitor = await browser.newPage();
  await visitor.goto("/events");
  await visitor.getByRole("link", { name: new RegExp(title) }).first().click();
  await expect(visitor.getByTestId("places-left")).toHaveText("1 of 1 place left");
  await visitor.close();

  const first = await apply(browser, title, "Ash Walker");
  expect(first.confirmation).not.toContain("waitlist");
  await page.goto("/admin/events");
  await followLink(page.getByRole("link", { name: `View Applications of ${title}` }));
  const card = (name: string) => page.getByRole("list", { name: "Applications" }).getByRole("listitem").filter({ hasText: name });
  await card("Ash Walker").getByText("Show responses").click();
  await card("Ash Walker").getByRole("button", { name: "Approved" }).click();
  await expect(page.getByTestId("places-taken")).toHaveText("· 1 of 1 place taken");

  const second = await apply(browser, title, "Birch Walker");
  expect(second.confirmation).toContain("your application is on the waitlist");
  const status = await browser.newPage();
  await status.goto(second.statusUrl);
  await expect(status.getByTestId("application-status")).toHaveText("Waitlist");
  await expect(status.getByTestId("waitlist-position")).toContainText("You are number 1 on the waitlist.");

  // The admin tries to approve the waitlisted one: asked first, cancels, then goes over.
  await page.reload();
  await hydrated(page);
  await page.getByLabel("Status").selectOption("Waitlist");
  await expect(card("Birch Walker")).toBeVisible();
  await card("Birch Walker").getByText("Show responses").click();
  await card("Birch Walker").getByRole("button", { name: "Approved" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Approve over capacity?" });
  await expect(dialog).toContainText("The event is full: 1 of 1 place taken.");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(card("Birch Walker").getByText("Waitlist", { exact: true }).first()).toBeVisible();
  await card("Birch Walker").getByRole("button", { name: "Approved" }).click();
  await dialog.getByRole("button", { name: "Approve anyway" }).click();
  await expect(page.getByTestId("places-taken")).toHaveText("· 2 of 1 place taken");
  await status.reload();
  await expect(status.getByTestId("application-status")).toHaveText("Approved");
  await status.close();
});
