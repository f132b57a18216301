/**
 * A small HTTP server on loopback that plays an external service in tests. Its mode can be
 * switched at any time, so a test can show a job surviving a target that is down and comes back:
 *
 * - normal: answers as the service does (and checks the request as strictly)
 * - down: 503; disconnect: the socket is destroyed before any answer
 * - hang: never answers (longer than any client timeout)
 * - rate-limited: the service's 429, asking to wait `retryAfterSeconds`
 * - garbage: 200 with an HTML page instead of JSON
 * - reject: the service's permanent 4xx (unknown chat, deleted webhook, no permission)
 *
 * `requests` holds only the deliveries the service accepted; `attempts` counts every request.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export const FAKE_MODES = ["normal", "down", "disconnect", "hang", "rate-limited", "garbage", "reject"] as const;
export type FakeMode = (typeof FAKE_MODES)[number];

export interface FakeRequest {
  method: string;
  /** Path and query, as sent. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FakeReply {
  status: number;
  /** A string is sent as text, anything else as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface ServiceBehaviour<T> {
  /** The normal answer, with the delivery to record when the service accepted one. */
  accept(request: FakeRequest): { reply: FakeReply; delivery?: T };
  rateLimited(request: FakeRequest, retryAfterSeconds: number): FakeReply;
  rejected(request: FakeRequest): FakeReply;
}

export interface Fake<T> {
  url: string;
  requests: T[];
  readonly attempts: number;
  setMode(mode: FakeMode, options?: { retryAfterSeconds?: number }): void;
  close(): Promise<void>;
}

export async function startFake<T>(behaviour: ServiceBehaviour<T>): Promise<Fake<T>> {
  let mode: FakeMode = "normal";
  let retryAfterSeconds = 2;
  let attempts = 0;
  const requests: T[] = [];

  function answer(request: FakeRequest): FakeReply | "hang" | "disconnect" {
    switch (mode) {
      case "normal": {
        const { reply, delivery } = behaviour.accept(request);
        if (delivery !== undefined) requests.push(delivery);
        return reply;
      }
      case "down":
        return { status: 503, body: "Service Unavailable" };
      case "rate-limited":
        return behaviour.rateLimited(request, retryAfterSeconds);
      case "garbage":
        return { status: 200, body: "<html><body>Welcome to the hotel Wi-Fi</body></html>", headers: { "Content-Type": "text/html" } };
      case "reject":
        return behaviour.rejected(request);
      default:
        return mode;
    }
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      attempts++;
      const request = {
        method: req.method ?? "GET",
        path: req.url ?? "/",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      let reply;
      try {
        reply = answer(request);
      } catch (error) {
        // A request the fake cannot even read: the client under test sent something malformed.
        reply = { status: 400, body: `fake ${request.path}: ${error instanceof Error ? error.message : String(error)}` };
      }
      if (reply === "hang") return;
      if (reply === "disconnect") return void req.socket.destroy();
      const text = typeof reply.body === "string" ? reply.body : reply.body === undefined ? "" : JSON.stringify(reply.body);
      res.writeHead(reply.status, {
        "Content-Type": typeof reply.body === "string" ? "text/plain; charset=utf-8" : "application/json",
        ...reply.headers,
      });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get attempts() {
      return attempts;
    },
    setMode(next, options = {}) {
      mode = next;
      retryAfterSeconds = options.retryAfterSeconds ?? retryAfterSeconds;
    },
    async close() {
      // Also ends the requests left hanging and the clients' keep-alive connections.
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

export function parseJsonBody(request: FakeRequest): unknown {
  if (!request.headers["content-type"]?.startsWith("application/json")) {
    throw new Error(`expected a JSON body, got Content-Type ${request.headers["content-type"] ?? "(none)"}`);
  }
  return JSON.parse(request.body);
}
