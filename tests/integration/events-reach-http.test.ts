/**
 * Events that travel, over HTTP from the production server with its demo events: the feed a
 * calendar app subscribes to, one event's file, the links to them on the pages, and what a link to
 * a page shows where it is pasted (as Discord reads it: the meta tags, then the picture).
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
    expect(url).toBe(`${server.publicUrl}/events/${event.uid.split("@")[0]}`);
    expect((await fetch(url)).status).toBe(200);
  }
  expect(page).toContain(`href="webcal://${new URL(server.publicUrl).host}/events.ics"`);
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

/** A page's meta tags and JSON-LD, as a link preview reads them from the HTML. */
async function previewOf(path: string) {
  const html = await fetch(`${server.url}${path}`).then((r) => r.text());
  const head = html.slice(0, html.indexOf("</head>"));
  const tags = new Map<string, string>();
  for (const [, key, value] of head.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)"\/>/g)) tags.set(key!, value!.replaceAll("&#x27;", "'").replaceAll("&amp;", "&"));
  const canonical = /<link rel="canonical" href="([^"]+)"\/>/.exec(head)?.[1];
  const jsonLd = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(head)?.[1];
  return { tags, canonical, jsonLd: jsonLd ? (JSON.parse(jsonLd) as Record<string, unknown>) : null };
}

it("gives every public page a preview: title, description, address, and a picture of 1200 × 630", async () => {
  for (const path of ["/", "/events", "/apply"]) {
    const { tags, canonical } = await previewOf(path);
    expect(tags.get("og:title"), path).toBeTruthy();
    expect(tags.get("og:description"), path).toBeTruthy();
    expect(tags.get("og:url"), path).toBe(`${server.publicUrl}${path}`);
    expect(canonical, path).toBe(`${server.publicUrl}${path}`);
    expect(tags.get("twitter:card"), path).toBe("summary_large_image");
    expect(tags.get("theme-color"), path).toBe("#07061a");
    expect([tags.get("og:image:width"), tags.get("og:image:height")]).toEqual(["1200", "630"]);
  }
  const image = await fetch((await previewOf("/")).tags.get("og:image")!);
  expect(image.status).toBe(200);
  expect(image.headers.get("content-type")).toBe("image/jpeg");
  const bytes = new Uint8Array(await image.arrayBuffer());
  // A JPEG whose frame (SOF0) says 630 rows of 1200.
  const frame = bytes.findIndex((byte, i) => byte === 0xff && bytes[i + 1] === 0xc0);
  expect(frame).toBeGreaterThan(0);
  expect([(bytes[frame + 5]! << 8) | bytes[frame + 6]!, (bytes[frame + 7]! << 8) | bytes[frame + 8]!]).toEqual([630, 1200]);
  expect((await previewOf("/apply")).tags.get("og:title")).toBe("The Ritual of Entry");
});

it("shows an event's title, time in its zone, world and 'Application Required', with schema.org Event data", async () => {
  const events = await fetch(`${server.url}/events`).then((r) => r.text());
  const id = /href="\/events\/([0-9a-f-]{36})"[^>]*>(?:(?!<\/a>).)*?The Gathering at the Threshold/s.exec(events)![1]!;
  const { tags, jsonLd } = await previewOf(`/events/${id}`);
  expect(tags.get("og:title")).toBe("The Gathering at the Threshold");
  expect(tags.get("og:description")).toMatch(/^\w+day, \w+ \d+, 2026 at 8:00 PM E[SD]T · in The Black Cat · Application Required\. /);
  expect(tags.get("og:url")).toBe(`${server.publicUrl}/events/${id}`);
  expect(jsonLd).toMatchObject({
    "@context": "https://schema.org",
    "@type": "Event",
    name: "The Gathering at the Threshold",
    startDate: expect.stringMatching(/^2026-\d\d-\d\dT20:00:00-0[45]:00$/),
    endDate: expect.stringMatching(/^2026-\d\d-\d\dT22:00:00-0[45]:00$/),
    eventStatus: "https://schema.org/EventScheduled",
    eventAttendanceMode: "https://schema.org/OnlineEventAttendanceMode",
    location: { "@type": "VirtualLocation", name: "VRChat: The Black Cat", url: `${server.publicUrl}/events/${id}` },
    organizer: { "@type": "Organization", name: "The Dwellers" },
  });
  // The event's own picture, drawn on the server: what Discord fetches and shows.
  const picture = tags.get("og:image")!;
  expect(picture).toMatch(new RegExp(`^${server.publicUrl}/events/${id}/card\\.jpg\\?v=\\d+$`));
  expect(jsonLd!.image).toEqual([picture]);
  expect(tags.get("og:image:alt")).toMatch(/^The Gathering at the Threshold: \w+day, /);
  const image = await fetch(picture);
  expect(image.status).toBe(200);
  expect(image.headers.get("content-type")).toBe("image/jpeg");
  expect(image.headers.get("cache-control")).toBe("public, max-age=86400");
  const bytes = new Uint8Array(await image.arrayBuffer());
  const frame = bytes.findIndex((byte, i) => byte === 0xff && (bytes[i + 1] === 0xc0 || bytes[i + 1] === 0xc2));
  expect(frame).toBeGreaterThan(0);
  expect([(bytes[frame + 5]! << 8) | bytes[frame + 6]!, (bytes[frame + 7]! << 8) | bytes[frame + 8]!]).toEqual([630, 1200]);
  expect(bytes.length).toBeLessThan(60_000);
  const siteResponse = await fetch(`${server.url}/og-card.jpg`);
  const site = new Uint8Array(await siteResponse.arrayBuffer());
  expect(Buffer.from(bytes).equals(Buffer.from(site))).toBe(false);
  // Asked for without its version (an old link), it is kept for minutes only.
  expect((await fetch(`${server.url}/events/${id}/card.jpg`)).headers.get("cache-control")).toBe("public, max-age=300");
  expect((await fetch(`${server.url}/events/00000000-0000-4000-8000-000000000000/card.jpg`)).status).toBe(404);
  const applyPreview = await previewOf(`/events/${id}/apply`);
  expect(applyPreview.tags.get("og:title")).toBe("Apply for The Gathering at the Threshold");
  expect(applyPreview.tags.get("og:url")).toBe(`${server.publicUrl}/events/${id}/apply`);
});
