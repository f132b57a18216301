/**
 * An owner's invitation over HTTP against the production server, with mail going out through SMTP
 * (the fake): the link arrives by e-mail and is not shown on the page, it works once, a refused
 * passphrase leaves it usable, and the new member is signed in with the invited role.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startFakeSmtp, type FakeSmtp } from "../fakes/smtp";
import { createAccountWithCommand, postForm, signIn } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess } from "../setup/server-process";

let smtp: FakeSmtp;
let server: ServerProcess;
let dataDir: string;
let owner = "";

beforeAll(async () => {
  smtp = await startFakeSmtp();
  dataDir = mkdtempSync(join(tmpdir(), "dwell-invitations-"));
  server = await startServerProcess({ DATA_DIR: dataDir, SMTP_URL: smtp.url(), MAIL_FROM: "Dwell <sanctum@dwell.example>" });
  createAccountWithCommand(dataDir, "keeper@dwell.example", "moonlight-over-the-hall", "owner");
  owner = await signIn(server.url, "keeper@dwell.example", "moonlight-over-the-hall");
});
afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/&#x27;/g, "'").replace(/\s+/g, " ");

it("mails the link, which works once, and signs the new member in with their role", async () => {
  const refused = await postForm(server.url, "/admin/team", { intent: "invite", email: "keeper@dwell.example", role: "admin" }, { cookie: owner });
  expect(refused.status).toBe(400);
  expect(text(await refused.text())).toContain("keeper@dwell.example already has an account here.");
  const badRole = await postForm(server.url, "/admin/team", { intent: "invite", email: "new@dwell.example", role: "wizard" }, { cookie: owner });
  expect(badRole.status).toBe(400);
  expect(text(await badRole.text())).toContain("Choose a role: Owner, Admin, Reviewer or Host.");
  expect(smtp.mails).toHaveLength(0);

  const sent = await postForm(server.url, "/admin/team", { intent: "invite", email: "Wren@Dwell.example", role: "host" }, { cookie: owner });
  expect(sent.status).toBe(200);
  const page = await sent.text();
  expect(text(page)).toContain("Invitation sent to wren@dwell.example.");
  expect(page).not.toContain("/admin/join/");
  await expect.poll(() => smtp.mails.length, { timeout: 10_000 }).toBe(1);
  const mail = smtp.mails[0]!;
  expect(mail.to).toEqual(["wren@dwell.example"]);
  const link = /(http:\/\/[^\s]+\/admin\/join\/[A-Za-z0-9_-]{43})/.exec(mail.raw.replace(/=\r?\n/g, ""))![1]!;
  const path = new URL(link).pathname;

  const opened = await fetch(`${server.url}${path}`);
  expect(opened.status).toBe(200);
  expect(opened.headers.get("cache-control")).toBe("no-store");
  expect(text(await opened.text())).toMatch(/For wren@dwell\.example ?, as Host ?\./);

  const mismatch = await postForm(server.url, path, { username: "Wren", password: "a-long-wren-passphrase", confirm: "another" });
  expect(mismatch.status).toBe(400);
  await mismatch.body?.cancel();
  const weak = await postForm(server.url, path, { username: "Wren", password: "too-short", confirm: "too-short" });
  expect(weak.status).toBe(400);
  await weak.body?.cancel();
  const joined = await postForm(server.url, path, { username: "Wren", password: "a-long-wren-passphrase", confirm: "a-long-wren-passphrase" });
  expect(joined.status).toBe(302);
  expect(joined.headers.get("location")).toBe("/admin");
  const session = joined.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
  const dashboard = await fetch(`${server.url}/admin`, { headers: { cookie: session } });
  expect(dashboard.status).toBe(200);
  expect(text(await dashboard.text())).toContain("Welcome, Wren Host");

  const again = await postForm(server.url, path, { username: "Wren2", password: "a-long-wren-passphrase", confirm: "a-long-wren-passphrase" });
  expect(again.status).toBe(404);
  expect(text(await again.text())).toContain("This invitation is not valid");
  expect((await fetch(`${server.url}${path}`)).status).toBe(404);
  // The request log names the page, not the token.
  expect(server.output()).toContain("/admin/join/[token]");
  expect(server.output()).not.toContain(path);
});
