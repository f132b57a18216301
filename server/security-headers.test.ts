import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { loadConfig } from "~/utils/env.server";
import { securityHeaders, toastStyleHash } from "./security-headers";

async function headersFor(env: Record<string, string>) {
  const app = new Hono();
  app.use(securityHeaders(loadConfig({ AUTH_SECRET: "x".repeat(32), ...env })));
  app.get("/", (c) => c.text("ok"));
  return (await app.request("/")).headers;
}

function directivesOf(policy: string) {
  return new Map(policy.split(";").map((part) => {
    const [name, ...values] = part.trim().split(/\s+/);
    return [name!, values];
  }));
}

describe("security headers", () => {
  it("sends no HSTS while the site is served over http", async () => {
    const headers = await headersFor({ PUBLIC_URL: "http://localhost:3000" });
    expect(headers.get("strict-transport-security")).toBeNull();
    expect(headers.get("content-security-policy")).not.toContain("upgrade-insecure-requests");
  });

  it("sends HSTS and upgrades requests once PUBLIC_URL is https", async () => {
    const headers = await headersFor({ PUBLIC_URL: "https://dwell.example" });
    expect(headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    expect(headers.get("content-security-policy")).toContain("upgrade-insecure-requests");
  });

  it("allows Discord's avatars only when the site has a Discord bot", async () => {
    const images = async (env: Record<string, string>) => directivesOf((await headersFor(env)).get("content-security-policy")!).get("img-src");
    expect(await images({})).not.toContain("https://cdn.discordapp.com");
    expect(await images({ DISCORD_BOT_TOKEN: "t".repeat(30), DISCORD_GUILD_ID: "111111111111111111" })).toContain("https://cdn.discordapp.com");
  });

  it("frames nothing without a hero video, and plays a video file as media", async () => {
    expect(await headersFor({})).toSatisfy((h: Headers) => h.get("content-security-policy")!.includes("frame-src 'none'"));
    const file = (await headersFor({ HERO_VIDEO_URL: "https://cdn.example.org/clips/hall.mp4?v=2" })).get("content-security-policy")!;
    expect(file).toContain("media-src 'self' https://cdn.example.org");
    expect(file).toContain("frame-src 'none'");
  });

  it("allows style elements only from the site, by nonce, or the toasts' own by hash; style attributes stay", async () => {
    const policy = directivesOf((await headersFor({})).get("content-security-policy")!);
    const hash = toastStyleHash();
    expect(hash).toMatch(/^'sha256-[A-Za-z0-9+/]{43}='$/);
    expect(policy.get("style-src")).toEqual(["'self'", expect.stringMatching(/^'nonce-/)]);
    // The toasts' style element is added empty first: the empty text's hash lets that pass.
    expect(policy.get("style-src-elem")).toEqual(["'self'", expect.stringMatching(/^'nonce-/), hash, "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"]);
    expect(policy.get("style-src-attr")).toEqual(["'unsafe-inline'"]);
  });

  it("leaves development to Vite's own scripts", async () => {
    const headers = await headersFor({ NODE_ENV: "development", PUBLIC_URL: "https://dwell.example" });
    expect(headers.get("content-security-policy")).toBeNull();
    expect(headers.get("strict-transport-security")).toBeNull();
    expect(headers.get("x-content-type-options")).toBe("nosniff");
  });
});
