/**
 * Every Sanctum route and action, asked by a visitor, a signed-in account that is not staff, and
 * each staff role (owner, admin, reviewer, host: the host hosts one event and not another), with
 * the answer each must get. The list is checked against app/routes.ts, so a new Sanctum route
 * cannot be left out.
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

const WHO = ["visitor", "member", "owner", "admin", "reviewer", "host"] as const;
type Who = (typeof WHO)[number];

/** Expected statuses: staff not listed get 403 ('Not for your role'); a visitor 401; a member 403. */
type Expect = Partial<Record<"owner" | "admin" | "reviewer" | "host", number>>;
const ALL_STAFF: Expect = { owner: 200, admin: 200, reviewer: 200, host: 200 };
const REVIEWERS: Expect = { owner: 200, admin: 200, reviewer: 200 };
const ADMINS: Expect = { owner: 200, admin: 200 };

/** Each Sanctum route path: the URLs asked for it (filled once the data exists), and who gets what. */
const PAGES: Record<string, { url: () => string; expect: Expect; host?: "own" | "other" }[]> = {
  admin: [{ url: () => "/admin", expect: ALL_STAFF }],
  "admin/security": [{ url: () => "/admin/security", expect: ALL_STAFF }],
  "admin/team": [{ url: () => "/admin/team", expect: { owner: 200 } }],
  "admin/events": [
    { url: () => "/admin/events", expect: ALL_STAFF },
    // The editor: a new event, and another's event.
    { url: () => "/admin/events?new", expect: { ...ADMINS, host: 200 } },
    { url: () => `/admin/events?edit=${ids.other}`, expect: ADMINS },
  ],
  "admin/questions": [{ url: () => "/admin/questions", expect: ADMINS }],
  "admin/applications": [{ url: () => "/admin/applications", expect: REVIEWERS }],
  "admin/applications/export": [{ url: () => "/admin/applications/export", expect: ADMINS }],
  "admin/messages": [{ url: () => "/admin/messages", expect: ADMINS }],
  "admin/announcements": [{ url: () => "/admin/announcements", expect: ADMINS }],
  "admin/announcements/new": [{ url: () => "/admin/announcements/new", expect: ADMINS }],
  "admin/announcements/:id": [{ url: () => `/admin/announcements/${ids.announcement}`, expect: ADMINS }],
  "admin/screening": [{ url: () => "/admin/screening", expect: ADMINS }],
  "admin/join-requests": [{ url: () => "/admin/join-requests", expect: REVIEWERS }],
  "admin/bans": [{ url: () => "/admin/bans", expect: ALL_STAFF }],
  "admin/moderation": [{ url: () => "/admin/moderation", expect: ADMINS }],
  "admin/moderation/export": [{ url: () => "/admin/moderation/export", expect: ADMINS }],
  "admin/roles": [{ url: () => "/admin/roles", expect: ADMINS }],
  "admin/connections": [{ url: () => "/admin/connections", expect: { owner: 200 } }],
  "admin/people": [{ url: () => "/admin/people?q=Authz", expect: REVIEWERS }],
  "admin/people/:key": [{ url: () => `/admin/people/application-${ids.application}`, expect: REVIEWERS }],
  "admin/events/:eventId/questions": [
    { url: () => `/admin/events/${ids.hosted}/questions`, expect: { ...ADMINS, host: 200 } },
    { url: () => `/admin/events/${ids.other}/questions`, expect: ADMINS },
  ],
  "admin/events/:eventId/applications": [
    { url: () => `/admin/events/${ids.hosted}/applications`, expect: { ...REVIEWERS, host: 200 } },
    { url: () => `/admin/events/${ids.other}/applications`, expect: REVIEWERS },
  ],
  "admin/events/:eventId/applications/export": [
    { url: () => `/admin/events/${ids.hosted}/applications/export`, expect: { ...ADMINS, host: 200 } },
    { url: () => `/admin/events/${ids.other}/applications/export`, expect: ADMINS },
  ],
  "admin/events/:eventId/evening": [
    { url: () => `/admin/events/${ids.hosted}/evening`, expect: { ...REVIEWERS, host: 200 } },
    { url: () => `/admin/events/${ids.other}/evening`, expect: REVIEWERS },
  ],
  "admin/events/:eventId/messages": [
    { url: () => `/admin/events/${ids.hosted}/messages`, expect: ADMINS },
  ],
};
/** Data for the Sanctum's pages, not pages: answered with the guard's status alone. */
const RESOURCES: Record<string, { url: () => string; expect: Expect; whenAllowed?: number }[]> = {
  "admin/applications/:applicationId/vrchat": [{ url: () => `/admin/applications/${ids.application}/vrchat`, expect: REVIEWERS }],
  "admin/applications/:applicationId/discord": [{ url: () => `/admin/applications/${ids.application}/discord`, expect: REVIEWERS }],
  // A group application's id under an event: not one of that event's, so not found, for those who may look.
  "admin/events/:eventId/applications/:applicationId/vrchat": [
    { url: () => `/admin/events/${ids.hosted}/applications/${ids.application}/vrchat`, expect: { owner: 200, admin: 200, reviewer: 200, host: 200 } },
    { url: () => `/admin/events/${ids.other}/applications/${ids.application}/vrchat`, expect: REVIEWERS },
  ],
  "admin/events/:eventId/applications/:applicationId/discord": [
    { url: () => `/admin/events/${ids.hosted}/applications/${ids.application}/discord`, expect: { owner: 200, admin: 200, reviewer: 200, host: 200 } },
    { url: () => `/admin/events/${ids.other}/applications/${ids.application}/discord`, expect: REVIEWERS },
  ],
  "admin/applications/approval-preview": [{ url: () => `/admin/applications/approval-preview?ids=${ids.application}`, expect: REVIEWERS }],
  // A draft without a picture: not found, for those who may look.
  "admin/announcements/:id/picture": [{ url: () => `/admin/announcements/${ids.announcement}/picture`, expect: ADMINS, whenAllowed: 404 }],
  // Discord's sign-in is not set up on this site: every staff member is told so.
  "admin/discord-link": [{ url: () => "/admin/discord-link", expect: ALL_STAFF, whenAllowed: 404 }],
};
/** Reachable without signing in, by design: signing in, renewing a passphrase, an invitation. */
const PUBLIC_ADMIN_ROUTES = ["admin/setup", "admin/sign-in", "admin/two-factor", "admin/sign-out", "admin/forgot-password", "admin/reset-password", "admin/join/:token"];

