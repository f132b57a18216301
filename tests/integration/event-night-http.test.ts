/**
 * An event night with applications, on the production server as deployed, against the VRChat and
 * Discord fakes over loopback, with no one pressing anything the night itself does:
 * - an event made in the Sanctum with its world and a profile-link question; three members apply
 *   through the public form, two are approved from their cards, one waits;
 * - the event's own VRChat role is made once and given to the approved; the instance opens at its
 *   time, once, to that role only; each approved attendee gets the join link by DM and on their
 *   status page; visitors' pages never carry it;
 * - one withdraws: the role is taken from them, the one waiting moves up, gets the role and a DM;
 *   a press of 'Approve' in Discord on the withdrawn one changes nothing;
 * - staff switch to choosing who moves up: the bulk bar rejects one (the role taken), the next moves
 *   to Pending, and 'Approve' pressed in Discord lets them in (not a member: never invited by an
 *   event approval, and the card says they cannot enter yet and why);
 * - a reminder set a minute ahead arrives once for each attendee;
 * - after the end, the role is taken from everyone and deleted;
 * - who came is read from the instance (Cedar came, with someone who never applied; Drift did not):
 *   marked at the end, and the host's correction of one mark wins; the attendee who came is asked how
 *   it was on their status page, rates through the personal link (a forged link, 0, 6, 'five' and a
 *   comment of 100,000 characters refused), changes the answer; the host reads it on the evening's page,
 *   a visitor never.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FAKE_REVIEW_CHANNEL_ID,
  fakeDiscordBotEnv,
  fakeInteractionSigner,
  fakePress,
  fakeSnowflake,
  startFakeDiscordBot,
  type FakeDiscordBot,
} from "../fakes/discord-bot";
import { FAKE_WORLD_ID, fakeUserId, fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { requestProblem } from "../fakes/vrchat-contract";
import { textOf } from "../setup/page-text";
import { createAccountWithCommand, postForm, signIn } from "../setup/sanctum-client";
import { HOOK_TIMEOUT_MS, startServerProcess, type ServerProcess } from "../setup/server-process";
import { ON_PGLITE } from "../setup/test-database";

const signer = fakeInteractionSigner();
const KEEPER_DISCORD = fakeSnowflake(40);
const PEOPLE = [
  { name: "Ash", vrchat: fakeUserId(31), discord: fakeSnowflake(31), status: "member" },
  { name: "Birch", vrchat: fakeUserId(32), discord: fakeSnowflake(32), status: "member" },
  { name: "Cedar", vrchat: fakeUserId(33), discord: fakeSnowflake(33), status: "member" },
  { name: "Drift", vrchat: fakeUserId(34), discord: fakeSnowflake(34), status: "none" },
] as const;
type Name = (typeof PEOPLE)[number]["name"];
const person = (name: Name) => PEOPLE.find((p) => p.name === name)!;

/**
 * Waits for `check`: a look at the fakes' records every quarter second, a page asked of the site
 * every two (the night's jobs run every 30 seconds or minute: asked four times a second over those
 * minutes, the pages alone kept a third of a core busy beside the other suites).
 */
async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = check();
    if (await answer) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, answer instanceof Promise ? 2_000 : 250));
  }
}

/** A time on the minute, `ms` from now or a little later, as the form's fields take it (UTC). */
function onTheMinute(ms: number) {
  const at = new Date(Math.ceil((Date.now() + ms) / 60_000) * 60_000);
  return { at, date: at.toISOString().slice(0, 10), time: at.toISOString().slice(11, 16), local: at.toISOString().slice(0, 16) };
}

