/**
 * The events as calendars, over HTTP from the production server with its demo events: the feed a
 * calendar app subscribes to, one event's file, and the links to them on the pages.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ICAL from "ical.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startServerProcess, type ServerProcess } from "../setup/server-process";

let server: ServerProcess;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "dwell-calendar-"));
  server = await startServerProcess({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const veventsOf = (text: string) => new ICAL.Component(ICAL.parse(text)).getAllSubcomponents("vevent").map((component) => new ICAL.Event(component));

it("serves the feed of the events as text/calendar, each event linking to its page", async () => {
  const response = await fetch(`${server.url}/events.ics`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
  const events = veventsOf(await response.text());
  const page = await fetch(`${server.url}/events`).then((r) => r.text());
  const upcoming = page.slice(page.indexOf("Prophesied Meetings"), page.indexOf("Past Events"));
  const upcomingIds = [...new Set([...upcoming.matchAll(/href="\/events\/([0-9a-f-]{36})"/g)].map((m) => m[1]!))];
  expect(upcomingIds.length).toBeGreaterThan(0);
  const feedIds = events.map((event) => event.uid.split("@")[0]);
  // Every upcoming event is in the feed (and past ones of the last 30 days may be too).
  expect(upcomingIds.filter((id) => !feedIds.includes(id))).toEqual([]);
  for (const event of events.slice(0, 3)) {
    const url = event.component.getFirstPropertyValue("url") as string;
    expect(url).toBe(`${server.url}/events/${event.uid.split("@")[0]}`);
    expect((await fetch(url)).status).toBe(200);
  }
  expect(page).toContain(`href="webcal://${new URL(server.url).host}/events.ics"`);
  expect(page).toContain("Subscribe to calendar");
});

it("serves one event as a file to open, the same event as in the feed", async () => {
  const feed = veventsOf(await fetch(`${server.url}/events.ics`).then((r) => r.text()));
  // An upcoming one: a past event's page offers no 'Add to calendar'.
  const first = feed.find((event) => event.startDate.toJSDate().getTime() > Date.now());
  const id = first!.uid.split("@")[0]!;
  const response = await fetch(`${server.url}/events/${id}/calendar.ics`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="[a-z0-9-]+\.ics"$/);
  const [one, ...rest] = veventsOf(await response.text());
  expect(rest).toEqual([]);
  expect([one!.uid, one!.summary, one!.startDate.toJSDate().toISOString()]).toEqual([first!.uid, first!.summary, first!.startDate.toJSDate().toISOString()]);

  const html = await fetch(`${server.url}/events/${id}`).then((r) => r.text());
  expect(html).toContain("Add to calendar");
  expect(html).toContain(`href="/events/${id}/calendar.ics"`);
  expect(html).toMatch(/href="https:\/\/calendar\.google\.com\/calendar\/render\?action=TEMPLATE&amp;text=[^"]+&amp;dates=\d{8}T\d{6}Z%2F\d{8}T\d{6}Z/);
  expect(html).toContain("https://outlook.live.com/calendar/0/action/compose?");

  expect((await fetch(`${server.url}/events/not-an-event/calendar.ics`)).status).toBe(404);
  expect((await fetch(`${server.url}/events/00000000-0000-4000-8000-000000000000/calendar.ics`)).status).toBe(404);
});
