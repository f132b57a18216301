/**
 * Every Sanctum route, asked by a visitor, by a signed-in member, and by an admin: only the admin
 * gets through. The list is checked against app/routes.ts, so a new admin route cannot be left out.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routes from "../../app/routes";
import { createAccountWithCommand, postForm, runUserCommand, signIn } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess } from "../setup/server-process";

/** Admin pages, with a concrete URL for each route path. */
const ADMIN_PAGES: Record<string, string> = {
  "admin": "/admin",
  "admin/security": "/admin/security",
  "admin/events": "/admin/events",
  "admin/questions": "/admin/questions",
  "admin/applications": "/admin/applications",
  "admin/applications/export": "/admin/applications/export",
  "admin/events/:eventId/applications": "",
  "admin/events/:eventId/applications/export": "",
  "admin/messages": "/admin/messages",
  // Filled in once the demo event's id is known (see beforeAll).
  "admin/events/:eventId/questions": "",
  "admin/events/:eventId/messages": "",
};
/** Data for the Sanctum's pages, not pages: answered with the guard's status alone. */
const ADMIN_RESOURCES: Record<string, string> = {
  // Filled in once an application exists (see beforeAll).
  "admin/applications/:applicationId/vrchat": "",
  "admin/applications/:applicationId/discord": "",
  "admin/events/:eventId/applications/:applicationId/discord": "",
};
/** Reachable without signing in, by design: signing in and renewing a passphrase. */
const PUBLIC_ADMIN_ROUTES = ["admin/sign-in", "admin/two-factor", "admin/sign-out", "admin/forgot-password", "admin/reset-password"];

function routePaths(entries: RouteConfigEntry[], parent = ""): string[] {
  return entries.flatMap((entry) => {
    const path = [parent, entry.path].filter(Boolean).join("/");
    return [...(entry.path ? [path] : []), ...routePaths(entry.children ?? [], path)];
  });
}

let server: ServerProcess;
let dataDir: string;
const cookies: Record<"visitor" | "member" | "admin", string> = { visitor: "", member: "", admin: "" };

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "dwell-authz-"));
  server = await startServerProcess({ DATA_DIR: dataDir });
  createAccountWithCommand(dataDir, "keeper@dwell.example", "moonlight-over-the-hall", "admin");
  createAccountWithCommand(dataDir, "wanderer@dwell.example", "starlight-over-the-hall", "member");
  cookies.admin = await signIn(server.url, "keeper@dwell.example", "moonlight-over-the-hall");
  cookies.member = await signIn(server.url, "wanderer@dwell.example", "starlight-over-the-hall");
  const eventId = await firstEventId();
  ADMIN_PAGES["admin/events/:eventId/questions"] = `/admin/events/${eventId}/questions`;
  ADMIN_PAGES["admin/events/:eventId/applications"] = `/admin/events/${eventId}/applications`;
  ADMIN_PAGES["admin/events/:eventId/applications/export"] = `/admin/events/${eventId}/applications/export`;
  ADMIN_PAGES["admin/events/:eventId/messages"] = `/admin/events/${eventId}/messages`;
  const apply = await fetch(`${server.url}/apply`).then((response) => response.text());
  const fields = [...apply.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
  const applied = await postForm(server.url, "/apply", Object.fromEntries(fields.map((field, i) => [field, ["Authz Moth", "authz-moth", "A friend", "Hi", ""][i]!])));
  expect(applied.status).toBe(200);
  await applied.body?.cancel();
  const review = await fetch(`${server.url}/admin/applications`, { headers: { cookie: cookies.admin } }).then((response) => response.text());
  const applicationId = /name="id" value="([0-9a-f-]{36})"/.exec(review)![1]!;
  ADMIN_RESOURCES["admin/applications/:applicationId/vrchat"] = `/admin/applications/${applicationId}/vrchat`;
  ADMIN_RESOURCES["admin/applications/:applicationId/discord"] = `/admin/applications/${applicationId}/discord`;
  // Another event's application, or none at all: the lookup finds nothing either way.
  ADMIN_RESOURCES["admin/events/:eventId/applications/:applicationId/discord"] = `/admin/events/${eventId}/applications/${applicationId}/discord`;
});
afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe("the Sanctum's routes", () => {
  it("are all in this matrix", () => {
    const admin = routePaths(routes).filter((path) => path === "admin" || path.startsWith("admin/"));
    const covered = [...Object.keys(ADMIN_PAGES), ...Object.keys(ADMIN_RESOURCES), ...PUBLIC_ADMIN_ROUTES];
    expect(admin.filter((path) => !covered.includes(path))).toEqual([]);
  });

  for (const route of Object.keys(ADMIN_PAGES)) {
    it.each([
      ["visitor", 401, "Enter the Sanctum"],
      ["member", 403, "Access Denied - You don&#x27;t have admin privileges."],
      ["admin", 200, "Welcome, "],
    ] as const)(`${route}: a %s gets %i`, async (who, status, text) => {
      const response = await fetch(`${server.url}${ADMIN_PAGES[route]}`, { headers: { cookie: cookies[who] } });
      expect(response.status).toBe(status);
      const body = await response.text();
      if (!route.endsWith("/export")) expect(body).toContain(text);
      else if (who === "admin") expect(body).toMatch(/^"VRChat Username","Discord ID","Status"/);
      else expect(body).not.toContain("VRChat Username");
    });

    it(`${route}: its data request reveals nothing to a visitor or a member`, async () => {
      for (const who of ["visitor", "member"] as const) {
        const response = await fetch(`${server.url}${ADMIN_PAGES[route]}.data`, { headers: { cookie: cookies[who] } });
        const body = await response.text();
        // Only the guard's verdict (and the member's own name) comes back: no admin's data.
        expect(body).toMatch(/"ErrorResponse"/);
        expect(body).not.toContain("keeper");
        expect(body).not.toMatch(/totalEvents|figures|checks/);
      }
    });
  }
});

