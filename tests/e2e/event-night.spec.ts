/**
 * An event's night as people meet it in Chromium, against the VRChat fake: an admin gives the event
 * its world (by link) and its end; visitors see the world's name and picture and when it ends; an
 * approved attendee withdraws from their status page, and the first on the waitlist is approved in
 * their place; the Sanctum's tiles and filter say who withdrew. An open event's instance, opened
 * and closed from its card. And who gets in: an attendee linked by their own profile link, another
 * chosen on their card, the event's role given to both, its role-only instance opened, and the join
 * link on an attendee's status page.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { FAKE_WORLD_ID, FAKE_WORLD_NAME, fakeUserId, fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { createAccountWithCommand } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess, HOOK_TIMEOUT_MS } from "../setup/server-process";
import { expectNoSeriousViolations } from "./axe";
import { followLink, hydrated } from "./hydrated";

const ADMIN = { email: "nightwarden@dwell.example", password: "moonlight-nightwarden" };
const DATE = new Date(Date.now() + 9 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
const TITLE = "Lantern Night";

let fake: FakeVRChat;
let server: ServerProcess;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(HOOK_TIMEOUT_MS);
  fake = await startFakeVRChat();
  dataDir = mkdtempSync(join(tmpdir(), "dwell-e2e-night-"));
  server = await startServerProcess({ DATA_DIR: dataDir, DEMO_CONTENT: "false", RATE_LIMIT_SIGN_IN: "1000", VRCHAT_OPEN_INSTANCES: "true", ...fakeVRChatEnv(fake) });
  createAccountWithCommand(dataDir, ADMIN.email, ADMIN.password, "admin");
});
test.afterAll(async () => {
  await server?.stop();
  await fake?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Signs the admin in and opens the form of a new event. */
async function newEventForm(page: Page) {
  await page.goto(`${server.url}/admin/events`);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Enter Sanctum" }).click();
  await followLink(page.getByRole("link", { name: "Create New Prophecy" }));
}

/** A visitor applies through the event's page; their status link. */
async function apply(browser: Browser, name: string) {
  const visitor = await browser.newPage();
  await visitor.goto(`${server.url}/events`);
  await visitor.getByRole("link", { name: new RegExp(TITLE) }).first().click();
  await visitor.getByRole("link", { name: "Apply Now" }).first().click();
  await visitor.getByLabel("What is your VRChat username?").fill(name);
  await visitor.getByRole("button", { name: "Submit Application" }).click();
  await expect(visitor.getByRole("heading", { name: "Application Submitted" })).toBeVisible();
  const statusUrl = await visitor.getByRole("link", { name: "Check your application status" }).getAttribute("href");
  await visitor.close();
  return `${server.url}${statusUrl}`;
}

