/**
 * Announcements over HTTP against a production server in two languages and the VRChat and Discord
 * fakes: bad input is refused with the limit or the reason named and nothing saved or sent; a
 * picture is checked by its bytes and reaches each place; Discord refusing, or its channel gone, is
 * said plainly on the card while VRChat is published, and 'Try again' sends it once; the server
 * restarting between the places publishes the last one once.
 */
import { createCanvas } from "@napi-rs/canvas";
import { mkdtempSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_ANNOUNCE_CHANNEL_ID, fakeDiscordBotEnv, startFakeDiscordBot, type FakeDiscordBot } from "../fakes/discord-bot";
import { fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { createAccountWithCommand, signIn } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess } from "../setup/server-process";

let vrchat: FakeVRChat;
let discord: FakeDiscordBot;
let server: ServerProcess;
let dataDir: string;
let cookie: string;
let env: Record<string, string>;

beforeAll(async () => {
  vrchat = await startFakeVRChat();
  vrchat.group.posts = [];
  discord = await startFakeDiscordBot();
  dataDir = mkdtempSync(join(tmpdir(), "dwell-announce-http-"));
  env = { DATA_DIR: dataDir, DEMO_CONTENT: "false", SITE_LANGUAGES: "en,ja", ...fakeVRChatEnv(vrchat), ...fakeDiscordBotEnv(discord), DISCORD_ANNOUNCE_CHANNEL_ID: FAKE_ANNOUNCE_CHANNEL_ID };
  server = await startServerProcess(env);
  createAccountWithCommand(dataDir, "owner@dwell.example", "moonlight-over-the-owner", "owner");
  cookie = await signIn(server.url, "owner@dwell.example", "moonlight-over-the-owner");
});
afterAll(async () => {
  await server?.stop();
  await vrchat?.close();
  await discord?.close();
  await rm(dataDir, { recursive: true, force: true });
});

interface Submission {
  intent?: string;
  title?: string;
  text?: string;
  titleJa?: string;
  textJa?: string;
  places?: string[];
  scheduleAt?: string;
  picture?: { bytes: Uint8Array; name: string; type: string };
}

/** The new announcement form, posted as the browser posts it (multipart, from the site's own page). */
function submit(values: Submission, path = "/admin/announcements/new") {
  const form = new FormData();
  form.set("intent", values.intent ?? "publish");
  form.set("title.en", values.title ?? "Lanterns at dusk");
  form.set("text.en", values.text ?? "We gather at dusk.");
  form.set("title.ja", values.titleJa ?? "");
  form.set("text.ja", values.textJa ?? "");
  form.set("audience", "everyone");
  for (const place of values.places ?? ["site", "vrchat", "discord"]) form.append("place", place);
  if (values.scheduleAt) form.set("scheduleAt", values.scheduleAt);
  if (values.picture) form.set("picture", new Blob([values.picture.bytes.slice()], { type: values.picture.type }), values.picture.name);
  return fetch(`${server.url}${path}`, { method: "POST", body: form, headers: { Origin: server.url, cookie }, redirect: "manual" });
}

const sent = () => ({ posts: vrchat.postWrites.length, messages: discord.announcements.length });
const idOf = (response: Response) => /\/admin\/announcements\/([0-9a-f-]{36})/.exec(response.headers.get("location") ?? "")?.[1] ?? null;
const card = async (id: string) => (await fetch(`${server.url}/admin/announcements/${id}`, { headers: { cookie } })).text();

function picture(format: "image/png" | "image/jpeg", width = 40, height = 30) {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext("2d");
  context.fillStyle = "#f5b042";
  context.fillRect(0, 0, width, height);
  return new Uint8Array(format === "image/png" ? canvas.toBuffer("image/png") : canvas.toBuffer("image/jpeg"));
}

describe("bad input", () => {
  const refusals: [string, Submission, RegExp][] = [
    ["an empty default language", { title: "", text: "" }, /Give it a title\./],
    ["a second language with a title and no text", { titleJa: "夕暮れのランタン" }, /Give this language both a title and a text, or neither\./],
    ["a title over Discord's limit", { title: "x".repeat(257) }, /Discord allows at most 256 characters in a title; this one has 257\./],
    ["a text over Discord's limit", { text: "y".repeat(4_097) }, /Discord allows at most 4,096 characters in an announcement&#x27;s text \(its formatting marks included\); this one has 4,097\./],
    ["a schedule in the past", { intent: "schedule", scheduleAt: "2001-01-01T10:00" }, /That time has passed/],
    ["a schedule with no time", { intent: "schedule" }, /Give the date and time to publish it\./],
    ["no place at all", { places: [] }, /Choose at least one place for it to go\./],
    ["a text file named as a picture", { picture: { bytes: new TextEncoder().encode("not a picture"), name: "lantern.png", type: "image/png" } }, /The picture must be a PNG, JPEG or WebP file\./],
    ["a file that only starts like a PNG", { picture: { bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]), name: "broken.png", type: "image/png" } }, /That file is not a picture that can be read\./],
    ["a picture over 5 MB", { picture: { bytes: new Uint8Array(5 * 1024 * 1024 + 10).fill(1), name: "huge.png", type: "image/png" } }, /The picture is 6 MB: 5 MB at most\./],
  ];
  for (const [name, values, message] of refusals) {
    it(`${name}: refused with a clear message, nothing saved or sent`, async () => {
      const before = sent();
      const response = await submit(values);
      expect(response.status).toBe(400);
      expect(await response.text()).toMatch(message);
      const list = await (await fetch(`${server.url}/admin/announcements`, { headers: { cookie } })).text();
      expect(list).toContain("No announcements yet");
      expect(sent()).toEqual(before);
    });
  }

  it("a form far over the size any picture needs: 413 before it is read", async () => {
    // Announced as 7 MB and never sent: the answer comes before any of the body is read.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const url = new URL("/admin/announcements/new", server.url);
      const request = httpRequest(url, { method: "POST", headers: { Origin: server.url, cookie, "Content-Type": "multipart/form-data; boundary=x", "Content-Length": String(7 * 1024 * 1024) } }, (response) => {
        response.resume();
        resolve(response.statusCode);
        request.destroy();
      });
      request.on("error", reject);
      request.flushHeaders();
    });
    expect(status).toBe(413);
  });
});

