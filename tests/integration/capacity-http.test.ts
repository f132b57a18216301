/**
 * An event's places, over HTTP against the production server: the event made in the Sanctum with a
 * limit, applications through the public form, approvals as the review page posts them (several at
 * once for the last places), and what visitors, applicants and admins then read.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startFakeDiscord } from "../fakes/discord";
import { textOf } from "../setup/page-text";
import { createAccountWithCommand, postForm, signIn } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess } from "../setup/server-process";

let server: ServerProcess;
let discord: Awaited<ReturnType<typeof startFakeDiscord>>;
let dataDir: string;
let cookie: string;
let eventId: string;
let fields: string[];
const tokens = new Map<string, string>();

/** What a person reads: the page's text, without its scripts and data. */
const admin = (path: string) => fetch(`${server.url}${path}`, { headers: { cookie } }).then((response) => response.text());

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "dwell-capacity-"));
  discord = await startFakeDiscord();
  server = await startServerProcess({
    DATA_DIR: dataDir,
    DEMO_CONTENT: "false",
    RATE_LIMIT_APPLICATIONS: "1000",
    RATE_LIMIT_DUPLICATES: "1000",
    DISCORD_WEBHOOK_URL: `${discord.url}/api/webhooks/1/token`,
  });
  createAccountWithCommand(dataDir, "keeper@dwell.example", "moonlight-over-the-hall", "admin");
  cookie = await signIn(server.url, "keeper@dwell.example", "moonlight-over-the-hall");

  const created = await postForm(
    server.url,
    "/admin/events",
    {
      intent: "create",
      title: "Lantern Walk",
      eventDate: "2031-03-14",
      eventTime: "20:00",
      timezone: "UTC",
      worldName: "The Hollow",
      applicationRequired: "on",
      maxAttendees: "3",
    },
    { cookie },
  );
  expect(created.status).toBe(302);
  eventId = /\/events\/([0-9a-f-]{36})\/applications/.exec(await admin("/admin/events"))![1]!;
  for (const question of ["VRChat Username", "Discord Username"]) {
    const added = await postForm(server.url, `/admin/events/${eventId}/questions`, { intent: "add", question, questionType: "text", required: "on" }, { cookie });
    expect(added.status).toBeLessThan(400);
  }
  const form = await fetch(`${server.url}/events/${eventId}/apply`).then((response) => response.text());
  fields = [...form.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
  expect(fields).toHaveLength(2);
});
afterAll(async () => {
  await server?.stop();
  await discord?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The applicants approved by the five clicks at once (the first test). */
const approvedFirst: string[] = [];

async function apply(name: string) {
  const response = await postForm(server.url, `/events/${eventId}/apply`, { [fields[0]!]: name, [fields[1]!]: `${name.toLowerCase()}-discord` });
  const html = await response.text();
  expect(response.status).toBe(200);
  tokens.set(name, /href="\/applications\/status\/([A-Za-z0-9_-]{43})"/.exec(html)![1]!);
  return textOf(html);
}

async function idOf(name: string) {
  const html = await admin(`/admin/events/${eventId}/applications?q=${encodeURIComponent(name)}`);
  return /name="id" value="([0-9a-f-]{36})"/.exec(html.slice(html.indexOf(`>${name}<`)))![1]!;
}

function approve(id: string, extra: Record<string, string> = {}) {
  return postForm(server.url, `/admin/events/${eventId}/applications`, { intent: "status", id, status: "approved", ...extra }, { cookie });
}

async function statusText(name: string) {
  return textOf(await fetch(`${server.url}/applications/status/${tokens.get(name)}`).then((response) => response.text()));
}

const eventPage = async () => textOf(await fetch(`${server.url}/events/${eventId}`).then((response) => response.text()));

it("shows visitors how many places are left, and never approves more than the places under concurrent approvals", async () => {
  expect(await eventPage()).toContain("3 of 3 places left");
  const names = ["Ash", "Birch", "Cedar", "Damson", "Elder"];
  for (const name of names) expect(await apply(name)).not.toContain("waitlist");
  const ids = await Promise.all(names.map(idOf));

  // Five admins' clicks at once for three places: three are approved, two refused as full.
  const answers = await Promise.all(ids.map((id) => approve(id)));
  // Which three come first is the race's to decide.
  approvedFirst.push(...names.filter((_, i) => answers[i]!.status === 200));
  const statuses = answers.map((response) => response.status).sort();
  expect(statuses).toEqual([200, 200, 200, 409, 409]);
  const refused = await answers.find((response) => response.status === 409)!.text();
  expect(textOf(refused)).toContain("The event is full: 3 of 3 places taken.");

  const review = textOf(await admin(`/admin/events/${eventId}/applications`));
  expect(review).toContain("3 of 3 places taken");
  expect(review).toMatch(/Approved 3 /);
  expect(await eventPage()).toContain("Full");
  expect(await eventPage()).not.toContain("places left");
});

it("takes new applications on the waitlist once full, and tells the applicant their place in line", async () => {
  expect(await apply("Fir")).toContain("your application is on the waitlist");
  await new Promise((resolve) => setTimeout(resolve, 20));
  await apply("Gorse");
  expect(await statusText("Fir")).toContain("Waitlist");
  expect(await statusText("Fir")).toContain("You are number 1 on the waitlist.");
  // The admins' Discord says which applications arrived on the waitlist.
  const titles = () => discord.requests.map((delivery) => delivery.body.embeds[0]!.title);
  await expect.poll(() => titles().filter((title) => title.endsWith("(waitlist: the event is full)")).length, { timeout: 15_000 }).toBe(2);
  expect(titles()).toContain("New event application: Lantern Walk");
  expect(await statusText("Gorse")).toContain("You are number 2 on the waitlist.");

  const review = textOf(await admin(`/admin/events/${eventId}/applications`));
  expect(review).toMatch(/Waitlist 2 /);
  const waitlist = textOf(await admin(`/admin/events/${eventId}/applications?status=waitlist`));
  expect(waitlist).toContain("2 applications match");
  expect(waitlist.indexOf("Fir")).toBeLessThan(waitlist.indexOf("Gorse"));
  expect(textOf(await admin("/admin/events"))).toContain("2 on the waitlist");

  const csv = await fetch(`${server.url}/admin/events/${eventId}/applications/export`, { headers: { cookie } }).then((response) => response.text());
  expect(csv.split("\r\n").find((line) => line.startsWith('"Fir",'))).toMatch(/^"Fir","fir-discord","waitlist",/);
});

it("moves a waitlisted application to approved when a place frees, and over the places only when confirmed", async () => {
  const fir = await idOf("Fir");
  expect((await approve(fir)).status).toBe(409);
  // A place frees: one approved applicant is rejected.
  const approvedOne = await idOf(approvedFirst[0]!);
  const rejected = await postForm(server.url, `/admin/events/${eventId}/applications`, { intent: "status", id: approvedOne, status: "rejected" }, { cookie });
  expect(rejected.status).toBe(200);
  expect(textOf(await admin(`/admin/events/${eventId}/applications`))).toContain("1 place is free and 2 applications are on the waitlist.");
  expect((await approve(fir)).status).toBe(200);
  expect(await statusText("Fir")).toContain("Approved");
  expect(await statusText("Gorse")).toContain("You are number 1 on the waitlist.");

  // Full again: the admin confirms going over for Gorse.
  const gorse = await idOf("Gorse");
  expect((await approve(gorse)).status).toBe(409);
  expect((await approve(gorse, { overCapacity: "yes" })).status).toBe(200);
  expect(textOf(await admin(`/admin/events/${eventId}/applications`))).toContain("4 of 3 places taken");
  expect(await eventPage()).toContain("Full");
});

it("refuses a bulk approval past the places as a whole, unless confirmed", async () => {
  await apply("Hazel");
  await apply("Ivy");
  const ids = [await idOf("Hazel"), await idOf("Ivy")];
  const bulk = (extra: Record<string, string> = {}) => {
    const body = new URLSearchParams({ intent: "bulk", status: "approved", ...extra });
    for (const id of ids) body.append("ids", id);
    return fetch(`${server.url}/admin/events/${eventId}/applications`, { method: "POST", body, headers: { Origin: server.url, cookie }, redirect: "manual" });
  };
  const refused = await bulk();
  expect(refused.status).toBe(409);
  expect(textOf(await refused.text())).toContain("Approving these 2 applications goes 3 over its places.");
  expect(textOf(await admin(`/admin/events/${eventId}/applications`))).toMatch(/Waitlist 2 /);
  expect((await bulk({ overCapacity: "yes" })).status).toBe(200);
  expect(textOf(await admin(`/admin/events/${eventId}/applications`))).toContain("6 of 3 places taken");
});
