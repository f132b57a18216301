/**
 * The headers that keep a browser from doing what the site never asks of it: a
 * Content-Security-Policy that runs only the site's own scripts (inline ones by per-request
 * nonce), shows images only from the site and VRChat, embeds only the configured hero video,
 * and lets no other site frame the pages. HSTS only when the public address is https.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { NONCE, secureHeaders } from "hono/secure-headers";
import { log } from "~/utils/log.server";
import { isVideoFile } from "~/features/site/hero-video";
import type { Config } from "~/utils/env.server";

/** Where VRChat serves group, world and member pictures (its API redirects to the CDNs). */
/** Where Discord serves users' avatars. */
export const DISCORD_AVATAR_SOURCE = "https://cdn.discordapp.com";

export const VRCHAT_IMAGE_SOURCES = [
  "https://api.vrchat.cloud",
  "https://*.vrchat.cloud",
  "https://assets.vrchat.com",
  "https://*.vrchat.com",
  "https://d348imysud55la.cloudfront.net",
] as const;

/** The hero video's origin, as a frame (YouTube, Vimeo) or as a media file. */
function videoSources(videoUrl: string | undefined) {
  if (!videoUrl) return { frame: [], media: [] };
  const { origin } = new URL(videoUrl);
  return isVideoFile(videoUrl) ? { frame: [], media: [origin] } : { frame: [origin], media: [] };
}

/**
 * The toast library (sonner) adds its stylesheet as a <style> element without a nonce when it
 * loads. Rather than allow every inline style element, the policy allows that one by its SHA-256,
 * read from the installed library. If it cannot be read (a later version written differently),
 * inline style elements are allowed as before, and the log says so.
 */
const sha256Source = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
/** The toast library adds its style element empty, then its text: both states are checked. */
const EMPTY_STYLE = sha256Source("");

export function toastStyleHash(): string | null {
  try {
    const require = createRequire(import.meta.url);
    const source = readFileSync(require.resolve("sonner").replace(/index\.js$/, "index.mjs"), "utf8");
    const literal = /__insertCSS\(("(?:[^"\\]|\\.)*")\)/.exec(source)?.[1];
    if (!literal) return null;
    const css = JSON.parse(literal) as string;
    return sha256Source(css);
  } catch {
    return null;
  }
}

export function securityHeaders(config: Config) {
  const https = config.PUBLIC_URL.startsWith("https://");
  const video = videoSources(config.HERO_VIDEO_URL);
  // The configured API's origin too: a self-hosted or test VRChat endpoint serves its own images.
  const vrchatApi = new URL(config.VRCHAT_API_URL).origin;
  // Members' avatars in the Sanctum's Discord panel, when the site has a Discord bot.
  const discord = config.DISCORD_BOT_TOKEN ? [DISCORD_AVATAR_SOURCE] : [];
  const images = [...new Set(["'self'", "data:", ...VRCHAT_IMAGE_SOURCES, vrchatApi, ...discord])];
  // Vite's development server injects its own scripts and a websocket: no policy there.
  const development = config.NODE_ENV === "development";
  const toastStyle = development ? null : toastStyleHash();
  if (!development && !toastStyle) log.warn("the toast stylesheet could not be read: inline style elements are allowed");
  return secureHeaders({
    contentSecurityPolicy: development
      ? undefined
      : {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", NONCE],
          // Stylesheets from the site, style elements by nonce (the dialogs' scroll lock) or by
          // hash (the toasts'), and style attributes (React's, the UI libraries' positioning).
          // (A nonce or hash in a directive makes browsers ignore 'unsafe-inline' there.)
          styleSrc: toastStyle ? ["'self'", NONCE] : ["'self'", "'unsafe-inline'"],
          styleSrcElem: toastStyle ? ["'self'", NONCE, toastStyle, EMPTY_STYLE] : ["'self'", "'unsafe-inline'"],
          styleSrcAttr: ["'unsafe-inline'"],
          imgSrc: images,
          fontSrc: ["'self'"],
          connectSrc: ["'self'"],
          mediaSrc: ["'self'", ...video.media],
          frameSrc: video.frame.length > 0 ? video.frame : ["'none'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          ...(https ? { upgradeInsecureRequests: [] } : {}),
        },
    strictTransportSecurity: https && !development ? "max-age=31536000; includeSubDomains" : false,
    xFrameOptions: "DENY",
    // Embedded videos (YouTube) refuse to play without the site's origin as referrer.
    referrerPolicy: "strict-origin-when-cross-origin",
    permissionsPolicy: { camera: [], microphone: [], geolocation: [], payment: [] },
  });
}
