/**
 * The Sanctum as an admin uses it, on data made the way people make it: events and questions made
 * in the Sanctum, applications sent through the public forms. Then what the admin reads: the event
 * cards, the tiles, the dashboard, the lists as they search, and decisions one by one or in bulk.
 * The site is this file's own, so every figure is exact.
 */
import { HOOK_TIMEOUT_MS } from "../setup/server-process";
import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { hydrated } from "./hydrated";
import { startOwnSite, type OwnSite } from "./own-site";

const ADMIN = { email: "warden@dwell.example", password: "moonlight-warden" };
const SEARCH = "Search by VRChat username or Discord ID...";

// Each test walks through several screens, and several visitors apply: more than the default 30 s on a busy machine.
// The first one (two events made, five applications sent, each from a fresh page) takes about 27 s alone and
// went past 90 s once in the full suite on two cores, where other specs run their own servers beside it.
test.describe.configure({ mode: "serial", timeout: 180_000 });

let site: OwnSite;
test.beforeAll(async () => {
  // Starting a server of its own: see HOOK_TIMEOUT_MS.
  test.setTimeout(HOOK_TIMEOUT_MS);
  site = await startOwnSite(ADMIN);
});
test.afterAll(async () => {
  await site?.stop();
});

async function signIn(page: Page, path = "/admin", { javaScript = true } = {}) {
  await page.goto(`${site.url}${path}`);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Enter Sanctum" }).click();
  await expect(page.getByText(/Welcome, /)).toBeVisible();
  if (javaScript) await hydrated(page);
}

async function createEvent(page: Page, title: string) {
  await page.goto(`${site.url}/admin/events`);
  await page.getByRole("link", { name: "Create New Prophecy" }).click();
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Description").fill("Made for the count test.");
  await page.getByLabel("Event Date").fill("2031-03-14");
  await page.getByLabel("Event Time").fill("20:00");
  await page.getByLabel("World Name").fill("The Lantern Hall");
  await page.getByLabel("Requires Application").check();
  await page.getByRole("button", { name: "Create Prophecy" }).click();
  await expect(page.getByRole("heading", { name: title })).toBeVisible();

  await page.getByRole("link", { name: `Edit Questions of ${title}` }).click();
  const add = page.locator("form", { has: page.getByRole("button", { name: "Add Question" }) });
  for (const question of ["What is your VRChat username?", "What is your Discord username?"]) {
    await add.getByLabel("Question", { exact: true }).fill(question);
    await add.getByRole("button", { name: "Add Question" }).click();
    await expect(page.getByRole("listitem").filter({ hasText: question })).toBeVisible();
  }
}

/** A visitor's own browser, applying to an event through its page. */
async function applyToEvent(browser: Browser, title: string, name: string) {
  const visitor = await browser.newPage();
  await visitor.goto(`${site.url}/events`);
  await visitor.getByRole("link", { name: new RegExp(title) }).first().click();
  await visitor.getByRole("link", { name: "Apply Now" }).click();
  await visitor.getByLabel("What is your VRChat username?").fill(name);
  await visitor.getByLabel("What is your Discord username?").fill(`${name.toLowerCase()}#0`);
  await visitor.getByRole("button", { name: "Submit Application" }).click();
  await expect(visitor.getByRole("heading", { name: "Application Submitted" })).toBeVisible();
  await visitor.close();
}

async function applyToGroup(browser: Browser, name: string) {
  const visitor = await browser.newPage();
  await visitor.goto(`${site.url}/apply`);
  await visitor.getByLabel("What is your VRChat username?").fill(name);
  await visitor.getByLabel("What is your Discord username?").fill(`${name.toLowerCase()}#0`);
  await visitor.getByLabel("How did you find the Dwellers?").selectOption("Discord");
  await visitor.getByLabel("Tell us about yourself").fill("I like quiet worlds.");
  await visitor.getByRole("button", { name: "Complete the Ritual" }).click();
  await expect(visitor.getByRole("heading", { name: "The Ritual Is Complete" })).toBeVisible();
  await visitor.close();
}

