/**
 * The door, tried as an attacker would over HTTP against the production server and fakes of VRChat,
 * Discord and Telegram: an impostor with another's name, profile link and a Discord display name to
 * match; a ban from a name-matched card; thirty edits in a row; a crafted return address. No automatic
 * act reaches an account that was not proven, nothing is lost, and every refusal is a clear 4xx.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeDiscordBotEnv, fakeSnowflake, FAKE_CLIENT_ID, FAKE_CLIENT_SECRET, startFakeDiscordBot, type FakeDiscordBot } from "../fakes/discord-bot";
import { startFakeTelegram } from "../fakes/telegram";
import { fakeUserId, fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { createAccountWithCommand, postForm, signIn } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess } from "../setup/server-process";

const AURORA = { id: fakeUserId(1), name: "Aurora" };
const CROW = { id: fakeUserId(2), name: "Pushy Crow" };
const MALLORY_DISCORD = fakeSnowflake(21);
const AURORA_DISCORD = fakeSnowflake(22);
const VETERAN = ["system_trust_basic", "system_trust_known", "system_trust_trusted", "system_trust_veteran"];

let vrchat: FakeVRChat;
let discord: FakeDiscordBot;
let telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
let server: ServerProcess;
let dataDir: string;
let owner = "";
let fields: string[] = [];

const textOf = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/\s+/g, " ");

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Applies through the public form: name, Discord handle, how they found us, why, a profile link. */
async function apply(name: string, discordHandle: string, profile: string) {
  const answers = [name, discordHandle, "A friend", "I tend the lanterns", "", profile];
  const response = await postForm(server.url, "/apply", Object.fromEntries(fields.map((field, i) => [field, answers[i] ?? ""])));
  const html = await response.text();
  expect(response.status, textOf(html).slice(0, 500)).toBe(200);
  return /href="\/applications\/status\/([A-Za-z0-9_-]{43})"/.exec(html)![1]!;
}

async function card(name: string) {
  const html = await fetch(`${server.url}/admin/applications?status=all&q=${encodeURIComponent(name)}`, { headers: { cookie: owner } }).then((r) => r.text());
  const at = html.indexOf(`>${name}<`);
  expect(at, `the card of ${name}`).toBeGreaterThan(-1);
  const start = html.lastIndexOf("<li", at);
  return { id: /name="id" value="([0-9a-f-]{36})"/.exec(html.slice(at))![1]!, text: textOf(html.slice(start, html.indexOf("</details>", start))) };
}

