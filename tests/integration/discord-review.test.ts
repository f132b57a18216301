/**
 * Review in Discord, over HTTP against the production server: applications made through the
 * public form are posted to the fake Discord's review channel; presses come signed by a key pair of
 * the test's own, as Discord signs them; the decision acts in VRChat (the fake) once, the review
 * message is edited, and every refusal (unsigned, badly signed, stale, an unknown button, an
 * unlinked presser, a role that may not decide, a second press) changes nothing.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FAKE_CLIENT_ID,
  FAKE_CLIENT_SECRET,
  FAKE_REVIEW_CHANNEL_ID,
  fakeDiscordBotEnv,
  fakeInteractionSigner,
  fakeModalSubmit,
  fakePress,
  fakeSnowflake,
  startFakeDiscordBot,
  type FakeDiscordBot,
} from "../fakes/discord-bot";
import { fakeUserId, fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { createAccountWithCommand, postForm, signIn } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess } from "../setup/server-process";

const signer = fakeInteractionSigner();
const REVIEWER_DISCORD = fakeSnowflake(11);
const HOST_DISCORD = fakeSnowflake(12);
const STRANGER_DISCORD = fakeSnowflake(13);
const KEEPER_DISCORD = fakeSnowflake(14);
const MOON_DISCORD = fakeSnowflake(15);

let fake: FakeVRChat;
let discord: FakeDiscordBot;
let server: ServerProcess;
let dataDir: string;
const cookies = { owner: "", reviewer: "" };
let fields: string[] = [];

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

async function apply(name: string) {
  const answers = [name, `${name.replaceAll(" ", "").toLowerCase()}-discord`, "A friend", "I tend the lanterns", ""];
  const response = await postForm(server.url, "/apply", Object.fromEntries(fields.map((field, i) => [field, answers[i]!])));
  const html = await response.text();
  expect(response.status).toBe(200);
  return /href="\/applications\/status\/([A-Za-z0-9_-]{43})"/.exec(html)![1]!;
}

/** The review post of an application, once the bot has made it; its buttons' custom ids. */
async function reviewPost(name: string) {
  await until(`the review post of ${name}`, () => discord.channelPosts.some((post) => JSON.stringify(post.embeds).includes(name)));
  const post = discord.channelPosts.find((p) => JSON.stringify(p.embeds).includes(name))!;
  const buttons = post.components.flatMap((row) => row.components ?? []);
  return { post, approve: buttons.find((b) => b.label === "Approve")?.custom_id ?? "", reject: buttons.find((b) => b.label === "Reject")?.custom_id ?? "" };
}

async function reviewText(name: string) {
  const html = await fetch(`${server.url}/admin/applications?status=all`, { headers: { cookie: cookies.owner } }).then((r) => r.text());
  const start = html.lastIndexOf("<li", html.indexOf(`>${name}<`));
  return html.slice(start, html.indexOf("</details>", start)).replace(/<[^>]+>/g, " ").replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/\s+/g, " ");
}

async function applicationIdOf(name: string) {
  const html = await fetch(`${server.url}/admin/applications?status=all`, { headers: { cookie: cookies.owner } }).then((r) => r.text());
  return /name="id" value="([0-9a-f-]{36})"/.exec(html.slice(html.indexOf(`>${name}<`)))![1]!;
}

