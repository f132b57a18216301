/**
 * The site's answers gzipped for a client that accepts it. A page or a JSON answer is gzipped in one
 * piece, on Node's thread pool: the main thread (which renders every page, and on the embedded
 * database runs every query) spends a fraction of what a compression stream costs it (about 0.35
 * against 1.1 ms for a 50 KB page). The browser's files under /assets/ never change under their
 * name (it holds their content's hash), so each is gzipped once and kept.
 *
 * The Sanctum's answers keep streaming through Hono's compression: a person's file sends what
 * VRChat answers after the page itself, and a CSV export may be long. No public page streams.
 */
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import type { MiddlewareHandler } from "hono";
import { compress, COMPRESSIBLE_CONTENT_TYPE_REGEX } from "hono/compress";
import { isSanctumPath } from "~/utils/sanctum-path";

const gzipped = promisify(gzip);
/** Below this, gzip saves too little to be worth its header. */
const THRESHOLD_BYTES = 1024;
/** The browser's files kept gzipped, at most (the whole build is a few megabytes). */
const ASSET_CACHE_BYTES = 32 * 1024 * 1024;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;
const ASSET_PATH = /^\/assets\/[\w.-]+$/;

/** Whether the request's Accept-Encoding takes gzip (by name, or by `*`, with a weight above 0). */
export function acceptsGzip(request: Request): boolean {
  const weights = new Map(
    (request.headers.get("accept-encoding") ?? "").split(",").map((part) => {
      const [name = "", ...parameters] = part.split(";").map((piece) => piece.trim().toLowerCase());
      const q = parameters.find((parameter) => parameter.startsWith("q="));
      return [name, q ? Number(q.slice(2)) : 1] as const;
    }),
  );
  return (weights.get("gzip") ?? weights.get("*") ?? 0) > 0;
}

function compressible(request: Request, response: Response): boolean {
  if (request.method === "HEAD" || response.status === 206 || response.status === 204 || response.status === 304 || !response.body) return false;
  if (response.headers.has("Content-Encoding") || response.headers.has("Transfer-Encoding")) return false;
  const length = response.headers.get("Content-Length");
  if (length !== null && Number(length) < THRESHOLD_BYTES) return false;
  if (NO_TRANSFORM.test(response.headers.get("Cache-Control") ?? "")) return false;
  return COMPRESSIBLE_CONTENT_TYPE_REGEX.test(response.headers.get("Content-Type") ?? "");
}

export function compression(): MiddlewareHandler {
  const streaming = compress();
  const assets = new Map<string, Uint8Array<ArrayBuffer>>();
  let assetBytes = 0;

  return async (c, next) => {
    if (isSanctumPath(c.req.path)) return streaming(c, next);
    await next();
    if (!compressible(c.req.raw, c.res)) return;
    const vary = c.res.headers.get("Vary");
    if (!vary?.split(",").some((name) => name.trim().toLowerCase() === "accept-encoding")) c.header("Vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
    if (!acceptsGzip(c.req.raw)) return;

    const asset = c.res.status === 200 && ASSET_PATH.test(c.req.path) ? c.req.path : null;
    let body = asset ? assets.get(asset) : undefined;
    if (body) await c.res.body?.cancel();
    else {
      const plain = new Uint8Array(await c.res.arrayBuffer());
      if (plain.length < THRESHOLD_BYTES) {
        c.res = new Response(plain, c.res);
        return;
      }
      const zipped = await gzipped(plain);
      body = new Uint8Array(zipped.buffer as ArrayBuffer, zipped.byteOffset, zipped.length);
      if (asset && assetBytes + body.length <= ASSET_CACHE_BYTES) {
        assets.set(asset, body);
        assetBytes += body.length;
      }
    }
    // Hono copies the answer's headers onto the one set here: its length is set after.
    c.res = new Response(body, c.res);
    c.res.headers.set("Content-Encoding", "gzip");
    c.res.headers.set("Content-Length", String(body.length));
    const etag = c.res.headers.get("ETag");
    if (etag && !etag.startsWith("W/")) c.res.headers.set("ETag", `W/${etag}`);
  };
}
