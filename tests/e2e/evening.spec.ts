/**
 * After the night, in Chromium, on a short evening (three minutes, and two minutes in the instance to
 * count as having come, where a real group has hours and fifteen): five approved; Ash and Birch come and
 * stay, Cedar comes and leaves after a minute, Drift and Elm never come, and a wanderer who never applied
 * comes too. At the end the marks are read from the instance (2 came, 3 did not, the wanderer apart); the
 * host corrects Cedar's, and the correction stays. The attendees find 'How was it?' on their status
 * pages: Ash rates without JavaScript and changes the answer, Birch rates with it; the host reads the
 * evening's page (its chart drawn, the average, the comments), a reviewer too, a visitor never.
 */
import { expect, test } from "@playwright/test";
import { FAKE_WORLD_ID, fakeUserId, fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { createAccountWithCommand, postForm, signIn as signInOverHttp } from "../setup/sanctum-client";
import { HOOK_TIMEOUT_MS } from "../setup/server-process";
import { expectNoSeriousViolations } from "./axe";
import { followLink, hydrated } from "./hydrated";
import { startOwnSite, type OwnSite } from "./own-site";

const OWNER = { email: "hearth@dwell.example", password: "the-hearth-keeps-the-night" };
const REVIEWER = { email: "wren@dwell.example", password: "the-wren-reads-the-cards" };
const PEOPLE = [
  { name: "Ash", vrchat: fakeUserId(81) },
  { name: "Birch", vrchat: fakeUserId(82) },
  { name: "Cedar", vrchat: fakeUserId(83) },
  { name: "Drift", vrchat: fakeUserId(84) },
  { name: "Elm", vrchat: fakeUserId(85) },
];
const person = (name: string) => PEOPLE.find((entry) => entry.name === name)!;
/** The evening's length, and how long someone must be in the instance to count as having come. */
const EVENING_MINUTES = 3;
const MIN_MINUTES = 2;

let fake: FakeVRChat;
let site: OwnSite;

test.beforeAll(async () => {
  test.setTimeout(HOOK_TIMEOUT_MS);
  fake = await startFakeVRChat();
  fake.group.instances = [];
  for (const person of PEOPLE) fake.group.people.push({ id: person.vrchat, displayName: person.name, status: "member" });
  site = await startOwnSite(OWNER, {
    DEMO_CONTENT: "false",
    VRCHAT_OPEN_INSTANCES: "true",
    ATTENDANCE_MIN_MINUTES: String(MIN_MINUTES),
    // The group's live data (how many are in the instance, whether VRChat still lists it) read often.
    VRCHAT_CACHE_SECONDS: "15",
    RATING_DELAY_MINUTES: "0",
    ...fakeVRChatEnv(fake),
  });
  createAccountWithCommand(site.dataDir, REVIEWER.email, REVIEWER.password, "reviewer");
});
test.afterAll(async () => {
  await site?.stop();
  await fake?.close();
});

test("an evening read from its instance, corrected by its host, rated by its guests, and read by its host", async ({ browser }) => {
  test.setTimeout(600_000);
  const cookie = await signInOverHttp(site.url, OWNER.email, OWNER.password);
  // Starting in 50 seconds or more (on the minute); the instance opens at once.
  const start = new Date(Math.ceil((Date.now() + 50_000) / 60_000) * 60_000);
  const end = new Date(start.getTime() + EVENING_MINUTES * 60_000);
  const fields = {
    title: "Ember Evening",
    eventDate: start.toISOString().slice(0, 10),
    eventTime: start.toISOString().slice(11, 16),
    ends: end.toISOString().slice(0, 16),
    timezone: "UTC",
    worldLink: `https://vrchat.com/home/world/${FAKE_WORLD_ID}`,
    applicationRequired: "on",
    instanceLead: "15",
    instanceRegion: "eu",
  };
  expect((await postForm(site.url, "/admin/events", { intent: "create", ...fields }, { cookie })).status).toBe(302);
  const events = await (await fetch(`${site.url}/admin/events`, { headers: { cookie } })).text();
  const eventId = /\/admin\/events\/([0-9a-f-]{36})\/applications/.exec(events)![1]!;
  for (const [question, questionType] of [["What is your VRChat username?", "text"], ["Your VRChat profile link", "vrchat_profile"]] as const) {
    expect((await postForm(site.url, `/admin/events/${eventId}/questions`, { intent: "add", question, questionType }, { cookie })).status).toBe(200);
  }
  const form = await (await fetch(`${site.url}/events/${eventId}/apply`)).text();
  const answerFields = [...form.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((match) => match[1]!);
  const statusLinks: Record<string, string> = {};
  for (const person of PEOPLE) {
    const sent = await postForm(site.url, `/events/${eventId}/apply`, Object.fromEntries(answerFields.map((field, i) => [field, i === 0 ? person.name : `https://vrchat.com/home/user/${person.vrchat}`])));
    const html = await sent.text();
    expect(sent.status).toBe(200);
    statusLinks[person.name] = `${site.url}/applications/status/${/href="\/applications\/status\/([A-Za-z0-9_-]{43})"/.exec(html)![1]!}`;
  }
  const list = await (await fetch(`${site.url}/admin/events/${eventId}/applications?status=all`, { headers: { cookie } })).text();
  for (const person of PEOPLE) {
    const id = /name="id" value="([0-9a-f-]{36})"/.exec(list.slice(list.lastIndexOf("<li", list.indexOf(`>${person.name}<`))))![1]!;
    expect((await postForm(site.url, `/admin/events/${eventId}/applications`, { intent: "status", id, status: "approved" }, { cookie })).status).toBe(200);
  }
  // The instance opens; Ash and Birch come and stay, with a wanderer who never applied.
  await expect.poll(() => fake.instanceWrites.filter((write) => write.kind === "create").length, { timeout: 60_000 }).toBe(1);
  const location = fake.instanceWrites[0]!.location;
  const instance = fake.group.instances.find((entry) => entry.location === location)!;
  const stayers = [
    { id: person("Ash").vrchat, displayName: "Ash" },
    { id: person("Birch").vrchat, displayName: "Birch" },
    { id: fakeUserId(89), displayName: "Wanderer" },
  ];
  instance.users = stayers;
  expect(Date.now()).toBeLessThan(start.getTime());

  console.log(`evening: set up ${Math.round((start.getTime() - Date.now()) / 1000)} s before the start`);
  // At the end, the marks: Ash came, Birch did not, the wanderer is listed apart.
  const host = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await host.newPage();
  await page.goto(`${site.url}/admin/events`);
  await hydrated(page);
  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel("Password").fill(OWNER.password);
  await page.getByRole("button", { name: "Enter Sanctum" }).click();
  const card = page.getByRole("article", { name: "Ember Evening" });
  await expect(card).toBeVisible();

  // Once the evening has begun, Cedar comes in, is seen by one read, and leaves (one minute, short of two).
  await page.waitForTimeout(Math.max(0, start.getTime() + 2_000 - Date.now()));
  const reads = () => fake.requests.filter((request) => request.method === "GET" && request.path === `/instances/${location}`).length;
  const before = reads();
  instance.users = [...stayers, { id: person("Cedar").vrchat, displayName: "Cedar" }];
  await expect.poll(reads, { timeout: 90_000 }).toBeGreaterThan(before);
  instance.users = stayers;
  await page.reload();
  await expect(card.getByTestId("event-attendance")).toContainText("4 different people so far");

  // At the end, the marks: Ash and Birch came; Cedar (too short), Drift and Elm did not; the wanderer apart.
  // Nothing is marked before the end: the page is asked again only after it, every few seconds (each
  // reload is a page rendered and started in the browser, on the cores the other suites share).
  await page.waitForTimeout(Math.max(0, end.getTime() - Date.now()));
  await expect(async () => {
    await page.reload();
    await expect(card.getByTestId("event-attendance")).toContainText("Read from the instance: 2 came, 3 did not (4 different people in it).", { timeout: 1_000 });
  }).toPass({ intervals: [3_000], timeout: 90_000 });
  await expect(card.getByTestId("event-attendance")).toContainText("Came without applying: Wanderer");
  console.log(`evening: marked ${Math.round((Date.now() - end.getTime()) / 1000)} s after the end`);

  // The host knows Cedar was there (her connection dropped) and corrects her mark; it stays.
  await followLink(card.getByRole("link", { name: "View Applications of Ember Evening" }));
  const entry = (name: string) => page.getByRole("list", { name: "Applications" }).getByRole("listitem").filter({ hasText: name });
  for (const [name, mark] of [["Ash", "Attended"], ["Birch", "Attended"], ["Cedar", "No-show"], ["Drift", "No-show"], ["Elm", "No-show"]] as const) {
    await expect(entry(name).getByRole("button", { name: mark, exact: true })).toHaveAttribute("aria-pressed", "true");
  }
  await entry("Cedar").getByRole("button", { name: "Attended", exact: true }).click();
  await expect(entry("Cedar").getByRole("button", { name: "Attended", exact: true })).toHaveAttribute("aria-pressed", "true");
  await page.goto(`${site.url}/admin/events`);
  await expect(card.getByTestId("event-attendance")).toContainText("Read from the instance: 3 came, 2 did not");
  // The guests stay on after the end: the card says the instance is still open, not that the event is on.
  await expect(card.getByTestId("event-instance")).toContainText("The event has ended; its instance is still open in VRChat · 3 people in it");

  // Ash rates it from the status page, without JavaScript, then changes the answer.
  const guest = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  const status = await guest.newPage();
  await expect(async () => {
    await status.goto(statusLinks.Ash!);
    await expect(status.getByTestId("rate-the-event")).toBeVisible({ timeout: 1_000 });
  }).toPass({ intervals: [2_000], timeout: 60_000 });
  console.log(`evening: asked ${Math.round((Date.now() - end.getTime()) / 1000)} s after the end`);
  await status.getByRole("link", { name: "rate the event" }).click();
  await expect(status.getByRole("heading", { name: "How was Ember Evening?" })).toBeVisible();
  const rateUrl = status.url();
  await status.getByLabel("4 of 5 stars").check();
  await status.getByLabel("Anything to tell the hosts? (optional)").fill("Warm and kind.");
  await status.getByRole("button", { name: "Send" }).click();
  await expect(status.getByText("Thank you: the hosts will read it.")).toBeVisible();
  await status.screenshot({ path: test.info().outputPath("rating-390.png"), fullPage: true });
  await status.getByLabel("5 of 5 stars").check();
  await status.getByLabel("Anything to tell the hosts? (optional)").fill("Warm and kind, and the music!");
  await status.getByRole("button", { name: "Change my answer" }).click();
  await expect(status.getByText("Thank you: the hosts will read it.")).toBeVisible();
  await status.goto(statusLinks.Drift!);
  await expect(status.getByTestId("rate-the-event")).toHaveCount(0);
  await guest.close();

  // Birch rates with JavaScript, on a wide screen.
  const birch = await browser.newPage();
  await expect(async () => {
    await birch.goto(statusLinks.Birch!);
    await expect(birch.getByTestId("rate-the-event")).toBeVisible({ timeout: 1_000 });
  }).toPass({ intervals: [2_000], timeout: 60_000 });
  await hydrated(birch);
  await birch.getByRole("link", { name: "rate the event" }).click();
  await birch.getByLabel("3 of 5 stars").check();
  await birch.getByLabel("Anything to tell the hosts? (optional)").fill("A little loud by the fire.");
  await birch.getByRole("button", { name: "Send" }).click();
  await expect(birch.getByText("Thank you: the hosts will read it.")).toBeVisible();
  await birch.close();
  const checked = await browser.newPage();
  await checked.goto(rateUrl);
  await expectNoSeriousViolations(checked, "the rating page");
  await checked.close();

  // The host's page of the evening: the chart drawn, the figures, the answer.
  await followLink(card.getByRole("link", { name: "How the evening went" }));
  await expect(page.getByRole("heading", { name: "How the evening went: Ember Evening" })).toBeVisible();
  await expect(page.getByTestId("trend-chart")).toHaveAttribute("data-drawn", "true");
  await expect(page.getByText("4.0 of 5 (2 answered)")).toBeVisible();
  await expect(page.getByText("Warm and kind, and the music!")).toBeVisible();
  await expect(page.getByText("A little loud by the fire.")).toBeVisible();
  await expect(page.getByText("3 of 5 (60 %)")).toBeVisible();
  await expect(page.getByText("Came without applying: Wanderer")).toBeVisible();
  await expectNoSeriousViolations(page, "the evening's page");
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(page.getByTestId("trend-chart")).toHaveAttribute("data-drawn", "true");
    await page.screenshot({ path: test.info().outputPath(`evening-${width}.png`), fullPage: true });
  }

  // Everyone leaves and VRChat closes the instance: once the group's live data no longer lists it, the card says so.
  fake.group.instances = fake.group.instances.filter((entry) => entry.location !== location);
  await page.goto(`${site.url}/admin/events`);
  await expect(async () => {
    await page.reload();
    await expect(card.getByTestId("event-instance")).toContainText("The event has ended and VRChat no longer lists its instance: it has emptied.", { timeout: 1_000 });
  }).toPass({ intervals: [2_000], timeout: 60_000 });
  await expect(card.getByTestId("event-instance").getByRole("button", { name: "Close" })).toHaveCount(0);
  await host.close();

  // A reviewer of the group reads it too; a visitor never.
  const reviewer = await browser.newContext();
  const reviewerPage = await reviewer.newPage();
  await reviewerPage.goto(`${site.url}/admin/events/${eventId}/evening`);
  await hydrated(reviewerPage);
  await reviewerPage.getByLabel("Email").fill(REVIEWER.email);
  await reviewerPage.getByLabel("Password").fill(REVIEWER.password);
  await reviewerPage.getByRole("button", { name: "Enter Sanctum" }).click();
  await expect(reviewerPage.getByText("Warm and kind, and the music!")).toBeVisible();
  await reviewer.close();
  const visitor = await browser.newPage();
  await visitor.goto(`${site.url}/admin/events/${eventId}/evening`);
  await expect(visitor.getByRole("button", { name: "Enter Sanctum" })).toBeVisible();
  await expect(visitor.getByText("Warm and kind")).toHaveCount(0);
  await visitor.goto(`${site.url}/events/${eventId}`);
  await expect(visitor.getByText("Warm and kind")).toHaveCount(0);
  await visitor.close();
});