function routePaths(entries: RouteConfigEntry[], parent = ""): string[] {
  return entries.flatMap((entry) => {
    const path = [parent, entry.path].filter(Boolean).join("/");
    return [...(entry.path ? [path] : []), ...routePaths(entry.children ?? [], path)];
  });
}

let server: ServerProcess;
let dataDir: string;
const cookies: Record<Who, string> = { visitor: "", member: "", owner: "", admin: "", reviewer: "", host: "" };
const ids = { hosted: "", other: "", application: "", announcement: "" };

const expected = (expect: Expect, who: Who) => (who === "visitor" ? 401 : who === "member" ? 403 : (expect[who] ?? 403));

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "dwell-authz-"));
  server = await startServerProcess({ DATA_DIR: dataDir });
  for (const who of ["owner", "admin", "reviewer", "host", "member"] as const) {
    createAccountWithCommand(dataDir, `${who}@dwell.example`, `moonlight-over-the-${who}`, who);
    cookies[who] = await signIn(server.url, `${who}@dwell.example`, `moonlight-over-the-${who}`);
  }
  ids.other = (await firstEventId())!;
  // The host makes an event of their own, as a host does: it is theirs to run.
  ids.hosted = await eventWithApplications("The Host's Own Night", "2031-05-01", "host");
  const apply = await fetch(`${server.url}/apply`).then((response) => response.text());
  const fields = [...apply.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
  const applied = await postForm(server.url, "/apply", Object.fromEntries(fields.map((field, i) => [field, ["Authz Moth", "authz-moth", "A friend", "Hi", ""][i]!])));
  expect(applied.status).toBe(200);
  await applied.body?.cancel();
  // A draft announcement, written on the Sanctum's form.
  const drafted = await postForm(server.url, "/admin/announcements/new", { intent: "draft", "title.en": "Authz news", "text.en": "Nothing yet.", place: "site", audience: "everyone" }, { cookie: cookies.owner });
  expect(drafted.status).toBe(302);
  ids.announcement = /\/admin\/announcements\/([0-9a-f-]{36})/.exec(drafted.headers.get("location") ?? "")![1]!;
  const review = await fetch(`${server.url}/admin/applications`, { headers: { cookie: cookies.owner } }).then((response) => response.text());
  ids.application = /name="id" value="([0-9a-f-]{36})"/.exec(review)![1]!;
});
afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

