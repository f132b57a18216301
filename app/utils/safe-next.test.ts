import { describe, expect, it } from "vitest";
import { safeAdminPath, sameSitePath } from "./safe-next";

describe("sameSitePath", () => {
  it("keeps a path of this site, with its query", () => {
    expect(sameSitePath("/events?month=2026-12")).toBe("/events?month=2026-12");
    expect(sameSitePath("/")).toBe("/");
  });

  it("refuses anything that the browser would read as another site, or not as a path", () => {
    for (const crafted of ["/.//evil.example/x", "//evil.example", "/\\evil.example", "/\\/evil.example", "https://evil.example", "evil.example", "/..//evil.example", "/a/../..//evil.example", "/\t/evil.example", "", null, 42]) {
      expect(sameSitePath(crafted), String(crafted)).toBe("/");
    }
  });
});

describe("safeAdminPath", () => {
  it("keeps a path of the Sanctum, and sends anything else to the Sanctum's door", () => {
    expect(safeAdminPath("/admin/applications?status=pending")).toBe("/admin/applications?status=pending");
    // Resolved as the browser will: a path of this site (one that does not exist), never another site.
    expect(safeAdminPath("/admin/.//evil.example")).toBe("/admin//evil.example");
    expect(safeAdminPath("/admin/../events")).toBe("/admin");
    expect(safeAdminPath("/administrator")).toBe("/admin");
    expect(safeAdminPath("/admin/sign-in")).toBe("/admin");
  });
});
