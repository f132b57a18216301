/**
 * The role bridge, the moderation history and the tripwire over HTTP against a production server and
 * the VRChat and Discord fakes, with data made the way staff make it: applications sent on the public
 * form, their accounts confirmed on the review card, the team's Discord accounts set on the Team page.
 * Bad input is refused with the reason and writes nothing; a link is made, shown as a dry run and
 * filled; a VRChat ban, a Discord kick and a Dwell decision for one person appear on their file and on
 * /admin/moderation, and in the CSV; a moderator banning eleven people in a minute trips the wire, the
 * owner is told in Discord, and 'Undo' restores them.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_REGULAR_ROLE_ID, fakeDiscordBotEnv, fakeSnowflake, startFakeDiscordBot, type FakeDiscordBot } from "../fakes/discord-bot";
import { fakeUserId, fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { createAccountWithCommand, postForm, signIn } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess } from "../setup/server-process";

let vrchat: FakeVRChat;
let discord: FakeDiscordBot;
let server: ServerProcess;
let dataDir: string;
let owner = "";
let admin = "";
let fields: string[] = [];
let reviewer = "";
const reviewerCookie = () => reviewer;

const REGULAR = "grol_regular";
const OWNER_DISCORD = fakeSnowflake(800);
const MOD_DISCORD = fakeSnowflake(801);
const text = (html: string) => html.replaceAll("<!-- -->", "").replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");
const page = async (path: string, cookie = owner) => {
  const response = await fetch(`${server.url}${path}`, { headers: { cookie } });
  return { status: response.status, html: text(await response.text()) };
};
const post = async (path: string, values: Record<string, string>, cookie = owner) => {
  const response = await postForm(server.url, path, values, { cookie });
  return { status: response.status, body: text(await response.text()) };
};
const until = async (what: string, check: () => Promise<boolean> | boolean, ms = 20_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

/** An application sent on the public form; its id, from its card in the review list. */
async function apply(name: string): Promise<string> {
  const answers = [name, `${name.toLowerCase()}_dc`, "A friend", "I tend the lanterns", ""];
  const response = await postForm(server.url, "/apply", Object.fromEntries(fields.map((field, i) => [field, answers[i]!])));
  const sent = await response.text();
  expect(response.status, sent.slice(0, 500)).toBe(200);
  expect(sent).toContain("Check your application status");
  const html = await (await fetch(`${server.url}/admin/applications?status=all`, { headers: { cookie: owner } })).text();
  expect(html).toContain(`>${name}<`);
  return /name="id" value="([0-9a-f-]{36})"/.exec(html.slice(html.indexOf(`>${name}<`)))![1]!;
}

/** Someone in both places, their two accounts confirmed by staff on the review card. */
async function personInBoth(n: number, name: string) {
  vrchat.group.people.push({ id: fakeUserId(n), displayName: name, status: "member" });
  discord.members.push({ id: fakeSnowflake(n), username: `${name.toLowerCase()}_dc`, globalName: name });
  const id = await apply(name);
  expect((await post("/admin/applications", { intent: "link-vrchat", id, account: fakeUserId(n) })).status).toBe(200);
  expect((await post("/admin/applications", { intent: "link-discord", id, account: fakeSnowflake(n) })).status).toBe(200);
  return id;
}

/** 'Read the logs now', once the minute since the last read is over. */
async function readNow() {
  await until("a read allowed", async () => {
    const read = await post("/admin/moderation", { intent: "read-now" });
    if (read.status === 429) return false;
    expect(read.status, read.body).toBe(200);
    return true;
  }, 75_000);
}