async function statusText(token: string) {
  return (await fetch(`${server.url}/applications/status/${token}`).then((r) => r.text())).replace(/<[^>]+>/g, " ").replace(/&#x27;/g, "'").replace(/\s+/g, " ");
}

async function teamMemberId(email: string) {
  const html = await fetch(`${server.url}/admin/team`, { headers: { cookie: cookies.owner } }).then((r) => r.text());
  // The member's card names them, then holds their forms.
  return /name="id" value="([0-9a-f-]{36})"/.exec(html.slice(html.indexOf(email)))![1]!;
}

beforeAll(async () => {
  [fake, discord] = await Promise.all([startFakeVRChat(), startFakeDiscordBot()]);
  fake.group.people.push(
    { id: fakeUserId(1), displayName: "Lantern Moth", status: "requested" },
    { id: fakeUserId(2), displayName: "Pushy Crow", status: "requested" },
  );
  discord.members.push(
    { id: REVIEWER_DISCORD, username: "sky-reviews", globalName: "Sky" },
    { id: HOST_DISCORD, username: "ember-hosts", globalName: "Ember" },
    { id: STRANGER_DISCORD, username: "someone", globalName: "Someone" },
    { id: KEEPER_DISCORD, username: "keeper-of-the-hall", globalName: "Keeper K" },
    { id: MOON_DISCORD, username: "moon-reviews", globalName: "Tsuki" },
  );
  dataDir = mkdtempSync(join(tmpdir(), "dwell-discord-review-"));
  server = await startServerProcess({
    DATA_DIR: dataDir,
    ...fakeVRChatEnv(fake),
    ...fakeDiscordBotEnv(discord),
    VRCHAT_MEMBERSHIP_ACTIONS: "true",
    DISCORD_PUBLIC_KEY: signer.publicKeyHex,
    DISCORD_REVIEW_CHANNEL_ID: FAKE_REVIEW_CHANNEL_ID,
    DISCORD_CLIENT_ID: FAKE_CLIENT_ID,
    DISCORD_CLIENT_SECRET: FAKE_CLIENT_SECRET,
    DISCORD_OAUTH_URL: `${new URL(discord.url).origin}/oauth2/authorize`,
    RATE_LIMIT_APPLICATIONS: "1000",
    RATE_LIMIT_DUPLICATES: "1000",
    SITE_LANGUAGES: "en,ja",
  });
  createAccountWithCommand(dataDir, "keeper@dwell.example", "moonlight-over-the-hall", "owner");
  createAccountWithCommand(dataDir, "sky@dwell.example", "moonlight-over-the-sky", "reviewer");
  createAccountWithCommand(dataDir, "ember@dwell.example", "moonlight-over-the-ember", "host");
  cookies.owner = await signIn(server.url, "keeper@dwell.example", "moonlight-over-the-hall");
  cookies.reviewer = await signIn(server.url, "sky@dwell.example", "moonlight-over-the-sky");
  // The owner links each member's Discord account on the Team page (checked with the bot).
  for (const [email, discordId] of [["sky@dwell.example", REVIEWER_DISCORD], ["ember@dwell.example", HOST_DISCORD]] as const) {
    const linked = await postForm(server.url, "/admin/team", { intent: "set-discord", id: await teamMemberId(email), discordUserId: discordId }, { cookie: cookies.owner });
    expect(linked.status).toBe(200);
    expect(await linked.text()).toContain("Linked to");
  }
  const unknown = await postForm(server.url, "/admin/team", { intent: "set-discord", id: await teamMemberId("ember@dwell.example"), discordUserId: fakeSnowflake(99) }, { cookie: cookies.owner });
  expect(unknown.status).toBe(404);
  await unknown.body?.cancel();
  const form = await fetch(`${server.url}/apply`).then((response) => response.text());
  fields = [...form.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
});
afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
  await fake?.close();
  await discord?.close();
});

describe("the interactions endpoint", () => {
  it("answers Discord's PING, and 401 to what Discord did not sign, recently", async () => {
    expect(await signer.send(server.url, { type: 1 })).toEqual({ status: 200, json: { type: 1 } });
    expect((await signer.send(server.url, { type: 1 }, { signature: null })).status).toBe(401);
    expect((await signer.send(server.url, { type: 1 }, { signature: "ab".repeat(64) })).status).toBe(401);
    const sixMinutesAgo = Math.floor(Date.now() / 1000) - 6 * 60;
    expect((await signer.send(server.url, { type: 1 }, { timestamp: sixMinutesAgo })).status).toBe(401);
    // A body changed after signing is not the one signed.
    const other = fakeInteractionSigner();
    expect((await other.send(server.url, { type: 1 })).status).toBe(401);
    // Only POST, and only interactions: nothing else of the site is reached this way.
    expect((await fetch(`${server.url}/discord/interactions`)).status).toBe(405);
    expect((await signer.send(server.url, null, { body: "not json" })).status).toBe(400);
  });
});