/** An event with applications made on the Sanctum's form by `who`; its id, as the public list links it. */
async function eventWithApplications(title: string, eventDate: string, who: "host" | "admin") {
  const made = await postForm(
    server.url,
    "/admin/events",
    { intent: "create", title, description: "", eventDate, eventTime: "20:00", timezone: "UTC", worldName: "The Hearth", applicationRequired: "on" },
    { cookie: cookies[who] },
  );
  expect(made.status).toBe(302);
  const listed = await fetch(`${server.url}/events`).then((response) => response.text());
  return new RegExp(`href="/events/([0-9a-f-]{36})"[^>]*>(?:(?!</a>).)*?${title.replace("'", "&#x27;")}`, "s").exec(listed)![1]!;
}

async function firstEventId() {
  const html = await (await fetch(`${server.url}/events`)).text();
  return /href="\/events\/([0-9a-f-]{36})"/.exec(html)?.[1];
}

/** What each answer says: the guard's screen for those refused, the page for those let in. */
const roleRefusal = (who: Who) => (who === "member" ? "Access Denied - You don&#x27;t have admin privileges." : "Not for your role");

describe("the Sanctum's routes", () => {
  it("are all in this matrix", () => {
    const sanctum = routePaths(routes).filter((path) => path === "admin" || path.startsWith("admin/"));
    const covered = [...Object.keys(PAGES), ...Object.keys(RESOURCES), ...PUBLIC_ADMIN_ROUTES];
    expect(sanctum.filter((path) => !covered.includes(path))).toEqual([]);
  });

  for (const [route, cases] of Object.entries(PAGES)) {
    for (const [n, page] of cases.entries()) {
      it(`${route} (${n + 1} of ${cases.length}): each gets their answer`, async () => {
        for (const who of WHO) {
          const status = expected(page.expect, who);
          const response = await fetch(`${server.url}${page.url()}`, { headers: { cookie: cookies[who] } });
          const body = await response.text();
          expect(response.status, `${who} at ${page.url()}`).toBe(status);
          if (route.endsWith("/export")) {
            const header = route === "admin/moderation/export" ? /^\uFEFF?"When \(UTC\)","Where","What","Moderator"/ : /^"VRChat Username","Discord ID","Status"/;
            if (status === 200) expect(body).toMatch(header);
            else expect(body).not.toMatch(/VRChat Username|When \(UTC\)/);
          } else if (status === 200) {
            expect(body).toContain("Welcome, ");
          } else {
            expect(body).toContain(status === 401 ? "Enter the Sanctum" : roleRefusal(who));
          }
        }
      });
    }
    it(`${route}: its data request reveals nothing to those refused`, async () => {
      const page = cases.at(-1)!;
      for (const who of WHO.filter((w) => expected(page.expect, w) !== 200)) {
        const [path, query] = page.url().split("?");
        const response = await fetch(`${server.url}${path}.data${query ? `?${query}` : ""}`, { headers: { cookie: cookies[who] } });
        const body = await response.text();
        // Only the guard's verdict (and the viewer's own name) comes back: no Sanctum data.
        expect(body).toMatch(/"ErrorResponse"/);
        expect(body).not.toMatch(/totalEvents|figures|checks|Authz Moth|owner@dwell/);
      }
    });
  }
});

