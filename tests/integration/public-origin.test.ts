/**
 * Forms posted with a browser's real Origin header, to the server as it is deployed: reached
 * directly over http on a developer's machine, and behind a TLS-terminating proxy (the headers
 * nginx or Caddy pass on). Posts from any other origin are refused and change nothing.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeDiscord } from "../fakes/discord";
import { cookieHeader, rawRequest, type RawResponse } from "../setup/raw-http";
import { createAccountWithCommand } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess } from "../setup/server-process";

const CROSS_SITE = "This form must be sent from the site itself.";
const unique = () => Math.random().toString(36).slice(2, 10);
const folders: string[] = [];
afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

/** A site as some visitor reaches it: through which address, with which headers. */
function siteClient(server: ServerProcess, proxyHeaders: Record<string, string>) {
  const send = (path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
    rawRequest(`${server.url}${path}`, { ...options, headers: { ...proxyHeaders, ...options.headers } });
  return {
    get: (path: string, cookie = "") => send(path, { headers: cookie ? { Cookie: cookie } : {} }),
    post: (path: string, values: Record<string, string>, origin: string, cookie = "") =>
      send(path, {
        method: "POST",
        body: new URLSearchParams(values).toString(),
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin, ...(cookie ? { Cookie: cookie } : {}) },
      }),
  };
}
type SiteClient = ReturnType<typeof siteClient>;

async function fieldsOf(site: SiteClient, path: string) {
  return [...(await site.get(path)).body.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
}

async function openEventId(site: SiteClient) {
  const html = (await site.get("/events")).body;
  const match = /href="\/events\/([0-9a-f-]{36})"[^>]*>(?:(?!<\/a>).)*?The Gathering at the Threshold/s.exec(html);
  return match![1]!;
}

async function applyToGroup(site: SiteClient, origin: string, name: string) {
  const fields = await fieldsOf(site, "/apply");
  const answers = [name, `${name}-discord`, "A friend", "Hello"];
  return site.post("/apply", Object.fromEntries(fields.map((field, i) => [field, answers[i] ?? ""])), origin);
}

async function applyToEvent(site: SiteClient, origin: string, name: string) {
  const eventId = await openEventId(site);
  const fields = await fieldsOf(site, `/events/${eventId}/apply`);
  const answers = [name, `${name}-discord`, "To listen", "Listener"];
  return site.post(`/events/${eventId}/apply`, Object.fromEntries(fields.map((field, i) => [field, answers[i]!])), origin);
}

async function start(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), "dwell-origin-"));
  folders.push(dataDir);
  const server = await startServerProcess({ DATA_DIR: dataDir, ...env });
  createAccountWithCommand(dataDir, "keeper@dwell.example", "moonlight-keeper", "admin");
  return server;
}

function expectRefused(response: RawResponse) {
  expect(response.status).toBe(403);
  expect(response.body).toContain(CROSS_SITE);
}

describe("reached directly over http, without PUBLIC_URL", () => {
  let server: ServerProcess;
  let site: SiteClient;
  beforeAll(async () => {
    server = await start({});
    site = siteClient(server, {});
  });
  afterAll(() => server?.stop());

  it("takes its own pages' posts under the address it was reached by", async () => {
    const response = await applyToGroup(site, server.url, `Moth ${unique()}`);
    expect(response.status).toBe(200);
    expect(response.body).toContain("The Ritual Is Complete");
  });

  it("refuses another site's post, and stores nothing", async () => {
    const name = `Lark ${unique()}`;
    expectRefused(await applyToGroup(site, "https://evil.example", name));
    // Not a duplicate: the refused one was never stored.
    expect((await applyToGroup(site, server.url, name)).status).toBe(200);
  });

  it("signs in with a plain cookie and a redirect within the site", async () => {
    const signedIn = await site.post("/admin/sign-in", { email: "keeper@dwell.example", password: "moonlight-keeper", next: "/admin" }, server.url);
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.location).toBe("/admin");
    expect(cookieHeader(signedIn)).toMatch(/^dwell\.session_token=/);
    expect(String(signedIn.headers["set-cookie"])).not.toContain("Secure");
  });
});

