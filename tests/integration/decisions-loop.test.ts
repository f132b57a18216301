/**
 * A decision in the Sanctum, followed to its ends over HTTP: the applicant's status link, the
 * decision message, and the action in VRChat (against the VRChat fake), as the production server
 * does them, with applications made through the public form.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_MEMBER_ROLE_ID, fakeDiscordBotEnv, fakeSnowflake, startFakeDiscordBot, type FakeDiscordBot } from "../fakes/discord-bot";
import { FAKE_BOT_USER_ID, FAKE_GROUP_ID, fakeUserId, fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { createAccountWithCommand, postForm, runUserCommand, signIn } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess } from "../setup/server-process";
import { createTestDatabase, ON_POSTGRES, type TestDatabase } from "../setup/test-database";

const INVITE = "https://discord.gg/dwellers";

interface Site {
  server: ServerProcess;
  dataDir: string;
  cookie: string;
  fields: string[];
}

async function startSite(fake: FakeVRChat, env: Record<string, string> = {}): Promise<Site> {
  const dataDir = mkdtempSync(join(tmpdir(), "dwell-decisions-"));
  const server = await startServerProcess({
    DATA_DIR: dataDir,
    ...fakeVRChatEnv(fake),
    VRCHAT_MEMBERSHIP_ACTIONS: "true",
    DISCORD_INVITE_URL: INVITE,
    RATE_LIMIT_APPLICATIONS: "1000",
    RATE_LIMIT_DUPLICATES: "1000",
    // Only the lookups a decision makes are counted here: not the scheduled read of the join requests.
    VRCHAT_READ_JOIN_REQUESTS: "false",
    ...env,
  });
  createAccountWithCommand(dataDir, "keeper@dwell.example", "moonlight-over-the-hall", "admin");
  const cookie = await signIn(server.url, "keeper@dwell.example", "moonlight-over-the-hall");
  const apply = await fetch(`${server.url}/apply`).then((response) => response.text());
  const fields = [...apply.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
  return { server, dataDir, cookie, fields };
}

async function stopSite(site: Site | undefined) {
  await site?.server.stop();
  if (site) await rm(site.dataDir, { recursive: true, force: true });
}

/** Applies through the public form; the status link's token, read from the confirmation. */
async function apply(site: Site, name: string): Promise<string> {
  const answers = [name, `${name.replaceAll(" ", "").toLowerCase()}-discord`, "A friend", "I tend the lanterns", ""];
  const response = await postForm(site.server.url, "/apply", Object.fromEntries(site.fields.map((field, i) => [field, answers[i]!])));
  const html = await response.text();
  expect(response.status).toBe(200);
  expect(html).toContain("Check your application status");
  return /href="\/applications\/status\/([A-Za-z0-9_-]{43})"/.exec(html)![1]!;
}

async function reviewPage(site: Site) {
  return fetch(`${site.server.url}/admin/applications?status=all`, { headers: { cookie: site.cookie } }).then((response) => response.text());
}

/** The application's id, from its card in the review list. */
async function applicationId(site: Site, name: string) {
  const html = await reviewPage(site);
  const at = html.indexOf(`>${name}<`);
  expect(at).toBeGreaterThan(-1);
  return /name="id" value="([0-9a-f-]{36})"/.exec(html.slice(at))![1]!;
}

/** The text of one application's card, as a person reads it. */
async function cardText(site: Site, name: string) {
  const html = await reviewPage(site);
  const start = html.lastIndexOf("<li", html.indexOf(`>${name}<`));
  const end = html.indexOf("</li>", html.indexOf('aria-label="Applications"') > start ? start : start);
  return html
    .slice(start, html.indexOf("</details>", end) + 10)
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ");
}

function decide(site: Site, id: string, status: "approved" | "rejected", extra: Record<string, string> = {}) {
  return postForm(site.server.url, "/admin/applications", { intent: "status", id, status, ...extra }, { cookie: site.cookie });
}

async function lookup(site: Site, id: string) {
  const response = await fetch(`${site.server.url}/admin/applications/${id}/vrchat`, { headers: { cookie: site.cookie } });
  return { status: response.status, body: (await response.json()) as { linked: { id: string } | null; candidates: { id: string; status: string }[]; note: string | null; error: string | null } };
}

