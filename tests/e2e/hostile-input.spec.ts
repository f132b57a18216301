/**
 * Script and HTML payloads in every field a visitor or an admin can fill, then every page that
 * shows them, in Chromium: the payloads appear as text and no script of theirs runs. And the
 * requests no form would send: oversized bodies get 413, malformed ids 404, never a 500.
 */
import { expect, test, type Page } from "@playwright/test";
import { createAccount } from "./accounts";
import { hydrated } from "./hydrated";

const ADMIN = { email: "sentinel@dwell.example", password: "iron-gate-sentinel" };

/** Each marks the page when it runs; the text of each must show instead. */
const SHORT = `<img src=x onerror="window.__pwned='img'">`;
const PAYLOAD =
  `<script>window.__pwned='script'</script>${SHORT}<svg onload="window.__pwned='svg'"></svg>` +
  `"'><iframe src="javascript:parent.__pwned='iframe'"></iframe><a href="javascript:window.__pwned='link'">link</a>`;

test.describe.configure({ mode: "serial" });
test.beforeAll(() => createAccount(ADMIN.email, ADMIN.password, "admin", "Sentinel"));

const runId = Math.random().toString(36).slice(2, 8);
const title = `Hostile ${runId} ${SHORT}`;
let eventPath = "";

async function signIn(page: Page, path: string) {
  await page.goto(path);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Enter Sanctum" }).click();
}

/** No payload ran, none became an element, and the text shows as written. */
async function expectInert(page: Page, path: string, shown: string, open?: (page: Page) => Promise<void>) {
  await page.goto(path);
  await page.waitForLoadState("networkidle");
  if (open) {
    // A click before the page's script has taken over is lost (the card stays closed).
    await hydrated(page);
    await open(page);
  }
  // What was opened may load after the click (an application's responses): the checks below read
  // the page once it shows the text.
  await expect(page.locator("body"), path).toContainText(shown, { useInnerText: true });
  expect(await page.evaluate(() => (window as { __pwned?: string }).__pwned), path).toBeUndefined();
  const planted = await page.evaluate(
    () => document.querySelectorAll('img[src="x"], svg[onload], iframe[src^="javascript:"], a[href^="javascript:"]').length,
  );
  expect(planted, path).toBe(0);
}

