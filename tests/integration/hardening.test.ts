/**
 * What a stranger probing a running production server can and cannot get: files readable by other
 * accounts on the machine, Sanctum answers a cache could keep, upstream error texts, oversized
 * inputs, secrets in the log.
 */
import { mkdtempSync } from "node:fs";
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
    expect(output).not.toMatch(/reset-password\?token=/);
    const sessionToken = decodeURIComponent(cookie.split("=")[1]!.split(".")[0]!);
    expect(sessionToken.length).toBeGreaterThan(16);
    expect(output).not.toContain(sessionToken);
    expect(output).not.toContain("a-long-warden-passphrase");
  });
});

describe("after a stop", () => {
  it("leaves the data folder owner-only", async () => {
    await server.stop();
    expect(await notOwnerOnly(dataDir)).toEqual([]);
  });
});
