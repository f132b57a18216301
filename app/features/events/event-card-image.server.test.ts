import { loadImage } from "@napi-rs/canvas";
import { expect, it } from "vitest";
import type { EventRow } from "~/db/schema";
import { CARD_HEIGHT, CARD_WIDTH, cardTextOf, drawEventCard, eventCardImage } from "./event-card-image.server";

const event = {
  id: "6b0d8f4e-8f53-4f5e-9d0f-1f6b8f0c2a11",
  title: "The Gathering at the Threshold of the Long Winter Night, with Lanterns, Songs and a Very Long Title Indeed",
  eventDate: "2026-11-28",
  eventTime: "20:00:00",
  timezone: "EST",
  worldName: "The Black Cat",
  applicationRequired: true,
  updatedAt: new Date("2026-11-20T10:00:00Z"),
} as EventRow;

it("draws a 1200 × 630 JPEG under 60 KB, whatever the title's length", async () => {
  const card = drawEventCard(cardTextOf(event));
  expect([...card.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  const image = await loadImage(card);
  expect([image.width, image.height]).toEqual([CARD_WIDTH, CARD_HEIGHT]);
  expect(card.length).toBeLessThan(60_000);
  expect(cardTextOf(event).when).toBe("Saturday, November 28, 2026 at 8:00 PM EST");
});

it("draws each version of an event once, and a new picture once it changes", () => {
  const first = eventCardImage(event);
  expect(eventCardImage(event).image).toBe(first.image);
  const edited = eventCardImage({ ...event, title: "Renamed", updatedAt: new Date("2026-11-21T10:00:00Z") });
  expect(edited.version).not.toBe(first.version);
  expect(edited.image.equals(first.image)).toBe(false);
});
