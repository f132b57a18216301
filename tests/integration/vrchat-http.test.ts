/**
 * The group data and the event sync over HTTP, from real server processes talking to the fake
 * VRChat API: the JSON shape, one upstream refresh per window across two processes sharing one
 * PostgreSQL, the navigation bar's figures, and the throttled sync endpoint.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { createAccountWithCommand, postForm, signIn, syncCalendarNow } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess } from "../setup/server-process";
import { createTestDatabase, ON_PGLITE, ON_POSTGRES, type TestDatabase } from "../setup/test-database";

describe.runIf(ON_PGLITE)("with VRChat configured (embedded database)", () => {
  let fake: FakeVRChat;
  let server: ServerProcess;
  let dataDir: string;

  beforeAll(async () => {
    fake = await startFakeVRChat();
    dataDir = mkdtempSync(join(tmpdir(), "dwell-vrchat-"));
    // The page cache on, as deployed: nothing members-only may reach it either.
    server = await startServerProcess({ DATA_DIR: dataDir, VRCHAT_CACHE_SECONDS: "2", PAGE_CACHE_SECONDS: "1", ...fakeVRChatEnv(fake) });
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("serves the group data flattened as the spec writes it, from one refresh", async () => {
    const responses = await Promise.all(Array.from({ length: 30 }, () => fetch(`${server.url}/api/group-data`)));
    expect(responses.map((r) => r.status)).toEqual(Array(30).fill(200));
    const body = (await responses[0]!.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      source: "vrchat",
      stale: false,
      group: { memberCount: 2451, onlineMemberCount: 88 },
      instances: [
        { id: expect.stringMatching(/^[\w-]{12}$/), userCount: 9, world: { name: "Hearth Hall", authorName: "Ember" } },
        { id: expect.stringMatching(/^[\w-]{12}$/), userCount: 4, capacity: 16, world: { name: "Tide Pools", capacity: 16 } },
      ],
      members: [
        {
          id: "usr_1",
          displayName: "Captain",
          username: null,
          isRepresenting: true,
          currentAvatarThumbnailImageUrl: null,
          iconUrl: null,
          profilePicOverride: null,
        },
        expect.objectContaining({ id: "usr_2" }),
      ],
    });
    // An instance's location (its creator and nonce) is never served: a short key stands for it.
    expect(JSON.stringify(body)).not.toContain("wrld_");
    // The warm-up at start and thirty visitors: one refresh (or two, had a window passed meanwhile).
    expect(fake.calls.group).toBeLessThanOrEqual(2);
    expect([...fake.userAgents].every((agent) => /^Dwell\/\d+\.\d+\.\d+ admins@dwell\.example$/.test(agent))).toBe(true);
  });

  it("renders the navigation bar's figures and the LIVE NOW button with the page", async () => {
    const html = await (await fetch(`${server.url}/events`)).text();
    expect(html).toContain("2,451");
    expect(html).toContain(">Members<");
    expect(html).toContain("LIVE NOW");
    expect(html).toContain("13 in VR");
    expect(html).not.toContain("Demo data");
  });

  it("imports the calendar once, then refuses to run again so soon", async () => {
    // The server synced by itself at start; wait for that run to be on record.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const status = await (await fetch(`${server.url}/api/sync-events`, { method: "POST" })).json();
    expect(status).toEqual({
      added: 0,
      updated: 0,
      skipped: 0,
      errors: ["Events were synced a moment ago; try again shortly."],
    });
    const response = await fetch(`${server.url}/api/sync-events`, { method: "POST" });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(200);
  });

  /** The group data once every calendar month has been read (one month per refresh). */
  async function fullCalendar() {
    await expect
      .poll(async () => JSON.stringify(await (await fetch(`${server.url}/api/group-data`)).json()), { timeout: 20_000 })
      .toMatch(/Upcoming gathering[\s\S]*Last week's dance|Last week's dance[\s\S]*Upcoming gathering/);
  }

  it("lets an admin sync now, which updates what changed on VRChat", async () => {
    createAccountWithCommand(dataDir, "keeper@dwell.example", "moonlight-over-the-hall", "admin");
    const cookie = await signIn(server.url, "keeper@dwell.example", "moonlight-over-the-hall");
    const dashboard = await (await fetch(`${server.url}/admin`, { headers: { Cookie: cookie } })).text();
    expect(dashboard).toMatch(/calendar synced [^<]*\(\d+ added, 0 updated, 0 skipped\)/);
    expect(dashboard).toContain("Sync now");
    await fullCalendar();
    // The sync at start saw only the months read by then (one per refresh): near a month's end, not
    // every entry. One sync now imports them all, so that the next finds a change to update.
    await syncCalendarNow(server.url, cookie);

    fake.group.calendar[0]!.title = "Upcoming gathering, moved";
    fake.group.calendar.push({
      id: "cal_55555555-5555-4555-8555-555555555555",
      title: "A brand new night",
      startsAt: new Date(Date.now() + 60 * 60 * 1000).toISOString(),
      endsAt: new Date(Date.now() + 2 * 60 * 60 * 1000).toISOString(),
      accessType: "public",
    });
    // The group data refreshes within its window, a month at a time: both changes, in their months.
    await expect
      .poll(async () => JSON.stringify(await (await fetch(`${server.url}/api/group-data`)).json()), { timeout: 15_000 })
      .toMatch(/A brand new night[\s\S]*Upcoming gathering, moved|Upcoming gathering, moved[\s\S]*A brand new night/);
    await syncCalendarNow(server.url, cookie);
    await expect.poll(async () => (await fetch(`${server.url}/events`)).text(), { timeout: 5_000 }).toContain("A brand new night");
    const events = await (await fetch(`${server.url}/events`)).text();
    expect(events).toContain("Upcoming gathering, moved");
    expect(events).toContain("Last week&#x27;s dance");
    // Outside the months the site covers: never read, never imported.
    expect(events).not.toContain("Long ago");
    const after = await (await fetch(`${server.url}/admin`, { headers: { Cookie: cookie } })).text();
    expect(after).toMatch(/calendar synced [^<]*\(\d+ added, 1 updated, \d+ skipped\)/);
    // Two syncs, each allowed 15 s after the one before.
  }, 90_000);

  it("keeps members-only events, posts and hidden members from visitors, and lets an admin import an event", async () => {
    const secrets = /Members(&#x27;|')s? circle|Members(&#x27;|') notice|Hosts(&#x27;|') notice|For the Dwellers only|Stowaway|Lookout/;
    await fullCalendar();
    await expect.poll(async () => JSON.stringify((await (await fetch(`${server.url}/api/group-data`)).json()).events), { timeout: 10_000 }).toContain("Upcoming gathering");
    const publicPages = ["/api/group-data", "/", "/events", "/apply"];
    for (const path of publicPages) {
      // Twice: the second answer may come from the page cache.
      for (const _ of [1, 2]) expect(await (await fetch(`${server.url}${path}`)).text(), path).not.toMatch(secrets);
    }
    const eventPages = [...(await (await fetch(`${server.url}/events`)).text()).matchAll(/href="(\/events\/[0-9a-f-]{36})"/g)].map((m) => m[1]!);
    for (const path of new Set(eventPages)) expect(await (await fetch(`${server.url}${path}`)).text(), path).not.toMatch(secrets);
    // The sync endpoint's answer, and the log at its usual level.
    expect(await (await fetch(`${server.url}/api/sync-events`, { method: "POST" })).text()).not.toMatch(secrets);
    expect(server.output()).not.toMatch(secrets);

    // The Sanctum lists them, marked, and an admin may make an event public.
    const cookie = await signIn(server.url, "keeper@dwell.example", "moonlight-over-the-hall");
    const dashboard = await (await fetch(`${server.url}/admin`, { headers: { Cookie: cookie } })).text();
    expect(dashboard).toContain("Members-only on VRChat");
    expect(dashboard).toMatch(/Members(&#x27;|')s? circle/);
    expect(dashboard).toMatch(/Members(&#x27;|') notice/);
    expect(dashboard).not.toMatch(/Stowaway|Lookout/);
    const imported = await postForm(server.url, "/admin?index", { intent: "import-vrchat-event", vrchatEventId: "cal_44444444-4444-4444-8444-444444444444" }, { Cookie: cookie });
    expect(imported.status).toBe(200);
    expect(await imported.text()).toContain("Imported: it is now on the events page.");
    await expect.poll(async () => (await fetch(`${server.url}/events`)).text(), { timeout: 5_000 }).toMatch(/Members(&#x27;|') circle/);
    const unknown = await postForm(server.url, "/admin?index", { intent: "import-vrchat-event", vrchatEventId: "cal_00000000-0000-4000-8000-000000000000" }, { Cookie: cookie });
    expect(unknown.status).toBe(404);
  });
});

describe.runIf(ON_POSTGRES)("two server processes on one PostgreSQL", () => {
  let fake: FakeVRChat;
  let database: TestDatabase;
  let servers: ServerProcess[];

  beforeAll(async () => {
    fake = await startFakeVRChat();
    database = await createTestDatabase("postgres");
    const env = {
      DATABASE_URL: database.url!,
      AUTH_SECRET: "a-shared-secret-for-both-test-processes-0123456789",
      VRCHAT_CACHE_SECONDS: "3",
      ...fakeVRChatEnv(fake),
    };
    servers = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  });
  afterAll(async () => {
    await Promise.all((servers ?? []).map((server) => server.stop()));
    await database?.close();
    await fake?.close();
  });

  it("causes one upstream refresh per window, however many visitors ask either process", async () => {
    fake.setDelay(100);
    const visit = (i: number) => fetch(`${servers[i % 2]!.url}/api/group-data`).then((r) => r.json() as Promise<{ group: { memberCount: number } }>);
    const first = await Promise.all(Array.from({ length: 40 }, (_, i) => visit(i)));
    expect(first.every((body) => body.group.memberCount === 2451)).toBe(true);
    expect(fake.calls.group).toBe(1);

    // Next window: VRChat has new figures, fetched once for both processes.
    fake.group.memberCount = 2500;
    await new Promise((resolve) => setTimeout(resolve, 3_200));
    const deadline = Date.now() + 10_000;
    let latest = 0;
    while (latest !== 2500 && Date.now() < deadline) {
      const bodies = await Promise.all(Array.from({ length: 20 }, (_, i) => visit(i)));
      latest = Math.min(...bodies.map((body) => body.group.memberCount));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(latest).toBe(2500);
    expect(fake.calls.group).toBe(2);
    expect(fake.calls.login).toBe(1);
  });
});
