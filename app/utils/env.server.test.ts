import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, publicConfig } from "./env.server";

describe("loadConfig", () => {
  it("has defaults for a fresh clone", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: "0.0.0.0",
      DATA_DIR: "./data",
      DEMO_CONTENT: true,
      PUBLIC_URL: "http://localhost:3000",
    });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it("derives PUBLIC_URL from PORT and trims a trailing slash", () => {
    expect(loadConfig({ PORT: "8080" }).PUBLIC_URL).toBe("http://localhost:8080");
    expect(loadConfig({ PUBLIC_URL: "https://dwell.example/" }).PUBLIC_URL).toBe("https://dwell.example");
  });

  it("treats blank values as unset", () => {
    expect(loadConfig({ DATABASE_URL: "", PORT: "  " }).PORT).toBe(3000);
  });

  it.each([
    [{ PORT: "eighty" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ PUBLIC_URL: "dwell.example" }, "PUBLIC_URL"],
    [{ DEMO_CONTENT: "perhaps" }, "DEMO_CONTENT"],
    [{ DISCORD_INVITE_URL: "javascript:alert(1)" }, "DISCORD_INVITE_URL"],
    [{ HERO_VIDEO_URL: "ftp://video" }, "HERO_VIDEO_URL"],
  ])("refuses %o and names the variable", (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}:`));
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
});
