import { describe, expect, it } from "vitest";
import { clientKey } from "./client-key.server";

describe("the key a client is counted under", () => {
  it("is the address itself for IPv4, also when seen through an IPv6 socket", () => {
    expect(clientKey("203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("::ffff:cb00:7107")).toBe("203.0.113.7");
  });

  it("is the /64 for IPv6: every address of one network counts together", () => {
    const key = clientKey("2001:db8:85a3:12::1");
    expect(key).toBe("2001:db8:85a3:12::/64");
    expect(clientKey("2001:0db8:85a3:0012:ffff:eeee:dddd:cccc")).toBe(key);
    expect(clientKey("2001:db8:85a3:12:1:2:3:4%eth0")).toBe(key);
    expect(clientKey("2001:db8:85a3:13::1")).not.toBe(key);
    expect(clientKey("::1")).toBe("0:0:0:0::/64");
    expect(clientKey("fe80::")).toBe("fe80:0:0:0::/64");
  });

  it("leaves anything else as it is", () => {
    expect(clientKey("unknown")).toBe("unknown");
  });
});