beforeAll(async () => {
  vrchat = await startFakeVRChat();
  discord = await startFakeDiscordBot();
  vrchat.group.roles.push({ id: REGULAR, name: "Event Regular", description: "", holders: [] }, { id: "grol_managers", name: "Managers", description: "", holders: [], management: true });
  discord.members.push({ id: OWNER_DISCORD, username: "oak" }, { id: MOD_DISCORD, username: "rook", globalName: "Rook" });
  dataDir = mkdtempSync(join(tmpdir(), "dwell-moderation-http-"));
  server = await startServerProcess({ DATA_DIR: dataDir, ...fakeVRChatEnv(vrchat), ...fakeDiscordBotEnv(discord), VRCHAT_MEMBERSHIP_ACTIONS: "true", ROLE_BRIDGE_CALLS_PER_MINUTE: "120", RATE_LIMIT_APPLICATIONS: "1000", RATE_LIMIT_DUPLICATES: "1000", VRCHAT_READ_JOIN_REQUESTS: "false" });
  createAccountWithCommand(dataDir, "owner@dwell.example", "moonlight-over-the-owner", "owner");
  createAccountWithCommand(dataDir, "rook@dwell.example", "moonlight-over-the-rook", "admin");
  owner = await signIn(server.url, "owner@dwell.example", "moonlight-over-the-owner");
  admin = await signIn(server.url, "rook@dwell.example", "moonlight-over-the-rook");
  createAccountWithCommand(dataDir, "reviewer@dwell.example", "moonlight-over-the-reviewer", "reviewer");
  reviewer = await signIn(server.url, "reviewer@dwell.example", "moonlight-over-the-reviewer");
  // The team's own Discord accounts, as the owner sets them on the Team page.
  const team = await (await fetch(`${server.url}/admin/team`, { headers: { cookie: owner } })).text();
  const idOf = (email: string) => new RegExp(`${email.replace(".", "\\.")}[\\s\\S]*?name="id" value="([0-9a-f-]{36})"`).exec(team)![1]!;
  expect((await post("/admin/team", { intent: "set-discord", id: idOf("owner@dwell.example"), discordUserId: OWNER_DISCORD })).status).toBe(200);
  expect((await post("/admin/team", { intent: "set-discord", id: idOf("rook@dwell.example"), discordUserId: MOD_DISCORD })).status).toBe(200);
  const form = await (await fetch(`${server.url}/apply`)).text();
  fields = [...form.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((match) => match[1]!);
});
afterAll(async () => {
  await server?.stop();
  await vrchat?.close();
  await discord?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("the role bridge", () => {
  it("shows both places' roles, says which cannot be linked and why, and refuses bad links with the reason", async () => {
    const { status, html } = await page("/admin/roles");
    expect(status).toBe(200);
    expect(html).toContain("Event Regular");
    expect(html).toContain("cannot be linked: VRChat's management role: only the group's owner gives it");
    expect(html).toContain("cannot be linked: at or above the bot's own highest role");
    for (const [values, code, message] of [
      [{ intent: "link", vrchatRoleId: "", discordRoleId: "", direction: "both" }, 400, "Choose a VRChat role, a Discord role and a direction."],
      [{ intent: "link", vrchatRoleId: REGULAR, discordRoleId: FAKE_REGULAR_ROLE_ID, direction: "sideways" }, 400, "Choose a VRChat role, a Discord role and a direction."],
      [{ intent: "link", vrchatRoleId: "grol_managers", discordRoleId: FAKE_REGULAR_ROLE_ID, direction: "both" }, 409, "Dwell cannot give Managers: VRChat's management role"],
      [{ intent: "link", vrchatRoleId: "grol_nothing", discordRoleId: FAKE_REGULAR_ROLE_ID, direction: "both" }, 409, "That VRChat role no longer exists."],
      [{ intent: "fill", id: "not-an-id" }, 404, "This link no longer exists."],
    ] as const) {
      const answer = await post("/admin/roles", values);
      expect(answer.status).toBe(code);
      expect(answer.body).toContain(message);
    }
    // An admin reads the page; only an owner links.
    expect((await page("/admin/roles", admin)).html).toContain("Only an owner changes the links.");
    expect((await post("/admin/roles", { intent: "link", vrchatRoleId: REGULAR, discordRoleId: FAKE_REGULAR_ROLE_ID, direction: "both" }, admin)).status).toBe(403);
    expect((await page("/admin/roles")).html).toContain("No links yet.");
  });

  it("links 'Event Regular' both ways: the dry run names who gains it, the fill gives it; after one read of the logs a role given in Discord appears in VRChat, and a VRChat ban, a Discord kick and a Dwell decision for one person are on their file and on /admin/moderation", async () => {
    await personInBoth(1, "Wren");
    await personInBoth(2, "Finch");
    const heron = await personInBoth(3, "Heron");
    vrchat.group.roles.find((role) => role.id === REGULAR)!.holders.push(fakeUserId(1));
    const linked = await post("/admin/roles", { intent: "link", vrchatRoleId: REGULAR, discordRoleId: FAKE_REGULAR_ROLE_ID, direction: "both" });
    expect(linked.status).toBe(200);
    expect(linked.body).toContain("Linked.");
    expect((await post("/admin/roles", { intent: "link", vrchatRoleId: REGULAR, discordRoleId: FAKE_REGULAR_ROLE_ID, direction: "to_discord" })).body).toContain("already linked");
    const plain = async () => (await page("/admin/roles")).html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    await until("the dry run", async () => (await plain()).includes("Dry run, among 3 people proven in both places"));
    const ready = await plain();
    expect(ready).toContain("gain it in Discord: 1 (Wren)");
    expect(ready).toContain("gain it in VRChat: 0");
    const link = /data-link-id="([0-9a-f-]{36})"/.exec((await page("/admin/roles")).html)![1]!;
    const filled = await post("/admin/roles", { intent: "fill", id: link });
    expect(filled.status).toBe(200);
    expect(filled.body).toContain("Filling in: 1 changes, at most 120 a minute.");
    await until("Wren's role in Discord", () => discord.members.find((member) => member.id === fakeSnowflake(1))!.roles!.includes(FAKE_REGULAR_ROLE_ID));
    await until("the link kept in step", async () => (await plain()).includes("Kept in step."));

    // What moderators do meanwhile: Finch given the role in Discord; Heron rejected on the review
    // page, banned in VRChat and kicked from Discord.
    discord.moderate({ kind: "role_add", actorId: MOD_DISCORD, targetId: fakeSnowflake(2), roleId: FAKE_REGULAR_ROLE_ID });
    const decided = await post("/admin/applications", { intent: "status", id: heron, status: "rejected" });
    expect(decided.status, decided.body).toBe(200);
    vrchat.moderate({ kind: "ban", actorId: fakeUserId(901), actorName: "Kestrel", targetId: fakeUserId(3) });
    discord.moderate({ kind: "kick", actorId: MOD_DISCORD, targetId: fakeSnowflake(3), reason: "spamming the lobby" });
    await readNow();
    await until("Finch's role in VRChat", () => vrchat.group.roles.find((role) => role.id === REGULAR)!.holders.includes(fakeUserId(2)));
    // Each change is on the person's file, with the link that caused it.
    expect((await page(`/admin/people/vrchat-${fakeUserId(2)}`)).html).toContain("Role link: Event Regular (VRChat) ⇄ Event Regular (Discord)");

    const file = await page(`/admin/people/vrchat-${fakeUserId(3)}`);
    for (const line of ["Moderation", "Rejected", "Kick", "spamming the lobby", "Kestrel"]) expect(file.html).toContain(line);
    const list = await page(`/admin/moderation?person=${fakeUserId(3)}`);
    expect(list.status).toBe(200);
    expect((list.html.match(/data-testid="moderation-act"/g) ?? []).length).toBe(2);
    const byDiscord = await page(`/admin/moderation?person=${fakeSnowflake(3)}&place=discord`);
    expect((byDiscord.html.match(/data-testid="moderation-act"/g) ?? []).length).toBe(1);
    expect(byDiscord.html).toContain("Rook");
    // Nonsense in the address is left out, never a 500.
    expect((await page("/admin/moderation?place=moon&kind=<b>&from=yesterday&before=%27")).status).toBe(200);

    const csv = await fetch(`${server.url}/admin/moderation/export?person=${fakeSnowflake(3)}`, { headers: { cookie: owner } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const rows = (await csv.text()).trim().split("\r\n");
    expect(rows[0]).toContain("When (UTC)");
    expect(rows.slice(1).some((row) => row.includes('"kick"') && row.includes("spamming the lobby"))).toBe(true);
    expect((await fetch(`${server.url}/admin/moderation/export`, { headers: { cookie: reviewer } })).status).toBe(403);
  });
});

describe("the tripwire", () => {
  it("trips the wire when a moderator bans or kicks eleven people in a minute: the owner is told in Discord, the moderator is stopped there, and 'Undo' lifts the bans", async () => {
    const badLimits = await post("/admin/moderation", { intent: "tripwire", removalLimit: "0", roleRemovalLimit: "", windowMinutes: "10", retentionDays: "" });
    expect(badLimits.status).toBe(400);
    expect(badLimits.body).toContain("A limit is a whole number from 1");
    const saved = await post("/admin/moderation", { intent: "tripwire", removalLimit: "10", roleRemovalLimit: "20", windowMinutes: "10", suspend: "on", retentionDays: "" });
    expect(saved.status).toBe(200);
    // Rook, an admin, bans one after another on the Bans page.
    const answers: number[] = [];
    for (let i = 0; i < 15; i++) {
      const ban = await postForm(server.url, "/admin/bans", { intent: "ban", account: "", discord: fakeSnowflake(500 + i), reason: "raid" }, { cookie: admin });
      await ban.body?.cancel();
      answers.push(ban.status);
      if (ban.status !== 200) break;
    }
    // Rook's kick in Discord a moment ago (the test before) counts too, wherever it was made: the
    // tenth ban here is the eleventh removal and trips the wire. Rook is signed out and suspended then
    // (the page after it may already be refused), and no ban after it is made.
    expect(answers.slice(0, 9)).toEqual(Array(9).fill(200));
    expect(answers.length).toBeLessThanOrEqual(11);
    expect(answers.at(-1)).toBe(401);
    const list = (await page("/admin/bans")).html;
    expect(list).toContain(fakeSnowflake(509));
    expect(list).not.toContain(fakeSnowflake(510));
    const banned = Array.from({ length: 10 }, (_, i) => i);
    await until("the owner's DM", () => discord.messages.some((message) => message.userId === OWNER_DISCORD && message.content.startsWith("Tripwire: ") && message.content.includes("made 11 bans or kicks")));
    expect((await page("/admin")).html).toContain("Tripwire: 1 to look at");
    expect((await fetch(`${server.url}/admin/moderation`, { headers: { cookie: admin }, redirect: "manual" })).status).not.toBe(200);
    await until("the bans in Discord", () => banned.every((i) => discord.bans.has(fakeSnowflake(500 + i))));
    const trips = await page("/admin/moderation");
    expect(trips.html).toContain("11 bans or kicks, 0 roles taken");
    // Undo lifts the ten bans made in Dwell; the kick cannot be taken back.
    expect(trips.html).toContain("Their Sanctum account is suspended.");
    const tripId = /data-trip-id="([0-9a-f-]{36})"/.exec(trips.html)![1]!;
    // Only an owner answers a trip.
    expect((await post("/admin/moderation", { intent: "undo", id: tripId }, reviewerCookie())).status).toBe(403);
    const undone = await post("/admin/moderation", { intent: "undo", id: tripId });
    expect(undone.status).toBe(200);
    expect(undone.body).toContain("10 unbans and 0 roles given back sent; 1 could not be undone");
    expect((await post("/admin/moderation", { intent: "undo", id: tripId })).status).toBe(409);
    await until("the bans lifted in Discord", () => banned.every((i) => !discord.bans.has(fakeSnowflake(500 + i))));
    // Each of the ten reads 'Lifted' (a ban found on VRChat's own list, read meanwhile, stays in force).
    const entries = (await page("/admin/bans")).html.split("<li>");
    for (const i of banned) {
      const entry = entries.find((html) => html.includes(`Discord user ${fakeSnowflake(500 + i)} `));
      expect(entry, fakeSnowflake(500 + i)).toContain("Lifted</span>");
      expect(entry).not.toContain("Banned</span>");
    }
    expect((await post("/admin/moderation", { intent: "close-lift", id: tripId })).status).toBe(200);
    const again = await signIn(server.url, "rook@dwell.example", "moonlight-over-the-rook");
    expect((await fetch(`${server.url}/admin/moderation`, { headers: { cookie: again } })).status).toBe(200);
  });
});
