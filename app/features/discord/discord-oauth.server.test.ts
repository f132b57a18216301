import { describe, expect, it } from "vitest";
import { openApplicantStart, openPendingLink, sealApplicantStart, sealPendingLink } from "./discord-oauth.server";

const SECRET = "a-secret-of-the-site-long-enough-to-sign";
const NOW = new Date("2026-12-01T20:00:00Z");
const later = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);
const ACCOUNT = { userId: "81234567890123456", name: "moth" };

describe("what a Discord sign-in leaves sealed in a cookie", () => {
  it("opens for whom it was sealed, within ten minutes, and for nobody else", () => {
    const sealed = sealPendingLink(SECRET, "staff-1", ACCOUNT, NOW);
    expect(openPendingLink(SECRET, "staff-1", sealed, later(9))).toEqual(ACCOUNT);
    expect(openPendingLink(SECRET, "staff-2", sealed, later(1))).toBeNull();
    expect(openPendingLink(SECRET, "staff-1", sealed, later(11))).toBeNull();
    expect(openPendingLink("another-secret-of-another-site-entirely", "staff-1", sealed, later(1))).toBeNull();
    expect(openPendingLink(SECRET, "staff-1", undefined, NOW)).toBeNull();
  });

  it("refuses a changed value, a changed signature and a value sealed for the other purpose", () => {
    const sealed = sealPendingLink(SECRET, "staff-1", ACCOUNT, NOW);
    const [text, signature] = sealed.split(".") as [string, string];
    const forged = Buffer.from(JSON.stringify({ staffId: "staff-1", userId: "1", name: "aurora", at: NOW.getTime() })).toString("base64url");
    expect(openPendingLink(SECRET, "staff-1", `${forged}.${signature}`, NOW)).toBeNull();
    expect(openPendingLink(SECRET, "staff-1", `${text}.${signature.slice(1)}A`, NOW)).toBeNull();
    expect(openPendingLink(SECRET, "staff-1", `${text}`, NOW)).toBeNull();

    const start = sealApplicantStart(SECRET, "status-token", "state-1", NOW);
    expect(openApplicantStart(SECRET, start, later(5))).toEqual({ token: "status-token", state: "state-1" });
    expect(openApplicantStart(SECRET, start, later(11))).toBeNull();
    // Each purpose signs apart: one cannot pass for the other.
    expect(openApplicantStart(SECRET, sealed, NOW)).toBeNull();
    expect(openPendingLink(SECRET, "status-token", start, NOW)).toBeNull();
  });
});