describe("a decision in Discord", () => {
  it("posts each application with Approve and Reject; a linked reviewer's press decides once, acts in VRChat once, and edits the message", async () => {
    const token = await apply("Lantern Moth");
    const { post, approve, reject } = await reviewPost("Lantern Moth");
    expect(approve).toMatch(/^dwell:approve:group:[0-9a-f-]{36}$/);
    expect(reject).toMatch(/^dwell:reject:group:/);
    expect(JSON.stringify(post.embeds)).toContain("I tend the lanterns");

    // Refused, and nothing changes: a stranger, a host (no group applications), an unknown button.
    const stranger = await signer.send(server.url, fakePress(STRANGER_DISCORD, approve));
    expect(stranger).toMatchObject({ status: 200, json: { type: 4, data: { flags: 64, content: expect.stringContaining("Only members of the team") } } });
    const host = await signer.send(server.url, fakePress(HOST_DISCORD, approve));
    expect(host.json?.data?.content).toBe("Your role on the team cannot decide this application. Nothing was done.");
    const unknown = await signer.send(server.url, fakePress(REVIEWER_DISCORD, "dwell:launch:group:nope"));
    expect(unknown.json?.data?.content).toBe("This is not one of Dwell's buttons. Nothing was done.");
    expect(await reviewText("Lantern Moth")).toContain("Pending");
    expect(fake.actions).toEqual([]);

    const press = fakePress(REVIEWER_DISCORD, approve, post.id);
    const pressed = await signer.send(server.url, press);
    expect(pressed.status).toBe(200);
    expect(pressed.json).toMatchObject({ type: 7, data: { content: "✅ Approved by sky in Discord", components: [] } });
    // The join request under her name is linked, but a name is a claim: VRChat is told once staff confirm it on the card.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(fake.actions).toEqual([]);
    const id = await applicationIdOf("Lantern Moth");
    const confirmed = await postForm(server.url, "/admin/applications", { intent: "link-vrchat", id, account: fakeUserId(1) }, { cookie: cookies.owner });
    expect(confirmed.status).toBe(200);
    await confirmed.body?.cancel();
    await until("the accept in VRChat", () => fake.actions.length === 1);
    expect(fake.actions[0]).toMatchObject({ kind: "accept", userId: fakeUserId(1) });
    await until("the review message edited", () => discord.channelPosts.find((p) => p.id === post.id)!.edits > 0);
    expect(discord.channelPosts.find((p) => p.id === post.id)).toMatchObject({ content: "✅ Approved by sky in Discord", components: [] });
    const card = await reviewText("Lantern Moth");
    expect(card).toContain("sky in Discord: status pending → approved");
    expect(card).toContain("Join request accepted in VRChat");
    expect(await statusText(token)).toContain("Welcome among the Dwellers, Lantern Moth!");

    // The same interaction replayed (signed afresh, within its five minutes) is acted on once.
    const replayed = await signer.send(server.url, press);
    expect(replayed.json).toMatchObject({ type: 4, data: { flags: 64, content: "This press was already handled. Nothing more was done." } });
    // A second press changes nothing and says who decided first.
    const again = await signer.send(server.url, fakePress(REVIEWER_DISCORD, approve, post.id));
    expect(again.json).toMatchObject({ type: 4, data: { flags: 64, content: "Already approved by sky in Discord. Nothing was changed." } });
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(fake.actions).toHaveLength(1);
  });

  it("asks for a reason on 'Reject', and adds it to the applicant's message", async () => {
    const token = await apply("Pushy Crow");
    const { post, reject } = await reviewPost("Pushy Crow");
    const modal = await signer.send(server.url, fakePress(REVIEWER_DISCORD, reject, post.id));
    expect(modal.json).toMatchObject({ type: 9, data: { custom_id: reject.replace("reject", "reason"), title: "Reject this application" } });
    expect(await reviewText("Pushy Crow")).toContain("Pending");
    const submitted = await signer.send(server.url, fakeModalSubmit(REVIEWER_DISCORD, modal.json!.data!.custom_id!, "We met at the door and it did not go well."));
    expect(submitted.json).toMatchObject({ type: 7, data: { content: "❌ Rejected by sky in Discord" } });
    const page = await statusText(token);
    expect(page).toContain("Not accepted");
    expect(page).toContain("We cannot accept your application at this time. May your travels in VRChat be bright. We met at the door and it did not go well.");
    // Crow's own request in VRChat is answered once staff confirm the account matched by name is theirs.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(fake.actions.some((action) => action.userId === fakeUserId(2))).toBe(false);
    const confirmed = await postForm(server.url, "/admin/applications", { intent: "link-vrchat", id: await applicationIdOf("Pushy Crow"), account: fakeUserId(2) }, { cookie: cookies.owner });
    expect(confirmed.status).toBe(200);
    await confirmed.body?.cancel();
    await until("the reject in VRChat", () => fake.actions.some((action) => action.userId === fakeUserId(2)));
    expect(fake.actions.at(-1)).toMatchObject({ kind: "reject", block: false });
  });

  it("edits the review message when the decision is made in the Sanctum, even after Discord was down", async () => {
    await apply("Quiet Heron");
    const { post, approve } = await reviewPost("Quiet Heron");
    discord.setDown(true);
    const decided = await postForm(server.url, "/admin/applications", { intent: "status", id: await applicationIdOf("Quiet Heron"), status: "rejected" }, { cookie: cookies.owner });
    expect(decided.status).toBe(200);
    await decided.body?.cancel();
    expect(await reviewText("Quiet Heron")).toContain("Rejected");
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(discord.channelPosts.find((p) => p.id === post.id)!.edits).toBe(0);
    discord.setDown(false);
    await until("the edit, once Discord answers", () => discord.channelPosts.find((p) => p.id === post.id)!.edits > 0, 60_000);
    expect(discord.channelPosts.find((p) => p.id === post.id)).toMatchObject({ content: "❌ Rejected by keeper", components: [] });
    // A press after a decision made elsewhere says who decided first.
    const late = await signer.send(server.url, fakePress(REVIEWER_DISCORD, approve, post.id));
    expect(late.json?.data?.content).toBe("Already rejected by keeper. Nothing was changed.");
    // The dashboard tells how the review channel's posts and edits are doing.
    const dashboard = (await fetch(`${server.url}/admin`, { headers: { cookie: cookies.owner } }).then((r) => r.text())).replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    expect(dashboard).toMatch(/Discord review channel [^A-Z]*last done \d{4}-\d{2}-\d{2}/);
  }, 90_000);

  it("refuses a press on an application that is gone, and one by a member removed from the team a second ago", async () => {
    const gone = await signer.send(server.url, fakePress(REVIEWER_DISCORD, "dwell:approve:group:00000000-0000-4000-8000-000000000000"));
    expect(gone.json?.data?.content).toBe("This application no longer exists (deleted, or marked as spam). Nothing was done.");
    await apply("Late Lark");
    const { approve } = await reviewPost("Late Lark");
    // Reviewers must set up two-factor sign-in: held at that set-up in the Sanctum, Sky decides nothing in Discord either.
    const required = await postForm(server.url, "/admin/team", { intent: "require-two-factor", require: "reviewer" }, { cookie: cookies.owner });
    expect(required.status).toBe(200);
    await required.body?.cancel();
    const held = await signer.send(server.url, fakePress(REVIEWER_DISCORD, approve));
    expect(held.json).toMatchObject({ type: 4, data: { flags: 64, content: expect.stringContaining("Your role requires two-factor sign-in") } });
    expect(await reviewText("Late Lark")).toContain("Pending");
    const relaxed = await postForm(server.url, "/admin/team", { intent: "require-two-factor" }, { cookie: cookies.owner });
    expect(relaxed.status).toBe(200);
    await relaxed.body?.cancel();
    const removed = await postForm(server.url, "/admin/team", { intent: "remove", id: await teamMemberId("sky@dwell.example") }, { cookie: cookies.owner });
    expect(removed.status).toBe(200);
    await removed.body?.cancel();
    const pressed = await signer.send(server.url, fakePress(REVIEWER_DISCORD, approve));
    expect(pressed.json?.data?.content).toContain("Only members of the team");
    expect(await reviewText("Late Lark")).toContain("Pending");
    // Their Sanctum session ended with them.
    expect((await fetch(`${server.url}/admin`, { headers: { cookie: cookies.reviewer } })).status).toBe(401);
  });
});