describe("a forged Host, on a site without PUBLIC_URL", () => {
  let server: ServerProcess;
  let discord: Awaited<ReturnType<typeof startFakeDiscord>>;
  let forged: SiteClient;
  beforeAll(async () => {
    discord = await startFakeDiscord();
    server = await start({ DISCORD_WEBHOOK_URL: `${discord.url}/api/webhooks/7/token` });
    // What anyone may send: another Host, and an Origin that agrees with it.
    forged = siteClient(server, { Host: "evil.example" });
  });
  afterAll(async () => {
    await server?.stop();
    await discord?.close();
  });

  it("never sets a link Dwell sends or writes: the feeds, the previews and the staff's channel point at the site itself", async () => {
    const own = server.publicUrl;
    const feed = await forged.get("/events.ics");
    expect(feed.status).toBe(200);
    expect(feed.body).toContain(`${own}/events/`);
    expect(feed.body).not.toContain("evil.example");
    const home = await forged.get("/");
    expect(home.body).toContain(`content="${own}/"`);
    expect(home.body).not.toContain("evil.example");
    const events = await forged.get("/events");
    expect(events.body).not.toContain("evil.example");

    const applied = await applyToEvent(forged, "http://evil.example", `Crow ${unique()}`);
    expect(applied.status).toBe(200);
    await expect.poll(() => discord.requests.length, { timeout: 20_000 }).toBeGreaterThan(0);
    const posted = JSON.stringify(discord.requests.map((request) => request.body));
    expect(posted).toContain(`${own}/events/`);
    expect(posted).not.toContain("evil.example");
  });
});

describe("behind a TLS-terminating proxy, with PUBLIC_URL https and TRUST_PROXY", () => {
  const SITE = "https://dwell.example";
  let server: ServerProcess;
  let site: SiteClient;
  beforeAll(async () => {
    server = await start({ PUBLIC_URL: SITE, TRUST_PROXY: "true" });
    // What nginx and Caddy pass on: the visitor's host, scheme and address.
    site = siteClient(server, { Host: "dwell.example", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "dwell.example", "X-Forwarded-For": "198.51.100.7" });
  });
  afterAll(() => server?.stop());

  async function signIn() {
    const response = await site.post("/admin/sign-in", { email: "keeper@dwell.example", password: "moonlight-keeper", next: "/admin/applications" }, SITE);
    expect(response.status).toBe(302);
    return response;
  }

  async function groupApplicationId(cookie: string, name: string) {
    const html = (await site.get(`/admin/applications?q=${encodeURIComponent(name)}`, cookie)).body;
    return /name="id" value="([0-9a-f-]{36})"/.exec(html)?.[1];
  }

  async function exported(cookie: string) {
    return (await site.get("/admin/applications/export", cookie)).body;
  }

  it("takes an application to the group and to an event", async () => {
    const group = await applyToGroup(site, SITE, `Wren ${unique()}`);
    expect(group.status).toBe(200);
    expect(group.body).toContain("The Ritual Is Complete");
    const event = await applyToEvent(site, SITE, `Finch ${unique()}`);
    expect(event.status).toBe(200);
    expect(event.body).toContain("Application Submitted");
  });

  it("signs an admin in with a Secure cookie, lets them approve, and signs them out", async () => {
    const name = `Heron ${unique()}`;
    expect((await applyToGroup(site, SITE, name)).status).toBe(200);

    const signedIn = await signIn();
    expect(signedIn.headers.location).toBe("/admin/applications");
    const setCookie = String(signedIn.headers["set-cookie"]);
    expect(setCookie).toMatch(/^__Secure-dwell\.session_token=/);
    expect(setCookie).toContain("Secure");
    const cookie = cookieHeader(signedIn);

    const id = await groupApplicationId(cookie, name);
    expect(id).toBeDefined();
    const approved = await site.post("/admin/applications", { intent: "status", id: id!, status: "approved" }, SITE, cookie);
    expect(approved.status).toBe(200);
    expect(await exported(cookie)).toContain(`"${name}","${name}-discord","approved"`);

    const signedOut = await site.post("/admin/sign-out", {}, SITE, cookie);
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.location).toBe("/admin");
    expect((await site.get("/admin", cookie)).status).toBe(401);
  });

  it.each(["https://evil.example", "http://dwell.example", "https://dwell.example.evil.example", "null"])(
    "refuses a post from %s and changes nothing",
    async (origin) => {
      const name = `Crane ${unique()}`;
      expectRefused(await applyToGroup(site, origin, name));
      expect((await applyToGroup(site, SITE, name)).status).toBe(200);

      const cookie = cookieHeader(await signIn());
      const id = await groupApplicationId(cookie, name);
      expectRefused(await site.post("/admin/applications", { intent: "status", id: id!, status: "approved" }, origin, cookie));
      expectRefused(await site.post("/admin/sign-in", { email: "keeper@dwell.example", password: "moonlight-keeper" }, origin));
      expect(await exported(cookie)).toContain(`"${name}","${name}-discord","pending"`);
    },
  );
});

