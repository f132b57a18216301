/**
 * An event's instance opening itself on the production server, over HTTP against the VRChat and
 * Discord fakes: an event made in the Sanctum with its world opens at its time with no one pressing
 * anything, once; its card shows it open with its join link; the announcement channel gets the link;
 * 'Close' closes it in VRChat.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeDiscord } from "../fakes/discord";
import { FAKE_GROUP_ID, FAKE_WORLD_ID, fakeUserId, fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { requestProblem } from "../fakes/vrchat-contract";
import { textOf } from "../setup/page-text";
import { createAccountWithCommand, postForm, signIn } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess } from "../setup/server-process";
import { ON_PGLITE } from "../setup/test-database";

describe.runIf(ON_PGLITE)("an event's instance opens itself, on the server as deployed", () => {
  let fake: FakeVRChat;
  let discord: Awaited<ReturnType<typeof startFakeDiscord>>;
  let server: ServerProcess;
  let dataDir: string;
  let cookie: string;
  const sanctum = async () => (await fetch(`${server.url}/admin/events`, { headers: { cookie } })).text();

  beforeAll(async () => {
    fake = await startFakeVRChat();
    fake.group.instances = [];
    discord = await startFakeDiscord();
    dataDir = mkdtempSync(join(tmpdir(), "dwell-instance-"));
    server = await startServerProcess({
      DATA_DIR: dataDir,
      DEMO_CONTENT: "false",
      VRCHAT_OPEN_INSTANCES: "true",
      DISCORD_ANNOUNCE_WEBHOOK_URL: `${discord.url}/api/webhooks/7/announce-token`,
      ...fakeVRChatEnv(fake),
    });
    createAccountWithCommand(dataDir, "keeper@dwell.example", "moonlight-over-the-hall", "admin");
    cookie = await signIn(server.url, "keeper@dwell.example", "moonlight-over-the-hall");
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
    await discord?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("opens at its time by itself, once, announces the join link, and closes on 'Close'", async () => {
    // Starting in ten minutes, opening fifteen before: due as soon as it is saved.
    const start = new Date(Math.ceil((Date.now() + 10 * 60_000) / 60_000) * 60_000).toISOString();
    const form = {
      intent: "create",
      title: "Lantern Night",
      eventDate: start.slice(0, 10),
      eventTime: start.slice(11, 16),
      timezone: "UTC",
      worldLink: `https://vrchat.com/home/world/${FAKE_WORLD_ID}`,
      instanceLead: "15",
      instanceRegion: "jp",
      instanceAccess: "members",
    };
    expect(textOf(await (await fetch(`${server.url}/admin/events?new`, { headers: { cookie } })).text())).toContain("Open the instance");
    const saved = await postForm(server.url, "/admin/events", form, { cookie });
    expect(saved.status).toBe(302);

    await expect.poll(() => fake.instanceWrites.length, { timeout: 45_000, interval: 500 }).toBe(1);
    expect(fake.instanceWrites[0]!.body).toMatchObject({ worldId: FAKE_WORLD_ID, type: "group", groupAccessType: "members", region: "jp", queueEnabled: true });
    const html = await sanctum();
    expect(textOf(html)).toContain("Instance open in VRChat");
    expect(html).toContain(`href="https://vrchat.com/home/launch?worldId=${FAKE_WORLD_ID}&amp;instanceId=`);

    await expect.poll(() => discord.requests.length, { timeout: 15_000 }).toBe(1);
    expect(discord.requests[0]!.body.content).toContain("**Lantern Night** is open in VRChat (for the group's members): https://vrchat.com/home/launch?worldId=");
    expect(discord.requests[0]!.body.allowed_mentions).toEqual({ parse: [] });

    // A 'Group' instance is for members: visitors' pages never carry its link.
    const eventId = /name="id" value="([0-9a-f-]{36})"/.exec(html)![1]!;
    for (const path of ["/", "/events", `/events/${eventId}`, "/api/group-data", "/events.ics"]) {
      expect(await (await fetch(`${server.url}${path}`)).text(), path).not.toContain("vrchat.com/home/launch");
    }

    // The next looks find it open: still one instance.
    await new Promise((resolve) => setTimeout(resolve, 31_000));
    expect(fake.instanceWrites).toHaveLength(1);

    const closed = await postForm(server.url, "/admin/events", { intent: "close-instance", id: eventId }, { cookie });
    expect(closed.status).toBe(302);
    expect(fake.instanceWrites.map((write) => write.kind)).toEqual(["create", "close"]);
    expect(textOf(await sanctum())).toContain("The instance was closed.");
    expect(fake.requests.map(requestProblem).filter((problem) => problem !== null)).toEqual([]);
  }, 120_000);

  it("opens its own 'Group Public' instance beside a member's in the same world, and shows visitors only its short link", async () => {
    // A member opened a 'Group Public' instance in the event's world before Dwell looks.
    const members = `${FAKE_WORLD_ID}:77777~group(${FAKE_GROUP_ID})~groupAccessType(public)~region(jp)~nonce(a-members-secret-nonce)`;
    fake.group.instances.push({ location: members, memberCount: 4, userCount: 4, type: "group", groupAccessType: "public", creatorId: fakeUserId(42), world: { name: "Garden" } });
    const start = new Date(Math.ceil((Date.now() + 10 * 60_000) / 60_000) * 60_000).toISOString();
    const created = fake.instanceWrites.filter((write) => write.kind === "create").length;
    const saved = await postForm(
      server.url,
      "/admin/events",
      { intent: "create", title: "Open Lanterns", eventDate: start.slice(0, 10), eventTime: start.slice(11, 16), timezone: "UTC", worldLink: `https://vrchat.com/home/world/${FAKE_WORLD_ID}`, instanceLead: "15", instanceRegion: "jp", instanceAccess: "public" },
      { cookie },
    );
    expect(saved.status).toBe(302);
    await expect.poll(() => fake.instanceWrites.filter((write) => write.kind === "create").length, { timeout: 45_000, interval: 500 }).toBe(created + 1);
    const mine = fake.instanceWrites.filter((write) => write.kind === "create").at(-1)!;
    expect(mine.location).not.toBe(members);
    const listed = await fetch(`${server.url}/events`).then((r) => r.text());
    const openId = new RegExp('href="/events/([0-9a-f-]{36})"[^>]*>(?:(?!</a>).)*?Open Lanterns', "s").exec(listed)![1]!;
    await expect.poll(async () => (await fetch(`${server.url}/events/${openId}`).then((r) => r.text())).includes("https://vrch.at/"), { timeout: 15_000 }).toBe(true);
    const page = await fetch(`${server.url}/events/${openId}`).then((r) => r.text());
    // The short link names neither the instance's owner nor its nonce; the member's instance is nowhere.
    for (const secret of ["nonce(", "~group(", "77777", "vrchat.com/home/launch"]) expect(page, secret).not.toContain(secret);

    // An event with applications but no world still shows its attendees' role on its card.
    const noWorld = await postForm(server.url, "/admin/events", { intent: "create", title: "Worldless Night", eventDate: "2031-05-01", eventTime: "20:00", timezone: "UTC", worldName: "Somewhere", applicationRequired: "on" }, { cookie });
    expect(noWorld.status).toBe(302);
    const cards = textOf(await sanctum());
    const card = cards.slice(cards.indexOf("Worldless Night"));
    expect(card).toContain("No VRChat world given: no instance opens for it by itself.");
    expect(card).toContain("The attendees' VRChat role is made when the first attendee is approved");
  }, 120_000);
});
