/**
 * A small HTTP server on loopback that plays an external service in tests. Its mode can be
 * switched at any time: answer normally, be down, hang past the client's timeout, rate-limit,
 * answer garbage, or refuse for good. `requests` holds the accepted deliveries; `attempts`
 * counts every request, accepted or not.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type FakeMode = "normal" | "down" | "hang" | "rate-limited" | "garbage" | "reject";

export interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface FakeReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface ServiceBehaviour<T> {
  /** The normal answer; returns what to record as a delivery, or a reply to send instead. */
  accept(request: FakeRequest): { record: T; reply: FakeReply } | { reply: FakeReply };
  rateLimited(retryAfterSeconds: number): FakeReply;
  rejected(): FakeReply;
}

export interface Fake<T> {
  url: string;
  requests: T[];
  readonly attempts: number;
  setMode(mode: FakeMode, options?: { retryAfterSeconds?: number }): void;
  close(): Promise<void>;
}

function send(res: ServerResponse, reply: FakeReply) {
  const body = reply.body === undefined ? "" : typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    "Content-Type": typeof reply.body === "string" ? "text/plain" : "application/json",
    ...reply.headers,
  });
  res.end(body);
}

export async function startFake<T>(behaviour: ServiceBehaviour<T>): Promise<Fake<T>> {
  let mode: FakeMode = "normal";
  let retryAfterSeconds = 2;
  let attempts = 0;
  const requests: T[] = [];
  const hanging = new Set<ServerResponse>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      attempts++;
      const request: FakeRequest = {
        method: req.method ?? "GET",
        path: req.url ?? "/",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      switch (mode) {
        case "down":
          return send(res, { status: 503, body: "Service Unavailable" });
        case "hang":
          hanging.add(res);
          return;
        case "rate-limited":
          return send(res, behaviour.rateLimited(retryAfterSeconds));
        case "garbage":
          return send(res, { status: 200, body: "<html>not what you expected" });
        case "reject":
          return send(res, behaviour.rejected());
        default: {
          const result = behaviour.accept(request);
          if ("record" in result) requests.push(result.record);
          return send(res, result.reply);
        }
      }
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
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
