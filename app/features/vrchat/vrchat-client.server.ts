/**
 * A small client for the VRChat API, for the group's own bot account. VRChat publishes no rate
 * limits and bans accounts that hammer it, so the client is careful:
 *
 * - it logs in only when it has no session or a call answers 401, and shares the cookies through the
 *   database (one login serves every process and survives restarts);
 * - a failed login is never retried in a loop: further logins pause for 15 minutes, doubling up to a day;
 * - 429, 5xx and refused connections are retried at most twice, waiting as long as Retry-After asks
 *   (or an exponential delay with jitter); a wait longer than `maxDelayMs` fails the call instead, and
 *   the cache serves its last good value meanwhile; a call that timed out is not repeated;
 * - a 429 quiets every call, read or write, in every process (the time is kept in the session's row):
 *   none is sent before VRChat's Retry-After has passed; a call that cannot wait that long fails at
 *   once as rate-limited, with the time left, and is not sent;
 * - every request says who it is: `Dwell/<version> <contact>`, as VRChat asks.
 */
import { TOTP } from "otpauth";
import { z } from "zod";
import packageJson from "../../../package.json" with { type: "json" };
import type { SessionStore } from "./vrchat-session.server";
import { VRCHAT_USER_ID } from "~/utils/vrchat-profile-link";
import { cookieValue, retryAfterMs, sleep, upstreamMessage } from "./vrchat-http";
import { VRChatError } from "./vrchat-error";

export interface VRChatClientOptions {
  apiUrl: string;
  username: string;
  password: string;
  totpSecret: string | null;
  contact: string;
  store: SessionStore;
  /** Attempts per call for 429, 5xx and network failures. */
  maxAttempts?: number;
  baseDelayMs?: number;
  /** The longest wait between attempts; a longer Retry-After fails the call instead. */
  maxDelayMs?: number;
  timeoutMs?: number;
  /** The pause after a first failed login; it doubles with each further failure, up to a day. */
  loginPauseMs?: number;
  /**
   * The owner's current 6-digit code (the Connections page's 'Test'), for a login without the
   * authenticator's secret: used once; the session it opens is kept like any other.
   */
  oneTimeCode?: string;
  /**
   * A person asked for this login (the Connections page's 'Test', with what they just typed): an
   * earlier failure's pause does not hold it back. VRChat's own 429 still does.
   */
  personAsked?: boolean;
}

export type Query = Record<string, string | number | boolean | undefined>;

export type WriteMethod = "PUT" | "POST" | "DELETE";

export interface CallOptions {
  /** A time (ms since the epoch) after which the call neither waits nor starts another attempt. */
  deadline?: number;
  /** A read sent once, never retried (a visitor's lookup: a failure is an answer, not a reason to ask again). */
  once?: boolean;
}

export interface VRChatClient {
  get<T>(path: string, schema: z.ZodType<T>, query?: Query, options?: CallOptions): Promise<T>;
  /**
   * A call that changes something (PUT, POST, DELETE): sent once, never retried here, even on 429 or 5xx
   * (VRChat may have acted before failing); the caller decides, after reading the state again.
   * Only a 401 leads to a new login and the same call once more (VRChat did not act on it).
   */
  send(method: WriteMethod, path: string, body: unknown, options?: CallOptions): Promise<void>;
  /** `send`, for a call whose answer is needed (a created calendar entry's id): checked with `schema`. */
  sendFor<T>(method: WriteMethod, path: string, body: unknown, schema: z.ZodType<T>, options?: CallOptions): Promise<T>;
  /** The bot account's own user id: from the login, or one `GET /auth/user` the first time. */
  botUserId(options?: CallOptions): Promise<string>;
}

export const USER_AGENT_PRODUCT = `Dwell/${packageJson.version}`;

const MAX_LOGIN_PAUSE_MS = 24 * 60 * 60 * 1000;

interface Session {
  authCookie: string;
  twoFactorCookie: string | null;
}

