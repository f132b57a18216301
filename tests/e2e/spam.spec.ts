/**
 * The spam defences as people meet them, on a site with a fill time (30 s here rather than the
 * production 3 s, so that a hasty visitor is hasty even on a busy test machine, where opening and
 * filling the form has taken more than 10 s): a person who takes
 * their time is through; one who is quicker than that is told so and sends again with the answers
 * kept. An admin marks spam from the review, one by one and in bulk, and finds it
 * under its own filter.
 */
import { HOOK_TIMEOUT_MS } from "../setup/server-process";
import { expect, test, type Browser } from "@playwright/test";
import { hydrated } from "./hydrated";
import { startOwnSite, type OwnSite } from "./own-site";

const ADMIN = { email: "sentry@dwell.example", password: "moonlight-sentry" };
const FILL_SECONDS = 30;

test.describe.configure({ mode: "serial", timeout: 150_000 });

let site: OwnSite;
test.beforeAll(async () => {
  // Starting a server of its own: see HOOK_TIMEOUT_MS.
  test.setTimeout(HOOK_TIMEOUT_MS);
  site = await startOwnSite(ADMIN, { FORM_MIN_FILL_SECONDS: String(FILL_SECONDS) });
});
test.afterAll(async () => {
  await site?.stop();
});

async function apply(browser: Browser, name: string, { takeTime }: { takeTime: boolean }) {
  const page = await browser.newPage();
  await page.goto(`${site.url}/apply`);
  await hydrated(page);
  await page.getByLabel("What is your VRChat username?").fill(name);
  await page.getByLabel("What is your Discord username?").fill(`${name.toLowerCase()}-discord`);
  await page.getByLabel("How did you find the Dwellers?").selectOption("A friend");
  await page.getByLabel("Tell us about yourself").fill(`I am ${name}.`);
  // A person reads the questions: a few seconds pass between the page and the button.
  if (takeTime) await page.waitForTimeout(FILL_SECONDS * 1000);
  await page.getByRole("button", { name: "Complete the Ritual" }).click();
  return page;
}

test("a person is through; one quicker than a person can be is asked to send again, answers kept", async ({ browser }) => {
  // The patient ones (two of them spammers taking their time) while a hasty one is turned back.
  const patient = Promise.all(["Patience", "Spammer One", "Spammer Two"].map((name) => apply(browser, name, { takeTime: true })));
  const hasty = await apply(browser, "Haste", { takeTime: false });
  await expect(hasty.getByRole("alert")).toHaveText(
    "That was quicker than a person can fill in this form. Please check your answers and send it again.",
  );
  await expect(hasty.getByLabel("Tell us about yourself")).toHaveValue("I am Haste.");
  await hasty.waitForTimeout(FILL_SECONDS * 1000);
  await hasty.getByRole("button", { name: "Complete the Ritual" }).click();
  await expect(hasty.getByRole("heading", { name: "The Ritual Is Complete" })).toBeVisible();
  for (const page of await patient) await expect(page.getByRole("heading", { name: "The Ritual Is Complete" })).toBeVisible();
});

