import { describe, expect, it } from "vitest";
import { publicHealth } from "./health";

const at = (minute: number) => new Date(Date.UTC(2026, 10, 23, 12, minute)).toISOString();

function details({ vrchatFailedAt = null as string | null, telegramFailed = 0, syncErrors = 0 } = {}) {
  return {
    status: "ok",
    database: "ok",
    migrations: { state: "current" },
    integrations: {
      vrchat: { source: "vrchat", lastSuccessAt: at(10), lastFailureAt: vrchatFailedAt },
      eventSync: { lastRunAt: at(0), lastFinishedAt: at(1), errors: syncErrors },
      notifications: { telegram: { lastSuccessAt: at(5), lastFailureAt: null, pending: 0, failed: telegramFailed } },
      mail: { transport: "log", lastSuccessAt: null, lastFailureAt: null },
    },
  };
}

describe("the public health answer", () => {
  it("is one word: ok while everything works", () => {
    expect(publicHealth({ ok: true, body: details() })).toEqual({ status: 200, body: { status: "ok" } });
  });

  it("is degraded, still 200, while an integration's latest attempt failed or deliveries failed", () => {
    expect(publicHealth({ ok: true, body: details({ vrchatFailedAt: at(20) }) })).toEqual({ status: 200, body: { status: "degraded" } });
    expect(publicHealth({ ok: true, body: details({ telegramFailed: 2 }) })).toEqual({ status: 200, body: { status: "degraded" } });
    expect(publicHealth({ ok: true, body: details({ syncErrors: 1 }) })).toEqual({ status: 200, body: { status: "degraded" } });
    // A failure followed by a success is over.
    expect(publicHealth({ ok: true, body: details({ vrchatFailedAt: at(5) }) }).body.status).toBe("ok");
  });

  it("is degraded with 503 when the site cannot serve", () => {
    expect(publicHealth({ ok: false, body: { status: "error", database: "unreachable" } })).toEqual({ status: 503, body: { status: "degraded" } });
  });
});