describe("the Sanctum's data", () => {
  for (const [route, cases] of Object.entries(RESOURCES)) {
    for (const [n, resource] of cases.entries()) {
      it(`${route}${cases.length > 1 ? ` (${n === 0 ? "the host's own event" : "another event"})` : ""}: each gets their answer`, async () => {
        for (const who of WHO) {
          const status = expected(resource.expect, who);
          const response = await fetch(`${server.url}${resource.url()}`, { headers: { cookie: cookies[who] } });
          const body = await response.text();
          // An event route given a group application's id finds nothing: 404 for those who may look.
          const allowed = status === 200 && (resource.whenAllowed ?? (route.startsWith("admin/events/") ? 404 : 200));
          const expectedStatus = status === 200 ? allowed : status;
          expect(response.status, `${who} at ${route}`).toBe(expectedStatus);
          if (status !== 200) expect(body).not.toMatch(/candidates|inVRChat|Authz Moth/);
        }
      });
    }
  }
});

/** A page as it reads: each response carries its own Content-Security-Policy nonce. */
async function pageText(url: string) {
  // Without what differs between two renderings: script nonces, the time a form was served, and its crowd challenge.
  return (await (await fetch(url)).text())
    .replace(/ nonce="[^"]*"/g, "")
    .replace(/\d{13}\.[\w-]{43}/g, "(form served)")
    // The challenge is base64url JSON (`{"` is `eyJ`).
    .replace(/\beyJ[\w-]{100,}/g, "(challenge)");
}

