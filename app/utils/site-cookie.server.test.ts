import { describe, expect, it } from "vitest";
import { siteCookie } from "./site-cookie.server";

describe("siteCookie", () => {
  it("is __Host- prefixed, Secure, for the whole site and no Domain, where the site is served over https", () => {
    const cookie = siteCookie("https://dwell.example", "dwell-discord-state");
    expect(cookie.set("abc", 600)).toBe("__Host-dwell-discord-state=abc; Path=/; HttpOnly; SameSite=Lax; Max-Age=600; Secure");
    expect(cookie.read(new Request("https://dwell.example/", { headers: { Cookie: "other=1; __Host-dwell-discord-state=abc" } }))).toBe("abc");
    // The unprefixed name (which another subdomain could set) is not read.
    expect(cookie.read(new Request("https://dwell.example/", { headers: { Cookie: "dwell-discord-state=forged" } }))).toBeUndefined();
  });

  it("keeps its plain name over http, where the prefix cannot be used", () => {
    const cookie = siteCookie("http://localhost:3000", "dwell-device");
    expect(cookie.set("x y", 0)).toBe("dwell-device=x%20y; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
    expect(cookie.read(new Request("http://localhost:3000/", { headers: { Cookie: "dwell-device=x%20y" } }))).toBe("x y");
  });
});