async function statusPage(site: Site, token: string) {
  const response = await fetch(`${site.server.url}/applications/status/${token}`);
  const html = await response.text();
  return { response, html, text: html.replace(/<[^>]+>/g, " ").replace(/&#x27;/g, "'").replace(/\s+/g, " ") };
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("a decision that acts", () => {
  let fake: FakeVRChat;
  let discord: FakeDiscordBot;
  let site: Site;

  beforeAll(async () => {
    discord = await startFakeDiscordBot();
    fake = await startFakeVRChat();
    fake.group.people.push(
      { id: fakeUserId(1), displayName: "Lantern Moth", status: "requested" },
      { id: fakeUserId(2), displayName: "Quiet Heron", status: "none" },
      { id: fakeUserId(3), displayName: "Old Keeper", status: "member" },
      { id: fakeUserId(4), displayName: "Pushy Crow", status: "requested" },
      { id: fakeUserId(5), displayName: "Patient Owl", status: "requested" },
    );
    site = await startSite(fake, fakeDiscordBotEnv(discord));
  });
  afterAll(async () => {
    await stopSite(site);
    await fake?.close();
    await discord?.close();
  });

  it("gives the applicant a private status link that says Pending, with nothing of their answers", async () => {
    const token = await apply(site, "Wandering Wren");
    const { response, text, html } = await statusPage(site, token);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(html).toContain('<meta name="referrer" content="same-origin"/>');
    expect(text).toContain("Joining the Dwellers");
    expect(text).toContain("Pending");
    expect(text).not.toContain("I tend the lanterns");
    expect(text).not.toContain("wanderingwren-discord");
    const wrong = await statusPage(site, `${token.slice(0, -2)}zz`);
    expect(wrong.response.status).toBe(404);
    expect(wrong.text).toContain("This status link is not valid, or it has expired.");
    // The token is the applicant's key: the request log names the page, not the token.
    expect(site.server.output()).toContain("/applications/status/[token]");
    expect(site.server.output()).not.toContain(token);
  });

  it("links the one join request with the applicant's name at the decision, approves it once in VRChat once staff confirm it is theirs, and tells the applicant", async () => {
    const token = await apply(site, "lantern  moth");
    const id = await applicationId(site, "lantern  moth");
    // Opening the card's VRChat panel reads: it says what the decision will link, and links nothing.
    const found = await lookup(site, id);
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ linked: null, note: expect.stringContaining("The one join request under this name") });
    expect(await cardText(site, "lantern  moth")).not.toContain(`( ${fakeUserId(1)} )`);

    const decided = await decide(site, id, "approved");
    expect(decided.status).toBe(200);
    // A name is a claim: decided on the site, nothing done in VRChat until someone confirms the account.
    expect(await decided.text()).toContain("Decided. Matched by name only: Not acted on in VRChat");
    expect(await cardText(site, "lantern  moth")).toContain("Matched by name only Not acted on in VRChat");
    expect((await lookup(site, id)).body).toMatchObject({ linked: { id: fakeUserId(1) }, confirmable: true });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(fake.actions).toEqual([]);
    // 'Confirm: this is them' on the card's VRChat panel: the decision acts there now.
    const confirmed = await postForm(site.server.url, "/admin/applications", { intent: "link-vrchat", id, account: fakeUserId(1) }, { cookie: site.cookie });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain("Confirmed: Lantern Moth in VRChat is theirs. Its decision now acts there.");
    await until("the accept", () => fake.actions.length === 1);
    await until("the card to say so", async () => (await cardText(site, "lantern  moth")).includes("Join request accepted in VRChat"));
    expect(fake.actions).toEqual([expect.objectContaining({ kind: "accept", userId: fakeUserId(1) })]);
    const card = await cardText(site, "lantern  moth");
    expect(card).toContain("keeper: VRChat: Join request accepted in VRChat");
    expect(card).toContain(`keeper (at the decision: the one join request with this name): VRChat: linked to Lantern Moth (${fakeUserId(1)})`);
    expect(card).toContain(`keeper: VRChat: confirmed by staff: Lantern Moth (${fakeUserId(1)})`);
    expect(card).not.toContain("Matched by name only Not acted on");

    const { text } = await statusPage(site, token);
    expect(text).toContain("Approved");
    expect(text).toContain("Welcome among the Dwellers, lantern moth!");
    expect(text).toContain(INVITE);
    // However often the outbox runs, the request is accepted once.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(fake.actions).toHaveLength(1);
  });

  it("invites someone who has not asked to join, linked by a pasted profile link", async () => {
    await apply(site, "Heron");
    const id = await applicationId(site, "Heron");
    const wrong = await postForm(site.server.url, "/admin/applications", { intent: "link-vrchat", id, account: "https://example.org/usr_x" }, { cookie: site.cookie });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("Paste a VRChat profile link");
    const unknown = await postForm(site.server.url, "/admin/applications", { intent: "link-vrchat", id, account: fakeUserId(77) }, { cookie: site.cookie });
    expect(unknown.status).toBe(404);
    await unknown.body?.cancel();
    const linked = await postForm(site.server.url, "/admin/applications", { intent: "link-vrchat", id, account: `https://vrchat.com/home/user/${fakeUserId(2)}` }, { cookie: site.cookie });
    expect(linked.status).toBe(200);
    await linked.body?.cancel();
    const before = fake.actions.length;
    await decide(site, id, "approved");
    await until("the invite", () => fake.actions.length === before + 1);
    expect(fake.actions.at(-1)).toMatchObject({ kind: "invite", userId: fakeUserId(2) });
    await until("the card", async () => (await cardText(site, "Heron")).includes("Invite sent"));
  });

  it("does nothing in VRChat for someone already a member, and says so", async () => {
    await apply(site, "Keeper Of Old");
    const id = await applicationId(site, "Keeper Of Old");
    await postForm(site.server.url, "/admin/applications", { intent: "link-vrchat", id, account: fakeUserId(3) }, { cookie: site.cookie }).then((r) => r.body?.cancel());
    const before = fake.actions.length;
    await decide(site, id, "approved");
    await until("the card", async () => (await cardText(site, "Keeper Of Old")).includes("Already a member in VRChat: nothing to do"));
    expect(fake.actions).toHaveLength(before);
  });

  it("rejects a join request with a block when asked", async () => {
    const token = await apply(site, "Pushy Crow");
    const id = await applicationId(site, "Pushy Crow");
    await decide(site, id, "rejected", { block: "on" });
    // Matched by name: rejected on the site; the block waits for the account to be confirmed, and then holds.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(fake.actions.filter((action) => action.userId === fakeUserId(4))).toEqual([]);
    const confirmed = await postForm(site.server.url, "/admin/applications", { intent: "link-vrchat", id, account: fakeUserId(4) }, { cookie: site.cookie });
    expect(confirmed.status).toBe(200);
    await confirmed.body?.cancel();
    await until("the rejection", () => fake.actions.some((action) => action.userId === fakeUserId(4)));
    expect(fake.actions.at(-1)).toMatchObject({ kind: "reject", block: true });
    await until("the card", async () => (await cardText(site, "Pushy Crow")).includes("Join request rejected and blocked in VRChat"));
    const { text } = await statusPage(site, token);
    expect(text).toContain("Not accepted");
    expect(text).toContain("We cannot accept your application at this time.");
  });

  it("shows a refused permission with 'Retry', and retries when asked", async () => {
    fake.setEndpoint("respondRequest", { status: 403, message: "You don't have permission to do that." });
    await apply(site, "Patient Owl");
    const id = await applicationId(site, "Patient Owl");
    await decide(site, id, "approved");
    await postForm(site.server.url, "/admin/applications", { intent: "link-vrchat", id, account: fakeUserId(5) }, { cookie: site.cookie }).then((response) => response.body?.cancel());
    await until("the failure on the card", async () => (await cardText(site, "Patient Owl")).includes("Failed: VRChat refused the bot account"));
    expect(await cardText(site, "Patient Owl")).toContain("Retry");
    const html = await reviewPage(site);
    const job = /name="intent" value="retry-job"\/?><input type="hidden" name="job" value="([0-9a-f-]{36})"/.exec(html)![1]!;
    fake.setEndpoint("respondRequest", "normal");
    const retried = await postForm(site.server.url, "/admin/applications", { intent: "retry-job", job }, { cookie: site.cookie });
    expect(retried.status).toBe(200);
    await retried.body?.cancel();
    await until("the accept", () => fake.actions.some((action) => action.userId === fakeUserId(5)));
    await until("the card", async () => (await cardText(site, "Patient Owl")).includes("Join request accepted in VRChat"));
    expect(fake.actions.filter((action) => action.userId === fakeUserId(5))).toHaveLength(1);
  });

  it("uses the messages admins wrote", async () => {
    const saved = await postForm(
      site.server.url,
      "/admin/messages",
      { intent: "save", kind: "group", outcome: "rejected", body: "Not this moon, {username}. Try again at {discord_invite}" },
      { cookie: site.cookie },
    );
    expect(saved.status).toBe(200);
    await saved.body?.cancel();
    const tooLong = await postForm(site.server.url, "/admin/messages", { intent: "save", kind: "group", outcome: "rejected", body: "x".repeat(1501) }, { cookie: site.cookie });
    expect(tooLong.status).toBe(400);
    await tooLong.body?.cancel();
    const token = await apply(site, "Late Lark");
    await decide(site, await applicationId(site, "Late Lark"), "rejected");
    expect((await statusPage(site, token)).text).toContain(`Not this moon, Late Lark. Try again at ${INVITE}`);
  });

  it("takes a VRChat profile link on the group form (and an event's), checks it with VRChat at once, and links the account", async () => {
    const add = (path: string) =>
      postForm(site.server.url, path, { intent: "add", question: "Your VRChat profile link", questionType: "vrchat_profile" }, { cookie: site.cookie });
    const events = await fetch(`${site.server.url}/events`).then((r) => r.text());
    const eventId = /href="\/events\/([0-9a-f-]{36})"/.exec(events)![1]!;
    // An event's form may ask for it too (it links an attendee's account for the event's role).
    const onEvent = await add(`/admin/events/${eventId}/questions`);
    expect(onEvent.status).toBe(200);
    await onEvent.body?.cancel();
    const eventQuestions = await fetch(`${site.server.url}/admin/events/${eventId}/questions`, { headers: { cookie: site.cookie } }).then((r) => r.text());
    expect(eventQuestions).toContain("Your VRChat profile link");
    const added = await add("/admin/questions");
    expect(added.status).toBe(200);
    await added.body?.cancel();
    const page = await fetch(`${site.server.url}/apply`).then((r) => r.text());
    expect(page).toContain('placeholder="https://vrchat.com/home/user/usr_…"');
    const fields = [...page.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
    expect(fields).toHaveLength(6);
    const send = (name: string, link: string) =>
      postForm(site.server.url, "/apply", Object.fromEntries(fields.map((field, i) => [field, [name, `${name}-d`, "A friend", "Hi", "", link][i]!])));

    const wrong = await send("Linker", "https://vrchat.com/home/world/wrld_1");
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("must be a VRChat profile link, like https://vrchat.com/home/user/usr_…");
    const unknown = await send("Linker", `https://vrchat.com/home/user/${fakeUserId(404)}`);
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("VRChat has no profile at that link.");
    // A link to someone else's account (VRChat calls it Quiet Heron, not Linker) is only a claim.
    const claimed = await send("Linker", `https://vrchat.com/home/user/${fakeUserId(2)}`);
    expect(claimed.status).toBe(200);
    await claimed.body?.cancel();
    const claimCard = await cardText(site, "Linker");
    expect(claimCard).not.toContain("VRChat: Quiet Heron (");
    expect(claimCard).toContain("Claimed, not confirmed: VRChat names this account otherwise than the username given.");
    expect(claimCard).toContain(`the applicant (their form): VRChat: claimed, not confirmed: VRChat calls ${fakeUserId(2)} "Quiet Heron"`);
    // The account's own name: linked at once.
    const sent = await send("quiet heron", `https://vrchat.com/home/user/${fakeUserId(2)}`);
    expect(sent.status).toBe(200);
    await sent.body?.cancel();
    const card = await cardText(site, "quiet heron");
    expect(card).toContain(`VRChat: Quiet Heron ( ${fakeUserId(2)} )`);
    expect(card).toContain("the applicant (their form): VRChat: linked to Quiet Heron");
    expect(card).not.toContain("Claimed, not confirmed");

    // This client has had its few lookups this hour: the next link is kept, unchecked, and VRChat is not asked.
    const userCalls = () => fake.requests.filter((r) => r.path.startsWith("/users/usr_")).length;
    const calls = userCalls();
    const unchecked = await send("Moth Light", `https://vrchat.com/home/user/${fakeUserId(1)}`);
    expect(unchecked.status).toBe(200);
    await unchecked.body?.cancel();
    expect(userCalls()).toBe(calls);
    const uncheckedCard = await cardText(site, "Moth Light");
    expect(uncheckedCard).toContain("Not checked with VRChat: VRChat could not be asked when it was sent.");
    expect(uncheckedCard).not.toContain(`( ${fakeUserId(1)} )`);
    // The staff's lookups still answer.
    const staff = await lookup(site, await applicationId(site, "Moth Light"));
    expect(staff.status).toBe(200);
  });

  it("shows how the actions are doing on the dashboard", async () => {
    const html = await fetch(`${site.server.url}/admin`, { headers: { cookie: site.cookie } }).then((r) => r.text());
    const text = html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    expect(text).toMatch(/Actions in VRChat [^A-Z]*last done \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect(text).toContain("Discord messages");
  });
});

describe("a decision that acts in Discord", () => {
  let fake: FakeVRChat;
  let discord: FakeDiscordBot;
  let site: Site;

  beforeAll(async () => {
    [fake, discord] = await Promise.all([startFakeVRChat(), startFakeDiscordBot()]);
    discord.members.push(
      { id: fakeSnowflake(1), username: "brightfinch-discord", globalName: "Bright Finch" },
      { id: fakeSnowflake(2), username: "brightfinch-discord2" },
      { id: fakeSnowflake(3), username: "shywren-discord", globalName: "Shy Wren", dmsClosed: true },
      { id: fakeSnowflake(4), username: "eventgoer-discord", globalName: "EventGoer" },
      { id: fakeSnowflake(5), username: "stranger-discord", globalName: "Someone Else" },
      { id: fakeSnowflake(6), username: "hotaru-discord", globalName: "Hotaru" },
    );
    site = await startSite(fake, { ...fakeDiscordBotEnv(discord), SITE_LANGUAGES: "en,ja" });
  });
  afterAll(async () => {
    await stopSite(site);
    await fake?.close();
    await discord?.close();
  });

  async function discordLookup(path: string) {
    const response = await fetch(`${site.server.url}${path}`, { headers: { cookie: site.cookie } });
    expect(response.status).toBe(200);
    return (await response.json()) as { linked: { id: string } | null; candidates: { id: string; username: string }[]; note: string | null };
  }

  it("finds the applicant by their handle, grants the member role and sends the decision by direct message", async () => {
    await apply(site, "Bright Finch");
    const id = await applicationId(site, "Bright Finch");
    const found = await discordLookup(`/admin/applications/${id}/discord`);
    expect(found.linked).toBeNull();
    expect(found.note).toContain("linked when the application is approved");
    expect(found.candidates.map((c) => c.username)).toEqual(["brightfinch-discord", "brightfinch-discord2"]);
    await decide(site, id, "approved");
    await until("the role and the message", () => discord.grants.length === 1 && discord.messages.length === 1);
    expect(discord.grants).toEqual([`${fakeSnowflake(1)}:${FAKE_MEMBER_ROLE_ID}`]);
    expect(discord.messages[0]).toMatchObject({ userId: fakeSnowflake(1) });
    expect(discord.messages[0]!.content).toContain("Welcome among the Dwellers, Bright Finch!");
    await until("the card", async () => {
      const card = await cardText(site, "Bright Finch");
      return card.includes("Member role granted in Discord") && card.includes("Decision sent by direct message");
    });
    const card = await cardText(site, "Bright Finch");
    expect(card).toContain(`Discord: Bright Finch ( ${fakeSnowflake(1)} )`);
    expect(card).toContain("keeper: Discord: Decision sent by direct message");
  });

  it("writes to an applicant who applied in Japanese in Japanese, on their page and by direct message", async () => {
    const answers = ["Hotaru", "hotaru-discord", "A friend", "提灯の世話をしています", ""];
    const response = await postForm(site.server.url, "/apply", Object.fromEntries(site.fields.map((field, i) => [field, answers[i]!])), { "Accept-Language": "ja" });
    const html = await response.text();
    expect(response.status).toBe(200);
    const token = /href="\/applications\/status\/([A-Za-z0-9_-]{43})"/.exec(html)![1]!;
    await decide(site, await applicationId(site, "Hotaru"), "approved");
    await until("the message", () => discord.messages.some((message) => message.userId === fakeSnowflake(6)));
    const { content } = discord.messages.find((message) => message.userId === fakeSnowflake(6))!;
    expect(content).toBe(`ようこそDwellersへ、Hotaruさん！儀式は完了し、あなたの申請は承認されました。VRChatでグループの招待を受け取り、Discordでもぜひ会いに来てください：${INVITE}`);
    // Their status page, opened from a browser that asks nothing in particular, is in Japanese.
    const first = await fetch(`${site.server.url}/applications/status/${token}`, { redirect: "manual" });
    await first.body?.cancel();
    expect(first.headers.get("location")).toBe(`/applications/status/${token}?lang=ja`);
    const page = await statusPage(site, `${token}?lang=ja`);
    expect(page.text).toContain("承認");
    expect(page.text).toContain("ようこそDwellersへ、Hotaruさん！");
  });

  it("does not link a handle whose member goes by another name, nor act on them", async () => {
    await apply(site, "Stranger");
    const id = await applicationId(site, "Stranger");
    const found = await discordLookup(`/admin/applications/${id}/discord`);
    expect(found.linked).toBeNull();
    expect(found.candidates.map((c) => c.id)).toEqual([fakeSnowflake(5)]);
    expect(found.note).toContain("Claimed, not confirmed");
    await decide(site, id, "approved");
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(discord.grants.filter((grant) => grant.startsWith(fakeSnowflake(5)))).toEqual([]);
    expect(discord.messages.filter((message) => message.userId === fakeSnowflake(5))).toEqual([]);
    expect(await cardText(site, "Stranger")).not.toContain(`( ${fakeSnowflake(5)} )`);
  });

  it("shows a direct message Discord refuses, and does not send it again and again", async () => {
    await apply(site, "Shy Wren");
    const id = await applicationId(site, "Shy Wren");
    await decide(site, id, "approved");
    await until("the card", async () => (await cardText(site, "Shy Wren")).includes("Failed: Discord refused the direct message"));
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const sends = discord.requests.filter((r) => r.method === "POST" && r.path === `/channels/7${fakeSnowflake(3).slice(1)}/messages`);
    expect(sends).toHaveLength(1);
    expect(await cardText(site, "Shy Wren")).toContain("Member role granted in Discord");
  });

  it("sends an event's approval with the event's details and an add-to-calendar link", async () => {
    const events = await fetch(`${site.server.url}/events`).then((r) => r.text());
    const eventId = new RegExp('href="/events/([0-9a-f-]{36})"[^>]*>(?:(?!</a>).)*?The Gathering at the Threshold', "s").exec(events)![1]!;
    const form = await fetch(`${site.server.url}/events/${eventId}/apply`).then((r) => r.text());
    const fields = [...form.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
    const applied = await postForm(site.server.url, `/events/${eventId}/apply`, Object.fromEntries(fields.map((field, i) => [field, ["Event Goer", "eventgoer-discord", "To dance"][i] ?? ""])));
    expect(applied.status).toBe(200);
    await applied.body?.cancel();
    const review = await fetch(`${site.server.url}/admin/events/${eventId}/applications`, { headers: { cookie: site.cookie } }).then((r) => r.text());
    const id = /name="id" value="([0-9a-f-]{36})"/.exec(review.slice(review.indexOf(">Event Goer<")))![1]!;
    const decided = await postForm(site.server.url, `/admin/events/${eventId}/applications`, { intent: "status", id, status: "approved" }, { cookie: site.cookie });
    expect(decided.status).toBe(200);
    await decided.body?.cancel();
    await until("the message", () => discord.messages.some((m) => m.userId === fakeSnowflake(4)));
    const { content } = discord.messages.find((m) => m.userId === fakeSnowflake(4))!;
    expect(content).toContain("Good news, Event Goer: your place at The Gathering at the Threshold is confirmed.");
    expect(content).toContain(`Event page: ${site.server.publicUrl}/events/${eventId}`);
    expect(content).toMatch(/Add it to your calendar: https:\/\/calendar\.google\.com\/calendar\/render\?action=TEMPLATE&text=The\+Gathering/);
    // An event approval grants no role.
    expect(discord.grants.filter((grant) => grant.startsWith(fakeSnowflake(4)))).toEqual([]);
  });
});

describe("a bulk approval", () => {
  let fake: FakeVRChat;
  let site: Site;

  beforeAll(async () => {
    fake = await startFakeVRChat();
    for (let i = 0; i < 20; i++) fake.group.people.push({ id: fakeUserId(100 + i), displayName: `Bulk Moth ${i}`, status: "requested" });
    // Two join requests under one name: neither is guessed.
    fake.group.people.push({ id: fakeUserId(200), displayName: "Twin Moth", status: "requested" }, { id: fakeUserId(201), displayName: "Twin Moth", status: "requested" });
    site = await startSite(fake);
  });
  afterAll(async () => {
    await stopSite(site);
    await fake?.close();
  });

  it("from the list, with no card opened, links each applicant at the decision and, the accounts confirmed in the dialog, acts once each, paced about a second a call", { timeout: 150_000 }, async () => {
    const names = [...Array.from({ length: 20 }, (_, i) => `Bulk Moth ${i}`), "Twin Moth", "Nobody Moth"];
    for (const name of names) await apply(site, name);
    const ids = await Promise.all(names.map((name) => applicationId(site, name)));
    expect(fake.calls.joinRequests ?? 0).toBe(0);

    // The confirmation says what the approval will do in VRChat, asked by the same rule; it links nothing.
    const query = new URLSearchParams(ids.map((id) => ["ids", id]));
    const preview = await fetch(`${site.server.url}/admin/applications/approval-preview?${query}`, { headers: { cookie: site.cookie } });
    expect(preview.status).toBe(200);
    expect(await preview.json()).toEqual({ preview: { inVRChat: 0, needConfirming: 20, needAccount: 2, unchecked: false }, error: null });
    expect(await cardText(site, "Bulk Moth 3")).not.toContain(`( ${fakeUserId(103)} )`);

    // The staff member ticks 'The 20 accounts matched by name are theirs (I checked)'.
    const body = new URLSearchParams([["intent", "bulk"], ["status", "approved"], ["confirmNamed", "yes"], ...ids.map((id) => ["ids", id])]);
    const response = await fetch(`${site.server.url}/admin/applications`, { method: "POST", body, headers: { Origin: site.server.url, cookie: site.cookie }, redirect: "manual" });
    expect(response.status).toBe(200);
    const page = (await response.text()).replace(/<[^>]+>/g, " ").replace(/&#x27;/g, "'").replace(/\s+/g, " ");
    expect(page).toContain("22 applications approved. 2 not linked in VRChat: choose each one's account on the card.");
    await until("twenty accepts", () => fake.actions.length === 20, 90_000);
    expect(new Set(fake.actions.map((action) => action.userId))).toEqual(new Set(Array.from({ length: 20 }, (_, i) => fakeUserId(100 + i))));
    expect(fake.actions.every((action) => action.kind === "accept")).toBe(true);
    // Each job reads the membership, then accepts: two calls a second apart, so accepts two seconds apart.
    // The pace is kept as calls leave; the fake notes when they arrive, which on a busy two-core
    // machine moves each call by up to about a tenth of a second (1,862 ms seen), and on one whose
    // new memory is slow by up to 0.3 s (1,718 ms seen, decision 030): one gap may look short, the
    // twenty calls together cannot.
    const gaps = fake.actions.slice(1).map((action, i) => action.at - fake.actions[i]!.at);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1_500);
    expect(fake.actions.at(-1)!.at - fake.actions[0]!.at).toBeGreaterThanOrEqual(19 * 1_900);

    // The two without an account say so, with the way to choose it; choosing it completes the decision.
    for (const name of ["Twin Moth", "Nobody Moth"]) expect(await cardText(site, name)).toContain("Not linked in VRChat Choose their account under 'VRChat'");
    expect(await cardText(site, "Bulk Moth 3")).not.toContain("Not linked in VRChat");
    const chosen = await postForm(site.server.url, "/admin/applications", { intent: "link-vrchat", id: ids[20]!, account: fakeUserId(201) }, { cookie: site.cookie });
    expect(chosen.status).toBe(200);
    expect(await chosen.text()).toContain("Its decision now acts there.");
    await until("the accept of the chosen account", () => fake.actions.length === 21, 20_000);
    expect(fake.actions.at(-1)).toMatchObject({ kind: "accept", userId: fakeUserId(201) });
    expect(await cardText(site, "Twin Moth")).not.toContain("Not linked in VRChat");
    expect(fake.actions.filter((action) => action.userId === fakeUserId(200))).toEqual([]);
  });
});

describe.runIf(ON_POSTGRES)("two processes on one PostgreSQL", () => {
  let fake: FakeVRChat;
  let database: TestDatabase;
  let sites: Site[] = [];
  const PEOPLE = 20;
  const SCREENING_CALLS_PER_MINUTE = 1;

  beforeAll(async () => {
    fake = await startFakeVRChat();
    for (let i = 0; i < PEOPLE; i++) fake.group.people.push({ id: fakeUserId(300 + i), displayName: `Paced Moth ${i}`, status: "requested" });
    database = await createTestDatabase("postgres");
    const env = {
      DATABASE_URL: database.url!,
      AUTH_SECRET: "a-shared-secret-for-both-test-processes-0123456789",
      ...fakeVRChatEnv(fake),
      VRCHAT_MEMBERSHIP_ACTIONS: "true",
      // Screening reads each knock's facts as it arrives, from an allowance of its own: one call a
      // minute here, counted apart from the staff's 30 below.
      VRCHAT_SCREENING_CALLS_PER_MINUTE: String(SCREENING_CALLS_PER_MINUTE),
      // The list of join requests is read once a minute by each process, apart from any allowance:
      // off here, so that what the fake counts is the lookups'.
      VRCHAT_READ_JOIN_REQUESTS: "false",
      RATE_LIMIT_APPLICATIONS: "1000",
      RATE_LIMIT_DUPLICATES: "1000",
    };
    const dataDir = mkdtempSync(join(tmpdir(), "dwell-paced-"));
    const servers = await Promise.all([startServerProcess({ ...env, DATA_DIR: dataDir }), startServerProcess({ ...env, DATA_DIR: dataDir })]);
    const made = runUserCommand(dataDir, ["create", "--email", "keeper@dwell.example", "--role", "admin"], { DATABASE_URL: database.url!, AUTH_SECRET: env.AUTH_SECRET, USER_PASSWORD: "moonlight-over-the-hall" });
    expect(made.status, made.stderr + made.stdout).toBe(0);
    const cookies = await Promise.all(servers.map((server) => signIn(server.url, "keeper@dwell.example", "moonlight-over-the-hall")));
    // A new PostgreSQL database has no demo form: the group's questions are set in the Sanctum.
    for (const question of ["What is your VRChat username?", "What is your Discord username?"]) {
      const added = await postForm(servers[0]!.url, "/admin/questions", { intent: "add", question, questionType: "text", required: "on" }, { cookie: cookies[0]! });
      expect(added.status).toBe(200);
      await added.body?.cancel();
    }
    const apply = await fetch(`${servers[0]!.url}/apply`).then((response) => response.text());
    const fields = [...apply.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
    expect(fields).toHaveLength(2);
    sites = servers.map((server, i) => ({ server, dataDir, fields, cookie: cookies[i]! }));
  });
  afterAll(async () => {
    await Promise.all(sites.map((site) => site.server.stop()));
    await rm(sites[0]?.dataDir ?? "/nonexistent", { recursive: true, force: true });
    await database?.close();
    await fake?.close();
  });

  it("share the staff's VRChat lookups for the minute, and keep one pace of actions between them", { timeout: 150_000 }, async () => {
    const names = Array.from({ length: PEOPLE }, (_, i) => `Paced Moth ${i}`);
    for (const name of names) await apply(sites[0]!, name);
    const ids = await Promise.all(names.map((name) => applicationId(sites[0]!, name)));

    // Each name looked up once in each process: twice the calls one process may make in a minute.
    // A lookup reads the join requests, searches, and reads a person and their membership; the
    // connection checks' reading of the bot's own membership is theirs, not a lookup's.
    const lookupPath = new RegExp(`^(/groups/${FAKE_GROUP_ID}/requests|/users|/users/usr_[^/]+|/groups/${FAKE_GROUP_ID}/members/usr_[^/]+)$`);
    const isLookup = (request: (typeof fake.requests)[number]) => request.method === "GET" && lookupPath.test(request.path) && !request.path.endsWith(FAKE_BOT_USER_ID);
    // The calls after this one (the fake keeps its last 2,000: were this one dropped, all are counted).
    const last = fake.requests.at(-1);
    const startedAt = Date.now();
    const answers: number[] = [];
    for (const id of ids) for (const site of sites) answers.push((await lookup(site, id)).status);
    expect(answers.filter((status) => status === 429).length).toBeGreaterThan(0);
    // 30 calls in each minute of the clock (the allowance's fixed windows): lookups that cross
    // into the next minute, or outlast one on a slow machine, meet that minute's own 30. Screening's
    // reads of the knocks, still going on, may add theirs.
    const minutes = Math.floor(Date.now() / 60_000) - Math.floor(startedAt / 60_000) + 1;
    const made = fake.requests.slice(fake.requests.indexOf(last!) + 1).filter(isLookup);
    expect(made.length, made.map((request) => request.path).join("\n")).toBeLessThanOrEqual((30 + SCREENING_CALLS_PER_MINUTE) * minutes);

    // Half approved on each process at the same moment: the calls to VRChat still go about a second apart.
    await Promise.all(
      sites.map(async (site, i) => {
        const mine = ids.slice(i * 4, i * 4 + 4);
        const body = new URLSearchParams([["intent", "bulk"], ["status", "approved"], ["confirmNamed", "yes"], ...mine.map((id) => ["ids", id])]);
        const response = await fetch(`${site.server.url}/admin/applications`, { method: "POST", body, headers: { Origin: site.server.url, cookie: site.cookie } });
        expect(response.status).toBe(200);
        await response.body?.cancel();
      }),
    );
    await until("eight accepts", () => fake.actions.length === 8, 90_000);
    const at = fake.actions.map((action) => action.at).sort((a, b) => a - b);
    const gaps = at.slice(1).map((time, i) => time - at[i]!);
    // Kept a second apart when sent; as received, two processes' calls may land a little closer.
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(800);
    expect(new Set(fake.actions.map((action) => action.userId)).size).toBe(8);
  });
});
