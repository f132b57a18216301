/**
 * Announcements as staff and visitors meet them in Chromium, against the VRChat and Discord fakes:
 * an admin writes, previews, schedules and publishes; the post, the message and the news page appear
 * once each; an edit and a deletion follow everywhere; a members-only announcement reaches no public
 * page or feed; VRChat down then up publishes once; a reviewer cannot announce. The Discord message
 * pings no one it was not asked to.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { FAKE_ANNOUNCE_CHANNEL_ID, fakeDiscordBotEnv, startFakeDiscordBot, type FakeDiscordBot } from "../fakes/discord-bot";
import { fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { createAccountWithCommand, postForm, signIn as signInOverHttp } from "../setup/sanctum-client";
import { HOOK_TIMEOUT_MS, startServerProcess, type ServerProcess } from "../setup/server-process";
import { expectNoSeriousViolations } from "./axe";
import { followLink, hydrated } from "./hydrated";

const ADMIN = { email: "crier@dwell.example", password: "lantern-town-crier" };
const REVIEWER = { email: "reader@dwell.example", password: "quiet-lantern-reader" };
const HOST = { email: "keeper@dwell.example", password: "keeper-of-the-lanterns" };

let vrchat: FakeVRChat;
let discord: FakeDiscordBot;
let server: ServerProcess;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(HOOK_TIMEOUT_MS);
  vrchat = await startFakeVRChat();
  vrchat.group.posts = [{ id: "not_00000000-0000-4000-8000-00000000aaaa", title: "Posted straight in VRChat", text: "Hello from VRChat", createdAt: new Date(Date.now() - 86_400_000).toISOString(), visibility: "public", roleId: [] }];
  discord = await startFakeDiscordBot();
  dataDir = mkdtempSync(join(tmpdir(), "dwell-e2e-announce-"));
  server = await startServerProcess({
    DATA_DIR: dataDir,
    DEMO_CONTENT: "false",
    RATE_LIMIT_SIGN_IN: "1000",
    VRCHAT_CACHE_SECONDS: "1",
    ...fakeVRChatEnv(vrchat),
    ...fakeDiscordBotEnv(discord),
    DISCORD_ANNOUNCE_CHANNEL_ID: FAKE_ANNOUNCE_CHANNEL_ID,
  });
  createAccountWithCommand(dataDir, ADMIN.email, ADMIN.password, "admin");
  createAccountWithCommand(dataDir, REVIEWER.email, REVIEWER.password, "reviewer");
  createAccountWithCommand(dataDir, HOST.email, HOST.password, "host");
});
test.afterAll(async () => {
  await server?.stop();
  await vrchat?.close();
  await discord?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function signIn(page: Page, who: { email: string; password: string }, path: string) {
  await page.goto(`${server.url}${path}`);
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Enter Sanctum" }).click();
  // Signed in once the form has gone: only then does "hydrated" speak of the page signed in to.
  await expect(page.getByRole("button", { name: "Enter Sanctum" })).toHaveCount(0);
}

const dwellPosts = () => vrchat.postWrites.filter((write) => write.kind === "create");
const liveMessages = () => discord.announcements.filter((message) => !message.deleted);

async function placeState(page: Page, place: string, state: string) {
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("listitem").filter({ hasText: place }).filter({ hasText: state })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
}

test("an admin writes, previews, publishes, edits and deletes an announcement, and it follows everywhere", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signIn(page, ADMIN, "/admin/announcements");
  await expect(page.getByRole("heading", { name: "Announcements", level: 1 })).toBeVisible();
  await followLink(page.getByRole("link", { name: "New announcement" }));

  // Nothing typed: nothing saved, and each field says why.
  await page.getByRole("button", { name: "Publish now" }).click();
  await expect(page.getByText("Give it a title.")).toBeVisible();
  await expect(page.getByText("Write its text.")).toBeVisible();
  expect(dwellPosts()).toHaveLength(0);

  await page.getByLabel("Title").fill("The Lantern Walk returns");
  await page.getByLabel("Text").fill("Bring a **lantern** and *friends*. @everyone\n\nDetails: [the rules](https://dwell.example/rules)");
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByRole("heading", { name: "Preview: nothing has been sent" })).toBeVisible();
  await expect(page.getByText("VRChat group post")).toBeVisible();
  await expect(page.getByText("Discord message")).toBeVisible();
  await expect(page.getByText("Mentions nobody.")).toBeVisible();
  expect(dwellPosts()).toHaveLength(0);
  expect(discord.announcements).toHaveLength(0);
  await expectNoSeriousViolations(page, "the announcement form with its preview");
  await page.setViewportSize({ width: 390, height: 900 });
  await page.screenshot({ path: test.info().outputPath("announcement-preview-narrow.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: test.info().outputPath("announcement-preview-wide.png"), fullPage: true });

  await page.getByRole("button", { name: "Publish now" }).click();
  await expect(page.getByText("Published: each place shows its state below.")).toBeVisible();
  await placeState(page, "VRChat", "Published");
  await placeState(page, "Discord", "Published");
  expect(dwellPosts()).toHaveLength(1);
  expect(liveMessages()).toHaveLength(1);
  expect(liveMessages()[0]!.pinged).toEqual([]);
  expect(liveMessages()[0]!.crossposted).toBe(true);
  const cardUrl = page.url();
  const id = /\/admin\/announcements\/([0-9a-f-]{36})/.exec(cardUrl)![1]!;

  // What a visitor reads: the news page, the announcement's own page, the feed and the home page.
  const visitor = await browser.newPage();
  await visitor.goto(`${server.url}/news`);
  await expect(visitor.getByRole("link", { name: "The Lantern Walk returns" })).toBeVisible();
  await expect(visitor.getByText("Posted straight in VRChat")).toBeVisible();
  await expect(visitor.getByText("Posted in VRChat")).toHaveCount(1);
  await visitor.getByRole("link", { name: "The Lantern Walk returns" }).click();
  await expect(visitor.getByRole("heading", { name: "The Lantern Walk returns", level: 1 })).toBeVisible();
  await expect(visitor.locator("article strong")).toHaveText("lantern");
  await expect(visitor.getByRole("link", { name: "the rules" })).toHaveAttribute("href", "https://dwell.example/rules");
  await expect(visitor.locator('meta[property="og:title"]')).toHaveAttribute("content", "The Lantern Walk returns");
  await expect(visitor.locator('meta[property="og:type"]')).toHaveAttribute("content", "article");
  await visitor.setViewportSize({ width: 390, height: 900 });
  await visitor.screenshot({ path: test.info().outputPath("news-page-narrow.png"), fullPage: true });
  const feed = await (await fetch(`${server.url}/news.atom`)).text();
  expect(feed).toContain("<title>The Lantern Walk returns</title>");
  await visitor.goto(`${server.url}/`);
  await expect(visitor.getByRole("heading", { name: "Latest news" })).toBeVisible();
  await expect(visitor.getByRole("link", { name: "The Lantern Walk returns" })).toBeVisible();

  // An edit follows everywhere, without a second post or message.
  await hydrated(page);
  await page.getByLabel("Title").fill("The Lantern Walk, moved to Sunday");
  await page.getByRole("button", { name: "Save and update everywhere" }).click();
  await expect(page.getByText("Saved: the places that have it are updated.")).toBeVisible();
  await expect.poll(() => vrchat.group.posts.find((post) => post.id === dwellPosts()[0]!.id)?.title, { timeout: 20_000 }).toBe("The Lantern Walk, moved to Sunday");
  await expect.poll(() => liveMessages()[0]?.embeds[0]?.title, { timeout: 20_000 }).toBe("The Lantern Walk, moved to Sunday");
  expect(dwellPosts()).toHaveLength(1);
  expect(discord.announcements).toHaveLength(1);
  await visitor.goto(`${server.url}/news/${id}`);
  await expect(visitor.getByRole("heading", { name: "The Lantern Walk, moved to Sunday", level: 1 })).toBeVisible();

  // Deleted: gone from VRChat, Discord and the site.
  await page.getByRole("button", { name: "Delete everywhere" }).click();
  await expect(page).toHaveURL(/\/admin\/announcements$/);
  await expect.poll(() => vrchat.group.posts.some((post) => post.id === dwellPosts()[0]!.id), { timeout: 20_000 }).toBe(false);
  await expect.poll(() => liveMessages().length, { timeout: 20_000 }).toBe(0);
  expect((await fetch(`${server.url}/news/${id}`)).status).toBe(404);
  // The post made in VRChat directly was never touched.
  expect(vrchat.group.posts.map((post) => post.id)).toContain("not_00000000-0000-4000-8000-00000000aaaa");
  await visitor.close();
});

test("a scheduled announcement waits, and a members-only one reaches no public page, feed or preview", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, ADMIN, "/admin/announcements/new");
  await hydrated(page);
  await page.getByLabel("Title").fill("Winter solstice gathering");
  await page.getByLabel("Text").fill("Mark the date.");
  await page.getByLabel("Publish at (for 'Schedule')").fill("2001-01-01T10:00");
  await page.getByRole("button", { name: "Schedule" }).click();
  await expect(page.getByText("That time has passed: choose a time to come, or 'Publish now'.")).toBeVisible();
  await page.getByLabel("Publish at (for 'Schedule')").fill("2099-06-21T20:00");
  await page.getByRole("button", { name: "Schedule" }).click();
  await expect(page.getByText("Scheduled: it goes out at its time.")).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "VRChat" }).getByText("Scheduled")).toBeVisible();
  expect(vrchat.postWrites.some((write) => (write.body as { title?: string } | undefined)?.title === "Winter solstice gathering")).toBe(false);
  expect((await fetch(`${server.url}/news`)).ok).toBe(true);
  expect(await (await fetch(`${server.url}/news`)).text()).not.toContain("Winter solstice gathering");

  await page.goto(`${server.url}/admin/announcements/new`);
  await hydrated(page);
  await page.getByLabel("Title").fill("Members' lantern circle");
  await page.getByLabel("Text").fill("Only for Dwellers: the secret grove opens.");
  await page.getByLabel("Members only").check();
  await page.getByRole("button", { name: "Publish now" }).click();
  await expect(page.getByText("Published: each place shows its state below.")).toBeVisible();
  await placeState(page, "VRChat", "Published");
  const id = /\/admin\/announcements\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  const post = vrchat.group.posts.find((entry) => entry.title === "Members' lantern circle");
  expect(post?.visibility).toBe("group");
  expect(post?.text).not.toContain("/news/");
  for (const path of ["/news", "/news.atom", "/", `/news/${id}`]) {
    const body = await (await fetch(`${server.url}${path}`)).text();
    expect(body, path).not.toContain("secret grove");
    expect(body, path).not.toContain("Members' lantern circle");
  }
  expect((await fetch(`${server.url}/news/${id}`)).status).toBe(404);
});

test("VRChat down, then up: the announcement is published there once, and Discord did not wait", async ({ page }) => {
  test.setTimeout(90_000);
  await vrchat.setMode("down");
  try {
    await signIn(page, ADMIN, "/admin/announcements/new");
    await hydrated(page);
    await page.getByLabel("Title").fill("Lanterns in the rain");
    await page.getByLabel("Text").fill("We meet whatever the weather.");
    await page.getByRole("button", { name: "Publish now" }).click();
    await expect(page.getByText("Published: each place shows its state below.")).toBeVisible();
    await placeState(page, "Discord", "Published");
    await expect(page.getByText("VRChat did not answer; it is tried again shortly.")).toBeVisible();
  } finally {
    await vrchat.setMode("normal");
  }
  await placeState(page, "VRChat", "Published");
  expect(dwellPosts().filter((write) => (write.body as { title: string }).title === "Lanterns in the rain")).toHaveLength(1);
});

test("a reviewer cannot announce", async ({ page }) => {
  await signIn(page, REVIEWER, "/admin/announcements");
  await expect(page.getByText(/not for your role/i)).toBeVisible();
  await expect(page.getByRole("link", { name: "Announcements" })).toHaveCount(0);
  const response = await page.request.post(`${server.url}/admin/announcements/new`, { form: { intent: "publish", "title.en": "Sneaky", "text.en": "Sneaky", place: "site" }, headers: { Origin: server.url } });
  expect(response.status()).toBe(403);
});

test("a host announces their own event, with its time, and not another's", async ({ page }) => {
  test.setTimeout(90_000);
  const date = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
  const make = async (who: { email: string; password: string }, title: string) => {
    const cookie = await signInOverHttp(server.url, who.email, who.password);
    const made = await postForm(server.url, "/admin/events", { intent: "create", title, description: "Lanterns and tea.", eventDate: date, eventTime: "20:00", timezone: "UTC", worldName: "The Hearth" }, { cookie });
    expect(made.status).toBe(302);
    const list = await (await fetch(`${server.url}/events`)).text();
    return new RegExp(`href="/events/([0-9a-f-]{36})"[^>]*>(?:(?!</a>).)*?${title.replace("'", "&#x27;")}`, "s").exec(list)![1]!;
  };
  const own = await make(HOST, "Keeper's Tea Night");
  const other = await make(ADMIN, "Admin's Lantern Market");

  await signIn(page, HOST, "/admin/events");
  await followLink(page.getByRole("link", { name: "Announce Keeper's Tea Night" }));
  await expect(page.getByText("Announcing the event “Keeper's Tea Night”")).toBeVisible();
  await expect(page.getByLabel("Title")).toHaveValue("Keeper's Tea Night");
  await page.getByRole("button", { name: "Publish now" }).click();
  await expect(page.getByText("Published: each place shows its state below.")).toBeVisible();
  await placeState(page, "Discord", "Published");
  const message = liveMessages().find((entry) => entry.embeds[0]?.title === "Keeper's Tea Night")!;
  const start = Math.floor(Date.parse(`${date}T20:00:00Z`) / 1000);
  expect(JSON.stringify(message.embeds[0])).toContain(`<t:${start}:F>`);
  expect(message.attachments).toHaveLength(1);
  const id = /\/admin\/announcements\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  await page.goto(`${server.url}/news/${id}`);
  await expect(page.getByRole("link", { name: "The event's page" })).toHaveAttribute("href", `/events/${own}`);

  // Another's event, and announcements in general, are not a host's.
  await page.goto(`${server.url}/admin/announcements/new?event=${other}`);
  await expect(page.getByText(/not for your role/i)).toBeVisible();
  await page.goto(`${server.url}/admin/announcements/new`);
  await expect(page.getByText(/not for your role/i)).toBeVisible();
  const cookie = await signInOverHttp(server.url, HOST.email, HOST.password);
  const refused = await postForm(server.url, "/admin/announcements/new", { intent: "publish", event: other, "title.en": "Hijack", "text.en": "Hijack", place: "site" }, { cookie });
  expect(refused.status).toBe(403);
  expect(await (await fetch(`${server.url}/news`)).text()).not.toContain("Hijack");
});

test("an event made on the form is listed among the Discord server's events, and its card says so", async ({ page }) => {
  test.setTimeout(90_000);
  const date = new Date(Date.now() + 12 * 86_400_000).toISOString().slice(0, 10);
  await signIn(page, ADMIN, "/admin/events?new");
  await hydrated(page);
  await page.getByLabel("Title").fill("Starlit Tea Ceremony");
  await page.getByLabel("Event Date").fill(date);
  await page.getByLabel("Event Time").fill("19:30");
  await page.getByLabel("World Name").fill("The Tea House");
  // The bot may manage the server's events: the box is ticked at first.
  await expect(page.getByLabel("List it among the Discord server's events")).toBeChecked();
  await page.getByRole("button", { name: "Create Prophecy" }).click();
  const card = page.getByRole("article", { name: "Starlit Tea Ceremony" });
  await expect(card).toBeVisible();
  await expect.poll(() => discord.scheduledEvents.filter((event) => event.name === "Starlit Tea Ceremony").length, { timeout: 20_000 }).toBe(1);
  const listed = discord.scheduledEvents.find((event) => event.name === "Starlit Tea Ceremony")!;
  expect(listed.scheduled_start_time).toBe(`${date}T19:30:00.000Z`);
  expect(listed.location).toMatch(/\/events\/[0-9a-f-]{36}$/);
  await expect(async () => {
    await page.reload();
    await expect(card.getByTestId("event-interest")).toContainText("Listed among the Discord server's events.", { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await page.setViewportSize({ width: 390, height: 900 });
  await card.screenshot({ path: test.info().outputPath("event-card-discord-narrow.png") });
});
