/**
 * HTTP requests with exactly the headers given, Host included (fetch replaces Host with the URL's),
 * as a reverse proxy passes them on to the server.
 */
import { request } from "node:http";

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function rawRequest(
  url: string,
  { method = "GET", headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    // A connection of its own each time: a kept-alive one that the server closes (after 5 s idle,
    // a pause a loaded machine can make between two requests) as this one is sent hangs up on it.
    const outgoing = request(url, { method, agent: false, headers: { ...headers, ...(body === undefined ? {} : { "Content-Length": String(Buffer.byteLength(body)) }) } }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
      response.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/** The `name=value` pairs of a response's Set-Cookie headers, as a Cookie header. */
export function cookieHeader(response: RawResponse): string {
  const set = response.headers["set-cookie"] ?? [];
  return (Array.isArray(set) ? set : [set]).map((cookie) => cookie.split(";")[0]).join("; ");
}
