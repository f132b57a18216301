import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createCanvas, loadImage } from "@napi-rs/canvas";
import { expect, it } from "vitest";
import type { EventRow } from "~/db/schema";
import { inLanguage } from "~/utils/language.server";
import { CARD_HEIGHT, CARD_WIDTH, cardTextOf, drawEventCard, eventCardImage, isVRChatPicture } from "./event-card-image.server";

const NO_API = "https://api.vrchat.cloud";

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

it("draws each version of an event once, and a new picture once it changes", async () => {
  const first = await eventCardImage(event, NO_API);
  expect((await eventCardImage(event, NO_API)).image).toBe(first.image);
  const edited = await eventCardImage({ ...event, title: "Renamed", updatedAt: new Date("2026-11-21T10:00:00Z") }, NO_API);
  expect(edited.version).not.toBe(first.version);
  expect(edited.image.equals(first.image)).toBe(false);
});

/** A pixel of a drawn card, near its top-right corner (away from the text). */
async function cornerPixel(card: Buffer): Promise<number[]> {
  const image = await loadImage(card);
  const canvas = createCanvas(CARD_WIDTH, CARD_HEIGHT);
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0);
  return [...context.getImageData(CARD_WIDTH - 20, 20, 1, 1).data.subarray(0, 3)];
}

it("draws the world's picture behind the text, fetched only from VRChat's hosts", async () => {
  const red = createCanvas(400, 300);
  const paint = red.getContext("2d");
  paint.fillStyle = "#ff0000";
  paint.fillRect(0, 0, 400, 300);
  const png = red.encodeSync("png");
  let asked = 0;
  const server = createServer((_, response) => {
    asked += 1;
    response.writeHead(200, { "Content-Type": "image/png" }).end(png);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const withWorld = { ...event, id: "1b0d8f4e-8f53-4f5e-9d0f-1f6b8f0c2a12", worldImageUrl: `${origin}/file/world.png` } as EventRow;
    const [r, g, b] = await cornerPixel((await eventCardImage(withWorld, origin)).image);
    // Red under the darkening veil: red leads, unlike the plain sky (#0d0b26).
    expect(r).toBeGreaterThan(50);
    expect(r).toBeGreaterThan(g! + 30);
    expect(r).toBeGreaterThan(b!);
    expect(asked).toBe(1);

    // Not VRChat's: never fetched, and the card keeps its plain sky.
    const elsewhere = { ...withWorld, id: "2b0d8f4e-8f53-4f5e-9d0f-1f6b8f0c2a13" } as EventRow;
    const [r2, , b2] = await cornerPixel((await eventCardImage(elsewhere, NO_API)).image);
    expect(asked).toBe(1);
    expect(b2).toBeGreaterThan(r2!);
  } finally {
    server.close();
  }
});

it("knows VRChat's picture hosts", () => {
  expect(isVRChatPicture("https://api.vrchat.cloud/api/1/file/file_1/1/file", NO_API)).toBe(true);
  expect(isVRChatPicture("https://files.vrchat.cloud/thumbnails/1.png", NO_API)).toBe(true);
  expect(isVRChatPicture("http://files.vrchat.cloud/1.png", NO_API)).toBe(false);
  expect(isVRChatPicture("https://vrchat.cloud.evil.example/1.png", NO_API)).toBe(false);
  expect(isVRChatPicture("http://169.254.169.254/latest", NO_API)).toBe(false);
});

/** The brightest pixel in a strip of a drawn card (text is light, the sky dark). */
async function brightest(card: Buffer, x: number, y: number, width: number, height: number): Promise<number> {
  const image = await loadImage(card);
  const canvas = createCanvas(CARD_WIDTH, CARD_HEIGHT);
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0);
  const data = context.getImageData(x, y, width, height).data;
  let most = 0;
  for (let i = 0; i < data.length; i += 4) most = Math.max(most, data[i]!, data[i + 1]!, data[i + 2]!);
  return most;
}

it("breaks a title written without spaces (Japanese) within the card's margins", async () => {
  const japanese = { ...cardTextOf(event), title: "月明かりの瞑想会と灯籠の夕べ、長い冬の夜のための歌と物語と静かな湖畔の集いをみんなで楽しむ会" };
  const card = drawEventCard(japanese, "png");
  // The title's lines (from y 150 to 460) leave the right margin (the last 70 pixels) dark.
  expect(await brightest(card, CARD_WIDTH - 70, 150, 70, 310)).toBeLessThan(80);
  // And they are drawn: the left of the title's first line is lit.
  expect(await brightest(card, 80, 160, 400, 70)).toBeGreaterThan(150);
});

it("draws an event's card in the language it is asked in, each language its own picture", async () => {
  const english = await eventCardImage(event, NO_API);
  const japanese = await inLanguage("ja", () => eventCardImage(event, NO_API));
  expect(japanese.version).toBe(english.version);
  expect(japanese.image.equals(english.image)).toBe(false);
  expect((await inLanguage("ja", () => eventCardImage(event, NO_API))).image).toBe(japanese.image);
  expect(inLanguage("ja", () => cardTextOf(event)).when).toBe("2026年11月28日(土) 20:00 EST");
});
