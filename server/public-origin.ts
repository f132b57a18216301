/**
 * The site's public origin, and the request React Router sees under it.
 *
 * Behind a TLS-terminating proxy the server itself is spoken to in plain http, so the URL it builds
 * from the socket (`http://host/…`) is not the page the browser posted from (`https://host/…`), and
 * React Router's own origin check refuses every form. Requests are therefore handed on under the
 * public origin: `PUBLIC_URL` when it is set (the one source, so a forged Host or
 * X-Forwarded-Host cannot change where reset links, cookies or redirects point), and the request's
 * own origin only when it is not (a developer's machine, reached as localhost or by its address).
 * See docs/decisions/014-public-origin.md.
 */
import type { Config } from "~/utils/env.server";
import { log } from "~/utils/log.server";

/** Methods that change nothing; every other one must come from the site's own pages. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function siteOrigin(config: Pick<Config, "PUBLIC_URL" | "publicUrlIsSet">, requestUrl: URL): string {
  return config.publicUrlIsSet ? config.PUBLIC_URL : requestUrl.origin;
}

/** The same request, addressed to the public origin (method, headers and body unchanged). */
export function underPublicOrigin(request: Request, origin: string): Request {
  const received = new URL(request.url);
  const url = new URL(`${received.pathname}${received.search}`, origin);
  if (url.href === received.href) return new Request(request);
  const hasBody = request.body !== null;
  return new Request(url, {
    method: request.method,
    headers: request.headers,
    body: hasBody ? request.body : undefined,
    signal: request.signal,
    // Node's fetch needs this to pass a request body on as a stream.
    ...(hasBody ? { duplex: "half" } : {}),
  } as RequestInit);
}

/**
 * Whether a state-changing request may proceed: one whose Origin names another site is refused.
 * A request without Origin (curl, a server) is left to the route: browsers send Origin with every
 * cross-site POST, and the Sanctum's cookies are SameSite besides.
 */
export function isCrossSite(request: Request, origin: string): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const sent = request.headers.get("origin");
  return sent !== null && sent !== origin;
}

const warned = new Set<string>();

/**
 * A refused post names the origin it came from. When that looks like this site's own address
 * reached another way (the same host, or a proxy saying so), the operator is told what to set;
 * each such origin once per process, so a hostile page cannot fill the log.
 */
export function reportCrossSite(request: Request, origin: string, trustProxy: boolean) {
  const sent = request.headers.get("origin") ?? "";
  const forwardedHost = trustProxy ? request.headers.get("x-forwarded-host") : null;
  let sentHost = "";
  try {
    sentHost = new URL(sent).host;
  } catch {
    // "null" or garbage: certainly not this site.
  }
  const host = forwardedHost ?? request.headers.get("host");
  const sameHost = sentHost !== "" && sentHost === host;
  if (sameHost && !warned.has(sent) && warned.size < 20) {
    warned.add(sent);
    log.warn("a form posted from this server's own address was refused: is PUBLIC_URL right?", {
      origin: sent,
      publicUrl: origin,
    });
  } else {
    log.info("refused a form posted from another site", { origin: sent.slice(0, 100) });
  }
}