test("payloads in every field are shown as text, and never run", async ({ page, browser }) => {
  test.setTimeout(240_000);
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });

  // An admin writes the payload into every field of an event…
  await signIn(page, "/admin/events");
  await page.getByRole("link", { name: "Create New Prophecy" }).click();
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Description").fill(PAYLOAD);
  await page.getByLabel("Event Date").fill("2030-03-15");
  await page.getByLabel("Event Time").fill("20:00");
  await page.getByLabel("World Name").fill(SHORT);
  await page.getByLabel("Requires Application").check();
  await page.getByLabel("Application Deadline").fill("2030-03-10");
  await page.getByLabel("Application Instructions").fill(PAYLOAD);
  await page.getByRole("button", { name: "Create Prophecy" }).click();
  await expect(page.getByRole("heading", { name: title })).toBeVisible();

  // …and into its questions and their options.
  await page.getByRole("link", { name: `Edit Questions of ${title}` }).click();
  const add = page.locator("form", { has: page.getByRole("button", { name: "Add Question" }) });
  await add.getByLabel("Question", { exact: true }).fill(`Text ${PAYLOAD}`);
  await add.getByRole("button", { name: "Add Question" }).click();
  await expect(page.getByRole("heading", { name: "Current Questions (1)" })).toBeVisible();
  await add.getByLabel("Question", { exact: true }).fill(`Choice ${SHORT}`);
  await add.getByLabel("Question Type").selectOption("Multiple Choice");
  await add.getByLabel("Option 1", { exact: true }).fill(SHORT);
  await add.getByRole("button", { name: "Add Question" }).click();
  await expect(page.getByRole("heading", { name: "Current Questions (2)" })).toBeVisible();

  // A visitor answers with payloads, on the event's form and on the group's.
  const visitor = await browser.newPage();
  visitor.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await visitor.goto("/events");
  await visitor.getByRole("link", { name: new RegExp(`Hostile ${runId}`) }).first().click();
  await visitor.waitForURL(/\/events\/[0-9a-f-]{36}$/);
  eventPath = new URL(visitor.url()).pathname;
  await visitor.getByRole("link", { name: "Apply Now" }).click();
  await visitor.getByRole("textbox").first().fill(`Answer ${PAYLOAD}`);
  await visitor.getByRole("combobox").first().selectOption({ index: 1 });
  await visitor.getByRole("button", { name: "Submit Application" }).click();
  await expect(visitor.getByRole("heading", { name: "Application Submitted" })).toBeVisible();

  await visitor.goto("/apply");
  const name = `Moth ${runId} ${SHORT}`;
  await visitor.getByLabel("What is your VRChat username?").fill(name);
  await visitor.getByLabel("What is your Discord username?").fill(name);
  await visitor.getByLabel("How did you find the Dwellers?").selectOption("A friend");
  await visitor.getByLabel("Tell us about yourself").fill(PAYLOAD);
  await visitor.getByRole("button", { name: "Complete the Ritual" }).click();
  await expect(visitor.getByRole("heading", { name: "The Ritual Is Complete" })).toBeVisible();

  // The admin writes a note with a payload on the application.
  const eventId = eventPath.split("/").at(-1)!;
  await page.goto(`/admin/events/${eventId}/applications`);
  // The note is saved by the page's script when the field loses focus: wait until it runs.
  await hydrated(page);
  const card = page.getByRole("list", { name: "Applications" }).getByRole("listitem").first();
  await card.getByText("Show responses").click();
  const saved = page.waitForResponse((response) => response.request().method() === "POST");
  await card.getByLabel("Admin Notes").fill(`Note ${PAYLOAD}`);
  await card.getByLabel("Admin Notes").blur();
  expect((await saved).status()).toBe(200);

  // Every page that shows them, public and admin.
  for (const path of ["/events", eventPath, `${eventPath}/apply`]) await expectInert(visitor, path, SHORT);
  await expectInert(visitor, eventPath, "<script>window.__pwned='script'</script>");
  await expectInert(page, "/admin/events", title);
  await expectInert(page, `/admin/events/${eventId}/questions`, `Choice ${SHORT}`);
  const showResponses = (admin: Page) => admin.getByText("Show responses").first().click();
  await expectInert(page, `/admin/events/${eventId}/applications`, `Answer ${PAYLOAD.slice(0, 40)}`, showResponses);
  await expect(page.getByLabel("Admin Notes").first()).toHaveValue(`Note ${PAYLOAD}`);
  await expectInert(page, "/admin/applications", name);
  await expectInert(page, "/", "Dwellers");
  expect(dialogs).toEqual([]);
  await visitor.close();
});

test("requests no form sends get a 4xx, never a 500", async ({ page }) => {
  await signIn(page, "/admin/events");
  await expect(page.getByRole("heading", { name: "Event Prophecies" })).toBeVisible();
  const big = "a".repeat(300 * 1024);
  const request = page.request;
  for (const path of ["/apply", "/admin/events", "/admin/sign-in", "/api/sync-events"]) {
    const response = await request.post(path, { form: { filler: big }, headers: { Origin: new URL(page.url()).origin } });
    expect(response.status(), `POST ${path}`).toBe(413);
  }
  const unknown = "0b8e6f1a-9c2d-4e5f-8a7b-1c2d3e4f5a6b";
  for (const path of [
    "/events/not-an-id",
    `/events/${unknown}`,
    "/events/not-an-id/apply",
    `/events/${unknown}/apply`,
    "/admin/events/not-an-id/questions",
    `/admin/events/${unknown}/questions`,
    "/admin/events/not-an-id/applications",
    `/admin/events/${unknown}/applications/export`,
    "/api/nothing-here",
  ]) {
    const response = await request.get(path);
    expect(response.status(), `GET ${path}`).toBe(404);
  }
  // Malformed form posts: a 4xx with a message, not a 500.
  for (const [path, form] of [
    ["/apply", { "answer.not-a-uuid": "x" }],
    [`/events/${unknown}/apply`, { anything: "x" }],
    ["/admin/events", { intent: "nonsense" }],
    ["/admin/applications", { intent: "status", id: "not-an-id", status: "approved" }],
  ] as const) {
    const response = await request.post(path, { form, headers: { Origin: new URL(page.url()).origin } });
    expect(response.status(), `POST ${path}`).toBeGreaterThanOrEqual(400);
    expect(response.status(), `POST ${path}`).toBeLessThan(500);
  }
});
