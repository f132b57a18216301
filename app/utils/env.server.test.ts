import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ConfigError, ENV_NAMES, loadConfig, parseReminders, publicConfig, vrchatConfig } from "./env.server";

describe("the configuration's documentation", () => {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const example = readFileSync(new URL("../../.env.example", import.meta.url), "utf8");

  it("has one row in the README's table and a line in .env.example for every variable", () => {
    expect(ENV_NAMES.length).toBeGreaterThan(30);
    // A row's first cell names one variable, or several that go together.
    const rows = (name: string) => readme.match(new RegExp(`^\\|[^|\\n]*\`${name}\`[^|\\n]*\\|`, "gm"))?.length ?? 0;
    expect(ENV_NAMES.filter((name) => rows(name) !== 1).map((name) => `${name}: ${rows(name)} rows`)).toEqual([]);
    // NODE_ENV is set by the npm scripts, not by an operator's .env.
    const lines = (name: string) => example.match(new RegExp(`^${name}=`, "gm"))?.length ?? 0;
    expect(ENV_NAMES.filter((name) => name !== "NODE_ENV" && lines(name) !== 1)).toEqual([]);
  });
});

describe("loadConfig", () => {
  it("has defaults for a fresh clone", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      // No public address said: the site is this machine's alone.
      HOST: "127.0.0.1",
      DATA_DIR: "./data",
      DEMO_CONTENT: true,
      PUBLIC_URL: "http://localhost:3000",
    });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it("listens beyond this machine in production only with PUBLIC_URL, which every outgoing link is built from", () => {
    expect(loadConfig({ PUBLIC_URL: "https://dwell.example" }).HOST).toBe("0.0.0.0");
    expect(loadConfig({ HOST: "127.0.0.1" }).HOST).toBe("127.0.0.1");
    expect(loadConfig({ HOST: "::1" }).HOST).toBe("::1");
    expect(() => loadConfig({ HOST: "0.0.0.0" })).toThrow(/PUBLIC_URL: required in production when the server listens beyond this machine \(HOST=0\.0\.0\.0\)/);
    expect(() => loadConfig({ HOST: "192.168.1.20", NODE_ENV: "production" })).toThrow(/PUBLIC_URL/);
    expect(loadConfig({ HOST: "0.0.0.0", NODE_ENV: "development" }).HOST).toBe("0.0.0.0");
    expect(loadConfig({ HOST: "0.0.0.0", PUBLIC_URL: "https://dwell.example" }).HOST).toBe("0.0.0.0");
  });

  it("derives PUBLIC_URL from PORT and writes a given one as browsers send it in Origin", () => {
    expect(loadConfig({ PORT: "8080" })).toMatchObject({ PUBLIC_URL: "http://localhost:8080", publicUrlIsSet: false });
    expect(loadConfig({ PUBLIC_URL: "https://dwell.example/" })).toMatchObject({ PUBLIC_URL: "https://dwell.example", publicUrlIsSet: true });
    expect(loadConfig({ PUBLIC_URL: "https://Dwell.Example:443" }).PUBLIC_URL).toBe("https://dwell.example");
    expect(loadConfig({ PUBLIC_URL: "https://dwell.example:8443", TRUST_PROXY: "true" }).PUBLIC_URL).toBe("https://dwell.example:8443");
  });

  it("treats blank values as unset", () => {
    expect(loadConfig({ DATABASE_URL: "", PORT: "  " }).PORT).toBe(3000);
  });

  it.each([
    [{ PORT: "eighty" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ PUBLIC_URL: "dwell.example" }, "PUBLIC_URL"],
    [{ PUBLIC_URL: "https://dwell.example/sanctum" }, "PUBLIC_URL"],
    [{ TRUST_PROXY: "true" }, "PUBLIC_URL"],
    [{ VRCHAT_CACHE_SECONDS: "30" }, "VRCHAT_CACHE_SECONDS"],
    [{ VRCHAT_CACHE_SECONDS: "59", VRCHAT_API_URL: "https://api.vrchat.com/api/1" }, "VRCHAT_CACHE_SECONDS"],
    [{ DEMO_CONTENT: "perhaps" }, "DEMO_CONTENT"],
    [{ DISCORD_INVITE_URL: "javascript:alert(1)" }, "DISCORD_INVITE_URL"],
    [{ HERO_VIDEO_URL: "ftp://video" }, "HERO_VIDEO_URL"],
    [{ SITE_LANGUAGES: "en,<b>" }, "SITE_LANGUAGES"],
    [{ SITE_LANGUAGES: " , " }, "SITE_LANGUAGES"],
    [{ PGLITE_SHARED_BUFFERS_MB: "16MB" }, "PGLITE_SHARED_BUFFERS_MB"],
    [{ PGLITE_SHARED_BUFFERS_MB: "0" }, "PGLITE_SHARED_BUFFERS_MB"],
  ])("refuses %o and names the variable", (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}:`));
  });

  it("lets the cache window go below a minute only for an API that is not VRChat's", () => {
    expect(loadConfig({ VRCHAT_CACHE_SECONDS: "60" }).VRCHAT_CACHE_SECONDS).toBe(60);
    expect(loadConfig({ VRCHAT_CACHE_SECONDS: "3", VRCHAT_API_URL: "http://127.0.0.1:4000/api/1" }).VRCHAT_CACHE_SECONDS).toBe(3);
  });

  it("reads booleans the way people write them", () => {
    expect(loadConfig({ DEMO_CONTENT: "false" }).DEMO_CONTENT).toBe(false);
    expect(loadConfig({ DEMO_CONTENT: "0" }).DEMO_CONTENT).toBe(false);
    expect(loadConfig({ DEMO_CONTENT: "yes" }).DEMO_CONTENT).toBe(true);
  });
});

describe("publicConfig", () => {
  it("lets only the allowlisted values reach the browser", () => {
    const config = loadConfig({
      DATABASE_URL: "postgres://user:secret@db/dwell",
      DISCORD_INVITE_URL: "https://discord.gg/x",
    });
    const exposed = JSON.stringify(publicConfig(config));
    expect(exposed).not.toContain("secret");
    expect(publicConfig(config)).toEqual({ discordInviteUrl: "https://discord.gg/x", heroVideoUrl: null });
  });

  it("needs every VRChat setting once one is given, and names the missing ones", () => {
    expect(vrchatConfig(loadConfig({}))).toBeNull();
    expect(() => loadConfig({ VRCHAT_USERNAME: "bot@example.org" })).toThrow(
      /VRCHAT_GROUP_ID: required when VRCHAT_USERNAME is set[\s\S]*VRCHAT_PASSWORD: required[\s\S]*VRCHAT_CONTACT: required/,
    );
    expect(() => loadConfig({ VRCHAT_GROUP_ID: "my-group" })).toThrow(/VRCHAT_GROUP_ID: expected a group id/);
    const config = loadConfig({
      VRCHAT_GROUP_ID: "grp_5f3c9a1e-2b4d-4c6e-8f70-1a2b3c4d5e6f",
      VRCHAT_USERNAME: "bot@example.org",
      VRCHAT_PASSWORD: "secret",
      VRCHAT_TOTP_SECRET: "jbsw y3dp ehpk 3pxp",
      VRCHAT_CONTACT: "admins@dwell.example",
    });
    expect(vrchatConfig(config)).toMatchObject({ totpSecret: "JBSWY3DPEHPK3PXP", apiUrl: "https://api.vrchat.cloud/api/1" });
    expect(JSON.stringify(publicConfig(config))).not.toContain("secret");
  });
});

describe("EVENT_REMINDERS", () => {
  it("reads durations in minutes, hours and days, largest first, and nothing for none", () => {
    expect(parseReminders("24h,1h")).toEqual([1440, 60]);
    expect(parseReminders(" 30m , 2d,1H ")).toEqual([2880, 60, 30]);
    expect(parseReminders("")).toEqual([]);
    expect(parseReminders("1h,60m")).toEqual([60]);
  });

  it.each(["tomorrow", "1w", "0h", "31d", "1.5h", "-1h"])("refuses %s", (text) => {
    expect(parseReminders(text)).toBeNull();
  });
});
