/**
 * A very short cache of the public pages that every visitor sees alike (`/`, `/events`, an event,
 * `/news`, an announcement, the application forms), for visitors who are not signed in. Rendering a
 * page takes milliseconds of the one CPU a Node process has, so a crowd arriving at once (an event
 * announced in VRChat) would queue behind each other; with this, one render per page per second
 * serves them all.
 *
 * A page differs by visitor only in its time zone (the `tz` cookie), its language (however chosen),
 * the address it was asked at (all part of the key) and its Content-Security-Policy nonce: the
 * cached copy's nonce is replaced by each response's own. An application form also carries the
 * visitor's own fill-time token and crowd challenge: the shared copy is rendered with marks in their
 * place (`PageHoles`), and each response gets its visitor's values.
 * Anything else (another cookie, a query string, a non-200 answer, a Set-Cookie) is not cached.
 */
import { LANGUAGE_COOKIE } from "~/utils/language";
import { TIME_ZONE_COOKIE } from "~/utils/viewer-time-zone";

export interface PageCacheOptions {
  ttlMs: number;
  /** Distinct pages (times time zones) kept at most; the oldest go first. */
  maxEntries?: number;
}

interface CachedPage {
  storedAt: number;
  status: number;
  headers: [string, string][];
  body: string;
  /** The nonce the body was rendered with, replaced by each response's own. */
  nonce: string;
}

const CACHEABLE_PATH = /^\/(?:(?:events|news)(?:\/[0-9a-f-]{36})?)?$/;
/** The public application forms (the group's, an event's): shared only with their holes (`PageHoles`). */
export const APPLICATION_FORM_PATH = /^\/(?:events\/[0-9a-f-]{36}\/)?apply$/;
const SHAREABLE_COOKIE = new RegExp(`^\\s*(?:${TIME_ZONE_COOKIE}=[\\w%+\\-./]*|${LANGUAGE_COOKIE}=[\\w-]*)\\s*$`);
/** What may be written into a page as is: in a tag's attribute, in a script's string, in text. */
const PLAIN_VALUE = /^[\w.-]*$/;

/** A page's parts that differ by visitor, filled into each response of a shared copy. */
export interface PageHoles {
  /** What the shared copy carries in place of each visitor's value: text found nowhere else in a page. */
  marks: readonly string[];
  /** This visitor's values, in the order of `marks` (each plain: letters, digits, `_`, `-` and `.`). */
  fill(): Promise<readonly string[]>;
}

/** The cache key, or null when this request must be rendered for itself. */
function keyOf(request: Request, language: string, holes: PageHoles | undefined): string | null {
  if (request.method !== "GET") return null;
  const url = new URL(request.url);
  const shareable = CACHEABLE_PATH.test(url.pathname) || (holes !== undefined && APPLICATION_FORM_PATH.test(url.pathname));
  if (url.search || !shareable) return null;
  const cookie = request.headers.get("cookie") ?? "";
  // A session (or any cookie of ours other than the time zone and language) means a page of its own.
  if (cookie && !cookie.split(";").every((part) => SHAREABLE_COOKIE.test(part))) return null;
  const timeZone = cookie.split(";").find((part) => part.trim().startsWith(`${TIME_ZONE_COOKIE}=`))?.trim() ?? "";
  // The address it was asked at is part of the key: without PUBLIC_URL, a page's links (canonical,
  // Open Graph) are the request's own, and a forged Host header must not reach anyone else's copy.
  return `${url.host}\n${url.pathname}\n${timeZone}\n${language}`;
}

export function createPageCache({ ttlMs, maxEntries = 500 }: PageCacheOptions) {
  const pages = new Map<string, CachedPage>();
  // Requests arriving while a page renders wait for that render rather than start their own.
  const rendering = new Map<string, Promise<CachedPage | null>>();

  async function store(key: string, response: Response, nonce: string): Promise<CachedPage | null> {
    const type = response.headers.get("content-type") ?? "";
    if (response.status !== 200 || !type.startsWith("text/html") || response.headers.has("set-cookie")) return null;
    const page: CachedPage = {
      storedAt: Date.now(),
      status: response.status,
      headers: [...response.headers],
      body: await response.text(),
      nonce,
    };
    pages.delete(key);
    pages.set(key, page);
    if (pages.size > maxEntries) pages.delete(pages.keys().next().value!);
    return page;
  }

  async function replay(page: CachedPage, nonce: string, holes: PageHoles | undefined): Promise<Response | null> {
    let body = page.body.replaceAll(page.nonce, nonce);
    if (holes) {
      const values = await holes.fill();
      if (values.length !== holes.marks.length || !values.every((value) => PLAIN_VALUE.test(value))) return null;
      holes.marks.forEach((mark, i) => (body = body.replaceAll(mark, values[i]!)));
    }
    const headers = new Headers(page.headers);
    headers.delete("Content-Length");
    return new Response(body, { status: page.status, headers });
  }

  /**
   * Answers from the cache, or renders with `render` (which must use `nonce` as the page's nonce,
   * and, when `shared`, the marks of `holes` for the visitor's own values) and keeps the page when
   * it may be shared.
   */
  return async function serve(
    request: Request,
    nonce: string | undefined,
    render: (shared: boolean) => Promise<Response>,
    /** The language the page is rendered in. */
    language = "en",
    holes?: PageHoles,
  ): Promise<Response> {
    const key = ttlMs > 0 && nonce ? keyOf(request, language, holes) : null;
    if (!key || !nonce) return render(false);
    const fromCopy = async (page: CachedPage | null) => (page ? ((await replay(page, nonce, holes)) ?? render(false)) : render(false));
    const cached = pages.get(key);
    if (cached && Date.now() - cached.storedAt < ttlMs) return fromCopy(cached);

    const pending = rendering.get(key);
    // That render failing or not being shareable: this request renders for itself.
    if (pending) return fromCopy(await pending.catch(() => null));
    let rendered: Response | undefined;
    const attempt = render(true).then((response) => {
      rendered = response;
      return store(key, response, nonce);
    });
    rendering.set(key, attempt);
    try {
      const page = await attempt;
      if (page) return await fromCopy(page);
      // Not shareable (an error, a cookie): without holes it is this visitor's page as it is.
      return holes ? render(false) : rendered!;
    } finally {
      rendering.delete(key);
    }
  };
}

/**
 * Sanctum answers hold applicants' data: no cache on the way (a proxy, the browser's back-forward
 * history on a shared machine) may keep them, and none may hand one account's answer to another.
 */
export function privateResponse(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set("Cache-Control", "no-store");
  const vary = headers.get("Vary");
  if (!vary?.split(",").some((name) => name.trim().toLowerCase() === "cookie")) {
    headers.set("Vary", vary ? `${vary}, Cookie` : "Cookie");
  }
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
