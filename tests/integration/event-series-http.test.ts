/**
 * 'Repeats' as an admin uses it and visitors meet it, over HTTP against the production server and
 * the fake VRChat: a weekly series made from the Sanctum's form shows its next events on /events, on
 * each event's page, in the iCal feed and on the group's VRChat calendar (each its own entry); bad
 * input (repeats that never end, both ends, too long, an unknown repeat) is refused with the form's
 * message and nothing saved; 'this and the following' renames and moves the later events (and their
 * VRChat entries), 'this event' alone keeps the series; 'delete this and the following' ends it.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, SERIES_TEXTS } from "~/features/events/event-series";
import { fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../fakes/vrchat";
import { textOf } from "../setup/page-text";
import { createAccountWithCommand, postForm, signIn } from "../setup/sanctum-client";
import { startServerProcess, type ServerProcess } from "../setup/server-process";
import { ON_PGLITE } from "../setup/test-database";

const FIRST = addDays(new Date().toISOString().slice(0, 10), 3);
const WEEKDAY = new Date(`${FIRST}T12:00:00Z`).toLocaleDateString("en-US", { weekday: "long", timeZone: "UTC" });
const shortDate = (date: string) => new Date(`${date}T12:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });

/** The event form as an admin fills it: a weekly series of ten, published to VRChat's calendar. */
function seriesForm(title: string, extra: Record<string, string> = {}): [string, string][] {
  const fields: Record<string, string> = {
    intent: "create",
    title,
    description: "Stories by the fire.",
    eventDate: FIRST,
    eventTime: "20:00",
    timezone: "UTC",
    worldName: "Hearth Hall",
    repeats: "weekly",
    repeatUntil: "",
    repeatCount: "10",
    publishToVRChat: "on",
    vrchatCategory: "hangout",
    vrchatAccess: "public",
    ...extra,
  };
  return [...Object.entries(fields), ["vrchatLanguage", "eng"], ["vrchatPlatform", "standalonewindows"]];
}

