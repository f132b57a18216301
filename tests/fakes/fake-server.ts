/**
 * A small HTTP server on loopback that plays an external service in tests. Its mode can be
 * switched at any time, so a test can show a job surviving a target that is down and comes back:
 *
 * - normal: answers as the service does (and checks the request as strictly)
 * - down: 503; disconnect: the socket is destroyed before any answer
 * - hang: never answers (longer than any client timeout)
 * - rate-limited: the service's 429, asking to wait `retryAfterSeconds`
 * - garbage: 200 with an HTML page instead of JSON; wrong-shape: 200 with JSON the service never sends
 * - reject: the service's permanent 4xx (unknown chat, deleted webhook, no permission)
 * - refused: nothing listens on the port any more (connection refused), until another mode is set
 *
 * `setDelay` holds every answer back, as a slow service would: a delivery is taken (and recorded)
 * when the request arrives, even if the client stops waiting before the answer comes.
 *
 * `requests` holds only the deliveries the service accepted; `attempts` counts every request.
 */
import { createServer, type IncomingHttpHeaders, type Server as HttpServer } from "node:http";
import type { AddressInfo, Server } from "node:net";

export const FAKE_MODES = [
  "normal",
  "down",
  "disconnect",
  "hang",
  "rate-limited",
  "garbage",
  "wrong-shape",
  "reject",
  "refused",
] as const;
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
  /** Resolves once the mode is in effect (for "refused", once the port is closed or open again). */
  setMode(mode: FakeMode, options?: { retryAfterSeconds?: number }): Promise<void>;
  /** Holds every answer back this long (0: answer at once). */
  setDelay(ms: number): void;
  close(): Promise<void>;
}

export async function startFake<T>(behaviour: ServiceBehaviour<T>): Promise<Fake<T>> {
  let mode: FakeMode = "normal";
  let retryAfterSeconds = 2;
  let attempts = 0;
  let delayMs = 0;
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
      case "wrong-shape":
        return { status: 200, body: { data: null, message: "OK", items: [1, 2, 3] } };
      case "reject":
        return behaviour.rejected(request);
      case "refused":
        // A request already on its way when the port closed.
        return "disconnect";
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
      const send = () => {
        // The client may have given up waiting (or its process died) meanwhile.
        if (res.destroyed) return;
        res.writeHead(reply.status, {
          "Content-Type": typeof reply.body === "string" ? "text/plain; charset=utf-8" : "application/json",
          ...reply.headers,
        });
        res.end(text);
      };
      if (delayMs > 0) setTimeout(send, delayMs);
      else send();
    });
  });
  await listenOnLoopback(server);
  const { port } = server.address() as AddressInfo;
  const listening = portSwitch(server, port, () => server.closeAllConnections());

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get attempts() {
      return attempts;
    },
    async setMode(next, options = {}) {
      mode = next;
      retryAfterSeconds = options.retryAfterSeconds ?? retryAfterSeconds;
      await listening.listen(next !== "refused");
    },
    setDelay(ms) {
      delayMs = ms;
    },
    // Also ends the requests left hanging and the clients' keep-alive connections.
    close: () => listening.listen(false),
  };
}

/**
 * Closes a fake's port (for the "refused" mode, and at the end) or opens it again on the same
 * number. Closing also ends the open connections, so the next request has to connect and is refused.
 */
export function portSwitch(server: Server, port: number, dropConnections: () => void) {
  let listening = true;
  return {
    async listen(on: boolean) {
      if (on === listening) return;
      listening = on;
      if (on) {
        await new Promise<void>((resolve, reject) => {
          server.once("error", reject);
          server.listen(port, "127.0.0.1", () => {
            server.off("error", reject);
            resolve();
          });
        });
        return;
      }
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      dropConnections();
      await closed;
    },
  };
}

export function parseJsonBody(request: FakeRequest): unknown {
  if (!request.headers["content-type"]?.startsWith("application/json")) {
    throw new Error(`expected a JSON body, got Content-Type ${request.headers["content-type"] ?? "(none)"}`);
  }
  return JSON.parse(request.body);
}

/**
 * Listens on a free loopback port. As the site's own server, a kept-alive connection stays open 65 s:
 * it outlives a loaded machine's slow step, so a client never sends on one the fake is closing.
 */
export async function listenOnLoopback(server: HttpServer): Promise<void> {
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
}