/** Sanctum actions, each with a form that changes something a person can see (`shows`, read as `reader`). */
const ACTIONS: { name: string; path: () => string; form: () => Record<string, string>; shows: () => string; reader?: Who; allowed: Who[] }[] = [
  { name: "add a group question", path: () => "/admin/questions", form: () => ({ intent: "add", question: "Injected?", questionType: "text" }), shows: () => "/apply", allowed: ["owner", "admin"] },
  {
    name: "add a screening rule",
    path: () => "/admin/screening",
    form: () => ({ intent: "add", name: "Injected", scope: "group", proven: "on", outcome: "approve" }),
    shows: () => "/admin/screening",
    reader: "owner",
    allowed: ["owner", "admin"],
  },
  {
    name: "ban someone by their Discord account",
    path: () => "/admin/bans",
    form: () => ({ intent: "ban", account: "", discord: "300000000000000099", reason: "Injected?" }),
    shows: () => "/admin/bans",
    reader: "owner",
    allowed: ["owner", "admin"],
  },
  {
    name: "reject banned people's applications automatically",
    path: () => "/admin/bans",
    form: () => ({ intent: "reject-banned", rejectBanned: "on" }),
    shows: () => "/admin/bans",
    reader: "owner",
    allowed: ["owner"],
  },
  {
    name: "stop applicants editing the group form's answers",
    path: () => "/admin/questions",
    form: () => ({ intent: "applicant-edits" }),
    shows: () => "/admin/questions",
    reader: "owner",
    allowed: ["owner"],
  },
  {
    name: "stop applicants editing the host's event's answers",
    path: () => `/admin/events/${ids.hosted}/questions`,
    form: () => ({ intent: "applicant-edits" }),
    shows: () => `/admin/events/${ids.hosted}/questions`,
    reader: "owner",
    allowed: ["owner"],
  },
  {
    name: "let the screening rules decide join requests",
    path: () => "/admin/join-requests",
    form: () => ({ intent: "rules", handling: "rules" }),
    shows: () => "/admin/join-requests",
    reader: "owner",
    allowed: ["owner"],
  },
  {
    name: "add a question to the host's event",
    path: () => `/admin/events/${ids.hosted}/questions`,
    form: () => ({ intent: "add", question: "Injected here?", questionType: "text" }),
    shows: () => `/events/${ids.hosted}/apply`,
    allowed: ["owner", "admin", "host"],
  },
  {
    name: "edit another event",
    path: () => "/admin/events",
    form: () => ({ intent: "update", id: ids.other, title: "Taken Over", description: "", eventDate: "2031-06-01", eventTime: "20:00", timezone: "UTC", worldName: "Elsewhere" }),
    shows: () => "/events",
    allowed: ["owner", "admin"],
  },
  {
    name: "create an event",
    path: () => "/admin/events",
    form: () => ({ intent: "create", title: "Made by Whoever", description: "", eventDate: "2031-07-01", eventTime: "20:00", timezone: "UTC", worldName: "Anywhere" }),
    shows: () => "/events",
    allowed: ["owner", "admin", "host"],
  },
  {
    name: "publish an announcement",
    path: () => "/admin/announcements/new",
    form: () => ({ intent: "publish", "title.en": "Injected news", "text.en": "Injected words.", place: "site", audience: "everyone" }),
    shows: () => "/news",
    allowed: ["owner", "admin"],
  },
  {
    name: "save a decision message",
    path: () => "/admin/messages",
    form: () => ({ intent: "save", kind: "group", outcome: "approved", body: "Injected welcome" }),
    shows: () => "/admin/messages",
    reader: "owner",
    allowed: ["owner", "admin"],
  },
  {
    name: "mark a group application as spam",
    path: () => "/admin/applications",
    form: () => ({ intent: "spam", id: ids.application }),
    shows: () => "/admin/applications?status=all",
    reader: "owner",
    allowed: ["owner", "admin", "reviewer"],
  },
  {
    name: "invite to the team",
    path: () => "/admin/team",
    form: () => ({ intent: "invite", email: "intruder@dwell.example", role: "owner" }),
    shows: () => "/admin/team",
    reader: "owner",
    allowed: ["owner"],
  },
  {
    name: "allow event approvals to invite to the group",
    path: () => "/admin/team",
    form: () => ({ intent: "event-invites", allowed: "on" }),
    shows: () => "/admin/team",
    reader: "owner",
    allowed: ["owner"],
  },
  {
    name: "add a note to a person's file",
    path: () => `/admin/people/application-${ids.application}`,
    form: () => ({ intent: "note", body: "Injected note" }),
    shows: () => `/admin/people/application-${ids.application}`,
    reader: "owner",
    allowed: ["owner", "admin", "reviewer"],
  },
  {
    name: "merge another file into a person's file",
    path: () => `/admin/people/application-${ids.application}`,
    form: () => ({ intent: "merge", other: "discord-123456789012345678" }),
    shows: () => `/admin/people/application-${ids.application}`,
    reader: "owner",
    allowed: ["owner", "admin"],
  },
  {
    name: "ban from a person's file",
    path: () => `/admin/people/application-${ids.application}`,
    form: () => ({ intent: "ban", reason: "Injected?" }),
    shows: () => "/admin/bans",
    reader: "owner",
    allowed: ["owner", "admin"],
  },
  {
    name: "set the tripwire's limits",
    path: () => "/admin/moderation",
    form: () => ({ intent: "tripwire", removalLimit: "7", roleRemovalLimit: "", windowMinutes: "13", retentionDays: "" }),
    shows: () => "/admin/moderation",
    reader: "owner",
    allowed: ["owner"],
  },
  {
    name: "sync the VRChat calendar",
    path: () => "/admin?index",
    form: () => ({ intent: "sync-events" }),
    shows: () => "/events",
    allowed: ["owner", "admin"],
  },
];

