/**
 * An event published to the group's VRChat calendar from the Sanctum, over HTTP against the
 * production server and the fake VRChat: created there once, read back by the refresh, never
 * imported as a second event, updated when edited, refused before any call when VRChat would refuse
 * it, and removed when deleted.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_GROUP_ID, fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { requestProblem } from "../fakes/vrchat-contract";
import { textOf } from "../setup/page-text";
import { createAccountWithCommand, postForm, signIn, syncCalendarNow } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess } from "../setup/server-process";
import { ON_PGLITE } from "../setup/test-database";

const DATE = new Date(Date.now() + 10 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);

/** The event form as an admin fills it, 'Publish to VRChat' ticked. */
function eventForm(intent: "create" | "update", title: string, extra: [string, string][] = []): [string, string][] {
  return [
    ["intent", intent],
    ["title", title],
    ["description", "A slow walk through the lantern forest."],
    ["eventDate", DATE],
    ["eventTime", "20:00"],
    ["timezone", "UTC"],
    ["worldName", "Lantern Forest"],
    ["applicationRequired", "on"],
    ["publishToVRChat", "on"],
    ["vrchatCategory", "exploration"],
    ["vrchatAccess", "public"],
    ["vrchatLanguage", "eng"],
    ["vrchatLanguage", "jpn"],
    ["vrchatLanguage", ""],
    ["vrchatPlatform", "standalonewindows"],
    ["vrchatPlatform", "android"],
    ...extra,
  ];
}

describe.runIf(ON_PGLITE)("publishing to VRChat's calendar from the Sanctum", () => {
  let fake: FakeVRChat;
  let server: ServerProcess;
  let dataDir: string;
  let cookie: string;
  let eventId: string;
  const admin = async (path: string) => textOf(await (await fetch(`${server.url}${path}`, { headers: { cookie } })).text());
  const ours = () => fake.group.calendar.filter((entry) => entry.title.startsWith("Lantern"));

  beforeAll(async () => {
    fake = await startFakeVRChat();
    dataDir = mkdtempSync(join(tmpdir(), "dwell-publish-"));
    server = await startServerProcess({
      DATA_DIR: dataDir,
      DEMO_CONTENT: "false",
      VRCHAT_CACHE_SECONDS: "2",
      VRCHAT_PUBLISH_EVENTS: "true",
      ...fakeVRChatEnv(fake),
    });
    createAccountWithCommand(dataDir, "keeper@dwell.example", "moonlight-over-the-hall", "admin");
    cookie = await signIn(server.url, "keeper@dwell.example", "moonlight-over-the-hall");
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("publishes an event created in the Sanctum, once, and shows it on the event's card", async () => {
    expect(await admin("/admin/events?new")).toContain("Publish to VRChat");
    const created = await postForm(server.url, "/admin/events", eventForm("create", "Lantern Walk"), { cookie });
    expect(created.status).toBe(302);
    await expect.poll(() => ours().length, { timeout: 10_000 }).toBe(1);
    const entry = ours()[0]!;
    expect(entry).toMatchObject({ accessType: "public", category: "exploration", languages: ["eng", "jpn"], platforms: ["standalonewindows", "android"] });
    expect(entry.startsAt).toBe(`${DATE}T20:00:00.000Z`);

    const html = await (await fetch(`${server.url}/admin/events`, { headers: { cookie } })).text();
    eventId = /\/events\/([0-9a-f-]{36})\/applications/.exec(html)![1]!;
    expect(entry.description).toBe(`A slow walk through the lantern forest.\n\nApply on ${server.publicUrl}/events/${eventId}`);
    await expect.poll(() => admin("/admin/events"), { timeout: 5_000 }).toContain("On VRChat's calendar.");
    expect(await (await fetch(`${server.url}/admin/events`, { headers: { cookie } })).text()).toContain(
      `href="https://vrchat.com/home/group/${FAKE_GROUP_ID}/calendar/${entry.id}"`,
    );
  });

  it("never imports its own entry as a second event when the calendar is synced", async () => {
    // The refresh reads the calendar a month at a time: the entry reaches the visitors' data...
    await expect
      .poll(async () => JSON.stringify(await (await fetch(`${server.url}/api/group-data`)).json()), { timeout: 20_000, interval: 1_000 })
      .toContain(ours()[0]!.id);
    // ...and the import, which an admin runs (15 s after the last run), leaves it alone.
    await syncCalendarNow(server.url, cookie);
    // Its own entry is skipped. The others may be added here: the calendar's months are read one per
    // refresh, and the sync at start saw only those read by then (near a month's end, not all of them).
    expect(await admin("/admin")).toMatch(/calendar synced [^<]*\(\d+ added, 0 updated, [1-9]\d* skipped\)/);
    const events = textOf(await (await fetch(`${server.url}/events`)).text());
    expect(events.match(/Lantern Walk/g)).toHaveLength(1);
    const cards = await (await fetch(`${server.url}/admin/events`, { headers: { cookie } })).text();
    expect(cards.match(/aria-label="Edit Event Lantern Walk"/g)).toHaveLength(1);
  });

  it("updates the entry when the event is edited", async () => {
    const updated = await postForm(server.url, "/admin/events", eventForm("update", "Lantern Walk at Dusk", [["id", eventId]]), { cookie });
    expect(updated.status).toBe(302);
    await expect.poll(() => ours()[0]?.title, { timeout: 10_000 }).toBe("Lantern Walk at Dusk");
    expect(ours()).toHaveLength(1);
    expect(fake.calendarWrites.map((write) => write.kind)).toEqual(["create", "update"]);
  });

  it("refuses what VRChat would refuse before calling it, with the reason on the form", async () => {
    const long = "Lantern Walk through the whole of the forest, with every lantern lit";
    const refused = await postForm(server.url, "/admin/events", eventForm("create", long), { cookie });
    expect(refused.status).toBe(400);
    expect(textOf(await refused.text())).toContain(
      `VRChat's calendar takes titles of at most 64 characters; this one has ${long.length}. Shorten it, or save without publishing to VRChat.`,
    );
    const noPlatform = await postForm(server.url, "/admin/events", eventForm("create", "Lantern Dance").filter(([name]) => name !== "vrchatPlatform"), { cookie });
    expect(noPlatform.status).toBe(400);
    expect(textOf(await noPlatform.text())).toContain("Choose at least one platform for VRChat");
    expect(fake.calendarWrites).toHaveLength(2);
    // Saved without publishing, the same title is fine: the site takes up to 200 characters.
    const plain = await postForm(server.url, "/admin/events", eventForm("create", long).filter(([name]) => name !== "publishToVRChat"), { cookie });
    expect(plain.status).toBe(302);
  });

  it("removes the entry when the event is deleted, and asked VRChat only what its API offers", async () => {
    const deleted = await postForm(server.url, "/admin/events", { intent: "delete", id: eventId }, { cookie });
    expect(deleted.status).toBe(302);
    await expect.poll(() => ours().length, { timeout: 10_000 }).toBe(0);
    expect(fake.calendarWrites.map((write) => write.kind)).toEqual(["create", "update", "delete"]);
    expect(fake.requests.map(requestProblem).filter(Boolean)).toEqual([]);
  });
});