test("an admin marks spam one by one and in bulk, and finds it under its filter", async ({ page }) => {
  await page.goto(`${site.url}/admin/applications`);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Enter Sanctum" }).click();
  await expect(page.getByRole("heading", { name: "Ritual Applications" })).toBeVisible();
  await hydrated(page);
  const total = page.getByText("Total Applications", { exact: true }).locator("xpath=following-sibling::p");
  await expect(total).toHaveText("4");

  const card = (name: string) => page.locator("div").filter({ has: page.getByText(name, { exact: true }) }).filter({ has: page.getByRole("button", { name: /Spam/ }) }).last();
  await card("Spammer One").getByRole("button", { name: "Mark as Spam" }).click();
  await expect(page.getByText("Spammer One", { exact: true }).first()).toBeHidden();
  await expect(total).toHaveText("3");

  await page.getByRole("checkbox", { name: "Select Spammer Two" }).check();
  await page.getByRole("button", { name: "Mark selected as spam" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Mark 1 application as spam" }).click();
  await expect(page.getByText("1 application marked as spam.")).toBeVisible();
  await expect(page.getByText("Spammer Two", { exact: true }).first()).toBeHidden();
  await expect(total).toHaveText("2");

  await page.getByRole("combobox", { name: "Status" }).selectOption("spam");
  await expect(page.getByText("Spammer One", { exact: true }).first()).toBeVisible();
  await expect(page.getByText("Spammer Two", { exact: true }).first()).toBeVisible();
  await expect(page.getByText("Patience", { exact: true }).first()).toBeHidden();
  await card("Spammer One").getByRole("button", { name: "Not Spam" }).click();
  await expect(page.getByText("Spammer One", { exact: true }).first()).toBeHidden();
  await page.getByRole("combobox", { name: "Status" }).selectOption("all");
  await expect(page.getByText("Spammer One", { exact: true }).first()).toBeVisible();
  await expect(total).toHaveText("3");
});

test.describe("a crowd at the door", () => {
  // A ceiling of one a minute: the second applicant of the minute is already a crowd.
  let crowded: OwnSite;
  test.beforeAll(async () => {
    test.setTimeout(HOOK_TIMEOUT_MS);
    crowded = await startOwnSite({ email: "crowd-warden@dwell.example", password: "moonlight-crowd-warden" }, {
      RATE_LIMIT_APPLICATIONS_SITE: "1",
      FORM_MIN_FILL_SECONDS: "0",
    });
  });
  test.afterAll(async () => {
    await crowded?.stop();
  });

  async function answer(page: import("@playwright/test").Page, name: string) {
    await page.getByLabel("What is your VRChat username?").fill(name);
    await page.getByLabel("What is your Discord username?").fill(`${name.toLowerCase().replaceAll(" ", "")}-discord`);
    await page.getByLabel("How did you find the Dwellers?").selectOption("A friend");
    await page.getByLabel("Tell us about yourself").fill(`I am ${name}.`);
  }
  async function fill(page: import("@playwright/test").Page, name: string) {
    await page.goto(`${crowded.url}/apply`);
    await answer(page, name);
  }

  test("lets people with a browser in past the ceiling (it solves a proof of work), and tells the others when to try again", async ({ browser }) => {
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const first = await noScript.newPage();
    await fill(first, "First Lantern");
    await first.getByRole("button", { name: "Complete the Ritual" }).click();
    await expect(first.getByRole("heading", { name: "The Ritual Is Complete" })).toBeVisible();

    // Past the ceiling: a browser with JavaScript solves the challenge while the form is filled in.
    const person = await browser.newPage();
    await person.goto(`${crowded.url}/apply`);
    await hydrated(person);
    // Nothing is solved (nor its solver fetched) for a visit that only looks.
    await person.waitForTimeout(1_000);
    await expect(person.locator('input[name="crowd_proof"]')).toHaveCount(0);
    await person.getByLabel("What is your VRChat username?").focus();
    const opened = Date.now();
    await expect(person.locator('input[name="crowd_proof"]')).toHaveCount(1, { timeout: 20_000 });
    const solvedAfter = `solved ${Date.now() - opened} ms after the person started on the form (default work)`;
    test.info().annotations.push({ type: "crowd challenge", description: solvedAfter });
    console.log(`crowd challenge: ${solvedAfter}`);
    await answer(person, "Second Lantern");
    await person.getByRole("button", { name: "Complete the Ritual" }).click();
    await expect(person.getByRole("heading", { name: "The Ritual Is Complete" })).toBeVisible();

    // Sent at once, before the check is done: it is sent when it is.
    const hasty = await browser.newPage();
    await hasty.goto(`${crowded.url}/apply`);
    await hydrated(hasty);
    await answer(hasty, "Third Lantern");
    await hasty.getByRole("button", { name: "Complete the Ritual" }).click();
    await expect(hasty.getByRole("heading", { name: "The Ritual Is Complete" })).toBeVisible({ timeout: 20_000 });

    // Without JavaScript, past the ceiling: the page says when to try again, answers kept. (Should a
    // new minute have begun just now, its first applicant is within the ceiling: the next is not.)
    const later = await noScript.newPage();
    for (const name of ["Fourth Lantern", "Fifth Lantern"]) {
      await fill(later, name);
      await later.getByRole("button", { name: "Complete the Ritual" }).click();
      const refused = later.getByRole("alert").filter({ hasText: /./ });
      await expect(refused.or(later.getByRole("heading", { name: "The Ritual Is Complete" }))).toBeVisible();
      if (await refused.isVisible()) break;
    }
    await expect(later.getByRole("alert")).toHaveText("The site is receiving a lot of applications right now. Please try again in a minute.");
    await expect(later.getByLabel("Tell us about yourself")).toHaveValue(/^I am (Fourth|Fifth) Lantern\.$/);
    await noScript.close();
  });
});
