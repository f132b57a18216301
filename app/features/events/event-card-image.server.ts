/**
 * An event's picture for link previews (Discord, chat apps): 1200 × 630, its title, date and time
 * in its zone, its world and the site's name, drawn on the server with Skia (@napi-rs/canvas) as a
 * JPEG (40–60 KB: flat colours and text), in
 * fonts the project ships (@fontsource), so it looks the same on every machine. Drawn once per
 * version of the event and kept in memory; the address carries the version, so an edit is a new
 * picture for the services that keep one per address.
 */
import { createRequire } from "node:module";
import { createCanvas, GlobalFonts, loadImage, type Image, type SKRSContext2D } from "@napi-rs/canvas";
import type { EventRow } from "~/db/schema";
import { eventStart, formatLongDateTime, zoneOf } from "./event-timing";
import { m } from "~/paraglide/messages";
import { currentLanguage, intlLocale } from "~/utils/language";

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;
const JPEG_QUALITY = 72;
const CACHED_CARDS = 200;

const require = createRequire(import.meta.url);
let fontsLoaded = false;

function loadFonts() {
  if (fontsLoaded) return;
  GlobalFonts.registerFromPath(require.resolve("@fontsource/cinzel/files/cinzel-latin-700-normal.woff"), "Dwell Display");
  GlobalFonts.registerFromPath(require.resolve("@fontsource/inter/files/inter-latin-400-normal.woff"), "Dwell Sans");
  GlobalFonts.registerFromPath(require.resolve("@fontsource/inter/files/inter-latin-700-normal.woff"), "Dwell Sans Bold");
  fontsLoaded = true;
}

/**
 * The pieces a line may break between: words and the spaces after them in a spaced script, and in
 * one without spaces (Japanese, Chinese) its words as the language's rules find them; a piece wider
 * than a line is cut into its characters.
 */
function breakable(context: SKRSContext2D, text: string, width: number): string[] {
  const pieces: string[] = [];
  for (const { segment } of new Intl.Segmenter(intlLocale(), { granularity: "word" }).segment(text.replace(/\s+/g, " ").trim())) {
    if (context.measureText(segment).width <= width) pieces.push(segment);
    else for (const { segment: character } of new Intl.Segmenter(intlLocale(), { granularity: "grapheme" }).segment(segment)) pieces.push(character);
  }
  return pieces;
}

/** The lines of `text` that fit `width`, at most `max` of them (the last cut with an ellipsis). */
function wrap(context: SKRSContext2D, text: string, width: number, max: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const piece of breakable(context, text, width)) {
    const next = line + piece;
    if (context.measureText(next).width <= width || !line.trim()) {
      line = next;
      continue;
    }
    lines.push(line.trimEnd());
    line = piece.trimStart();
  }
  if (line.trim()) lines.push(line.trimEnd());
  if (lines.length <= max) return lines;
  const kept = lines.slice(0, max);
  let last = kept[max - 1]!;
  while (last.length > 1 && context.measureText(`${last}…`).width > width) last = last.slice(0, -1);
  kept[max - 1] = `${last.trimEnd()}…`;
  return kept;
}

export interface CardText {
  title: string;
  when: string;
  world: string;
  applicationRequired: boolean;
}

export function cardTextOf(event: EventRow): CardText {
  return {
    title: event.title,
    when: formatLongDateTime(eventStart(event), zoneOf(event.timezone)),
    world: event.worldName,
    applicationRequired: event.applicationRequired,
  };
}

/** Draws `picture` over the whole card, cut to fill it, darkened so the text stays readable. */
function drawBackground(context: SKRSContext2D, picture: Image) {
  const scale = Math.max(CARD_WIDTH / picture.width, CARD_HEIGHT / picture.height);
  const width = picture.width * scale;
  const height = picture.height * scale;
  context.drawImage(picture, (CARD_WIDTH - width) / 2, (CARD_HEIGHT - height) / 2, width, height);
  context.fillStyle = "rgba(13, 11, 38, 0.72)";
  context.fillRect(0, 0, CARD_WIDTH, CARD_HEIGHT);
}