describe("review in Discord in two languages", () => {
  it("posts and edits the channel's message in the site's default language, and answers a Japanese reviewer in Japanese", async () => {
    createAccountWithCommand(dataDir, "moon@dwell.example", "moonlight-over-the-moon", "reviewer");
    const moon = await signIn(server.url, "moon@dwell.example", "moonlight-over-the-moon");
    const linked = await postForm(server.url, "/admin/team", { intent: "set-discord", id: await teamMemberId("moon@dwell.example"), discordUserId: MOON_DISCORD }, { cookie: cookies.owner });
    expect(linked.status).toBe(200);
    await linked.body?.cancel();
    const chosen = await postForm(server.url, "/admin/security", { intent: "language", language: "ja" }, { cookie: moon });
    expect(chosen.status).toBe(303);

    // A Japanese visitor applies from the Japanese form.
    const answers = ["Hoshi Kaze", "hoshikaze-discord", "A friend", "灯りの番をしています", ""];
    const applied = await postForm(server.url, "/apply?lang=ja", Object.fromEntries(fields.map((field, i) => [field, answers[i]!])));
    expect(applied.status).toBe(200);
    expect(await applied.text()).toContain('lang="ja"');
    const { post, approve, reject } = await reviewPost("Hoshi Kaze");
    // The channel reads in the site's default language, whoever applied.
    expect(post.embeds[0]).toMatchObject({ title: "New group application" });
    expect(JSON.stringify(post.embeds)).toContain('"name":"VRChat Username"');

    // The modal and the refusals are the presser's; the channel's message stays the channel's.
    const modal = await signer.send(server.url, fakePress(MOON_DISCORD, reject, post.id));
    expect(modal.json).toMatchObject({ type: 9, data: { title: "この申し込みを却下" } });
    const pressed = await signer.send(server.url, fakePress(MOON_DISCORD, approve, post.id));
    expect(pressed.json).toMatchObject({ type: 7, data: { content: "✅ Approved by moon in Discord", components: [] } });
    const again = await signer.send(server.url, fakePress(MOON_DISCORD, approve, post.id));
    expect(again.json).toMatchObject({ type: 4, data: { flags: 64, content: "すでにmoon in Discordが承認しています。何も変更していません。" } });
    // Someone not on the team reads the site's default language.
    const stranger = await signer.send(server.url, fakePress(STRANGER_DISCORD, approve, post.id));
    expect(stranger.json?.data?.content).toContain("Only members of the team");
  });
});