describe("the Sanctum's actions", () => {
  for (const action of ACTIONS) {
    it(`${action.name}: refused with nothing changed for all but ${action.allowed.join(", ")}`, async () => {
      const read = async () => (action.reader ? (await fetch(`${server.url}${action.shows()}`, { headers: { cookie: cookies[action.reader] } })).text() : pageText(`${server.url}${action.shows()}`));
      const strip = (html: string) => html.replace(/ nonce="[^"]*"/g, "");
      for (const who of WHO.filter((w) => !action.allowed.includes(w))) {
        const before = strip(await read());
        const response = await postForm(server.url, action.path(), action.form(), { cookie: cookies[who] });
        expect(response.status, who).toBe(who === "visitor" ? 401 : 403);
        await response.body?.cancel();
        expect(strip(await read()), who).toBe(before);
      }
    });
  }

  it("go through for a role that may", async () => {
    const question = await postForm(server.url, `/admin/events/${ids.hosted}/questions`, { intent: "add", question: "Which lantern?", questionType: "text" }, { cookie: cookies.host });
    expect(question.status).toBe(200);
    await question.body?.cancel();
    expect(await fetch(`${server.url}/events/${ids.hosted}/apply`).then((r) => r.text())).toContain("Which lantern?");
    const decided = await postForm(server.url, "/admin/applications", { intent: "status", id: ids.application, status: "approved" }, { cookie: cookies.reviewer });
    expect(decided.status).toBe(200);
    await decided.body?.cancel();
    // An admin hands a new event to the host: it is then among the host's own, to run.
    const team = await fetch(`${server.url}/admin/team`, { headers: { cookie: cookies.owner } }).then((r) => r.text());
    const hostId = /name="id" value="([0-9a-f-]{36})"/.exec(team.slice(team.indexOf("host@dwell.example")))![1]!;
    const handed = await postForm(
      server.url,
      "/admin/events",
      { intent: "create", title: "Handed to the Host", description: "", eventDate: "2031-08-01", eventTime: "20:00", timezone: "UTC", worldName: "The Hearth", hostId },
      { cookie: cookies.admin },
    );
    expect(handed.status).toBe(302);
    expect(await fetch(`${server.url}/admin/events`, { headers: { cookie: cookies.host } }).then((r) => r.text())).toContain("Handed to the Host");
    const notStaff = await postForm(server.url, "/admin/events", { intent: "create", title: "Nobody's", description: "", eventDate: "2031-08-02", eventTime: "20:00", timezone: "UTC", worldName: "X", hostId: "00000000-0000-4000-8000-000000000000" }, { cookie: cookies.admin });
    expect(notStaff.status).toBe(400);
    expect(await notStaff.text()).toContain("Choose a host from the team.");
    const id = await firstEventId();
    const deleted = await postForm(server.url, "/admin/events", { intent: "delete", id: id! }, { cookie: cookies.admin });
    expect(deleted.status).toBe(302);
    expect(await (await fetch(`${server.url}/events`)).text()).not.toContain(id!);
  });
});