test("an event with its world and end; an attendee withdraws and the waitlist refills the place", async ({ page, browser }) => {
  test.setTimeout(240_000);
  await newEventForm(page);
  await page.getByLabel("Title").fill(TITLE);
  await page.getByLabel("Event Date").fill(DATE);
  await page.getByLabel("Event Time").fill("20:00");
  await page.getByLabel("Ends").fill(`${DATE}T23:30`);
  await page.getByLabel("VRChat World").fill(`https://vrchat.com/home/world/${FAKE_WORLD_ID}`);
  await page.getByLabel("Featured").check();
  await page.getByLabel("Requires Application").check();
  await page.getByLabel("Max Attendees").fill("1");
  await page.getByLabel("When a place frees").selectOption({ label: "Approve the first on the waitlist automatically" });
  await expectNoSeriousViolations(page, "the event form with its world, end and waitlist choice");
  await page.getByRole("button", { name: "Create Prophecy" }).click();
  const card = page.getByRole("article", { name: TITLE });
  await expect(card.getByRole("link", { name: FAKE_WORLD_NAME })).toHaveAttribute("href", `https://vrchat.com/home/world/${FAKE_WORLD_ID}`);
  await card.getByRole("link", { name: `Edit Questions of ${TITLE}` }).click();
  const add = page.locator("form", { has: page.getByRole("button", { name: "Add Question" }) });
  await add.getByLabel("Question", { exact: true }).fill("What is your VRChat username?");
  await add.getByRole("button", { name: "Add Question" }).click();
  await expect(page.getByRole("heading", { name: "Current Questions (1)" })).toBeVisible();

  // Visitors: the world's name and picture, and when it ends; the hero shows the world.
  const visitor = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await visitor.goto(`${server.url}/`);
  await expect(visitor.getByTestId("hero-picture")).toHaveAttribute("src", `${fake.url}/file/file_lantern/1/file`);
  await visitor.goto(`${server.url}/events`);
  await visitor.getByRole("link", { name: new RegExp(TITLE) }).first().click();
  await expect(visitor.getByRole("link", { name: FAKE_WORLD_NAME })).toBeVisible();
  await expect(visitor.getByText("until 11:30 PM UTC")).toBeVisible();
  await visitor.screenshot({ path: "test-results/event-night-event-narrow.png", fullPage: true });
  await visitor.close();

  // Ash applies and is approved; Birch finds the event full and waits.
  const ash = await apply(browser, "Ash Walker");
  await page.goto(`${server.url}/admin/events`);
  await followLink(page.getByRole("link", { name: `View Applications of ${TITLE}` }));
  const entry = (name: string) => page.getByRole("list", { name: "Applications" }).getByRole("listitem").filter({ hasText: name });
  await entry("Ash Walker").getByText("Show responses").click();
  await entry("Ash Walker").getByRole("button", { name: "Approved" }).click();
  await expect(page.getByTestId("places-taken")).toHaveText("· 1 of 1 place taken");
  const birch = await apply(browser, "Birch Walker");

  // Ash withdraws: asked first, then done; the page says so, and a second tab's send changes nothing.
  const wide = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const status = await wide.newPage();
  await status.goto(ash);
  await expect(status.getByTestId("application-status")).toHaveText("Approved");
  await status.getByRole("button", { name: "Withdraw my application" }).click();
  await expect(status.getByRole("heading", { name: "Withdraw your application?" })).toBeVisible();
  await expectNoSeriousViolations(status, "the status page asking to confirm a withdrawal");
  await status.screenshot({ path: "test-results/event-night-withdraw-wide.png", fullPage: true });
  await status.getByRole("button", { name: "Yes, withdraw" }).click();
  await expect(status.getByTestId("application-status")).toHaveText("Withdrawn");
  await expect(status.getByTestId("withdrawn-note")).toContainText("You withdrew this application.");
  await expect(status.getByRole("button", { name: "Withdraw my application" })).toHaveCount(0);

  // Birch, first in line, has the place.
  await status.goto(birch);
  await expect(status.getByTestId("application-status")).toHaveText("Approved");
  await wide.close();

  // The Sanctum: a 'Withdrawn' tile and filter, and the place still taken once.
  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId("places-taken")).toHaveText("· 1 of 1 place taken");
  await expect(page.getByText("Withdrawn", { exact: true }).first()).toBeVisible();
  await page.getByLabel("Status").selectOption("Withdrawn");
  await expect(entry("Ash Walker")).toBeVisible();
  await expect(entry("Birch Walker")).toHaveCount(0);

  // The night is over (the host moves it to yesterday): who came is marked.
  const yesterday = new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  await page.goto(`${server.url}/admin/events`);
  await followLink(page.getByRole("link", { name: `Edit Event ${TITLE}` }));
  await page.getByLabel("Event Date").fill(yesterday);
  await page.getByLabel("Ends", { exact: true }).fill(`${yesterday}T23:30`);
  await page.getByRole("button", { name: "Save Changes" }).click();
  await followLink(page.getByRole("link", { name: `View Applications of ${TITLE}` }));
  await entry("Birch Walker").getByRole("button", { name: "Attended" }).click();
  await expect(entry("Birch Walker").getByRole("button", { name: "Attended" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByText("Attended", { exact: true }).first()).toBeVisible();

  // Birch applies to the next night: their card says how they did.
  await page.goto(`${server.url}/admin/events`);
  await followLink(page.getByRole("link", { name: "Create New Prophecy" }));
  await page.getByLabel("Title").fill("Ember Night");
  await page.getByLabel("Event Date").fill(DATE);
  await page.getByLabel("Event Time").fill("21:00");
  await page.getByLabel("World Name").fill("The Ember Hall");
  await page.getByLabel("Requires Application").check();
  await page.getByRole("button", { name: "Create Prophecy" }).click();
  await page.getByRole("link", { name: "Edit Questions of Ember Night" }).click();
  const addQuestion = page.locator("form", { has: page.getByRole("button", { name: "Add Question" }) });
  await addQuestion.getByLabel("Question", { exact: true }).fill("What is your VRChat username?");
  await addQuestion.getByRole("button", { name: "Add Question" }).click();
  await expect(page.getByRole("heading", { name: "Current Questions (1)" })).toBeVisible();
  const visitor2 = await browser.newPage();
  await visitor2.goto(`${server.url}/events`);
  await visitor2.getByRole("link", { name: /Ember Night/ }).first().click();
  await visitor2.getByRole("link", { name: "Apply Now" }).first().click();
  await visitor2.getByLabel("What is your VRChat username?").fill("Birch Walker");
  await visitor2.getByRole("button", { name: "Submit Application" }).click();
  await expect(visitor2.getByRole("heading", { name: "Application Submitted" })).toBeVisible();
  await visitor2.close();
  await page.goto(`${server.url}/admin/events`);
  await page.getByRole("link", { name: "View Applications of Ember Night" }).click();
  await expect(entry("Birch Walker").getByTestId("attendance-record")).toHaveText("Attended 1 of 1 event");
});

test("an open event's instance, opened and closed from its card", async ({ browser }) => {
  test.setTimeout(90_000);
  const start = new Date(Date.now() + 3 * 60 * 60 * 1000).toISOString();
  for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 900 }]) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const title = `Open Gathering ${viewport.width}`;
    await newEventForm(page);
    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Event Date").fill(start.slice(0, 10));
    await page.getByLabel("Event Time").fill(start.slice(11, 16));
    await page.getByLabel("VRChat World").fill(FAKE_WORLD_ID);
    // Opened by hand here, so the server's own look does not race the button.
    await page.getByLabel("Open the instance").selectOption({ label: "Never (open it by hand)" });
    await page.getByLabel("Region").selectOption({ label: "Europe" });
    await page.getByLabel("Group Public: anyone").check();
    await page.getByRole("button", { name: "Create Prophecy" }).click();
    const card = page.getByRole("article", { name: title });
    await expect(card.getByTestId("event-instance")).toContainText("Opened by hand");
    await card.getByRole("button", { name: "Open now" }).click();
    await expect(card.getByTestId("event-instance")).toContainText("Instance open in VRChat · 0 people in it");
    await expect(card.getByRole("link", { name: "Join" })).toHaveAttribute("href", new RegExp(`^https://vrchat\\.com/home/launch\\?worldId=${FAKE_WORLD_ID}&instanceId=`));
    await card.screenshot({ path: `test-results/event-night-instance-${viewport.width}.png` });
    // 'Group Public': visitors get its short link on the event's page while it is open (no owner, no nonce).
    const visitor = await browser.newPage();
    await visitor.goto(`${server.url}/events`);
    await visitor.getByRole("link", { name: new RegExp(title) }).first().click();
    await expect(visitor.getByRole("link", { name: "Join in VRChat" })).toHaveAttribute("href", /^https:\/\/vrch\.at\/[^/?#~()]+$/);
    await visitor.close();
    const created = fake.instanceWrites.filter((write) => write.kind === "create").at(-1)!;
    expect(created.body).toMatchObject({ groupAccessType: "public", region: "eu", type: "group" });
    await card.getByRole("button", { name: "Close" }).click();
    await expect(card.getByTestId("event-instance")).toContainText("The instance was closed.");
    expect(fake.instanceWrites.at(-1)).toMatchObject({ kind: "close", location: created.location });
    await context.close();
  }
});

