/**
 * What an operator relies on, from a real server process behind an https address: the security
 * headers and the page's script nonces, one log line per request that leaks nothing, the health
 * report, and a SIGTERM that lets requests and deliveries in flight finish.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeTelegram } from "../fakes/telegram";
import { FAKE_PASSWORD, FAKE_TOTP_SECRET, fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { askRunningServer } from "../../scripts/ask-server";
import { startServerProcess, type ServerProcess } from "../setup/server-process";

/** The migrations this version ships (drizzle-kit's journal): a new database has applied them all. */
const MIGRATIONS = (JSON.parse(readFileSync(new URL("../../drizzle/meta/_journal.json", import.meta.url), "utf8")) as { entries: unknown[] }).entries.length;

const TELEGRAM_TOKEN = "4242:telegram-secret-token";
const VIDEO = "https://www.youtube-nocookie.com/embed/dwellers";

let vrchat: FakeVRChat;
let telegram: Awaited<ReturnType<typeof startFakeTelegram>>;
let server: ServerProcess;
let dataDir: string;
let groupFields: string[];

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(";").map((part) => {
      const [name, ...values] = part.trim().split(/\s+/);
      return [name!, values];
    }),
  );
}

/** The request log lines the server wrote. */
function requestLines(): Record<string, unknown>[] {
  return server
    .output()
    .split("\n")
    .filter((line) => line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

beforeAll(async () => {
  [vrchat, telegram] = await Promise.all([startFakeVRChat(), startFakeTelegram({ token: TELEGRAM_TOKEN })]);
  dataDir = mkdtempSync(join(tmpdir(), "dwell-operations-"));
  server = await startServerProcess({
    DATA_DIR: dataDir,
    PUBLIC_URL: "https://dwell.example",
    HERO_VIDEO_URL: VIDEO,
    RATE_LIMIT_APPLICATIONS: "1000",
    // Signed-out pages are shared between visitors: each must still get its own nonce.
    PAGE_CACHE_SECONDS: "30",
    TELEGRAM_BOT_TOKEN: TELEGRAM_TOKEN,
    TELEGRAM_CHAT_ID: "-1001",
    TELEGRAM_API_URL: telegram.url,
    ...fakeVRChatEnv(vrchat),
  });
  const apply = await (await fetch(`${server.url}/apply`)).text();
  groupFields = [...apply.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
});
afterAll(async () => {
  await server?.stop("SIGKILL");
  await Promise.all([vrchat?.close(), telegram?.close()]);
  await rm(dataDir, { recursive: true, force: true });
});

describe("security headers", () => {
  it("lets a page run only scripts carrying this response's nonce", async () => {
    const [first, second] = await Promise.all([fetch(`${server.url}/`), fetch(`${server.url}/`)]);
    const policy = directives(first.headers.get("content-security-policy") ?? "");
    const nonceSource = policy.get("script-src")?.find((source) => source.startsWith("'nonce-"));
    expect(policy.get("script-src")).toEqual(["'self'", nonceSource]);
    const nonce = nonceSource!.slice("'nonce-".length, -1);
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);

    const scriptTags = (html: string) => [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    const scripts = scriptTags(await first.text());
    expect(scripts.length).toBeGreaterThan(2);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    // A fresh nonce per response, also when both share one rendering: one seen in a page is no key to another.
    const secondNonce = /'nonce-([^']+)'/.exec(second.headers.get("content-security-policy") ?? "")?.[1];
    expect(secondNonce).toBeDefined();
    expect(secondNonce).not.toBe(nonce);
    for (const tag of scriptTags(await second.text())) expect(tag).toContain(`nonce="${secondNonce}"`);
  });

  it("allows the site, VRChat's images and the hero video, and no framing", async () => {
    const response = await fetch(`${server.url}/events`);
    await response.body?.cancel();
    const policy = directives(response.headers.get("content-security-policy") ?? "");
    expect(policy.get("default-src")).toEqual(["'self'"]);
    expect(policy.get("img-src")).toEqual(expect.arrayContaining(["'self'", "https://api.vrchat.cloud", new URL(vrchat.url).origin]));
    expect(policy.get("frame-src")).toEqual(["https://www.youtube-nocookie.com"]);
    expect(policy.get("connect-src")).toEqual(["'self'"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    expect(policy.has("upgrade-insecure-requests")).toBe(true);
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    // PUBLIC_URL is https: browsers must never come back over plain http.
    expect(response.headers.get("strict-transport-security")).toMatch(/^max-age=\d{7,}/);
  });

  it("compresses pages for browsers that accept it", async () => {
    const response = await fetch(`${server.url}/events`, { headers: { "Accept-Encoding": "gzip" } });
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(await response.text()).toContain("</html>");
  });
});

describe("request logs", () => {
  it("writes one line per request with its id, and no query string, cookie or header", async () => {
    const response = await fetch(`${server.url}/admin/reset-password?token=reset-token-in-query`, {
      headers: { Cookie: "dwell.session_token=cookie-value-secret", "X-Request-Id": "spoofed-id" },
    });
    await response.body?.cancel();
    const id = response.headers.get("x-request-id");
    // Without TRUST_PROXY a client's own request id is not taken.
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await expect.poll(() => requestLines().filter((line) => line.requestId === id)).toEqual([
      expect.objectContaining({ level: "info", method: "GET", path: "/admin/reset-password", status: 200, ms: expect.any(Number) }),
    ]);
    const output = server.output();
    expect(output).not.toContain("reset-token-in-query");
    expect(output).not.toContain("cookie-value-secret");
    expect(output).not.toContain("spoofed-id");
  });
});

describe("/api/health", () => {
  it("tells the public only ok or degraded, and the operator each integration over the data folder's socket, with no secret", async () => {
    // Pages start the VRChat refresh without waiting for it; the group data endpoint waits for it.
    expect((await fetch(`${server.url}/api/group-data`)).status).toBe(200);
    const response = await fetch(`${server.url}/api/health`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ status: "ok" });

    const reply = await askRunningServer(join(dataDir, ".dwell.sock"), { command: "health" });
    expect(reply?.ok).toBe(true);
    const text = JSON.stringify(reply);
    expect(reply).toMatchObject({
      result: {
        status: "ok",
        database: "ok",
        migrations: { state: "current", applied: MIGRATIONS, known: MIGRATIONS },
        integrations: {
          vrchat: { source: "vrchat", lastSuccessAt: expect.stringMatching(/^\d{4}-/), lastFailureAt: null },
          notifications: { telegram: { lastSuccessAt: null, lastFailureAt: null, pending: 0, failed: 0 } },
          mail: { transport: "log" },
        },
      },
    });
    for (const secret of [TELEGRAM_TOKEN, FAKE_PASSWORD, FAKE_TOTP_SECRET, vrchat.url, telegram.url]) {
      expect(text).not.toContain(secret);
    }
  });
});

describe("SIGTERM", () => {
  it("finishes the request and the delivery in flight, refuses new connections, then exits", async () => {
    // A delivery held open by a slow Telegram, and a submission whose body is still arriving.
    telegram.setDelay(1_500);
    const delivered = await fetch(`${server.url}/apply`, {
      method: "POST",
      body: new URLSearchParams(groupFields.map((field, i) => [field, ["Lantern", "Lantern", "A friend", "Hi"][i] ?? ""])),
    });
    expect(delivered.status).toBe(200);
    // Held open at Telegram (on a loaded machine it may already be a second try).
    await expect.poll(() => telegram.attempts, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);

    const body = new URLSearchParams(groupFields.map((field, i) => [field, ["Wick", "Wick", "A friend", "Hi"][i] ?? ""])).toString();
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = httpRequest(`${server.url}/apply`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": Buffer.byteLength(body) },
      });
      request.on("response", (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
      });
      request.on("error", reject);
      request.write(body.slice(0, 20));
      setTimeout(() => request.end(body.slice(20)), 800);
    });
    await new Promise((resolve) => setTimeout(resolve, 200));

    const exited = server.stop("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(fetch(`${server.url}/api/health`)).rejects.toThrow();

    const result = await answer;
    expect(result.status).toBe(200);
    expect(result.text).toContain("The Ritual Is Complete");
    expect(await exited).toBe(0);
    expect(telegram.requests.map((delivery) => delivery.shownText).join("\n")).toContain("Lantern");
    expect(server.output()).toContain('"msg":"stopped"');
  });
});
