/**
 * What a stranger probing a running production server can and cannot get: files readable by other
 * accounts on the machine, Sanctum answers a cache could keep, upstream error texts, oversized
 * inputs, secrets in the log.
 */
import { mkdtempSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { lstat, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { createAccountWithCommand, postForm, signIn } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess } from "../setup/server-process";

/** VRChat's own words, as its error body carries them: they must stay on the server's side. */
const UPSTREAM_DETAIL = "Internal detail of bot-account-7 on shard 42";

let vrchat: FakeVRChat;
let server: ServerProcess;
let dataDir: string;
let cookie: string;

/** Every entry under `path` that is not owner-only: "mode path" lines. */
async function notOwnerOnly(path: string): Promise<string[]> {
  const info = await lstat(path);
  const mode = info.mode & 0o777;
  if (info.isDirectory()) {
    const own = mode === 0o700 ? [] : [`${mode.toString(8)} ${path}`];
    const inner = await Promise.all((await readdir(path)).map((entry) => notOwnerOnly(join(path, entry))));
    return [...own, ...inner.flat()];
  }
  return mode === 0o600 || info.isSymbolicLink() ? [] : [`${mode.toString(8)} ${path}`];
}

beforeAll(async () => {
  vrchat = await startFakeVRChat();
  for (const endpoint of ["group", "userGroupInstances", "groupInstances", "instance", "posts", "calendar", "members"] as const) {
    vrchat.setEndpoint(endpoint, { status: 500, message: UPSTREAM_DETAIL });
  }
  dataDir = mkdtempSync(join(tmpdir(), "dwell-hardening-"));
  server = await startServerProcess({ DATA_DIR: dataDir, ...fakeVRChatEnv(vrchat) });
  createAccountWithCommand(dataDir, "warden@dwell.example", "a-long-warden-passphrase", "admin");
  cookie = await signIn(server.url, "warden@dwell.example", "a-long-warden-passphrase");
});

afterAll(async () => {
  await server?.stop();
  await vrchat?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("the data folder", () => {
  it("is the server account's alone while the server runs: folders 0700, files 0600", async () => {
    expect(await notOwnerOnly(dataDir)).toEqual([]);
  });
});

describe("Sanctum answers", () => {
  const paths = ["/admin", "/admin.data", "/admin/events", "/admin/events.data", "/admin/applications", "/admin/sign-in"];

  it("are never stored by a cache, and vary by cookie, signed in or not", async () => {
    for (const headers of [{}, { Cookie: cookie }] as Record<string, string>[]) {
      for (const path of paths) {
        const response = await fetch(`${server.url}${path}`, { headers });
        await response.body?.cancel();
        expect(response.headers.get("cache-control"), path).toBe("no-store");
        expect(response.headers.get("vary") ?? "", path).toMatch(/\bCookie\b/i);
      }
    }
    const posted = await postForm(server.url, "/admin/sign-in", { email: "warden@dwell.example", password: "wrong-passphrase-1" });
    await posted.body?.cancel();
    expect(posted.headers.get("cache-control")).toBe("no-store");
  });

  it("keeps the public pages cacheable as before", async () => {
    const response = await fetch(`${server.url}/events`);
    await response.body?.cancel();
    expect(response.headers.get("cache-control") ?? "").not.toContain("no-store");
  });
});

describe("upstream and internal errors", () => {
  it("reach visitors only as a fixed message; the admins read the detail", async () => {
    const groupData = await fetch(`${server.url}/api/group-data`);
    expect(groupData.status).toBe(503);
    expect(await groupData.json()).toEqual({ message: "Failed to load VRChat data" });
    const home = await (await fetch(`${server.url}/`)).text();
    expect(home).not.toContain("shard 42");

    const sync = await fetch(`${server.url}/api/sync-events`, { method: "POST" });
    const body = (await sync.json()) as { errors: string[] };
    expect(JSON.stringify(body)).not.toContain("shard 42");
    expect(JSON.stringify(body)).not.toMatch(/500/);

    const dashboard = await (await fetch(`${server.url}/admin`, { headers: { Cookie: cookie } })).text();
    expect(dashboard).toContain("shard 42");
  });

  it("are not in the public health answer, which says one word", async () => {
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "degraded" });
  });
});

describe("sign-in and forgotten-passphrase forms", () => {
  const huge = `${"a".repeat(300)}@dwell.example`;

  it("answer an oversized or malformed email with 400 and the form's message", async () => {
    for (const email of [huge, "not an address", "a@", "x".repeat(10_000)]) {
      const signInAnswer = await postForm(server.url, "/admin/sign-in", { email, password: "whatever-it-is" });
      expect(signInAnswer.status, email.slice(0, 20)).toBe(400);
      expect(await signInAnswer.text()).toContain("Invalid email or password");
      const forgot = await postForm(server.url, "/admin/forgot-password", { email });
      expect(forgot.status, email.slice(0, 20)).toBe(400);
      expect(await forgot.text()).toContain("Please enter a valid email address.");
    }
    const longPassword = await postForm(server.url, "/admin/sign-in", { email: "warden@dwell.example", password: "p".repeat(5_000) });
    expect(longPassword.status).toBe(400);
  });
});

describe("the log", () => {
  it("holds no reset link, cookie or session token at the usual level", async () => {
    const asked = await postForm(server.url, "/admin/forgot-password", { email: "warden@dwell.example" });
    expect(asked.status).toBe(200);
    await expect.poll(() => server.output(), { timeout: 5_000 }).toContain("email not sent (no SMTP_URL)");
    const output = server.output();
    expect(output).toContain("/admin/reset-password?… (hidden)");
    // The answer does not tell a stranger where reset links go.
    expect(await asked.text()).not.toMatch(/server log|mail server/);
    expect(output).not.toMatch(/reset-password\?token=/);
    const sessionToken = decodeURIComponent(cookie.split("=")[1]!.split(".")[0]!);
    expect(sessionToken.length).toBeGreaterThan(16);
    expect(output).not.toContain(sessionToken);
    expect(output).not.toContain("a-long-warden-passphrase");
  });
});

/** A GET with a Host header of the sender's choosing (fetch keeps the URL's own). */
function getWithHost(path: string, host: string): Promise<string> {
  const target = new URL(path, server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, headers: { Host: host } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve(body));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("what an attacker sends", () => {
  it("a forged Host header (no PUBLIC_URL): no link on any page follows it", async () => {
    const forged = await getWithHost("/events", "evil.example");
    expect(forged).not.toContain("evil.example");
    expect(forged).toContain(`${server.publicUrl}/events`);
    // Within the page cache's second: an honest visitor reads the site's own address too.
    const honest = await fetch(`${server.url}/events`).then((r) => r.text());
    expect(honest).not.toContain("evil.example");
    expect(honest).toContain(`${server.publicUrl}/events`);
    // The calendar's UIDs do not follow the Host header either.
    const feed = await getWithHost("/events.ics", "evil.example");
    const uids = feed.split("\r\n").filter((line) => line.startsWith("UID:"));
    expect(uids.length).toBeGreaterThan(0);
    for (const uid of uids) expect(uid).toMatch(/^UID:[0-9a-f-]{36}@dwell$/);
  });

  it("an event title with line breaks: saved on one line, and no property injected into its .ics", async () => {
    const created = await postForm(
      server.url,
      "/admin/events",
      {
        intent: "create",
        title: "Night Walk\r\nX-WR-CALNAME:Injected\r\nBEGIN:VALARM",
        eventDate: "2031-03-14",
        eventTime: "20:00",
        timezone: "UTC",
        worldName: "The\nHollow",
      },
      { cookie },
    );
    expect(created.status).toBe(302);
    const list = await fetch(`${server.url}/events`).then((r) => r.text());
    const id = new RegExp('href="/events/([0-9a-f-]{36})"[^>]*>(?:(?!</a>).)*?Night Walk', "s").exec(list)![1]!;
    const ics = await fetch(`${server.url}/events/${id}/calendar.ics`).then((r) => r.text());
    const lines = ics.split("\r\n");
    expect(lines.filter((line) => line.startsWith("X-WR-CALNAME"))).toEqual(["X-WR-CALNAME:Night Walk X-WR-CALNAME:Injected BEGIN:VALARM"]);
    expect(lines.filter((line) => line.startsWith("BEGIN:VALARM"))).toEqual([]);
    expect(lines).toContain("LOCATION:VRChat: The Hollow");
  });
});

describe("after a stop", () => {
  it("leaves the data folder owner-only", async () => {
    await server.stop();
    expect(await notOwnerOnly(dataDir)).toEqual([]);
  });
});