describe("a staff member linking their own Discord account", () => {
  const cookieOf = (response: Response, name: string) => response.headers.getSetCookie().map((line) => line.split(";")[0]!).find((pair) => pair.startsWith(`${name}=`)) ?? "";

  it("signs in with Discord, confirms who it was, and only the confirmation writes", async () => {
    discord.signInAs(KEEPER_DISCORD);
    const start = await postForm(server.url, "/admin/discord-link", { intent: "start" }, { cookie: cookies.owner });
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.get("location")!);
    expect(authorize.searchParams.get("client_id")).toBe(FAKE_CLIENT_ID);
    expect(authorize.searchParams.get("scope")).toBe("identify");
    const state = cookieOf(start, "dwell-discord-state");
    expect(state).toContain(authorize.searchParams.get("state")!);

    const consent = await fetch(authorize, { redirect: "manual" });
    const back = new URL(consent.headers.get("location")!);
    const callbackPath = `${back.pathname}${back.search}`;
    // Another state than the one this browser started with is refused.
    const forged = await fetch(`${server.url}${callbackPath.replace(/state=[^&]+/, "state=forged")}`, { headers: { cookie: `${cookies.owner}; ${state}` } });
    expect(forged.status).toBe(400);
    await forged.body?.cancel();

    const callback = await fetch(`${server.url}${callbackPath}`, { headers: { cookie: `${cookies.owner}; ${state}` } });
    expect(callback.status).toBe(200);
    expect((await callback.text()).replace(/<[^>]+>/g, " ")).toContain("Discord says you signed in as  Keeper K");
    // The GET wrote nothing: the account is not linked yet.
    expect(await fetch(`${server.url}/admin/security`, { headers: { cookie: cookies.owner } }).then((r) => r.text())).toContain("Not linked");
    const pending = cookieOf(callback, "dwell-discord-link");
    expect(pending).not.toBe("");

    const confirmed = await postForm(server.url, "/admin/discord-link", { intent: "confirm" }, { cookie: `${cookies.owner}; ${pending}` });
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("location")).toBe("/admin/security?discord=linked");
    expect(await fetch(`${server.url}/admin/security`, { headers: { cookie: cookies.owner } }).then((r) => r.text())).toContain(`Linked: Discord user ${KEEPER_DISCORD}`);
    expect(await fetch(`${server.url}/admin/team`, { headers: { cookie: cookies.owner } }).then((r) => r.text())).toContain(`linked keeper to Keeper K in Discord (${KEEPER_DISCORD})`);

    // A sealed answer is the asker's own: another staff member cannot use it.
    const ember = await signIn(server.url, "ember@dwell.example", "moonlight-over-the-ember");
    const stolen = await postForm(server.url, "/admin/discord-link", { intent: "confirm" }, { cookie: `${ember}; ${pending}` });
    expect(stolen.status).toBe(400);
    await stolen.body?.cancel();
  });
});

