/**
 * An event's world and end, as an admin gives them on the Sanctum's form and visitors meet them, over
 * HTTP against the production server and the fake VRChat: a known world fills its name and picture
 * (the event page, the home page's hero, the link preview's picture); an unknown one is refused; when
 * VRChat cannot be asked the typed name is kept and the admin told; the end reaches the page, the
 * iCal feed and schema.org.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_WORLD_ID, FAKE_WORLD_NAME, fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { textOf } from "../setup/page-text";
import { createAccountWithCommand, postForm, signIn } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess } from "../setup/server-process";
import { ON_PGLITE } from "../setup/test-database";

const DATE = new Date(Date.now() + 10 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);

function eventForm(title: string, extra: Record<string, string> = {}): Record<string, string> {
  return { intent: "create", title, description: "Lanterns on the water.", eventDate: DATE, eventTime: "20:00", timezone: "UTC", worldName: "", featured: "on", ...extra };
}

describe.runIf(ON_PGLITE)("an event's world and end, from the Sanctum's form to the visitors' pages", () => {
  let fake: FakeVRChat;
  let server: ServerProcess;
  let dataDir: string;
  let cookie: string;
  const page = async (path: string, headers: Record<string, string> = {}) => (await fetch(`${server.url}${path}`, { headers })).text();
  const eventIdOf = async (title: string) => {
    const html = await page("/events");
    const match = new RegExp(`href="/events/([0-9a-f-]{36})"[^>]*>(?:(?!</a>).)*${title}`, "s").exec(html);
    return match?.[1] ?? null;
  };

  beforeAll(async () => {
    fake = await startFakeVRChat();
    dataDir = mkdtempSync(join(tmpdir(), "dwell-world-"));
    server = await startServerProcess({ DATA_DIR: dataDir, DEMO_CONTENT: "false", VRCHAT_TIMEOUT_SECONDS: "2", ...fakeVRChatEnv(fake) });
    createAccountWithCommand(dataDir, "keeper@dwell.example", "moonlight-over-the-hall", "admin");
    cookie = await signIn(server.url, "keeper@dwell.example", "moonlight-over-the-hall");
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("fills a known world's name and picture, and carries the end everywhere", async () => {
    const link = `https://vrchat.com/home/world/${FAKE_WORLD_ID}`;
    const saved = await postForm(server.url, "/admin/events", eventForm("Lantern Night", { worldLink: link, ends: `${DATE}T23:30` }), { cookie });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe("/admin/events");
    const id = await eventIdOf("Lantern Night");
    expect(id).not.toBeNull();

    const detail = await page(`/events/${id}`);
    expect(textOf(detail)).toContain(FAKE_WORLD_NAME);
    expect(textOf(detail)).toContain("until 11:30 PM UTC");
    expect(detail).toContain(`href="https://vrchat.com/home/world/${FAKE_WORLD_ID}"`);
    expect(detail).toContain(`"endDate":"${DATE}T23:30:00+00:00"`);

    // The home page's hero shows the featured event's world instead of an empty frame.
    const home = await page("/");
    const hero = /<img[^>]*data-testid="hero-picture"[^>]*>/.exec(home)?.[0] ?? "";
    expect(hero).toContain(`src="${fake.url}/file/file_lantern/1/file"`);

    // The iCal feed ends the event when it ends.
    const feed = new ICAL.Component(ICAL.parse(await page("/events.ics")));
    const entry = feed.getAllSubcomponents("vevent").map((vevent) => new ICAL.Event(vevent)).find((event) => event.summary === "Lantern Night")!;
    expect(entry.endDate.toJSDate().toISOString()).toBe(`${DATE}T23:30:00.000Z`);
    expect(entry.location).toBe(`VRChat: ${FAKE_WORLD_NAME}`);

    // The link preview's picture is drawn over the world's picture, fetched once from VRChat.
    const before = fake.calls.worldPicture ?? 0;
    const card = await fetch(`${server.url}/events/${id}/card.jpg`);
    expect(card.status).toBe(200);
    expect(card.headers.get("content-type")).toBe("image/jpeg");
    expect(fake.calls.worldPicture ?? 0).toBe(before + 1);

    // The Sanctum's card links the world; editing keeps the checked world without asking again.
    const calls = fake.calls.world ?? 0;
    const edited = await postForm(server.url, "/admin/events", { ...eventForm("Lantern Night", { worldLink: FAKE_WORLD_ID, ends: `${DATE}T23:30`, worldName: "Lantern Garden (east)" }), intent: "update", id: id! }, { cookie });
    expect(edited.status).toBe(302);
    expect(fake.calls.world ?? 0).toBe(calls);
    expect(textOf(await page(`/events/${id}`))).toContain("Lantern Garden (east)");

    // Attendance waits for the end of the night.
    const early = await postForm(server.url, `/admin/events/${id}/applications`, [["intent", "attendance"], ["attendance", "attended"], ["ids", "00000000-0000-4000-8000-000000000000"]], { cookie });
    expect(early.status).toBe(409);
    expect(textOf(await early.text())).toContain("Attendance is marked once the event has ended.");
    const nonsense = await postForm(server.url, `/admin/events/${id}/applications`, [["intent", "attendance"], ["attendance", "maybe"], ["ids", "x"]], { cookie });
    expect(nonsense.status).toBe(400);
  });

  it("refuses a world VRChat does not know, and a link that is not a world, saving nothing", async () => {
    const unknown = await postForm(server.url, "/admin/events", eventForm("Nowhere Night", { worldLink: "wrld_00000000-0000-4000-8000-000000000000" }), { cookie });
    expect(unknown.status).toBe(400);
    expect(textOf(await unknown.text())).toContain("VRChat does not know this world: check its link.");
    const notWorld = await postForm(server.url, "/admin/events", eventForm("Nowhere Night", { worldLink: "https://vrchat.com/home/user/usr_4432ea9b-729c-46e3-8eaf-846aa0a37fdd" }), { cookie });
    expect(notWorld.status).toBe(400);
    expect(textOf(await notWorld.text())).toContain("That is not a VRChat world");
    const backwards = await postForm(server.url, "/admin/events", eventForm("Nowhere Night", { worldName: "Somewhere", ends: `${DATE}T19:00` }), { cookie });
    expect(backwards.status).toBe(400);
    expect(textOf(await backwards.text())).toContain("Ends must be after the start");
    expect(await eventIdOf("Nowhere Night")).toBeNull();
  });

  it("keeps the typed name when VRChat cannot be asked, and tells the admin the world was not checked", async () => {
    // A world not asked about before (answers are kept a few minutes), while VRChat fails.
    const fog = "wrld_0f0f0f0f-0000-4000-8000-00000000f0f0";
    fake.group.worlds.push({ id: fog, name: "Fog Garden" });
    fake.setEndpoint("world", { status: 503 });
    try {
      const nameless = await postForm(server.url, "/admin/events", eventForm("Fogbound Night", { worldLink: fog }), { cookie });
      expect(nameless.status).toBe(400);
      expect(textOf(await nameless.text())).toContain("World Name is required: VRChat could not be asked");

      const named = await postForm(server.url, "/admin/events", eventForm("Fogbound Night", { worldLink: fog, worldName: "The Foggy Garden" }), { cookie });
      expect(named.status).toBe(302);
      const list = textOf(await page(named.headers.get("location")!, { cookie }));
      expect(list).toContain("VRChat could not be asked about the world just now, so it was not checked");
      expect(list).toContain("World not checked with VRChat");
      expect(textOf(await page(`/events/${await eventIdOf("Fogbound Night")}`))).toContain("The Foggy Garden");
    } finally {
      fake.setEndpoint("world", "normal");
    }
  });
});