describe("a host's own event's path", () => {
  it("reaches no other event's applications, whatever ids are put under it", async () => {
    // Another event with applications, and someone applying to it through the public form.
    const otherEvent = await eventWithApplications("Someone Else's Night", "2031-09-01", "admin");
    const form = await fetch(`${server.url}/events/${otherEvent}/apply`).then((response) => response.text());
    const fields = [...form.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
    const applied = await postForm(server.url, `/events/${otherEvent}/apply`, Object.fromEntries(fields.map((field, i) => [field, i === 0 ? "Other Moth" : "other-moth"])));
    expect(applied.status).toBe(200);
    await applied.body?.cancel();
    const review = await fetch(`${server.url}/admin/events/${otherEvent}/applications`, { headers: { cookie: cookies.admin } }).then((response) => response.text());
    const theirs = /name="id" value="([0-9a-f-]{36})"/.exec(review)![1]!;
    const card = async () => (await fetch(`${server.url}/admin/events/${otherEvent}/applications?status=all`, { headers: { cookie: cookies.admin } }).then((r) => r.text())).replace(/ nonce="[^"]*"/g, "");
    const before = await card();

    const own = `/admin/events/${ids.hosted}/applications`;
    for (const panel of ["vrchat", "discord"]) {
      const read = await fetch(`${server.url}${own}/${theirs}/${panel}`, { headers: { cookie: cookies.host } });
      expect(read.status, panel).toBe(404);
      expect(JSON.stringify(await read.json()), panel).not.toContain("Other Moth");
    }
    const forms: Record<string, string>[] = [
      { intent: "unlink-discord", id: theirs },
      { intent: "unlink-vrchat", id: theirs },
      { intent: "status", id: theirs, status: "approved" },
      { intent: "notes", id: theirs, notes: "taken over" },
      { intent: "retry-job", job: "00000000-0000-4000-8000-000000000000" },
    ];
    for (const form of forms) {
      const response = await postForm(server.url, own, form, { cookie: cookies.host });
      expect(response.status, form.intent).toBeGreaterThanOrEqual(400);
      expect(response.status, form.intent).toBeLessThan(500);
      await response.body?.cancel();
    }
    expect(await card()).toBe(before);
  });
});

describe("requests from other sites", () => {
  it("cannot sign in or out on a visitor's behalf", async () => {
    const evil = { Origin: "https://evil.example" };
    const signInResponse = await postForm(server.url, "/admin/sign-in", { email: "keeper@dwell.example", password: "moonlight-over-the-hall" }, evil);
    // React Router itself refuses cross-origin form posts (400); the action would too (403).
    expect([400, 403]).toContain(signInResponse.status);
    expect(signInResponse.headers.getSetCookie()).toEqual([]);

    const signOut = await postForm(server.url, "/admin/sign-out", {}, { ...evil, cookie: cookies.owner });
    await signOut.body?.cancel();
    // The session survives a sign-out sent from another site.
    expect((await fetch(`${server.url}/admin`, { headers: { cookie: cookies.owner } })).status).toBe(200);
  });
});

describe("the account commands, while the server runs", () => {
  it("list accounts, refuse bad input, and remove an account, ending its sessions", async () => {
    const list = runUserCommand(dataDir, ["list"]);
    expect(list.status).toBe(0);
    expect(list.stdout).toMatch(/owner\s+owner@dwell\.example/);
    expect(list.stdout).toMatch(/reviewer\s+reviewer@dwell\.example/);
    expect(list.stdout).toMatch(/member\s+member@dwell\.example/);

    const noPassword = runUserCommand(dataDir, ["create", "--email", "x@dwell.example"]);
    expect(noPassword.status).toBe(1);
    expect(noPassword.stderr).toContain("USER_PASSWORD");
    const badRole = runUserCommand(dataDir, ["create", "--email", "x@dwell.example", "--role", "king"], { USER_PASSWORD: "longenough" });
    expect(badRole.status).toBe(1);
    expect(badRole.stderr).toContain("--role: owner, admin, reviewer, host or member");

    const removed = runUserCommand(dataDir, ["remove", "--email", "member@dwell.example"]);
    expect(removed.status).toBe(0);
    expect(removed.stdout).toContain("Removed the account member@dwell.example.");
    // The member's session ended with the account.
    expect((await fetch(`${server.url}/admin`, { headers: { cookie: cookies.member } })).status).toBe(401);
    expect(runUserCommand(dataDir, ["remove", "--email", "member@dwell.example"]).status).toBe(1);
  });
});