describe("a picture", () => {
  it("checked by its bytes, goes to VRChat as a PNG, to Discord attached, and to the site's page and preview", async () => {
    const jpeg = picture("image/jpeg");
    const response = await submit({ title: "The lantern picture", picture: { bytes: jpeg, name: "lantern.jpg", type: "image/jpeg" } });
    expect(response.status).toBe(302);
    const id = idOf(response)!;
    await expect.poll(() => vrchat.postWrites.filter((write) => write.kind === "create" && (write.body as { title: string }).title === "The lantern picture").length, { timeout: 20_000 }).toBe(1);
    await expect.poll(() => discord.announcements.filter((message) => message.embeds[0]?.title === "The lantern picture").length, { timeout: 20_000 }).toBe(1);
    expect(vrchat.files.at(-1)).toMatchObject({ type: "image/png", tag: "gallery" });
    const post = vrchat.postWrites.find((write) => (write.body as { title: string }).title === "The lantern picture")!;
    expect((post.body as { imageId: string }).imageId).toBe(vrchat.files.at(-1)!.id);
    const message = discord.announcements.find((entry) => entry.embeds[0]?.title === "The lantern picture")!;
    expect(message.attachments).toEqual([{ filename: "announcement.jpg", type: "image/jpeg", size: jpeg.length }]);
    const served = await fetch(`${server.url}/news/${id}/picture`);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(jpeg);
    const page = await (await fetch(`${server.url}/news/${id}`)).text();
    expect(page).toContain(`/news/${id}/picture`);
    expect(page).toMatch(/<meta property="og:image:width" content="40"/);
  });
});

describe("when Discord refuses", () => {
  it("says why on the card, leaves VRChat published, and sends it once on 'Try again'", async () => {
    discord.refuseAnnouncements(true);
    let id: string;
    try {
      id = idOf(await submit({ title: "Refused in Discord" }))!;
      await expect.poll(async () => card(id), { timeout: 20_000 }).toContain("the bot may not post in the announcement channel");
      expect(await card(id)).toContain("Try again");
      await expect.poll(() => vrchat.postWrites.filter((write) => (write.body as { title?: string } | undefined)?.title === "Refused in Discord").length, { timeout: 20_000 }).toBe(1);
    } finally {
      discord.refuseAnnouncements(false);
    }
    const again = new FormData();
    again.set("intent", "retry");
    again.set("place", "discord");
    const retried = await fetch(`${server.url}/admin/announcements/${id}`, { method: "POST", body: again, headers: { Origin: server.url, cookie }, redirect: "manual" });
    expect(retried.status).toBe(302);
    await expect.poll(() => discord.announcements.filter((message) => message.embeds[0]?.title === "Refused in Discord").length, { timeout: 20_000 }).toBe(1);
    // A second 'Try again' on a place that is published does nothing.
    const twice = await fetch(`${server.url}/admin/announcements/${id}`, { method: "POST", body: again, headers: { Origin: server.url, cookie }, redirect: "manual" });
    expect(twice.status).toBe(409);
  });

  it("says the channel is gone when Discord no longer knows it", async () => {
    discord.dropAnnounceChannel(true);
    try {
      const id = idOf(await submit({ title: "Into a lost channel", places: ["site", "discord"] }))!;
      await expect.poll(async () => card(id), { timeout: 20_000 }).toContain("Discord does not know the announcement channel (DISCORD_ANNOUNCE_CHANNEL_ID)");
    } finally {
      discord.dropAnnounceChannel(false);
    }
  });
});

describe("the server restarting between the places", () => {
  it("publishes the place still waiting once, after the restart", async () => {
    await vrchat.setMode("down");
    const id = idOf(await submit({ title: "Across a restart" }))!;
    await expect.poll(() => discord.announcements.filter((message) => message.embeds[0]?.title === "Across a restart").length, { timeout: 20_000 }).toBe(1);
    await server.stop();
    await vrchat.setMode("normal");
    server = await startServerProcess({ ...env, PORT: new URL(server.url).port });
    cookie = await signIn(server.url, "owner@dwell.example", "moonlight-over-the-owner");
    await expect.poll(async () => card(id), { timeout: 60_000 }).toMatch(/VRChat<\/span><span[^>]*>Published/);
    expect(vrchat.postWrites.filter((write) => write.kind === "create" && (write.body as { title: string }).title === "Across a restart")).toHaveLength(1);
    expect(discord.announcements.filter((message) => message.embeds[0]?.title === "Across a restart")).toHaveLength(1);
  });
});
