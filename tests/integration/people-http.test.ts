/**
 * A person's file over HTTP against the production server, as a browser without JavaScript (or a
 * crafted request) would reach it: an application sent on the public form opens a file; bad input
 * gets a 4xx and a clear message, nothing is written; addresses that name no file are 404s.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createAccountWithCommand, postForm, signIn } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess } from "../setup/server-process";

let server: ServerProcess;
let dataDir: string;
let owner = "";
let file = "";

const text = (html: string) => html.replaceAll("<!-- -->", "").replaceAll("&#x27;", "'").replaceAll("&quot;", '"');

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "dwell-people-"));
  server = await startServerProcess({ DATA_DIR: dataDir });
  createAccountWithCommand(dataDir, "keeper@dwell.example", "moonlight-over-the-files", "owner");
  owner = await signIn(server.url, "keeper@dwell.example", "moonlight-over-the-files");
  const form = await fetch(`${server.url}/apply`).then((response) => response.text());
  const fields = [...form.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
  const applied = await postForm(server.url, "/apply", Object.fromEntries(fields.map((field, i) => [field, ["Filed Moth", "filedmoth", "A friend", "Hi", ""][i]!])));
  expect(applied.status).toBe(200);
  await applied.body?.cancel();
  // The header's search finds the applicant by part of the name they gave, and links their file.
  const found = await fetch(`${server.url}/admin/people?q=filed`, { headers: { cookie: owner } }).then((response) => response.text());
  file = /href="(\/admin\/people\/application-[0-9a-f-]{36})"/.exec(found)![1]!;
});
afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const page = async (path: string) => {
  const response = await fetch(`${server.url}${path}`, { headers: { cookie: owner } });
  return { status: response.status, html: text(await response.text()) };
};

it("shows the application sent on the form, and what it cannot show without VRChat", async () => {
  const { status, html } = await page(file);
  expect(status).toBe(200);
  expect(html).toContain("Filed Moth");
  expect(html).toContain("Group application");
  expect(html).toContain("Pending");
  expect(html).toContain("No VRChat account is linked to this person: VRChat cannot be asked about them.");
});

it.each([
  ["an empty note", { intent: "note", body: "   " }, 400, "Write the note first."],
  ["a note past its limit", { intent: "note", body: "x".repeat(2_001) }, 400, "A note is at most 2,000 characters."],
  ["a merge naming nothing", { intent: "merge", other: "my best friend" }, 400, "That names no person's file"],
  ["a merge with itself", { intent: "merge", other: "THIS FILE" }, 409, "That is this file already."],
  ["splitting what is not merged here", { intent: "split", key: "discord-123456789012345678" }, 409, "That file is not merged into this one."],
  ["a ban with no account to ban", { intent: "ban", reason: "Because." }, 409, "No VRChat or Discord account is linked to this person"],
  ["an unknown action", { intent: "erase" }, 400, "Unknown action."],
])("refuses %s with a clear message, writing nothing", async (_name, form, status, message) => {
  const before = await page(file);
  const fields: Record<string, string> = { ...form };
  if (fields.other === "THIS FILE") fields.other = `${server.url}${file}`;
  const response = await postForm(server.url, file, fields, { cookie: owner });
  expect(response.status).toBe(status);
  expect(text(await response.text())).toContain(message);
  const after = await page(file);
  expect(after.html.replace(/ nonce="[^"]*"/g, "")).toBe(before.html.replace(/ nonce="[^"]*"/g, ""));
});

it("searches a ten-letter name as a name, and opens a file at once for a VRChat id or profile link", async () => {
  const byName = await fetch(`${server.url}/admin/people?q=Moonshadow`, { headers: { cookie: owner }, redirect: "manual" });
  expect(byName.status).toBe(200);
  expect(text(await byName.text())).toContain('Dwell knows nobody matching "Moonshadow".');
  const id = "usr_00000000-0000-4000-8000-000000000abc";
  for (const q of [id, `https://vrchat.com/home/user/${id}`]) {
    const opened = await fetch(`${server.url}/admin/people?q=${encodeURIComponent(q)}`, { headers: { cookie: owner }, redirect: "manual" });
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe(`/admin/people/vrchat-${id}`);
  }
});

it("keeps a note, and answers 404 for addresses that name no file", async () => {
  const added = await postForm(server.url, file, { intent: "note", body: "Met at the lantern walk." }, { cookie: owner });
  expect(added.status).toBe(200);
  await added.body?.cancel();
  expect((await page(file)).html).toContain("Met at the lantern walk.");
  expect((await page("/admin/people/not-a-key")).status).toBe(404);
  expect((await page("/admin/people/application-00000000-0000-4000-8000-000000000000")).status).toBe(404);
  expect((await page("/admin/people/vrchat-usr_00000000-0000-4000-8000-000000000000")).status).toBe(200);
});