describe.runIf(ON_PGLITE)("an event night with applications, on the server as deployed", () => {
  let fake: FakeVRChat;
  let discord: FakeDiscordBot;
  let server: ServerProcess;
  let dataDir: string;
  let cookie: string;
  let eventId: string;
  const tokens = new Map<Name, string>();

  const card = async (name: Name) => {
    const html = await fetch(`${server.url}/admin/events/${eventId}/applications?status=all`, { headers: { cookie } }).then((r) => r.text());
    const start = html.lastIndexOf("<li", html.indexOf(`>${name}<`));
    return { id: /name="id" value="([0-9a-f-]{36})"/.exec(html.slice(start))![1]!, text: textOf(html.slice(start, html.indexOf("</details>", start))) };
  };
  const statusPage = async (name: Name) => fetch(`${server.url}/applications/status/${tokens.get(name)!}`).then((r) => r.text());
  const roleId = () => fake.group.roles.find((role) => role.description.includes(`[dwell:${eventId}]`))?.id ?? null;
  const holders = () => fake.group.roles.find((role) => role.id === roleId())?.holders.slice().sort() ?? [];
  const dmsTo = (name: Name, containing: string) => discord.messages.filter((m) => m.userId === person(name).discord && m.content.includes(containing));

  beforeAll(async () => {
    [fake, discord] = await Promise.all([startFakeVRChat(), startFakeDiscordBot()]);
    fake.group.instances = [];
    for (const p of PEOPLE) {
      fake.group.people.push({ id: p.vrchat, displayName: p.name, status: p.status });
      discord.members.push({ id: p.discord, username: `${p.name.toLowerCase()}-d`, globalName: p.name });
    }
    discord.members.push({ id: KEEPER_DISCORD, username: "keeper-of-the-hall", globalName: "Keeper" });
    dataDir = mkdtempSync(join(tmpdir(), "dwell-event-night-"));
    server = await startServerProcess({
      DATA_DIR: dataDir,
      DEMO_CONTENT: "false",
      ...fakeVRChatEnv(fake),
      ...fakeDiscordBotEnv(discord),
      VRCHAT_OPEN_INSTANCES: "true",
      VRCHAT_MEMBERSHIP_ACTIONS: "true",
      EVENT_REMINDERS: "1m",
      DISCORD_PUBLIC_KEY: signer.publicKeyHex,
      DISCORD_REVIEW_CHANNEL_ID: FAKE_REVIEW_CHANNEL_ID,
      RATE_LIMIT_APPLICATIONS: "1000",
      RATE_LIMIT_DUPLICATES: "1000",
      ATTENDANCE_MIN_MINUTES: "1",
      RATING_DELAY_MINUTES: "0",
    });
    createAccountWithCommand(dataDir, "keeper@dwell.example", "moonlight-over-the-hall", "owner");
    cookie = await signIn(server.url, "keeper@dwell.example", "moonlight-over-the-hall");
    const team = await fetch(`${server.url}/admin/team`, { headers: { cookie } }).then((r) => r.text());
    const keeperId = /name="id" value="([0-9a-f-]{36})"/.exec(team.slice(team.indexOf("keeper@dwell.example")))![1]!;
    const linked = await postForm(server.url, "/admin/team", { intent: "set-discord", id: keeperId, discordUserId: KEEPER_DISCORD }, { cookie });
    expect(linked.status).toBe(200);
    await linked.body?.cancel();
  }, HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
    await discord?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("carries the night from the applications to the role-only instance, its reminders, refills and the role's end", async () => {
    // Starting in about three minutes, ending a minute later; the instance not opened yet. Everything
    // before the reminder (a minute before the start) has one and a quarter to two and a quarter minutes.
    const began = Date.now();
    const start = onTheMinute(2.25 * 60_000);
    const end = new Date(start.at.getTime() + 60_000).toISOString().slice(0, 16);
    const fields = {
      title: "Lantern Night",
      eventDate: start.date,
      eventTime: start.time,
      ends: end,
      timezone: "UTC",
      worldLink: `https://vrchat.com/home/world/${FAKE_WORLD_ID}`,
      applicationRequired: "on",
      maxAttendees: "2",
      waitlistPromotion: "automatic",
      instanceLead: "never",
      instanceRegion: "eu",
    };
    const created = await postForm(server.url, "/admin/events", { intent: "create", ...fields }, { cookie });
    expect(created.status).toBe(302);
    const events = await fetch(`${server.url}/admin/events`, { headers: { cookie } }).then((r) => r.text());
    eventId = /\/admin\/events\/([0-9a-f-]{36})\/applications/.exec(events)![1]!;
    const questions = [["What is your VRChat username?", "text"], ["What is your Discord username?", "text"], ["Your VRChat profile link", "vrchat_profile"]] as const;
    for (const [text, questionType] of questions) {
      const question = await postForm(server.url, `/admin/events/${eventId}/questions`, { intent: "add", question: text, questionType }, { cookie });
      expect(question.status).toBe(200);
      await question.body?.cancel();
    }

    // Applicants use the public form: their own profile link, under the name they give.
    const form = await fetch(`${server.url}/events/${eventId}/apply`).then((r) => r.text());
    const answerFields = [...form.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
    const apply = async (name: Name) => {
      const p = person(name);
      const answers = answerFields.map((_, i) => (i === 0 ? name : i === 1 ? `${name.toLowerCase()}-d` : i === answerFields.length - 1 ? `https://vrchat.com/home/user/${p.vrchat}` : "For the lanterns"));
      const response = await postForm(server.url, `/events/${eventId}/apply`, Object.fromEntries(answerFields.map((field, i) => [field, answers[i]!])));
      const html = await response.text();
      expect(response.status, textOf(html).slice(0, 1500)).toBe(200);
      tokens.set(name, /href="\/applications\/status\/([A-Za-z0-9_-]{43})"/.exec(html)![1]!);
    };
    await apply("Ash");
    await apply("Birch");
    for (const name of ["Ash", "Birch"] as const) {
      const decided = await postForm(server.url, `/admin/events/${eventId}/applications`, { intent: "status", id: (await card(name)).id, status: "approved" }, { cookie });
      expect(decided.status).toBe(200);
      await decided.body?.cancel();
    }
    await apply("Cedar");
    await apply("Drift");
    expect((await card("Cedar")).text).toContain("Waitlist");

    // The role: made once, given to both approved members.
    await until("the role given to both", () => holders().length === 2);
    expect(holders()).toEqual([person("Ash").vrchat, person("Birch").vrchat]);
    expect(fake.roleWrites.filter((write) => write.kind === "create")).toHaveLength(1);
    expect((await card("Ash")).text).toContain("Can enter");
    expect((await card("Ash")).text).toContain("Event role given in VRChat");

    // 'Open the instance' 15 minutes before: due now; the server's look opens it by itself.
    const saved = await postForm(server.url, "/admin/events", { intent: "update", id: eventId, ...fields, instanceLead: "15" }, { cookie });
    expect(saved.status).toBe(302);
    await until("the instance opened", () => fake.instanceWrites.length === 1, 45_000);
    // Who will be in it: Cedar, and a wanderer who never applied (VRChat lists them to the bot, its creator).
    fake.group.instances.find((instance) => instance.location === fake.instanceWrites[0]!.location)!.users = [
      { id: person("Cedar").vrchat, displayName: "Cedar" },
      { id: fakeUserId(39), displayName: "Wanderer" },
    ];
    expect(fake.instanceWrites[0]!.body).toMatchObject({ type: "group", groupAccessType: "members", roleIds: [roleId()], region: "eu", worldId: FAKE_WORLD_ID });
    await until("the join link by DM", () => dmsTo("Ash", "vrchat.com/home/launch").length === 1 && dmsTo("Birch", "vrchat.com/home/launch").length === 1);
    const ashStatus = await statusPage("Ash");
    expect(textOf(ashStatus)).toContain("Join in VRChat");
    expect(ashStatus).toContain(`https://vrchat.com/home/launch?worldId=${FAKE_WORLD_ID}`);
    for (const path of ["/", "/events", `/events/${eventId}`, "/api/group-data", "/events.ics", `/applications/status/${tokens.get("Cedar")}`]) {
      expect(await (await fetch(`${server.url}${path}`)).text(), path).not.toContain("vrchat.com/home/launch");
    }

    // Birch withdraws: the role is taken from them; Cedar moves up, gets it, and a DM with the link.
    const withdrawn = await postForm(server.url, `/applications/status/${tokens.get("Birch")}`, { intent: "withdraw" });
    expect(withdrawn.status).toBe(302);
    await until("the role moved from Birch to Cedar", () => holders().join() === [person("Ash").vrchat, person("Cedar").vrchat].join());
    expect((await card("Cedar")).text).toContain("Approved");
    await until("Cedar's DM", () => dmsTo("Cedar", "vrchat.com/home/launch").length === 1);
    expect(textOf(await statusPage("Cedar"))).toContain("Join in VRChat");
    expect(textOf(await statusPage("Birch"))).not.toContain("Join in VRChat");
    // A withdrawal is final: a press on Birch's 'Approve' in Discord (an old post, a crafted press) changes nothing.
    const birchId = (await card("Birch")).id;
    const late = await signer.send(server.url, fakePress(KEEPER_DISCORD, `dwell:approve:event:${birchId}`));
    expect(late.json?.data?.content).toBe("The applicant withdrew this application: a withdrawal is final. Nothing was changed.");
    expect((await card("Birch")).text).toContain("Withdrawn");

    // Staff now want to choose who moves up ('move them to Pending'); the bulk bar rejects Ash: the
    // role is taken, and Drift (next in line) moves to Pending. A press of 'Approve' in Discord then
    // approves Drift, who is not a group member: not invited (an event approval is no way into the
    // group), and told to join first.
    const pending = await postForm(server.url, "/admin/events", { intent: "update", id: eventId, ...fields, instanceLead: "15", waitlistPromotion: "pending" }, { cookie });
    expect(pending.status).toBe(302);
    const rejected = await postForm(server.url, `/admin/events/${eventId}/applications`, [["intent", "bulk"], ["status", "rejected"], ["ids", (await card("Ash")).id]], { cookie });
    expect(rejected.status).toBeLessThan(400);
    await rejected.body?.cancel();
    await until("the role taken from Ash", () => !holders().includes(person("Ash").vrchat));
    expect((await card("Drift")).text).toContain("Pending");
    await until("Drift's review post", () => discord.channelPosts.some((post) => JSON.stringify(post.embeds).includes("Drift")));
    const post = discord.channelPosts.find((p) => JSON.stringify(p.embeds).includes("Drift"))!;
    const approve = post.components.flatMap((row) => row.components ?? []).find((button) => button.label === "Approve")!.custom_id!;
    const pressed = await signer.send(server.url, fakePress(KEEPER_DISCORD, approve, post.id));
    expect(pressed.json).toMatchObject({ type: 7, data: { content: expect.stringContaining("Approved by keeper in Discord") } });
    await until("Drift's card", async () => (await card("Drift")).text.includes("Cannot enter yet"));
    expect((await card("Drift")).text).toContain("event approvals do not invite to the group");
    expect(fake.actions.filter((action) => action.kind === "invite")).toEqual([]);
    expect(textOf(await statusPage("Drift"))).toContain("join the Dwellers group first");

    // The reminder a minute before the start: once each to the approved, none to the others. All the
    // steps above ran before its time (had they not, it would have gone to others).
    // (Under the whole suite on two cores they take about 35 s of the 75 s or more they have.)
    expect(Date.now(), `the steps before the reminder took ${(Date.now() - began) / 1000} s, past its time`).toBeLessThan(start.at.getTime() - 60_000);
    await until("the reminders", () => dmsTo("Cedar", "Reminder:").length === 1 && dmsTo("Drift", "Reminder:").length === 1, 180_000);
    expect(dmsTo("Ash", "Reminder:")).toHaveLength(0);
    expect(dmsTo("Birch", "Reminder:")).toHaveLength(0);

    // After the end: the role is taken from everyone, then deleted; the next look does nothing more.
    await until("the role deleted", () => fake.roleWrites.some((write) => write.kind === "delete"), 300_000);
    expect(holders()).toEqual([]);
    expect(fake.group.roles.some((role) => role.description.includes(`[dwell:${eventId}]`))).toBe(false);
    expect(fake.roleWrites.filter((write) => write.kind === "delete")).toHaveLength(1);
    expect(dmsTo("Cedar", "Reminder:")).toHaveLength(1);
    expect(fake.instanceWrites.filter((write) => write.kind === "create")).toHaveLength(1);

    // Who came, read from the instance and marked at the end: Cedar came, Drift did not; the wanderer is listed apart.
    await until("the marks read from the instance", async () => (await card("Cedar")).text.includes("Attended"), 120_000);
    expect((await card("Drift")).text).toContain("No-show");
    const eventsPage = textOf(await fetch(`${server.url}/admin/events`, { headers: { cookie } }).then((r) => r.text()));
    expect(eventsPage).toContain("Came without applying: Wanderer");
    // The host corrects Drift's mark: it stays.
    const corrected = await postForm(server.url, `/admin/events/${eventId}/applications`, [["intent", "attendance"], ["attendance", "attended"], ["ids", (await card("Drift")).id]], { cookie });
    expect(corrected.status).toBeLessThan(400);
    await corrected.body?.cancel();
    expect((await card("Drift")).text).toContain("Attended");

    // "How was it?": Cedar's status page links to the rating page; the link is personal and signed.
    await until("the rating link", async () => (await statusPage("Cedar")).includes("/rate/"), 90_000);
    const rateLink = /href="[^"]*?(\/rate\/[^"]+)"/.exec(await statusPage("Cedar"))![1]!;
    expect(await statusPage("Ash")).not.toContain("/rate/");
    const rate = (values: Record<string, string>, link = rateLink) => postForm(server.url, link, values).then(async (r) => ({ status: r.status, text: textOf(await r.text()) }));
    expect((await fetch(`${server.url}${rateLink}`)).status).toBe(200);
    const forged = `${rateLink.slice(0, -4)}AAAA`;
    expect((await fetch(`${server.url}${forged}`)).status).toBe(404);
    expect((await rate({ rating: "4" }, forged)).status).toBe(404);
    for (const rating of ["0", "6", "five", ""]) expect((await rate({ rating }))).toMatchObject({ status: 400, text: expect.stringContaining("Choose from 1 to 5 stars.") });
    expect(await rate({ rating: "4", comment: "x".repeat(100_000) })).toMatchObject({ status: 400, text: expect.stringContaining("The comment is too long") });
    // The same link sent twice at once: one answer.
    const both = await Promise.all([rate({ rating: "4", comment: "Lovely lanterns" }), rate({ rating: "4", comment: "Lovely lanterns" })]);
    expect(both.map((answer) => answer.status)).toEqual([200, 200]);
    expect(await rate({ rating: "5", comment: "Lovely lanterns, and the music" })).toMatchObject({ status: 200, text: expect.stringContaining("Thank you: the hosts will read it.") });
    expect(textOf(await statusPage("Cedar"))).toContain("Thank you for saying how it was.");

    // The host reads it on the evening's page; a visitor never does.
    const evening = textOf(await fetch(`${server.url}/admin/events/${eventId}/evening`, { headers: { cookie } }).then((r) => r.text()));
    expect(evening).toContain("5.0 of 5 (1 answered)");
    expect(evening).toContain("Lovely lanterns, and the music");
    expect(evening).not.toContain("Lovely lanterns\n");
    expect(evening).toContain("Came without applying: Wanderer");
    const visitor = await fetch(`${server.url}/admin/events/${eventId}/evening`);
    expect(visitor.status).toBe(401);
    expect(await visitor.text()).not.toContain("Lovely lanterns");
    for (const path of ["/", "/events", `/events/${eventId}`, "/news"]) expect(await (await fetch(`${server.url}${path}`)).text(), path).not.toContain("Lovely lanterns");
    expect(fake.requests.map(requestProblem).filter((problem) => problem !== null)).toEqual([]);
  }, 600_000);
});