beforeAll(async () => {
  [vrchat, discord, telegram] = await Promise.all([startFakeVRChat(), startFakeDiscordBot(), startFakeTelegram()]);
  // The real Aurora: a veteran account that never asked to join. Crow has asked.
  vrchat.group.people.push(
    { id: AURORA.id, displayName: AURORA.name, status: "none", tags: VETERAN, dateJoined: "2020-01-01", ageVerificationStatus: "18+" },
    { id: CROW.id, displayName: CROW.name, status: "requested" },
  );
  discord.members.push({ id: MALLORY_DISCORD, username: "mallory_dc", globalName: AURORA.name }, { id: AURORA_DISCORD, username: "aurora_real", globalName: AURORA.name });
  dataDir = mkdtempSync(join(tmpdir(), "dwell-door-"));
  server = await startServerProcess({
    DATA_DIR: dataDir,
    ...fakeVRChatEnv(vrchat),
    ...fakeDiscordBotEnv(discord),
    VRCHAT_MEMBERSHIP_ACTIONS: "true",
    DISCORD_CLIENT_ID: FAKE_CLIENT_ID,
    DISCORD_CLIENT_SECRET: FAKE_CLIENT_SECRET,
    DISCORD_OAUTH_URL: `${new URL(discord.url).origin}/oauth2/authorize`,
    TELEGRAM_BOT_TOKEN: "123:test-token",
    TELEGRAM_CHAT_ID: "-1001",
    TELEGRAM_API_URL: telegram.url,
    RATE_LIMIT_APPLICATIONS: "1000",
    RATE_LIMIT_DUPLICATES: "1000",
  });
  createAccountWithCommand(dataDir, "keeper@dwell.example", "moonlight-over-the-door", "owner");
  owner = await signIn(server.url, "keeper@dwell.example", "moonlight-over-the-door");
  // The owner asks for profile links, and adds the rule the impostor aims at.
  const question = await postForm(server.url, "/admin/questions", { intent: "add", question: "Your VRChat profile link", questionType: "vrchat_profile" }, { cookie: owner });
  expect(question.status).toBe(200);
  await question.body?.cancel();
  const rule = { intent: "add", name: "Trusted and grown", scope: "group", trust: "on", trustRank: "trusted_user", age: "on", ageDays: "365", adult: "on", outcome: "approve" };
  const added = await postForm(server.url, "/admin/screening", rule, { cookie: owner });
  expect(added.status).toBe(200);
  await added.body?.cancel();
  const form = await fetch(`${server.url}/apply`).then((response) => response.text());
  fields = [...form.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
});
afterAll(async () => {
  await server?.stop();
  await Promise.all([vrchat?.close(), discord?.close(), telegram?.close()]);
  await rm(dataDir, { recursive: true, force: true });
});

describe("an impostor at the door", () => {
  it("applying under Aurora's name, with her profile link and a Discord account named Aurora, is flagged: no invite, no role, no message", async () => {
    const token = await apply(AURORA.name, "mallory_dc", `https://vrchat.com/home/user/${AURORA.id}`);
    await until("the rule's flag", async () => (await card(AURORA.name)).text.includes("Approve needs a proven account"));
    const { text } = await card(AURORA.name);
    expect(text).toContain("Pending");
    expect(text).toContain("Matched by name");
    // Several screening looks later, still nothing done to anyone's account.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(vrchat.actions).toEqual([]);
    expect(discord.grants).toEqual([]);
    expect(discord.messages).toEqual([]);
    // Her page offers the proof (which only the account's owner can give) and a Discord sign-in.
    const page = textOf(await fetch(`${server.url}/applications/status/${token}`).then((r) => r.text()));
    expect(page).toContain("Pending");
    expect(page).toContain("Prove this account is yours");
    expect(page).toContain("Link your Discord");
    // The Screening page says who a rule may approve by itself.
    expect(textOf(await fetch(`${server.url}/admin/screening`, { headers: { cookie: owner } }).then((r) => r.text()))).toContain(
      "Who a rule may approve by itself: an applicant whose VRChat account is proven by the code in its bio",
    );
  });

  it("a Discord sign-in on the status page links the account that signed in, as proven; the GET alone writes nothing", async () => {
    const token = await apply("Aurora Real", "aurora_real", "");
    discord.signInAs(AURORA_DISCORD);
    const start = await postForm(server.url, `/applications/status/${token}`, { intent: "discord-start" });
    expect(start.status).toBe(302);
    const started = start.headers.getSetCookie().map((line) => line.split(";")[0]!).find((pair) => pair.startsWith("dwell-applicant-discord="))!;
    const consent = await fetch(start.headers.get("location")!, { redirect: "manual" });
    const back = new URL(consent.headers.get("location")!);
    expect(back.pathname).toBe("/applications/discord-link");
    // Another state than the one this browser started with is refused.
    const forged = await fetch(`${server.url}${back.pathname}${back.search.replace(/state=[^&]+/, "state=forged")}`, { headers: { cookie: started } });
    expect(forged.status).toBe(400);
    await forged.body?.cancel();
    const callback = await fetch(`${server.url}${back.pathname}${back.search}`, { headers: { cookie: started } });
    expect(callback.status).toBe(200);
    expect(textOf(await callback.text())).toContain(`Discord says you signed in as Aurora ( ${AURORA_DISCORD} )`);
    expect((await card("Aurora Real")).text).not.toContain(AURORA_DISCORD);
    const pending = callback.headers.getSetCookie().map((line) => line.split(";")[0]!).find((pair) => pair.startsWith("dwell-applicant-discord-link="))!;
    // Without the sign-in's cookies (another browser): refused, nothing linked.
    const elsewhere = await postForm(server.url, "/applications/discord-link", {});
    expect(elsewhere.status).toBe(400);
    await elsewhere.body?.cancel();
    const confirmed = await postForm(server.url, "/applications/discord-link", {}, { cookie: `${started}; ${pending}` });
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("location")).toBe(`/applications/status/${token}?discord=linked`);
    expect(textOf(await fetch(`${server.url}/applications/status/${token}`).then((r) => r.text()))).toContain("Discord: linked to Aurora (you signed in).");
    expect((await card("Aurora Real")).text).toContain(`the applicant (their Discord sign-in): Discord: proven by their Discord sign-in: Aurora (${AURORA_DISCORD})`);
    // Approved by staff now: the DM and the member role go to the account that signed in, not to mallory_dc.
    const approved = await postForm(server.url, "/admin/applications", { intent: "status", id: (await card("Aurora Real")).id, status: "approved" }, { cookie: owner });
    expect(approved.status).toBe(200);
    await approved.body?.cancel();
    await until("the DM", () => discord.messages.length === 1);
    expect(discord.messages[0]!.userId).toBe(AURORA_DISCORD);
    expect(discord.grants.every((grant) => !grant.startsWith(MALLORY_DISCORD))).toBe(true);
  });

  it("a ban from the card of an account matched by name stays on the site unless the staff member confirms the account", async () => {
    const { id } = await card(AURORA.name);
    const banned = await postForm(server.url, "/admin/applications", { intent: "ban", id, reason: "Pretended to be Aurora." }, { cookie: owner });
    expect(banned.status).toBe(200);
    expect(await banned.text()).toContain("Aurora is banned on this site only");
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(vrchat.actions.filter((action) => action.kind === "ban")).toEqual([]);
    expect([...discord.bans.keys()]).toEqual([]);
    const bans = textOf(await fetch(`${server.url}/admin/bans`, { headers: { cookie: owner } }).then((r) => r.text()));
    expect(bans).toContain("On this site only");
    // Crow, matched by name too, banned with the account confirmed in the dialog: VRChat hears of it.
    await apply(CROW.name, "crow-d", `https://vrchat.com/home/user/${CROW.id}`);
    const crow = await card(CROW.name);
    const wrong = await postForm(server.url, "/admin/applications", { intent: "ban", id: crow.id, reason: "Spam.", confirmVRChat: AURORA.id }, { cookie: owner });
    // A confirmation of another account than the card shows confirms nothing: on the site only.
    expect(await wrong.text()).toContain("Pushy Crow is banned on this site only");
    const lifted = textOf(await fetch(`${server.url}/admin/bans`, { headers: { cookie: owner } }).then((r) => r.text()));
    expect(lifted).toContain("Pushy Crow");
    const again = await postForm(server.url, "/admin/applications", { intent: "ban", id: crow.id, reason: "Spam, and it is them.", confirmVRChat: CROW.id }, { cookie: owner });
    expect(again.status).toBe(200);
    expect(await again.text()).toContain("Pushy Crow is banned.");
    await until("the ban in VRChat", () => vrchat.actions.some((action) => action.kind === "ban" && action.userId === CROW.id), 30_000);
    expect(vrchat.actions.some((action) => action.userId === AURORA.id)).toBe(false);
  });
});