describe.runIf(ON_PGLITE)("a repeating event, from the Sanctum's form to the visitors' pages and VRChat's calendar", () => {
  let fake: FakeVRChat;
  let server: ServerProcess;
  let dataDir: string;
  let cookie: string;
  const page = async (path: string, headers: Record<string, string> = {}) => (await fetch(`${server.url}${path}`, { headers })).text();
  const admin = (path: string) => page(path, { cookie });
  const ours = (title: string) => fake.group.calendar.filter((entry) => entry.title === title);
  /** The Sanctum's cards, in order: each event's id and title. */
  const cards = async () =>
    [...(await admin("/admin/events")).matchAll(/<a [^>]*aria-label="Edit Event [^"]+"[^>]*>/g)].map(([tag]) => ({
      id: /\?edit=([0-9a-f-]{36})/.exec(tag)![1]!,
      title: /aria-label="Edit Event ([^"]+)"/.exec(tag)![1]!.replace(/&#x27;/g, "'").replace(/&amp;/g, "&"),
    }));
  const feedEvents = async () =>
    new ICAL.Component(ICAL.parse(await page("/events.ics")))
      .getAllSubcomponents("vevent")
      .map((vevent) => new ICAL.Event(vevent))
      .map((event) => ({ title: event.summary, start: event.startDate.toJSDate().toISOString() }));

  beforeAll(async () => {
    fake = await startFakeVRChat();
    dataDir = mkdtempSync(join(tmpdir(), "dwell-series-"));
    server = await startServerProcess({ DATA_DIR: dataDir, DEMO_CONTENT: "false", VRCHAT_PUBLISH_EVENTS: "true", ...fakeVRChatEnv(fake) });
    createAccountWithCommand(dataDir, "keeper@dwell.example", "moonlight-over-the-hall", "admin");
    cookie = await signIn(server.url, "keeper@dwell.example", "moonlight-over-the-hall");
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("refuses repeats that never end, and other bad input, saving nothing", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ repeatCount: "" }, SERIES_TEXTS.neverEnds],
      [{ repeatUntil: addDays(FIRST, 60) }, SERIES_TEXTS.bothEnds],
      [{ repeatCount: "", repeatUntil: addDays(FIRST, -7) }, SERIES_TEXTS.untilBeforeStart],
      [{ repeatCount: "", repeatUntil: addDays(FIRST, 1000) }, SERIES_TEXTS.tooLong],
      [{ repeatCount: "500" }, SERIES_TEXTS.tooLong],
      [{ repeats: "daily" }, "Choose how the event repeats"],
    ];
    for (const [extra, message] of cases) {
      const refused = await postForm(server.url, "/admin/events", seriesForm("Never Ending Story", extra), { cookie });
      expect(refused.status, JSON.stringify(extra)).toBe(400);
      expect(textOf(await refused.text())).toContain(message);
    }
    expect(textOf(await page("/events"))).not.toContain("Never Ending Story");
    expect(fake.calendarWrites).toEqual([]);
  });

  it("shows a weekly series' next events on /events, each event's page, the iCal feed and VRChat's calendar", async () => {
    const created = await postForm(server.url, "/admin/events", seriesForm("Fireside Tales"), { cookie });
    expect(created.status).toBe(302);
    const dates = [0, 1, 2, 3, 4, 5, 6, 7].map((week) => addDays(FIRST, 7 * week));

    // Eight weeks ahead: the first eight of ten, each its own event.
    const listed = textOf(await page("/events"));
    expect(listed.match(/Fireside Tales/g)).toHaveLength(8);
    const starts = (await feedEvents()).filter((event) => event.title === "Fireside Tales").map((event) => event.start);
    expect(starts).toEqual(dates.map((date) => `${date}T20:00:00.000Z`));

    const mine = (await cards()).filter((card) => card.title === "Fireside Tales");
    expect(mine).toHaveLength(8);
    const sanctum = textOf(await admin("/admin/events"));
    expect(sanctum).toContain(`Weekly on ${WEEKDAY} · event 1 of 10`);
    expect(sanctum).toContain(`Weekly on ${WEEKDAY} · event 8 of 10`);

    // Each event's page says how it repeats and links the next ones.
    const first = await page(`/events/${mine[0]!.id}`);
    expect(textOf(first)).toContain(`Weekly on ${WEEKDAY} Next: ${shortDate(dates[1]!)} · ${shortDate(dates[2]!)} · ${shortDate(dates[3]!)}`);
    expect(first).toContain(`href="/events/${mine[1]!.id}"`);

    // VRChat's calendar carries each one, its description linking its own page.
    await expect.poll(() => ours("Fireside Tales").length, { timeout: 20_000 }).toBe(8);
    const entries = ours("Fireside Tales").sort((a, b) => (a.startsAt ?? "").localeCompare(b.startsAt ?? ""));
    expect(entries.map((entry) => entry.startsAt)).toEqual(dates.map((date) => `${date}T20:00:00.000Z`));
    expect(entries.map((entry) => entry.description)).toEqual(mine.map((card) => `Stories by the fire.\n\n${server.publicUrl}/events/${card.id}`));
  });

  it("changes this and the following events, keeps the series on a one-event edit, and ends it from an event on", async () => {
    const mine = (await cards()).filter((card) => card.title === "Fireside Tales");
    const third = mine[2]!;
    const edit = (extra: Record<string, string>) => seriesForm("Fireside Tales", { intent: "update", id: third.id, eventDate: addDays(FIRST, 14), ...extra });

    // 'This event' with another repeat: refused, the series' rule belongs to 'this and the following'.
    const wrong = await postForm(server.url, "/admin/events", edit({ applyTo: "this", repeatCount: "12" }), { cookie });
    expect(wrong.status).toBe(400);
    expect(textOf(await wrong.text())).toContain(SERIES_TEXTS.repeatsNeedFollowing);

    // 'This event' alone: only the third is renamed.
    const one = await postForm(server.url, "/admin/events", edit({ applyTo: "this", title: "Fireside Tales: Ghost Stories" }), { cookie });
    expect(one.status).toBe(302);
    expect((await cards()).map((card) => card.title).filter((title) => title.startsWith("Fireside"))).toEqual([
      "Fireside Tales",
      "Fireside Tales",
      "Fireside Tales: Ghost Stories",
      ...Array.from({ length: 5 }, () => "Fireside Tales"),
    ]);

    // 'This and the following', from the fourth: renamed and an hour later, the first three as they were.
    const fourth = mine[3]!;
    const following = await postForm(server.url, "/admin/events", seriesForm("Fireside Tales by Moonlight", { intent: "update", id: fourth.id, eventDate: addDays(FIRST, 21), eventTime: "21:00", applyTo: "following" }), { cookie });
    expect(following.status).toBe(302);
    const feed = (await feedEvents()).filter((event) => event.title.startsWith("Fireside"));
    expect(feed.map((event) => [event.title, event.start])).toEqual([
      ["Fireside Tales", `${FIRST}T20:00:00.000Z`],
      ["Fireside Tales", `${addDays(FIRST, 7)}T20:00:00.000Z`],
      ["Fireside Tales: Ghost Stories", `${addDays(FIRST, 14)}T20:00:00.000Z`],
      ...[3, 4, 5, 6, 7].map((week) => ["Fireside Tales by Moonlight", `${addDays(FIRST, 7 * week)}T21:00:00.000Z`]),
    ]);
    await expect.poll(() => ours("Fireside Tales by Moonlight").length, { timeout: 20_000 }).toBe(5);
    await expect.poll(() => ours("Fireside Tales by Moonlight").every((entry) => entry.startsAt?.endsWith("T21:00:00.000Z")), { timeout: 20_000 }).toBe(true);

    // 'Delete this and the following' from the sixth: five are left, the series ends, VRChat's entries go.
    const sixth = mine[5]!;
    const deleted = await postForm(server.url, "/admin/events", { intent: "delete", id: sixth.id, applyTo: "following" }, { cookie });
    expect(deleted.status).toBe(302);
    expect(textOf(await page("/events")).match(/Fireside Tales/g)).toHaveLength(5);
    await expect.poll(() => ours("Fireside Tales by Moonlight").length, { timeout: 20_000 }).toBe(2);
    expect(textOf(await admin("/admin/events"))).toContain(`Weekly on ${WEEKDAY} · event 5 of 5`);
  });

  it("uses one event's questions for the following events", async () => {
    const created = await postForm(server.url, "/admin/events", seriesForm("Book Club", { applicationRequired: "on", publishToVRChat: "", repeatCount: "4" }), { cookie });
    expect(created.status).toBe(302);
    const club = (await cards()).filter((card) => card.title === "Book Club");
    expect(club).toHaveLength(4);
    const questions = `/admin/events/${club[0]!.id}/questions`;
    const added = await postForm(server.url, questions, { intent: "add", question: "Which book are you bringing?", questionType: "text", required: "on" }, { cookie });
    expect(added.status).toBe(200);
    expect(textOf(await admin(questions))).toContain("Use for the following events");
    const used = await postForm(server.url, questions, { intent: "use-for-following" }, { cookie });
    expect(used.status).toBe(200);
    expect(textOf(await used.text())).toContain("Copied to the following 3 events.");
    // A visitor applying to the last one meets the question.
    expect(textOf(await page(`/events/${club[3]!.id}/apply`))).toContain("Which book are you bringing?");

    // The decision messages page does the same for the approval message.
    const messages = `/admin/events/${club[0]!.id}/messages`;
    const saved = await postForm(server.url, messages, { intent: "save", kind: "event", outcome: "approved", body: "See you at the book club, {username}." }, { cookie });
    expect(saved.status).toBe(200);
    const usedMessages = await postForm(server.url, messages, { intent: "use-for-following" }, { cookie });
    expect(usedMessages.status).toBe(200);
    expect(textOf(await usedMessages.text())).toContain("Copied to the following 3 events.");
    expect(textOf(await admin(`/admin/events/${club[3]!.id}/messages`))).toContain("See you at the book club, {username}.");
  });
});
