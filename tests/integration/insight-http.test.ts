/**
 * The dashboard's trends, from what the running server itself recorded: the group's counts read by
 * real refreshes against the VRChat fake (started by visitors' pages), and applications sent
 * through the public form and decided in the Sanctum.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { textOf } from "../setup/page-text";
import { createAccountWithCommand, postForm, signIn } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess } from "../setup/server-process";

let fake: FakeVRChat;
let server: ServerProcess;
let dataDir: string;
let cookie: string;

beforeAll(async () => {
  fake = await startFakeVRChat();
  dataDir = mkdtempSync(join(tmpdir(), "dwell-insight-"));
  server = await startServerProcess({ DATA_DIR: dataDir, VRCHAT_CACHE_SECONDS: "1", PAGE_CACHE_SECONDS: "0", ...fakeVRChatEnv(fake) });
  createAccountWithCommand(dataDir, "keeper@dwell.example", "moonlight-over-the-hall", "admin");
  cookie = await signIn(server.url, "keeper@dwell.example", "moonlight-over-the-hall");
});
afterAll(async () => {
  await server?.stop();
  await fake?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The rows of the table behind the chart with this caption ([when, ...values]); null while there is none. */
async function rowsOf(caption: string, query = "") {
  const html = await fetch(`${server.url}/admin${query}`, { headers: { cookie } }).then((response) => response.text());
  const at = html.indexOf(`<caption class="sr-only">${caption}</caption>`);
  if (at === -1) return null;
  const table = html.slice(at, html.indexOf("</table>", at));
  return [...table.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].slice(1).map((row) => [...row[1]!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((cell) => textOf(cell[1]!).trim()));
}

async function tableOf(caption: string, query = "") {
  const rows = await rowsOf(caption, query);
  expect(rows, `a table captioned ${caption}`).not.toBeNull();
  return rows!;
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

it("charts the members and online counts each refresh read, and what changed between them", async () => {
  fake.group.memberCount = 2451;
  fake.group.onlineMemberCount = 88;
  await until("a first reading", async () => {
    await fetch(`${server.url}/`).then((response) => response.text());
    // Before the first refresh has finished, the chart says there is nothing yet.
    return (await rowsOf("Members and online now, last 24 hours"))?.some((row) => row[1] === "2,451") ?? false;
  });
  // A minute later the group has grown (the next refresh lands in the next minute's bucket).
  await new Promise((resolve) => setTimeout(resolve, 61_000 - (Date.now() % 60_000)));
  fake.group.memberCount = 2460;
  fake.group.onlineMemberCount = 120;
  await until("a second reading", async () => {
    await fetch(`${server.url}/`).then((response) => response.text());
    return (await rowsOf("Members and online now, last 24 hours"))?.some((row) => row[1] === "2,460") ?? false;
  });
  const day = await tableOf("Members and online now, last 24 hours");
  expect(day.map((row) => row.slice(1))).toEqual(expect.arrayContaining([["2,451", "88"], ["2,460", "120"]]));
  expect(day.length).toBeGreaterThanOrEqual(2);
  // The month and the year show the hour's and the day's bucket: the last members, the most online.
  const month = await tableOf("Members and online now, last 30 days", "?trend=30d");
  expect(month.at(-1)!.slice(1)).toEqual(["2,460", "120"]);
  const html = await fetch(`${server.url}/admin?trend=1y`, { headers: { cookie } }).then((response) => response.text());
  expect(html).toMatch(/<a [^>]*aria-current="page"[^>]*>1 year<\/a>/);
  expect(textOf(html)).toContain("Members and online now, last 1 year");
}, 120_000);

it("counts the applications of each week and how they were decided", async () => {
  const form = await fetch(`${server.url}/apply`).then((response) => response.text());
  const fields = [...form.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
  for (const name of ["Moth", "Heron", "Wren"]) {
    const answers = [name, `${name.toLowerCase()}-discord`, "A friend", "I tend the lanterns", ""];
    const sent = await postForm(server.url, "/apply", Object.fromEntries(fields.map((field, i) => [field, answers[i]!])));
    expect(sent.status).toBe(200);
  }
  const review = await fetch(`${server.url}/admin/applications`, { headers: { cookie } }).then((response) => response.text());
  const idOf = (name: string) => /name="id" value="([0-9a-f-]{36})"/.exec(review.slice(review.indexOf(`>${name}<`)))![1]!;
  expect((await postForm(server.url, "/admin/applications", { intent: "status", id: idOf("Moth"), status: "approved" }, { cookie })).status).toBe(200);
  expect((await postForm(server.url, "/admin/applications", { intent: "status", id: idOf("Heron"), status: "rejected" }, { cookie })).status).toBe(200);

  const weeks = await tableOf("Applications per week, last 12 weeks");
  expect(weeks).toHaveLength(12);
  expect(weeks.at(-1)!.slice(1)).toEqual(["3", "0"]);
  const text = textOf(await fetch(`${server.url}/admin`, { headers: { cookie } }).then((response) => response.text()));
  expect(text).toContain("Group applications, decided in the last 12 weeks 50% approved 1 of 2 decided · median time to a decision");
});