describe("a proven VRChat account, where the group's form requires one", () => {
  it("the Sanctum and Discord wait for the applicant's proof; the status page gives the code and checks it", async () => {
    fake.group.people.push({ id: fakeUserId(3), displayName: "Wren Ash", status: "requested" });
    // The owner asks for profile links, and requires proof, in the Sanctum.
    const added = await postForm(server.url, "/admin/questions", { intent: "add", question: "Your VRChat profile link", questionType: "vrchat_profile" }, { cookie: cookies.owner });
    expect(added.status).toBe(200);
    await added.body?.cancel();
    const required = await postForm(server.url, "/admin/questions", { intent: "require-proof", requiresProof: "on" }, { cookie: cookies.owner });
    expect(required.status).toBe(200);
    await required.body?.cancel();
    const questionsPage = await fetch(`${server.url}/admin/questions`, { headers: { cookie: cookies.owner } }).then((r) => r.text());
    expect(questionsPage).toMatch(/<input type="checkbox"[^>]*name="requiresProof" checked=""/);
    // A host may not change it.
    const host = await signIn(server.url, "ember@dwell.example", "moonlight-over-the-ember");
    const hostRefused = await postForm(server.url, "/admin/questions", { intent: "require-proof" }, { cookie: host });
    expect(hostRefused.status).toBe(403);
    await hostRefused.body?.cancel();
    expect(await fetch(`${server.url}/admin/questions`, { headers: { cookie: cookies.owner } }).then((r) => r.text())).toMatch(/name="requiresProof" checked=""/);

    // Wren applies with her own profile link: VRChat names it as she named herself, so it is linked by name.
    const form = await fetch(`${server.url}/apply`).then((response) => response.text());
    const names = [...form.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
    const answers = ["Wren Ash", "wrenash-discord", "A friend", "I mend the lanterns", "", `https://vrchat.com/home/user/${fakeUserId(3)}`];
    const applied = await postForm(server.url, "/apply", Object.fromEntries(names.map((field, i) => [field, answers[i]!])));
    const appliedHtml = await applied.text();
    expect(applied.status).toBe(200);
    expect(appliedHtml).toContain("Prove this account is yours");
    const token = /href="\/applications\/status\/([A-Za-z0-9_-]{43})"/.exec(appliedHtml)![1]!;
    expect(await reviewText("Wren Ash")).toContain("Matched by name");
    expect(await reviewText("Wren Ash")).toContain("Needs a proven VRChat account");

    // Not yet: from Discord, and from the Sanctum.
    const { post, approve } = await reviewPost("Wren Ash");
    const early = await signer.send(server.url, fakePress(KEEPER_DISCORD, approve, post.id));
    expect(early.json).toMatchObject({ type: 4, data: { flags: 64, content: "This application can be approved only once the applicant has proven their VRChat account. Nothing was changed." } });
    const id = await applicationIdOf("Wren Ash");
    const sanctum = await postForm(server.url, "/admin/applications", { intent: "status", id, status: "approved" }, { cookie: cookies.owner });
    expect(sanctum.status).toBe(409);
    expect(await sanctum.text()).toContain("can be approved only once the applicant has proven their VRChat account");
    expect(await reviewText("Wren Ash")).toContain("Pending");
    expect(fake.actions.some((action) => action.userId === fakeUserId(3))).toBe(false);

    // The status page offers the proof, gives a code, and checks the bio.
    const status = `/applications/status/${token}`;
    expect(await statusText(token)).toContain("Prove this account is yours");
    const started = await postForm(server.url, status, { intent: "prove-start" });
    expect(started.status).toBe(200);
    const code = /dwell-[2-9A-Z]{4}/.exec(await started.text())![0];
    const early2 = await postForm(server.url, status, { intent: "prove-check" });
    expect(early2.status).toBe(409);
    expect(await early2.text()).toContain("The code is not in that account&#x27;s bio or status yet.");
    fake.group.people.find((person) => person.id === fakeUserId(3))!.bio = `Lantern mender. ${code}`;
    const checked = await postForm(server.url, status, { intent: "prove-check" });
    expect(checked.status).toBe(200);
    await checked.body?.cancel();
    expect(await statusText(token)).toContain("Your VRChat account (Wren Ash) is proven. You may remove the code from your bio now.");
    const card = await reviewText("Wren Ash");
    expect(card).toContain("Proven by bio code");
    expect(card).not.toContain("Needs a proven VRChat account");

    // Now the same press approves, and the join request is accepted in VRChat.
    const pressed = await signer.send(server.url, fakePress(KEEPER_DISCORD, approve, post.id));
    expect(pressed.json).toMatchObject({ type: 7, data: { content: "✅ Approved by keeper in Discord" } });
    await until("the accept in VRChat", () => fake.actions.some((action) => action.userId === fakeUserId(3) && action.kind === "accept"));
  }, 90_000);
});

describe("a screening rule's decision", () => {
  it("approves only a proven account, as an ordinary decision: acted on in VRChat once, named in the Discord review message, and reopened by staff", async () => {
    const known = ["system_trust_basic", "system_trust_known", "system_trust_trusted"];
    fake.group.people.push({ id: fakeUserId(4), displayName: "Moth Known", status: "requested", tags: known, dateJoined: "2023-04-01", ageVerificationStatus: "18+" });
    // The form no longer requires proof (the test above asked for it): the rule asks for it by itself.
    const unrequired = await postForm(server.url, "/admin/questions", { intent: "require-proof" }, { cookie: cookies.owner });
    expect(unrequired.status).toBe(200);
    await unrequired.body?.cancel();
    createAccountWithCommand(dataDir, "rook@dwell.example", "moonlight-over-the-rook", "reviewer");
    const reviewer = await signIn(server.url, "rook@dwell.example", "moonlight-over-the-rook");
    const rule = { intent: "add", name: "Known users over 30 days", scope: "group", trust: "on", trustRank: "known_user", age: "on", ageDays: "30", adult: "on", outcome: "approve" };
    // A reviewer may not write rules; the owner may.
    const refused = await postForm(server.url, "/admin/screening", rule, { cookie: reviewer });
    expect(refused.status).toBe(403);
    await refused.body?.cancel();
    const added = await postForm(server.url, "/admin/screening", rule, { cookie: cookies.owner });
    expect(added.status).toBe(200);
    await added.body?.cancel();

    // Moth applies with her profile link (the form asks for it since the test above): linked by name at once.
    const form = await fetch(`${server.url}/apply`).then((response) => response.text());
    const names = [...form.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
    const answers = ["Moth Known", "mothknown-discord", "A friend", "I tend the lanterns", "", `https://vrchat.com/home/user/${fakeUserId(4)}`];
    const applied = await postForm(server.url, "/apply", Object.fromEntries(names.map((field, i) => [field, answers[i]!])));
    expect(applied.status).toBe(200);
    const token = /href="\/applications\/status\/([A-Za-z0-9_-]{43})"/.exec(await applied.text())![1]!;
    const { post } = await reviewPost("Moth Known");
    // Her name and link are a claim anyone could make: the rule flags her for the proof, and acts on no one.
    await until("the rule's flag", async () => (await reviewText("Moth Known")).includes("Approve needs a proven account"), 60_000);
    expect(fake.actions.filter((action) => action.userId === fakeUserId(4))).toEqual([]);
    // Her status page offers the proof: she puts the code in her bio, and checks.
    expect(await statusText(token)).toContain("Prove this account is yours");
    const started = await postForm(server.url, `/applications/status/${token}`, { intent: "prove-start" });
    expect(started.status).toBe(200);
    const code = /dwell-[2-9A-HJ-NP-Z]{4}/.exec(await started.text())![0];
    fake.group.people.find((person) => person.id === fakeUserId(4))!.bio = `Lanterns and moths. ${code}`;
    const checked = await postForm(server.url, `/applications/status/${token}`, { intent: "prove-check" });
    expect(checked.status).toBe(200);
    await checked.body?.cancel();
    await until("the rule's approval in VRChat", () => fake.actions.some((action) => action.userId === fakeUserId(4) && action.kind === "accept"), 60_000);
    await until("the review message's edit", () => discord.channelPosts.find((p) => p.id === post.id)!.edits > 0, 60_000);
    const edited = discord.channelPosts.find((p) => p.id === post.id)!;
    // As Discord shows it: punctuation escaped with a backslash reads as itself.
    expect(edited.content.replace(/\\([!-/:-@[-`{-~])/g, "$1")).toBe('✅ Approved by rule "Known users over 30 days"');
    expect(edited.components).toEqual([]);
    expect(await reviewText("Moth Known")).toContain('Approved by rule "Known users over 30 days"');

    // Staff reopen it from the Sanctum: Pending again, and the review message gets its buttons back.
    const id = await applicationIdOf("Moth Known");
    const reopened = await postForm(server.url, "/admin/applications", { intent: "status", id, status: "pending" }, { cookie: reviewer });
    expect(reopened.status).toBe(200);
    await reopened.body?.cancel();
    const card = await reviewText("Moth Known");
    expect(card).toContain('Reopened by rook: rule "Known users over 30 days" had approved it');
    expect(card).toContain("Pending");
    await until("the buttons back in Discord", () => (discord.channelPosts.find((p) => p.id === post.id)!.components.length ?? 0) > 0, 60_000);
    // A person's decision is not reopened.
    const staffDecided = await postForm(server.url, "/admin/applications", { intent: "status", id, status: "rejected" }, { cookie: reviewer });
    expect(staffDecided.status).toBe(200);
    await staffDecided.body?.cancel();
    const again = await postForm(server.url, "/admin/applications", { intent: "status", id, status: "pending" }, { cookie: reviewer });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("Only a decision made by a screening rule can be reopened");
    // Accepted in VRChat once, by the rule.
    expect(fake.actions.filter((action) => action.userId === fakeUserId(4) && action.kind === "accept")).toHaveLength(1);
  }, 120_000);
});