describe("an applicant's edits", () => {
  it("thirty in a row: ten an hour are kept, the rest refused with a clear 429; staff hear of them once", async () => {
    const token = await apply("Restless Wren", "restless-d", "");
    await until("the new application's notice", () => telegram.requests.some((request) => request.shownText.includes("Restless Wren")), 30_000);
    const before = telegram.requests.length;
    const edit = await fetch(`${server.url}/applications/status/${token}/edit`).then((r) => r.text());
    const editFields = [...edit.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
    const statuses: number[] = [];
    let refusal = "";
    for (let i = 0; i < 30; i++) {
      const answers = ["Restless Wren", "restless-d", "A friend", `Edit number ${i}`, ""];
      const response = await postForm(server.url, `/applications/status/${token}/edit`, Object.fromEntries(editFields.map((field, n) => [field, answers[n] ?? ""])));
      statuses.push(response.status);
      if (response.status === 429) refusal = textOf(await response.text());
      else await response.body?.cancel();
    }
    expect(statuses.filter((status) => status === 302)).toHaveLength(10);
    expect(statuses.slice(10).every((status) => status === 429)).toBe(true);
    expect(refusal).toMatch(/You have edited this application 10 times in the last hour\. You can edit it again after \d{2}:\d{2} \(UTC\)\./);
    // Every kept edit is in the history; the last one kept is the answer staff read.
    const { text } = await card("Restless Wren");
    expect(text.match(/Edited by the applicant/g) ?? []).toHaveLength(10);
    expect(text).toContain("Edit number 9");
    expect(text).not.toContain("Edit number 10");
    // One 'Application edited' now; the other nine wait, together, for the ten minutes to pass.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const notices = telegram.requests.slice(before).filter((request) => request.shownText.includes("Application edited"));
    expect(notices).toHaveLength(1);
  });
});

describe("a crafted return address", () => {
  it.each(["/.//evil.example/x", "//evil.example", "/\\evil.example", "https://evil.example"])("POST /language with next=%s goes home, never to another site", async (next) => {
    const response = await postForm(server.url, "/language", { language: "en", next });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/");
  });
});
