/**
 * An announcement's picture, checked by its bytes (a name or a declared type is a claim): PNG, JPEG
 * or WebP by their signatures, then decoded whole, so a file that only starts like a picture is
 * refused too. VRChat's upload takes a PNG ("the binary blob of the png file"), so it gets one.
 */
import { createCanvas, loadImage } from "@napi-rs/canvas";
import type { PictureType } from "~/db/enums";

export const PICTURE_MAX_BYTES = 5 * 1024 * 1024;

export type PictureCheck =
  | { ok: true; type: PictureType; width: number; height: number }
  | { ok: false; problem: "empty" | "too-large" | "wrong-type" | "unreadable" };

function typeOf(bytes: Buffer): PictureType | null {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "image/png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (bytes.subarray(0, 4).toString("latin1") === "RIFF" && bytes.subarray(8, 12).toString("latin1") === "WEBP") return "image/webp";
  return null;
}

export async function checkPicture(bytes: Buffer): Promise<PictureCheck> {
  if (bytes.length === 0) return { ok: false, problem: "empty" };
  if (bytes.length > PICTURE_MAX_BYTES) return { ok: false, problem: "too-large" };
  const type = typeOf(bytes);
  if (!type) return { ok: false, problem: "wrong-type" };
  try {
    const image = await loadImage(bytes);
    if (!image.width || !image.height) return { ok: false, problem: "unreadable" };
    return { ok: true, type, width: image.width, height: image.height };
  } catch {
    return { ok: false, problem: "unreadable" };
  }
}

/** The picture as PNG (what VRChat's image upload takes). */
export async function asPng(bytes: Buffer, type: PictureType): Promise<Buffer> {
  if (type === "image/png") return bytes;
  const image = await loadImage(bytes);
  const canvas = createCanvas(image.width, image.height);
  canvas.getContext("2d").drawImage(image, 0, 0);
  return canvas.toBuffer("image/png");
}