describe("the site's own cookies behind https, and the owner's own device", () => {
  const SITE = "https://dwell.example";
  let server: ServerProcess;
  const from = (address: string) => siteClient(server, { Host: "dwell.example", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "dwell.example", "X-Forwarded-For": address });
  const setCookies = (response: RawResponse) => ([] as string[]).concat(response.headers["set-cookie"] ?? []);
  const named = (response: RawResponse, name: string) => setCookies(response).find((line) => line.startsWith(`${name}=`)) ?? "";
  beforeAll(async () => {
    // Discord's sign-in is set up (its start makes no call to Discord: it only sends the browser there).
    server = await start({ PUBLIC_URL: SITE, TRUST_PROXY: "true", DISCORD_CLIENT_ID: "444444444444444444", DISCORD_CLIENT_SECRET: "a-client-secret" });
  });
  afterAll(() => server?.stop());

  it("are __Host- cookies: Secure, for the whole site, for this host alone", async () => {
    const site = from("203.0.113.5");
    const signedIn = await site.post("/admin/sign-in", { email: "keeper@dwell.example", password: "moonlight-keeper" }, SITE);
    expect(signedIn.status).toBe(302);
    const device = named(signedIn, "__Host-dwell-device");
    expect(device).toMatch(/^__Host-dwell-device=\d+\.[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=7776000; Secure$/);
    const cookie = cookieHeader(signedIn);
    const started = await site.post("/admin/discord-link", { intent: "start" }, SITE, cookie);
    expect(started.status).toBe(302);
    expect(named(started, "__Host-dwell-discord-state")).toMatch(/^__Host-dwell-discord-state=[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=600; Secure$/);
    expect(setCookies(started).some((line) => /Domain=/i.test(line))).toBe(false);
    // An applicant's 'Sign in with Discord' on their status page, likewise.
    const applied = await applyToGroup(site, SITE, `Plover ${unique()}`);
    const token = /href="\/applications\/status\/([A-Za-z0-9_-]{43})"/.exec(applied.body)![1]!;
    const applicant = await site.post(`/applications/status/${token}`, { intent: "discord-start" }, SITE);
    expect(applicant.status).toBe(302);
    expect(String(applicant.headers.location)).toContain("redirect_uri=https%3A%2F%2Fdwell.example%2Fapplications%2Fdiscord-link");
    expect(named(applicant, "__Host-dwell-applicant-discord")).toMatch(/; Path=\/; HttpOnly; SameSite=Lax; Max-Age=600; Secure$/);
  });

  it("lets the owner in from their own device while strangers' failures hold the account everywhere else", async () => {
    const owner = from("203.0.113.9");
    const signedIn = await owner.post("/admin/sign-in", { email: "keeper@dwell.example", password: "moonlight-keeper" }, SITE);
    expect(signedIn.status).toBe(302);
    const device = named(signedIn, "__Host-dwell-device").split(";")[0]!;
    // Strangers guess from six networks, four times each: under every network's own limit, past the account's.
    for (let network = 0; network < 6; network++) {
      for (let i = 0; i < 4; i++) {
        const guess = await from(`198.51.${100 + network}.7`).post("/admin/sign-in", { email: "keeper@dwell.example", password: `guess-${network}-${i}` }, SITE);
        // Refused as wrong, or (past the account's free failures) told to wait.
        expect([401, 429]).toContain(guess.status);
      }
    }
    // A new address with no cookie waits; the owner's own device does not, from wherever it is now.
    const elsewhere = await from("192.0.2.44").post("/admin/sign-in", { email: "keeper@dwell.example", password: "moonlight-keeper" }, SITE);
    expect(elsewhere.status).toBe(429);
    const travelling = from("192.0.2.45");
    const own = await travelling.post("/admin/sign-in", { email: "keeper@dwell.example", password: "moonlight-keeper" }, SITE, device);
    expect(own.status).toBe(302);
    // A cookie of another site's making (or a forged one) is no device of the owner's.
    const forged = await from("192.0.2.46").post("/admin/sign-in", { email: "keeper@dwell.example", password: "moonlight-keeper" }, SITE, `__Host-dwell-device=${Date.now()}.forged`);
    expect(forged.status).toBe(429);
  });
});
