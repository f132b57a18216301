/**
 * A person's file as an admin meets it in Chromium, against the VRChat and Discord fakes: a person
 * applies to the group (their profile link links their VRChat account) and to an event (under their
 * name only); the header's search finds them; the file shows their application and its decision,
 * what VRChat says of them now and their join request; a note is added; the event application's
 * file is merged in and split off again; a ban from the file reaches VRChat. And someone Dwell has
 * never seen, found by their VRChat name, is banned from their file; when they then apply, their card
 * says they are banned.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { fakeDiscordBotEnv, startFakeDiscordBot, type FakeDiscordBot } from "../fakes/discord-bot";
import { fakeUserId, fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { createAccountWithCommand } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess, HOOK_TIMEOUT_MS } from "../setup/server-process";
import { expectNoSeriousViolations } from "./axe";
import { hydrated } from "./hydrated";

const ADMIN = { email: "filekeeper@dwell.example", password: "moonlight-filekeeper" };
const WREN = { id: fakeUserId(91), name: "Quiet Wren" };
const STRANGER = { id: fakeUserId(92), name: "Masked Stranger" };

let fake: FakeVRChat;
let bot: FakeDiscordBot;
let server: ServerProcess;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(HOOK_TIMEOUT_MS);
  [fake, bot] = await Promise.all([startFakeVRChat(), startFakeDiscordBot()]);
  fake.group.people.push(
    { id: WREN.id, displayName: WREN.name, status: "requested", tags: ["system_trust_known"], dateJoined: "2021-05-01", ageVerificationStatus: "18+" },
    { id: STRANGER.id, displayName: STRANGER.name, status: "none", tags: [] },
  );
  dataDir = mkdtempSync(join(tmpdir(), "dwell-e2e-people-"));
  server = await startServerProcess({ DATA_DIR: dataDir, RATE_LIMIT_SIGN_IN: "1000", VRCHAT_MEMBERSHIP_ACTIONS: "true", ...fakeVRChatEnv(fake), ...fakeDiscordBotEnv(bot) });
  createAccountWithCommand(dataDir, ADMIN.email, ADMIN.password, "admin");
});
test.afterAll(async () => {
  await server?.stop();
  await fake?.close();
  await bot?.close();
  await rm(dataDir, { recursive: true, force: true });
});

test("a person's file gathers what Dwell knows, takes notes, merges and splits, and bans", async ({ page, browser }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${server.url}/admin/questions`);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Enter Sanctum" }).click();
  await hydrated(page);
  const add = page.locator("form", { has: page.getByRole("button", { name: "Add Question" }) });
  await add.getByLabel("Question", { exact: true }).fill("Your VRChat profile link");
  await add.getByLabel("Question Type").selectOption("VRChat Profile Link");
  await add.getByRole("button", { name: "Add Question" }).click();
  await expect(page.locator("ol > li").filter({ hasText: "Your VRChat profile link" })).toBeVisible();

  // Wren applies to the group with their profile link, and to an event under their name only.
  const visitor = await browser.newPage();
  await visitor.goto(`${server.url}/apply`);
  await visitor.getByLabel("What is your VRChat username?").fill(WREN.name);
  await visitor.getByLabel("What is your Discord username?").fill("quietwren");
  await visitor.getByLabel("How did you find the Dwellers?").selectOption("A friend");
  await visitor.getByLabel("Tell us about yourself").fill("I listen.");
  await visitor.getByLabel("Your VRChat profile link").fill(`https://vrchat.com/home/user/${WREN.id}`);
  await visitor.getByRole("button", { name: "Complete the Ritual" }).click();
  await expect(visitor.getByRole("heading", { name: "The Ritual Is Complete" })).toBeVisible();
  await visitor.goto(`${server.url}/events`);
  await visitor.getByRole("link", { name: /The Gathering at the Threshold/ }).first().click();
  await visitor.getByRole("link", { name: "Apply Now" }).click();
  await visitor.getByLabel("What is your VRChat username?").fill("Wren (alt)");
  await visitor.getByLabel("What is your Discord username?").fill("quietwren-alt");
  await visitor.getByLabel("Why do you wish to attend?").fill("To listen.");
  await visitor.getByRole("button", { name: "Submit Application" }).click();
  await expect(visitor.getByRole("heading", { name: "Application Submitted" })).toBeVisible();
  await visitor.close();

  // The group application is approved from its card, whose 'Person's file' opens the file.
  await page.goto(`${server.url}/admin/applications`);
  await hydrated(page);
  const card = page.getByRole("list", { name: "Applications" }).getByRole("listitem").filter({ hasText: WREN.name });
  await card.getByRole("button", { name: "Approve" }).click();
  await expect(card.getByText("Approved", { exact: true })).toBeVisible();
  const fileHref = await card.getByTestId("person-file-link").getAttribute("href");
  expect(fileHref).toBe(`/admin/people/vrchat-${WREN.id}`);

  // The header's search finds Wren by part of their name, and opens the file.
  await page.getByRole("search", { name: "Find a person" }).getByRole("searchbox").fill("wren");
  await page.getByRole("search", { name: "Find a person" }).getByRole("button", { name: "Find" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "People" })).toBeVisible();
  const found = page.getByTestId("people-found");
  // Newest first: which of the two is newer depends on when the join requests were last read.
  await expect(found.getByRole("link")).toHaveCount(2);
  await expect(found.getByRole("link", { name: "Wren (alt)" })).toBeVisible();
  await found.getByRole("link", { name: WREN.name }).click();
  await expect(page.getByRole("heading", { level: 1, name: WREN.name })).toBeVisible();
  await expect(page).toHaveURL(`${server.url}${fileHref}`);
  const live = page.getByTestId("live-facts");
  await expect(live).toContainText("User");
  await expect(live).toContainText("18+");
  // The approval accepts the join request in VRChat: read before or after it acts.
  await expect(live).toContainText(/Asked to join the group|Member of the group/);
  await expect(live).toContainText(/Account \d+ years old/);
  const applications = page.getByTestId("person-applications");
  await expect(applications.getByTestId("filed-application")).toHaveCount(1);
  await expect(applications.getByTestId("filed-application")).toContainText("Group application");
  await expect(applications.getByTestId("filed-application")).toContainText("Approved");
  await expect(applications.getByTestId("filed-application")).toContainText("filekeeper: pending → approved");
  await expect(page.getByTestId("person-accounts")).toContainText(`VRChat ${WREN.id}`);

  // A note.
  await hydrated(page);
  await page.getByLabel("Add a note").fill("Met at the solstice; shy but kind.");
  await page.getByRole("button", { name: "Add note" }).click();
  await expect(page.getByTestId("person-note")).toHaveText([/Met at the solstice; shy but kind\.\s*filekeeper · /]);
  await expect(page.getByLabel("Add a note")).toHaveValue("");

  // The event application, under another name, is its own file until merged in; then split off again.
  await page.goto(`${server.url}/admin/people?q=${encodeURIComponent("Wren (alt)")}`);
  await page.getByTestId("people-found").getByRole("link", { name: "Wren (alt)" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Wren (alt)" })).toBeVisible();
  await expect(page.getByTestId("live-facts")).toHaveText("No VRChat account is linked to this person: VRChat cannot be asked about them.");
  const altAddress = page.url();
  await page.goto(`${server.url}${fileHref}`);
  await hydrated(page);
  await page.getByLabel("Bring another file into this one").fill(altAddress);
  await page.getByRole("button", { name: "Merge", exact: true }).click();
  await expect(page.getByText("The two files are now one.")).toBeVisible();
  await expect(applications.getByTestId("filed-application")).toHaveCount(2);
  await expect(page.getByTestId("merge-line")).toHaveText([/^An application naming no account joined to VRChat usr_.* by filekeeper on /]);
  // The merged file's address now leads here.
  await page.goto(altAddress);
  await expect(page).toHaveURL(`${server.url}${fileHref}`);
  await hydrated(page);
  await page.getByRole("button", { name: "Split off" }).click();
  await expect(page.getByText("The file is on its own again.")).toBeVisible();
  await expect(applications.getByTestId("filed-application")).toHaveCount(1);
  await expect(page.getByTestId("merge-line")).toHaveText([/; split by filekeeper on /]);

  await expectNoSeriousViolations(page, "a person's file");
  await page.screenshot({ path: "test-results/person-file-wide.png", fullPage: true });
  const narrow = await browser.newPage({ viewport: { width: 390, height: 844 }, storageState: await page.context().storageState() });
  await narrow.goto(`${server.url}${fileHref}`);
  await expect(narrow.getByRole("heading", { level: 1, name: WREN.name })).toBeVisible();
  await narrow.screenshot({ path: "test-results/person-file-narrow.png", fullPage: true });
  await narrow.close();

  // Banned from the file: VRChat carries it out, and the file says so.
  await page.getByRole("button", { name: `Ban ${WREN.name}` }).click();
  await page.getByRole("alertdialog").getByLabel("Reason").fill("Left lanterns burning.");
  await page.getByRole("alertdialog").getByRole("button", { name: "Ban", exact: true }).click();
  await expect(page.getByText(`${WREN.name} is banned.`)).toBeVisible();
  await expect(page.getByTestId("person-bans")).toContainText("In force");
  await expect(page.getByTestId("person-bans")).toContainText("by filekeeper: Left lanterns burning.");
  await expect.poll(() => fake.actions.filter((action) => action.kind === "ban").map((action) => action.userId), { timeout: 30_000 }).toEqual([WREN.id]);

  // Someone Dwell has never seen: found by their VRChat name, and banned from their file.
  await page.goto(`${server.url}/admin/people?q=Masked`);
  await expect(page.getByText('Dwell knows nobody matching "Masked".')).toBeVisible();
  await page.getByRole("button", { name: 'Search VRChat for "Masked"' }).click();
  await page.getByTestId("people-vrchat").getByRole("link", { name: STRANGER.name }).click();
  await expect(page.getByRole("heading", { level: 1, name: STRANGER.name })).toBeVisible();
  await expect(page.getByText("Dwell has nothing on file for this person yet: no application, join request, ban or note.")).toBeVisible();
  await expect(page.getByTestId("live-facts")).toContainText(STRANGER.name);
  await expect(page.getByTestId("live-facts")).toContainText("Not in the group");
  await hydrated(page);
  await page.getByRole("button", { name: `Ban ${STRANGER.name}` }).click();
  await page.getByRole("alertdialog").getByLabel("Reason").fill("Known raider.");
  await page.getByRole("alertdialog").getByRole("button", { name: "Ban", exact: true }).click();
  await expect(page.getByTestId("person-bans")).toContainText("Known raider.");
  await expect.poll(() => fake.actions.filter((action) => action.kind === "ban").map((action) => action.userId), { timeout: 30_000 }).toEqual([WREN.id, STRANGER.id]);
  const strangerFile = new URL(page.url()).pathname;

  // The banned stranger then applies on the site: their profile link links them on arrival, their card
  // says who banned them and why, and their file holds the application.
  const stranger = await browser.newPage();
  await stranger.goto(`${server.url}/apply`);
  await stranger.getByLabel("What is your VRChat username?").fill(STRANGER.name);
  await stranger.getByLabel("What is your Discord username?").fill("masked.stranger");
  await stranger.getByLabel("How did you find the Dwellers?").selectOption("A friend");
  await stranger.getByLabel("Tell us about yourself").fill("Only passing through.");
  await stranger.getByLabel("Your VRChat profile link").fill(`https://vrchat.com/home/user/${STRANGER.id}`);
  await stranger.getByRole("button", { name: "Complete the Ritual" }).click();
  await expect(stranger.getByRole("heading", { name: "The Ritual Is Complete" })).toBeVisible();
  await stranger.close();
  await page.goto(`${server.url}/admin/applications`);
  const strangerCard = page.getByRole("list", { name: "Applications" }).getByRole("listitem").filter({ hasText: STRANGER.name });
  await expect(strangerCard.getByTestId("banned")).toHaveText(/^Banned on \w{3} \d{1,2}, \d{4} by filekeeper: Known raider\.$/);
  expect(await strangerCard.getByTestId("person-file-link").getAttribute("href")).toBe(strangerFile);
  await page.goto(`${server.url}${strangerFile}`);
  await expect(page.getByTestId("person-applications").getByTestId("filed-application")).toHaveCount(1);
  await expect(page.getByTestId("person-applications").getByTestId("filed-application")).toContainText("Group application");
});