export function createVRChatClient(options: VRChatClientOptions): VRChatClient {
  const {
    apiUrl,
    store,
    maxAttempts = 3,
    baseDelayMs = 1_000,
    maxDelayMs = 30_000,
    timeoutMs = 15_000,
    loginPauseMs = 15 * 60 * 1000,
  } = options;
  const userAgent = `${USER_AGENT_PRODUCT} ${options.contact}`;
  let session: Session | null | undefined;
  let reading: Promise<Session | null> | null = null;
  let loggingIn: Promise<Session> | null = null;

  function url(path: string, query: Query = {}): string {
    const target = new URL(`${apiUrl}${path}`);
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) target.searchParams.set(key, String(value));
    }
    return target.toString();
  }

  function cookieHeader(cookies: { authCookie?: string | null; twoFactorCookie?: string | null }): string {
    return [
      cookies.authCookie ? `auth=${cookies.authCookie}` : null,
      cookies.twoFactorCookie ? `twoFactorAuth=${cookies.twoFactorCookie}` : null,
    ]
      .filter(Boolean)
      .join("; ");
  }

  /**
   * Waits out a quiet VRChat asked for (this process's last 429 or another's: the store holds it), or
   * fails at once when the wait is longer than this call may wait.
   */
  async function awaitQuiet(deadline: number) {
    const until = (await store.quietUntil())?.getTime() ?? 0;
    const waitMs = until - Date.now();
    if (waitMs <= 0) return;
    if (waitMs > maxDelayMs || Date.now() + waitMs >= deadline) {
      const quiet = new VRChatError(`VRChat asked to slow down until ${new Date(until).toISOString()}: not asked before then`, 429, waitMs, "rate-limited");
      quiet.notSent = true;
      throw quiet;
    }
    await sleep(waitMs);
  }

  /** A 429: no call is sent, here or in another process, until `waitMs` has passed. */
  async function keepQuiet(waitMs: number) {
    await store.recordQuiet(new Date(Date.now() + waitMs));
  }

  async function send(target: string, init: RequestInit, deadline = Infinity): Promise<Response> {
    await awaitQuiet(deadline);
    const waitMs = Math.min(timeoutMs, deadline - Date.now());
    if (waitMs <= 0) {
      const late = new VRChatError("VRChat was not asked: the refresh ran out of time", null);
      late.notSent = true;
      throw late;
    }
    try {
      return await fetch(target, {
        ...init,
        headers: { "User-Agent": userAgent, Accept: "application/json", ...init.headers },
        redirect: "error",
        signal: AbortSignal.timeout(waitMs),
      });
    } catch (error) {
      const timedOut = error instanceof Error && error.name === "TimeoutError";
      const failure = new VRChatError(`VRChat ${timedOut ? "timed out" : "could not be reached"}`, null);
      failure.timedOut = timedOut;
      // A refused connection never reached VRChat; a request that timed out may have.
      failure.notSent = !timedOut;
      throw failure;
    }
  }

  /** One call, retried on 429, 5xx and network failures with backoff (never past the deadline). */
  async function sendWithRetry(target: string, init: RequestInit, label: string, deadline = Infinity): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      let failure: VRChatError;
      let waitMs: number;
      try {
        const response = await send(target, init, deadline);
        if (response.status !== 429 && response.status < 500) return response;
        const asked = retryAfterMs(response);
        waitMs = asked ?? baseDelayMs * 2 ** (attempt - 1) * (0.5 + Math.random());
        if (response.status === 429) await keepQuiet(waitMs);
        failure = new VRChatError(`VRChat ${label} answered ${response.status}: ${await upstreamMessage(response)}`, response.status, asked);
      } catch (error) {
        if (!(error instanceof VRChatError)) throw error;
        // A call that timed out is not repeated: asking a slow VRChat again only adds to its load.
        if (error.timedOut) throw error;
        failure = error;
        waitMs = baseDelayMs * 2 ** (attempt - 1) * (0.5 + Math.random());
      }
      if (attempt >= maxAttempts || waitMs > maxDelayMs || Date.now() + waitMs >= deadline) throw failure;
      await sleep(waitMs);
    }
  }

  async function pauseLogins(message: string, failures: number, asked: number | null): Promise<never> {
    const pause = Math.min(MAX_LOGIN_PAUSE_MS, Math.max(loginPauseMs * 2 ** failures, asked ?? 0));
    const until = new Date(Date.now() + pause);
    await store.recordLoginFailure(message, until);
    throw new VRChatError(`${message}; no new login before ${until.toISOString()}`, null, pause);
  }

  /** Basic auth on /auth/user, then the authenticator code if VRChat asks for one. Never retried. */
  async function login(): Promise<Session> {
    const stored = await store.load();
    if (!options.personAsked && stored?.loginPausedUntil && stored.loginPausedUntil.getTime() > Date.now()) {
      throw new VRChatError(
        `VRChat login is paused after a failed attempt; next try after ${stored.loginPausedUntil.toISOString()}`,
        null,
        stored.loginPausedUntil.getTime() - Date.now(),
      );
    }
    const failures = stored?.loginFailures ?? 0;
    // VRChat wants the username and password URL-encoded before the Base64 of Basic auth.
    const basic = Buffer.from(
      `${encodeURIComponent(options.username)}:${encodeURIComponent(options.password)}`,
    ).toString("base64");
    // A still-valid two-factor cookie lets VRChat skip asking for a code again.
    const previousTwoFactor = stored?.twoFactorCookie ?? null;
    const cookies = cookieHeader({ twoFactorCookie: previousTwoFactor });
    const response = await send(url("/auth/user"), {
      headers: { Authorization: `Basic ${basic}`, ...(cookies ? { Cookie: cookies } : {}) },
    });
    if (!response.ok) {
      const detail = await upstreamMessage(response);
      const message =
        response.status === 401
          ? `VRChat refused the bot account's login (${detail})`
          : `VRChat login answered ${response.status} (${detail})`;
      return pauseLogins(message, failures, retryAfterMs(response));
    }
    const authCookie = cookieValue(response, "auth");
    if (!authCookie) return pauseLogins("VRChat's login answer carried no auth cookie", failures, null);
    const body = (await response.json().catch(() => ({}))) as { requiresTwoFactorAuth?: unknown; id?: unknown };
    const required = Array.isArray(body.requiresTwoFactorAuth) ? (body.requiresTwoFactorAuth as string[]) : [];
    // The current user comes back when no second factor is asked for; otherwise it is read later.
    const userId = required.length === 0 && typeof body.id === "string" ? body.id : null;
    let twoFactorCookie = previousTwoFactor;
    if (required.length > 0) {
      if (!required.includes("totp")) {
        return pauseLogins(
          `VRChat asks for a ${required.join(" or ")} code: give the bot account an authenticator app and set VRCHAT_TOTP_SECRET`,
          failures,
          null,
        );
      }
      if (!options.totpSecret && !options.oneTimeCode) {
        return pauseLogins("VRChat asks for an authenticator code: set VRCHAT_TOTP_SECRET, or enter the current code on the Connections page", failures, null);
      }
      const code = options.totpSecret ? new TOTP({ secret: options.totpSecret, digits: 6, period: 30, algorithm: "SHA1" }).generate() : options.oneTimeCode!;
      const verify = await send(url("/auth/twofactorauth/totp/verify"), {
        method: "POST",
        headers: { "Content-Type": "application/json", Cookie: cookieHeader({ authCookie }) },
        body: JSON.stringify({ code }),
      });
      const verified = verify.ok && ((await verify.json().catch(() => ({}))) as { verified?: unknown }).verified === true;
      if (!verified) {
        return pauseLogins(`VRChat did not accept the authenticator code (HTTP ${verify.status})`, failures, retryAfterMs(verify));
      }
      twoFactorCookie = cookieValue(verify, "twoFactorAuth") ?? twoFactorCookie;
    }
    const fresh = { authCookie, twoFactorCookie };
    await store.saveLogin({ ...fresh, userId });
    return fresh;
  }

  /** One login at a time in this process; its session is in place before another may start. */
  function loginOnce(): Promise<Session> {
    loggingIn ??= login()
      .then((fresh) => (session = fresh))
      .finally(() => {
        loggingIn = null;
      });
    return loggingIn;
  }

  /** The stored session is read once, by whichever call comes first; the others wait for that read. */
  async function storedSession(): Promise<Session | null> {
    reading ??= store.load().then((stored) =>
      stored?.authCookie ? { authCookie: stored.authCookie, twoFactorCookie: stored.twoFactorCookie } : null,
    );
    const stored = await reading.finally(() => {
      reading = null;
    });
    // A login that finished meanwhile is newer than what was read before it.
    return session === undefined ? stored : session;
  }

  async function currentSession(): Promise<{ session: Session; fresh: boolean }> {
    if (session === undefined) session = await storedSession();
    if (session) return { session, fresh: false };
    return { session: await loginOnce(), fresh: true };
  }

  /** One call with the session, logging in again once when VRChat says the session is gone. */
  async function withSession(target: string, init: RequestInit, label: string, once: boolean, deadline?: number): Promise<Response> {
    const attempt = (current: Session) => {
      const request = { ...init, headers: { ...init.headers, Cookie: cookieHeader(current) } };
      return once ? send(target, request, deadline) : sendWithRetry(target, request, label, deadline);
    };
    const first = await currentSession();
    let current = first.session;
    let response = await attempt(current);
    if (response.status === 401 && !first.fresh) {
      // The session is gone: forget it everywhere, log in once, and try the call again. (Only a
      // 401: a 403 is a missing permission or membership, which a new login would not change.)
      await response.body?.cancel();
      if (session === current) {
        session = null;
        await store.dropAuthCookie();
      }
      ({ session: current } = await currentSession());
      response = await attempt(current);
    }
    if (!response.ok) {
      // A call sent once (a write, a visitor's read) that met a 429 quiets the others too.
      const asked = retryAfterMs(response);
      if (response.status === 429) await keepQuiet(asked ?? baseDelayMs);
      throw new VRChatError(`VRChat ${label} answered ${response.status}: ${await upstreamMessage(response)}`, response.status, asked);
    }
    return response;
  }

  /** An answer checked against the schema: one in another shape fails as "refused-shape". */
  async function parsed<T>(response: Response, schema: z.ZodType<T>, label: string): Promise<T> {
    const body: unknown = await response.json().catch(() => {
      throw new VRChatError(`VRChat ${label} answered with something other than JSON`, response.status, null, "refused-shape");
    });
    const result = schema.safeParse(body);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new VRChatError(
        `VRChat ${label} answered in an unexpected shape (${issue?.path.join(".") || "body"}: ${issue?.message})`,
        response.status,
        null,
        "refused-shape",
      );
    }
    return result.data;
  }

  async function get<T>(path: string, schema: z.ZodType<T>, query?: Query, options: CallOptions = {}): Promise<T> {
    const response = await withSession(url(path, query), {}, path, options.once ?? false, options.deadline);
    return parsed(response, schema, path);
  }

  function write(method: WriteMethod, path: string, body: unknown, options: CallOptions) {
    // A file goes as multipart (fetch writes the Content-Type with its boundary).
    const init: RequestInit =
      body === undefined ? { method } : body instanceof FormData ? { method, body } : { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
    return withSession(url(path), init, `${method} ${path}`, true, options.deadline);
  }

  async function sendOnce(method: WriteMethod, path: string, body: unknown, options: CallOptions = {}): Promise<void> {
    const response = await write(method, path, body, options);
    await response.body?.cancel();
  }

  async function sendFor<T>(method: WriteMethod, path: string, body: unknown, schema: z.ZodType<T>, options: CallOptions = {}): Promise<T> {
    const response = await write(method, path, body, options);
    return parsed(response, schema, `${method} ${path}`);
  }

  return {
    get,
    send: sendOnce,
    sendFor,
    async botUserId(options) {
      const stored = await store.load();
      if (stored?.userId) return stored.userId;
      const me = await get("/auth/user", CurrentUserSchema, undefined, options);
      await store.saveUserId(me.id);
      return me.id;
    },
  };
}

/** Of the current user, the id is all the client needs (an old account's id has the legacy form). */
const CurrentUserSchema = z.object({ id: z.string().regex(VRCHAT_USER_ID) });
