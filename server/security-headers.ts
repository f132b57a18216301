/**
 * The headers that keep a browser from doing what the site never asks of it: a
 * Content-Security-Policy that runs only the site's own scripts (inline ones by per-request
 * nonce), shows images only from the site and VRChat, embeds only the configured hero video,
 * and lets no other site frame the pages. HSTS only when the public address is https.
 */
import { NONCE, secureHeaders } from "hono/secure-headers";
import { isVideoFile } from "~/features/site/hero-video";
import type { Config } from "~/utils/env.server";

/** Where VRChat serves group, world and member pictures (its API redirects to the CDNs). */
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

export function securityHeaders(config: Config) {
  const https = config.PUBLIC_URL.startsWith("https://");
  const video = videoSources(config.HERO_VIDEO_URL);
  // The configured API's origin too: a self-hosted or test VRChat endpoint serves its own images.
  const vrchatApi = new URL(config.VRCHAT_API_URL).origin;
  const images = [...new Set(["'self'", "data:", ...VRCHAT_IMAGE_SOURCES, vrchatApi])];
  // Vite's development server injects its own scripts and a websocket: no policy there.
  const development = config.NODE_ENV === "development";
  return secureHeaders({
    contentSecurityPolicy: development
      ? undefined
      : {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", NONCE],
          // React's style attributes and the toast library's injected stylesheet.
          styleSrc: ["'self'", "'unsafe-inline'"],
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