/** `picture`: the event's world, drawn behind the text when VRChat gave one. */
export function drawEventCard(card: CardText, format: "png" | "jpeg" = "jpeg", picture: Image | null = null): Buffer {
  loadFonts();
  const canvas = createCanvas(CARD_WIDTH, CARD_HEIGHT);
  const context = canvas.getContext("2d");
  // The site's night sky, flat (a few KB as JPEG), with its ember and aurora accents.
  context.fillStyle = "#0d0b26";
  context.fillRect(0, 0, CARD_WIDTH, CARD_HEIGHT);
  if (picture) drawBackground(context, picture);
  context.fillStyle = "#221d4d";
  context.fillRect(0, CARD_HEIGHT - 96, CARD_WIDTH, 96);
  context.fillStyle = "#f2c65a";
  context.fillRect(80, 84, 96, 6);

  context.textBaseline = "alphabetic";
  context.fillStyle = "#b39dff";
  context.font = "28px 'Dwell Sans Bold'";
  context.fillText(card.applicationRequired ? m.card_kind_application() : m.card_kind_event(), 80, 140);

  context.fillStyle = "#efeafd";
  context.font = "68px 'Dwell Display'";
  const title = wrap(context, card.title, CARD_WIDTH - 160, 3);
  title.forEach((line, i) => context.fillText(line, 80, 222 + i * 76));

  const below = 222 + title.length * 76 + 14;
  context.fillStyle = "#f7d98b";
  context.font = "34px 'Dwell Sans'";
  context.fillText(wrap(context, card.when, CARD_WIDTH - 160, 1)[0]!, 80, below);
  context.fillStyle = "#c9c0ee";
  context.fillText(wrap(context, m.card_in_world({ world: card.world }), CARD_WIDTH - 160, 1)[0]!, 80, below + 50);

  context.fillStyle = "#efeafd";
  context.font = "36px 'Dwell Display'";
  context.fillText("DWELL", 80, CARD_HEIGHT - 36);
  context.fillStyle = "#a79cd6";
  context.font = "26px 'Dwell Sans'";
  const tagline = m.card_tagline();
  context.fillText(tagline, CARD_WIDTH - 80 - context.measureText(tagline).width, CARD_HEIGHT - 40);
  return format === "png" ? canvas.encodeSync("png") : canvas.encodeSync("jpeg", JPEG_QUALITY);
}

const cache = new Map<string, Buffer>();

/** Which version of the event a card shows: its last change. */
export const cardVersion = (event: Pick<EventRow, "updatedAt">) => String(event.updatedAt.getTime());

/** The most a world's picture may weigh, and how long its download may take. */
const PICTURE_MAX_BYTES = 8 * 1024 * 1024;
const PICTURE_TIMEOUT_MS = 5_000;

/**
 * Whether a picture's address is VRChat's: its website and file hosts over HTTPS, or the configured
 * API's own origin (a self-hosted or test endpoint). Nothing else is fetched by the server.
 */
export function isVRChatPicture(url: string, apiOrigin: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.origin === apiOrigin) return true;
  return parsed.protocol === "https:" && /(^|\.)vrchat\.(cloud|com)$/i.test(parsed.hostname);
}

/** The world's picture, or null when it cannot be had quickly (the card is drawn without it). */
async function worldPicture(url: string | null, apiOrigin: string): Promise<Image | null> {
  if (!url || !isVRChatPicture(url, apiOrigin)) return null;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(PICTURE_TIMEOUT_MS), headers: { "User-Agent": "Dwell (event preview picture)" } });
    const length = Number(response.headers.get("content-length") ?? 0);
    if (!response.ok || length > PICTURE_MAX_BYTES) return null;
    const bytes = Buffer.from(await response.arrayBuffer());
    if (bytes.length > PICTURE_MAX_BYTES) return null;
    return await loadImage(bytes);
  } catch {
    // Unreachable, too slow, or not a picture: the card is drawn on the plain sky.
    return null;
  }
}

/**
 * The card of an event as it is now, in the language it is asked in (the caller's), drawn at most
 * once per version and language, with its world's picture behind the text when VRChat gave one
 * (fetched from VRChat's hosts, or `apiOrigin`).
 */
export async function eventCardImage(event: EventRow, apiOrigin: string): Promise<{ image: Buffer; version: string }> {
  const version = cardVersion(event);
  const key = `${event.id}:${version}:${currentLanguage()}`;
  let image = cache.get(key);
  if (!image) {
    image = drawEventCard(cardTextOf(event), "jpeg", await worldPicture(event.worldImageUrl, apiOrigin));
    cache.set(key, image);
    // The oldest drawn go first: a few hundred events' cards stay well under a few MB.
    if (cache.size > CACHED_CARDS) cache.delete(cache.keys().next().value!);
  }
  return { image, version };
}
