/**
 * The application forms over HTTP, as a browser without JavaScript (or an attacker) would post
 * them: the server decides, answers every bad request with a 4xx and a clear message, never a 500.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServerProcess, type ServerProcess } from "../setup/server-process";

let server: ServerProcess;
let dataDir: string;
let groupFields: string[];
let openEventId: string;
let closedEventId: string;

async function page(path: string) {
  return (await fetch(`${server.url}${path}`)).text();
}

function eventIdOf(html: string, title: string) {
  const match = new RegExp(`href="/events/([0-9a-f-]{36})"[^>]*>(?:(?!</a>).)*?${title}`, "s").exec(html);
  if (!match) throw new Error(`no event ${title}`);
  return match[1]!;
}

function post(path: string, body: BodyInit, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, { method: "POST", body, headers, redirect: "manual" });
}

const unique = () => Math.random().toString(36).slice(2, 10);

function groupForm(answers: string[]) {
  return new URLSearchParams(groupFields.map((field, i) => [field, answers[i] ?? ""]));
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "dwell-apply-"));
  // One address sends everything here, many duplicates included; the limits have their own tests.
  server = await startServerProcess({ DATA_DIR: dataDir, RATE_LIMIT_APPLICATIONS: "1000", RATE_LIMIT_DUPLICATES: "1000" });
  groupFields = [...(await page("/apply")).matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
  const events = await page("/events");
  openEventId = eventIdOf(events, "The Gathering at the Threshold");
  closedEventId = eventIdOf(events, "Winter Solstice Ball");
});
afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe("posting the group form", () => {
  it("stores a complete application and shows the confirmation", async () => {
    expect(groupFields).toHaveLength(5);
    const name = `Moth ${unique()}`;
    const response = await post("/apply", groupForm([name, name, "A friend", "Hello"]));
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("The Ritual Is Complete");
  });

  it("answers a duplicate with 409 and the spec's message", async () => {
    const name = `Lark ${unique()}`;
    expect((await post("/apply", groupForm([name, `${name}-a`, "A friend", "Hi"]))).status).toBe(200);
    const again = await post("/apply", groupForm([name.toUpperCase(), `${name}-b`, "A friend", "Hi"]));
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("You have already submitted an application to join the group.");
  });

  it.each([
    ["nothing at all", () => new URLSearchParams(), 400, "Please answer: What is your VRChat username?"],
    ["only unknown fields", () => new URLSearchParams({ "answer.00000000-0000-4000-8000-000000000000": "x", admin: "true" }), 400, "Please answer: What is your VRChat username?"],
    ["a 100 KB username", () => groupForm(["x".repeat(100_000), "d", "A friend", "t"]), 400, "What is your VRChat username?&quot; is too long: at most 100 characters"],
    ["an option that does not exist", () => groupForm([`u${unique()}`, `d${unique()}`, "<b>Friend</b>", "t"]), 400, "Please choose one of the options"],
    ["a script as the whole answer to a required question", () => groupForm(["<script>alert(1)</script>", "", "A friend", "t"]), 400, "Please answer: What is your Discord username?"],
  ])("refuses %s", async (_name, body, status, message) => {
    const response = await post("/apply", body());
    expect(response.status).toBe(status);
    const html = await response.text();
    expect(html).toContain(message);
    expect(html).not.toContain("<script>alert(1)</script>");
  });

  it("refuses a file where text is expected", async () => {
    const form = new FormData();
    groupFields.forEach((field, i) => form.set(field, i === 0 ? new Blob(["x"]) : "text"));
    const response = await post("/apply", form);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("must be text");
  });

  it("refuses a body that is not a form", async () => {
    const response = await post("/apply", JSON.stringify({ a: 1 }), { "Content-Type": "application/json" });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });

  it("refuses a broken multipart body", async () => {
    const response = await post("/apply", "--x\r\nnot really multipart", {
      "Content-Type": "multipart/form-data; boundary=x",
    });
    expect(response.status).toBe(400);
  });

  it("answers a body over 256 KB with 413 before reading it", async () => {
    const response = await post("/apply", groupForm(["x".repeat(300 * 1024)]));
    expect(response.status).toBe(413);
  });
});

describe("many applicants at once", () => {
  it("lets one of many simultaneous submissions by one person through, and no request fails", async () => {
    const name = `Twin ${unique()}`;
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post("/apply", groupForm([name, i % 2 ? name : `${name}-discord`, "A friend", "Hi"])).then(async (r) => {
          await r.body?.cancel();
          return r.status;
        }),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
  });

  it("stores every one of many different people applying together", async () => {
    const batch = unique();
    const statuses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        post("/apply", groupForm([`Crowd ${batch} ${i}`, `crowd-${batch}-${i}`, "An event", "Hello"])).then(async (r) => {
          await r.body?.cancel();
          return r.status;
        }),
      ),
    );
    expect(statuses).toEqual(Array(30).fill(200));
  });
});

describe("posting an event's form", () => {
  it("accepts an open event's application", async () => {
    const html = await page(`/events/${openEventId}/apply`);
    const fields = [...html.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
    const name = `Finch ${unique()}`;
    const body = new URLSearchParams(fields.map((field, i) => [field, ["", name, name, "To listen", "Listener"][i + 1]!]));
    const response = await post(`/events/${openEventId}/apply`, body);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Application Submitted");
  });

  it("refuses a closed event with its reason", async () => {
    const response = await post(`/events/${closedEventId}/apply`, new URLSearchParams({ a: "b" }));
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("Application deadline has passed");
  });

  it.each(["00000000-0000-4000-8000-000000000000", "not-an-id"])("answers an unknown event %s with 404", async (id) => {
    const response = await post(`/events/${id}/apply`, new URLSearchParams());
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Event not found or could not be loaded");
  });
});

describe("rate limiting", () => {
  it("turns away an address after RATE_LIMIT_APPLICATIONS submissions in 10 minutes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "dwell-rate-"));
    const limited = await startServerProcess({ DATA_DIR: dir, RATE_LIMIT_APPLICATIONS: "3" });
    try {
      // The limit counts in fixed ten-minute windows of the clock: four requests across a window's
      // edge would be counted in two. Start clear of the edge.
      const toEdge = 600_000 - (Date.now() % 600_000);
      if (toEdge < 20_000) await new Promise((resolve) => setTimeout(resolve, toEdge + 200));
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 4; i++) {
        last = await fetch(`${limited.url}/apply`, { method: "POST", body: new URLSearchParams() });
        statuses.push(last.status);
      }
      expect(statuses).toEqual([400, 400, 400, 429]);
      expect(Number(last!.headers.get("Retry-After"))).toBeGreaterThan(0);
      expect(await last!.text()).toContain("Please wait a few minutes and try again.");
    } finally {
      await limited.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