/** Many applicants at once: the group form posted as a browser without JavaScript posts it. */
async function postGroupApplications(request: APIRequestContext, names: string[]) {
  const html = await (await request.get(`${site.url}/apply`)).text();
  const fields = [...html.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
  for (const name of names) {
    const answers = [name, `${name.toLowerCase()}#0`, "A friend", "Hello"];
    const response = await request.post(`${site.url}/apply`, {
      form: Object.fromEntries(fields.map((field, i) => [field, answers[i] ?? ""])),
      headers: { Origin: site.url },
    });
    expect(response.status()).toBe(200);
  }
}

async function tiles(page: Page) {
  const value = async (label: string) => Number((await page.getByText(label, { exact: true }).locator("xpath=following-sibling::p").first().innerText()).replaceAll(",", ""));
  return { total: await value("Total Applications"), pending: await value("Pending"), approved: await value("Approved"), rejected: await value("Rejected") };
}

test("event cards, review tiles and the dashboard agree on applications sent through the forms", async ({ page, browser }) => {
  await signIn(page);
  await createEvent(page, "Lantern Walk");
  await createEvent(page, "Quiet Hour");
  for (const name of ["Ash", "Birch", "Cedar"]) await applyToEvent(browser, "Lantern Walk", name);
  await applyToEvent(browser, "Quiet Hour", "Dogwood");
  await applyToGroup(browser, "Elm");

  await page.goto(`${site.url}/admin/events`);
  await page.getByRole("link", { name: "View Applications of Lantern Walk" }).click();
  expect(await tiles(page)).toEqual({ total: 3, pending: 3, approved: 0, rejected: 0 });
  const list = page.getByRole("list", { name: "Applications" });
  for (const [name, status] of [["Ash", "Approved"], ["Birch", "Rejected"]] as const) {
    const card = list.getByRole("listitem").filter({ hasText: name });
    await card.getByText("Show responses").click();
    await card.getByRole("button", { name: status }).click();
    // Pressed once the change is saved and the list has reloaded.
    await expect(card.getByRole("button", { name: status })).toHaveAttribute("aria-pressed", "true");
  }
  await page.reload();
  expect(await tiles(page)).toEqual({ total: 3, pending: 1, approved: 1, rejected: 1 });

  await page.goto(`${site.url}/admin/events`);
  const lantern = page.getByRole("article", { name: "Lantern Walk" });
  await expect(lantern.getByText("3 applications")).toBeVisible();
  await expect(lantern.getByText("1 pending")).toBeVisible();
  const quiet = page.getByRole("article", { name: "Quiet Hour" });
  await expect(quiet.getByText("1 application", { exact: true })).toBeVisible();
  await expect(quiet.getByText("1 pending")).toBeVisible();
  // The demo events had no applications: their cards say so.
  await expect(page.getByRole("article", { name: "The Gathering at the Threshold" }).getByText("0 applications")).toBeVisible();

  await page.goto(`${site.url}/admin`);
  // A stat card's figure follows its label; the Cosmic Status rows are a definition list.
  const stat = (label: string) => page.locator("p", { hasText: new RegExp(`^${label}$`) }).first().locator("xpath=following-sibling::p[1]");
  await expect(stat("Total Applications")).toHaveText("5");
  await expect(stat("Event Applications")).toHaveText("2");
  const status = page.locator("dl").filter({ hasText: "Legacy Applications" });
  await expect(status.getByText("Legacy Applications").locator("xpath=following-sibling::dd")).toHaveText("1 pending");
  await expect(status.getByText("Event Applications", { exact: true }).locator("xpath=following-sibling::dd")).toHaveText("4");
});

test("group applications are approved and rejected from the list, without opening them", async ({ page, browser }) => {
  for (const name of ["Fern", "Gorse"]) await applyToGroup(browser, name);
  await signIn(page, "/admin/applications");
  const list = page.getByRole("list", { name: "Applications" });
  const fern = list.getByRole("listitem").filter({ hasText: "Fern" });
  await fern.getByRole("button", { name: "Approve" }).click();
  await expect(fern.getByText("Approved", { exact: true })).toBeVisible();
  await expect(fern.getByRole("button", { name: /Approve|Reject/ })).toHaveCount(0);
  const gorse = list.getByRole("listitem").filter({ hasText: "Gorse" });
  await gorse.getByRole("button", { name: "Reject" }).click();
  await expect(gorse.getByText("Rejected", { exact: true })).toBeVisible();
  // Still there when the card is opened, with who decided.
  await gorse.getByText("Show responses").click();
  await expect(gorse.getByText(/Warden: status pending → rejected|warden: status pending → rejected/)).toBeVisible();
  expect(await tiles(page)).toMatchObject({ approved: 1, rejected: 1 });
});

test("the list follows the search as it is typed and the status as it is chosen", async ({ page }) => {
  await signIn(page, "/admin/events");
  await page.getByRole("link", { name: "View Applications of Lantern Walk" }).click();
  await expect(page.getByRole("heading", { name: "Event Applications" })).toBeVisible();
  const list = page.getByRole("list", { name: "Applications" }).getByRole("listitem");
  await expect(list).toHaveCount(3);
  const historyBefore = await page.evaluate(() => history.length);

  const search = page.getByPlaceholder(SEARCH);
  await search.pressSequentially("CED", { delay: 60 });
  await expect(list).toHaveCount(1);
  await expect(list.first()).toContainText("Cedar");
  await expect(search).toBeFocused();
  await expect(search).toHaveValue("CED");
  await expect(page).toHaveURL(/[?&]q=CED/);
  await expect(page.getByRole("status").filter({ hasText: "match" })).toHaveText("1 application matches");

  await search.fill("");
  await expect(list).toHaveCount(3);
  await page.getByLabel("Status").selectOption("Approved");
  await expect(list).toHaveCount(1);
  await expect(list.first()).toContainText("Ash");
  await expect(page).toHaveURL(/[?&]status=approved/);
  await page.getByLabel("Status").selectOption("Pending");
  await expect(list.first()).toContainText("Cedar");
  await search.pressSequentially("zzz", { delay: 30 });
  await expect(page.getByText("No applications match your filters")).toBeVisible();

  // Typing replaced the address instead of stacking up entries: Back leaves the screen.
  expect(await page.evaluate(() => history.length)).toBe(historyBefore);
  await page.goBack();
  await expect(page).toHaveURL(`${site.url}/admin/events`);
});

test("fifty group applications are approved in one action, each decision recorded", async ({ page, request }) => {
  const names = Array.from({ length: 53 }, (_, i) => `Wanderer${String(i).padStart(2, "0")}`);
  await postGroupApplications(request, names);
  await signIn(page, "/admin/applications?status=pending&q=Wanderer");
  const before = await tiles(page);
  await expect(page.getByRole("status").filter({ hasText: "match" })).toHaveText("53 applications match");

  await page.getByLabel("Select all on this page").check();
  await expect(page.getByText("50 selected")).toBeVisible();
  // Unticking one leaves it out.
  await page.getByLabel("Select Wanderer52").uncheck();
  await expect(page.getByLabel("Select all on this page")).not.toBeChecked();
  await page.getByLabel("Select all on this page").check();

  await page.getByRole("button", { name: "Approve selected" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog.getByRole("heading", { name: "Approve 50 applications?" })).toBeVisible();
  await dialog.getByRole("button", { name: "Approve 50 applications" }).click();
  await expect(page.getByText("50 applications approved.")).toBeVisible();
  await expect(dialog).toBeHidden();

  expect(await tiles(page)).toEqual({ ...before, pending: before.pending - 50, approved: before.approved + 50 });
  // The three left are the oldest, still pending: the list of pending ones shows only them.
  await expect(page.getByRole("list", { name: "Applications" }).getByRole("listitem")).toHaveCount(3);
  await expect(page.getByText("0 selected")).toBeVisible();

  await page.getByLabel("Status").selectOption("Approved");
  const card = page.getByRole("list", { name: "Applications" }).getByRole("listitem").filter({ hasText: "Wanderer49" });
  await card.getByText("Show responses").click();
  await expect(card.getByText(/: status pending → approved/)).toBeVisible();
  await expect(card.getByText(/Reviewed: /)).toBeVisible();
  // Decided group applications cannot be selected again.
  await expect(card.getByRole("checkbox")).toHaveCount(0);
});

test("an event's applications are rejected in bulk after the dialog names how many", async ({ page, browser }) => {
  for (const name of ["Hazel", "Ivy"]) await applyToEvent(browser, "Quiet Hour", name);
  await signIn(page, "/admin/events");
  await page.getByRole("link", { name: "View Applications of Quiet Hour" }).click();
  expect(await tiles(page)).toEqual({ total: 3, pending: 3, approved: 0, rejected: 0 });
  await page.getByLabel("Select Hazel").check();
  await page.getByLabel("Select Ivy").check();
  await page.getByRole("button", { name: "Reject selected" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog.getByRole("heading", { name: "Reject 2 applications?" })).toBeVisible();
  // Cancelling changes nothing and keeps the selection.
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByText("2 selected")).toBeVisible();
  await page.getByRole("button", { name: "Reject selected" }).click();
  await dialog.getByRole("button", { name: "Reject 2 applications" }).click();
  await expect(page.getByText("2 applications rejected.")).toBeVisible();
  expect(await tiles(page)).toEqual({ total: 3, pending: 1, approved: 0, rejected: 2 });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the filter is a plain form, and ticked applications are decided with one press", async ({ page, request }) => {
    await postGroupApplications(request, ["Juniper", "Kauri", "Larch"]);
    await signIn(page, "/admin/applications", { javaScript: false });
    await page.getByPlaceholder(SEARCH).fill("r");
    await page.getByLabel("Status").selectOption("Pending");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/q=r&status=pending/);
    const list = page.getByRole("list", { name: "Applications" }).getByRole("listitem");
    await expect(list.filter({ hasText: "Juniper" })).toHaveCount(1);

    await page.getByLabel("Select Kauri").check();
    await page.getByLabel("Select Larch").check();
    await page.getByRole("button", { name: "Reject selected" }).click();
    await expect(page.getByText("2 applications rejected.")).toBeVisible();
    await page.goto(`${site.url}/admin/applications?status=rejected&q=r`);
    await expect(page.getByRole("list", { name: "Applications" }).getByRole("listitem").filter({ hasText: /Kauri|Larch/ })).toHaveCount(2);

    await page.goto(`${site.url}/admin/applications`);
    await page.getByRole("button", { name: "Approve selected" }).click();
    await expect(page.getByText("Select at least one application first.")).toBeVisible();
  });
});