test("who gets in: the event's role for approved attendees, its role-only instance, and the join link", async ({ browser }) => {
  test.setTimeout(240_000);
  fake.group.people.push({ id: fakeUserId(71), displayName: "Rowan Vale", status: "member" }, { id: fakeUserId(72), displayName: "Sorrel Finch", status: "member" });
  const start = new Date(Date.now() + 5 * 60 * 60 * 1000).toISOString();
  const title = "Role Night";
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await newEventForm(page);
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Event Date").fill(start.slice(0, 10));
  await page.getByLabel("Event Time").fill(start.slice(11, 16));
  await page.getByLabel("VRChat World").fill(FAKE_WORLD_ID);
  await page.getByLabel("Requires Application").check();
  await page.getByLabel("Open the instance").selectOption({ label: "Never (open it by hand)" });
  await page.getByRole("button", { name: "Create Prophecy" }).click();
  const eventCard = page.getByRole("article", { name: title });
  await expect(eventCard.getByTestId("event-role")).toContainText("made when the first attendee is approved");
  await followLink(eventCard.getByRole("link", { name: `Edit Questions of ${title}` }));
  const add = page.locator("form", { has: page.getByRole("button", { name: "Add Question" }) });
  await add.getByLabel("Question", { exact: true }).fill("What is your VRChat username?");
  await add.getByRole("button", { name: "Add Question" }).click();
  await expect(page.getByRole("heading", { name: "Current Questions (1)" })).toBeVisible();
  await add.getByLabel("Question", { exact: true }).fill("Your VRChat profile link");
  await add.getByLabel("Question Type").selectOption("VRChat Profile Link");
  await add.getByRole("switch", { name: "Required" }).click();
  await add.getByRole("button", { name: "Add Question" }).click();
  await expect(page.getByRole("heading", { name: "Current Questions (2)" })).toBeVisible();

  // Rowan gives their own profile link (VRChat names it as they named themselves); Sorrel gives none.
  const applyAs = async (name: string, link: string) => {
    const visitor = await browser.newPage();
    await visitor.goto(`${server.url}/events`);
    await visitor.getByRole("link", { name: new RegExp(title) }).first().click();
    await visitor.getByRole("link", { name: "Apply Now" }).first().click();
    await visitor.getByLabel("What is your VRChat username?").fill(name);
    if (link) await visitor.getByLabel("Your VRChat profile link").fill(link);
    await visitor.getByRole("button", { name: "Submit Application" }).click();
    await expect(visitor.getByRole("heading", { name: "Application Submitted" })).toBeVisible();
    const statusUrl = await visitor.getByRole("link", { name: "Check your application status" }).getAttribute("href");
    await visitor.close();
    return `${server.url}${statusUrl}`;
  };
  const rowan = await applyAs("Rowan Vale", `https://vrchat.com/home/user/${fakeUserId(71)}`);
  const sorrel = await applyAs("Sorrel Finch", "");

  await page.goto(`${server.url}/admin/events`);
  await followLink(page.getByRole("link", { name: `View Applications of ${title}` }));
  const entry = (name: string) => page.getByRole("list", { name: "Applications" }).getByRole("listitem").filter({ hasText: name });
  for (const name of ["Rowan Vale", "Sorrel Finch"]) {
    await entry(name).getByText("Show responses").click();
    await entry(name).getByRole("button", { name: "Approved" }).click();
    await expect(entry(name).getByRole("button", { name: "Approved" })).toHaveAttribute("aria-pressed", "true");
  }
  // Rowan gets the role by their own link; Sorrel cannot enter until staff choose their account.
  await expect(async () => {
    await page.reload();
    await expect(entry("Rowan Vale").getByTestId("attendee-entry")).toContainText("Can enter", { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(entry("Sorrel Finch").getByTestId("attendee-entry")).toContainText("Cannot enter yet");
  const sorrelPage = await browser.newPage();
  await sorrelPage.goto(sorrel);
  await expect(sorrelPage.getByTestId("account-not-linked")).toContainText("The hosts have not linked your VRChat account");
  await sorrelPage.close();
  await hydrated(page);
  await entry("Sorrel Finch").getByText("Show responses", { exact: true }).click();
  await entry("Sorrel Finch").getByRole("button", { name: /^This is them\s*: Sorrel Finch$/ }).click();
  // The choice is saved when the panel shows it linked; reloading before then would cancel the request.
  await expect(entry("Sorrel Finch").getByTestId("link-vrchat-linked")).toContainText("Sorrel Finch");
  await expect(async () => {
    await page.reload();
    await expect(entry("Sorrel Finch").getByTestId("attendee-entry")).toContainText("Can enter", { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await page.screenshot({ path: "test-results/event-night-roles-narrow.png", fullPage: true });
  const role = fake.group.roles.find((r) => r.name === title)!;
  expect(role.holders.sort()).toEqual([fakeUserId(71), fakeUserId(72)]);

  // 'Open now': the instance admits the event's role only; Rowan's status page carries its link.
  await page.goto(`${server.url}/admin/events`);
  await page.getByRole("article", { name: title }).getByRole("button", { name: "Open now" }).click();
  await expect(page.getByRole("article", { name: title }).getByTestId("event-instance")).toContainText("Instance open in VRChat");
  await expect(page.getByRole("article", { name: title }).getByTestId("event-role")).toContainText("only they can enter");
  expect(fake.instanceWrites.filter((write) => write.kind === "create").at(-1)!.body).toMatchObject({ groupAccessType: "members", roleIds: [role.id] });
  const wide = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const status = await wide.newPage();
  await status.goto(rowan);
  await expect(status.getByRole("link", { name: "Join in VRChat" })).toHaveAttribute("href", new RegExp(`^https://vrchat\\.com/home/launch\\?worldId=${FAKE_WORLD_ID}&instanceId=`));
  await expectNoSeriousViolations(status, "an approved attendee's status page with the join link");
  await status.screenshot({ path: "test-results/event-night-join-wide.png", fullPage: true });
  // Visitors never see it.
  await status.goto(`${server.url}/events`);
  await status.getByRole("link", { name: new RegExp(title) }).first().click();
  await expect(status.getByRole("link", { name: "Join in VRChat" })).toHaveCount(0);
  await wide.close();
  await context.close();
});