describe("the Sanctum's data", () => {
  for (const route of Object.keys(ADMIN_RESOURCES)) {
    // The event route is given a group application's id: not one of that event's, so not found.
    const adminStatus = route.startsWith("admin/events/") ? 404 : 200;
    it.each([
      ["visitor", 401],
      ["member", 403],
      ["admin", adminStatus],
    ] as const)(`${route}: a %s gets %i`, async (who, status) => {
      const response = await fetch(`${server.url}${ADMIN_RESOURCES[route]}`, { headers: { cookie: cookies[who] } });
      expect(response.status).toBe(status);
      const body = await response.text();
      if (who === "admin") expect(JSON.parse(body)).toMatchObject({ candidates: [], error: expect.stringMatching(/is not configured on this site|Application not found/) });
      else expect(body).not.toMatch(/candidates|Authz Moth/);
    });
  }
});

/** Admin actions, with a harmful form each: none may happen for anyone but an admin. */
const ADMIN_ACTIONS: { path: string; form: () => Promise<Record<string, string>>; shows: string }[] = [
  { path: "/admin/questions", form: async () => ({ intent: "add", question: "Injected?", questionType: "text" }), shows: "/apply" },
  { path: "/admin/events", form: async () => ({ intent: "delete", id: (await firstEventId())! }), shows: "/events" },
];

async function firstEventId() {
  const html = await (await fetch(`${server.url}/events`)).text();
  return /href="\/events\/([0-9a-f-]{36})"/.exec(html)?.[1];
}

/** A page as it reads: each response carries its own Content-Security-Policy nonce. */
async function pageText(url: string) {
  // Without what differs between two renderings: script nonces, the time a form was served, and its crowd challenge.
  return (await (await fetch(url)).text())
    .replace(/ nonce="[^"]*"/g, "")
    .replace(/\d{13}\.[\w-]{43}/g, "(form served)")
    .replace(/\b[0-9a-f]{32,64}\b/g, "(challenge)")
    .replace(/expiresAt[^\d]{1,20}\d{10}/g, "expiresAt (challenge)");
}

describe("the Sanctum's actions", () => {
  for (const { path, form, shows } of ADMIN_ACTIONS) {
    it.each([
      ["visitor", 401],
      ["member", 403],
    ] as const)(`${path}: a %s is refused with %i and nothing changes`, async (who, status) => {
      const before = await pageText(`${server.url}${shows}`);
      const response = await postForm(server.url, path, await form(), { cookie: cookies[who] });
      expect(response.status).toBe(status);
      await response.body?.cancel();
      expect(await pageText(`${server.url}${shows}`)).toBe(before);
    });
  }

  it("an admin's delete goes through", async () => {
    const id = await firstEventId();
    const response = await postForm(server.url, "/admin/events", { intent: "delete", id: id! }, { cookie: cookies.admin });
    expect(response.status).toBe(302);
    expect(await (await fetch(`${server.url}/events`)).text()).not.toContain(id!);
  });
});

describe("requests from other sites", () => {
  it("cannot sign in or out on a visitor's behalf", async () => {
    const evil = { Origin: "https://evil.example" };
    const signInResponse = await postForm(server.url, "/admin/sign-in", { email: "keeper@dwell.example", password: "moonlight-over-the-hall" }, evil);
    // React Router itself refuses cross-origin form posts (400); the action would too (403).
    expect([400, 403]).toContain(signInResponse.status);
    expect(signInResponse.headers.getSetCookie()).toEqual([]);

    const signOut = await postForm(server.url, "/admin/sign-out", {}, { ...evil, cookie: cookies.admin });
    await signOut.body?.cancel();
    // The session survives a sign-out sent from another site.
    expect((await fetch(`${server.url}/admin`, { headers: { cookie: cookies.admin } })).status).toBe(200);
  });
});

describe("the account commands, while the server runs", () => {
  it("list accounts, refuse bad input, and remove an account, ending its sessions", async () => {
    const list = runUserCommand(dataDir, ["list"]);
    expect(list.status).toBe(0);
    expect(list.stdout).toMatch(/admin\s+keeper@dwell\.example/);
    expect(list.stdout).toMatch(/member\s+wanderer@dwell\.example/);

    const noPassword = runUserCommand(dataDir, ["create", "--email", "x@dwell.example"]);
    expect(noPassword.status).toBe(1);
    expect(noPassword.stderr).toContain("USER_PASSWORD");
    const badRole = runUserCommand(dataDir, ["create", "--email", "x@dwell.example", "--role", "king"], { USER_PASSWORD: "longenough" });
    expect(badRole.status).toBe(1);
    expect(badRole.stderr).toContain("--role: admin or member");

    const removed = runUserCommand(dataDir, ["remove", "--email", "wanderer@dwell.example"]);
    expect(removed.status).toBe(0);
    expect(removed.stdout).toContain("Removed the account wanderer@dwell.example.");
    // The member's session ended with the account.
    expect((await fetch(`${server.url}/admin`, { headers: { cookie: cookies.member } })).status).toBe(401);
    expect(runUserCommand(dataDir, ["remove", "--email", "wanderer@dwell.example"]).status).toBe(1);
  });
});
