import { describe, expect, it } from "vitest";
import {
  fairShare,
  formatSubmittedAt,
  headline,
  httpFailure,
  networkFailure,
  orDash,
  retryAfterHeader,
} from "./format";
import { sampleNotification } from "./test-notification";

describe("fairShare", () => {
  it("cuts only the long texts, sharing what is left equally", () => {
    expect(fairShare([10, 100, 100], 150)).toBe(70);
    expect(fairShare([10, 1000], 500)).toBe(490);
  });

  it("cuts nothing when everything fits", () => {
    expect(fairShare([10, 20], 1000)).toBe(20);
    expect(fairShare([], 1000)).toBe(0);
  });

  it("gives nothing when there is no room", () => {
    expect(fairShare([10, 20], -5)).toBe(0);
  });
});

describe("how an application reads", () => {
  it("names the event in the headline of an event application", () => {
    expect(headline(sampleNotification())).toBe("New event application: Masquerade <Night> & Day");
    expect(headline(sampleNotification({ event_title: null }))).toBe("New event application");
    expect(headline(sampleNotification({ type: "group_application", event_title: null }))).toBe("New group application");
    // An applicant's edit of their answers: said once, as such.
    expect(headline(sampleNotification({ type: "group_application", event_title: null, edited: true }))).toBe("Application edited");
    expect(headline(sampleNotification({ edited: true }))).toBe("Application edited: Masquerade <Night> & Day");
    expect(headline(sampleNotification({ waitlist: true }))).toBe("New event application: Masquerade <Night> & Day (waitlist: the event is full)");
  });

  it("formats the submission time in UTC to the second", () => {
    expect(formatSubmittedAt("2026-11-21T18:00:05.123+01:00")).toBe("2026-11-21 17:00:05 UTC");
  });

  it("shows an empty or blank answer as a dash", () => {
    expect(orDash("")).toBe("—");
    expect(orDash(" \n ")).toBe("—");
    expect(orDash(" yes ")).toBe(" yes ");
  });
});

describe("outcomes", () => {
  it("retries a 5xx, a 408 and a 429, and gives up on any other 4xx", () => {
    expect(httpFailure("X", 502, undefined)).toEqual({ kind: "retry", error: "X answered 502" });
    expect(httpFailure("X", 408, undefined)).toEqual({ kind: "retry", error: "X answered 408" });
    expect(httpFailure("X", 429, "slow down", 3000)).toEqual({ kind: "retry", error: "X answered 429: slow down", retryAfterMs: 3000, slowDown: true });
    expect(httpFailure("X", 403, "Forbidden")).toEqual({ kind: "failed", error: "X answered 403: Forbidden" });
  });

  it("keeps a service's long description short", () => {
    const outcome = httpFailure("X", 400, "y".repeat(5000));
    expect(outcome.kind === "failed" && outcome.error.length).toBeLessThan(400);
  });

  it("names a network error by its kind, not its message, which may quote the URL", () => {
    const refused = new TypeError("fetch failed https://host/bot123:secret/sendMessage", {
      cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
    });
    expect(networkFailure("X", refused)).toEqual({ kind: "retry", error: "X unreachable: ECONNREFUSED" });
    expect(networkFailure("X", new TypeError("Failed to parse URL from https://host/bot123:secret"))).toEqual({
      kind: "retry",
      error: "X unreachable: TypeError",
    });
    expect(networkFailure("X", new DOMException("The operation timed out.", "TimeoutError"))).toEqual({
      kind: "retry",
      error: "X unreachable: timed out",
    });
  });

  it("reads Retry-After in seconds or as a date", () => {
    const now = Date.parse("2026-11-21T18:00:00Z");
    expect(retryAfterHeader("120", now)).toBe(120_000);
    expect(retryAfterHeader("0.5", now)).toBe(500);
    expect(retryAfterHeader("Sat, 21 Nov 2026 18:00:30 GMT", now)).toBe(30_000);
    expect(retryAfterHeader("Sat, 21 Nov 2026 17:00:00 GMT", now)).toBe(0);
    expect(retryAfterHeader(null, now)).toBeUndefined();
    expect(retryAfterHeader("soon", now)).toBeUndefined();
  });
});
