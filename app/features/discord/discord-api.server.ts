/**
 * Discord's REST API as the bot calls it. Facts from Discord's API reference (v10): bot tokens go in
 * `Authorization: Bot …`; the User-Agent is `DiscordBot (url, version)`; a 429 says how long to wait
 * in `retry_after` (seconds) and Retry-After; error bodies are `{ code, message }`, with 50007 for a
 * user who does not accept direct messages and 50013 for a missing permission.
 */
import { z } from "zod";
import packageJson from "../../../package.json" with { type: "json" };
import { truncate } from "~/utils/text";

/** Discord's ids count milliseconds from the first second of 2015. */
export const DISCORD_EPOCH = 1420070400000n;

/** A Discord user id (a snowflake). */
export const SNOWFLAKE = /^\d{17,20}$/;

export const MemberSchema = z.object({
  user: z.object({ id: z.string().regex(SNOWFLAKE), username: z.string(), global_name: z.string().nullish(), avatar: z.string().nullish() }),
  nick: z.string().nullish(),
  roles: z.array(z.string()),
});
export type Member = z.infer<typeof MemberSchema>;
const ErrorSchema = z.object({ code: z.number().optional(), message: z.string().optional(), retry_after: z.number().optional() });

export class DiscordError extends Error {
  override name = "DiscordError";
  readonly status: number | null;
  readonly code: number | null;
  readonly retryAfterMs: number | null;
  constructor(message: string, status: number | null, code: number | null = null, retryAfterMs: number | null = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfterMs = retryAfterMs;
  }
}

/** A Discord user id from an id or a mention (`<@123>`); null otherwise. */
export function discordUserIdFrom(text: string): string | null {
  const trimmed = text.trim().replace(/^<@!?(\d+)>$/, "$1");
  return SNOWFLAKE.test(trimmed) ? trimmed : null;
}

/** "moth", "Moth#0", "@moth " all name the same account. */
export function normalizeHandle(handle: string): string {
  return handle.trim().replace(/^@/, "").replace(/#0$/, "").toLowerCase();
}

/** One call to Discord's API: its JSON answer (null for none), or a DiscordError. */
export type DiscordCall = (method: string, path: string, body?: unknown, extraHeaders?: Record<string, string>) => Promise<unknown>;

export function discordCaller(options: { apiUrl: string; token: string; siteUrl: string; timeoutMs: number }): DiscordCall {
  const { apiUrl, token, timeoutMs } = options;
  const userAgent = `DiscordBot (${options.siteUrl}, ${packageJson.version})`;
  return async function call(method, path, body, extraHeaders = {}) {
    let response: Response;
    try {
      response = await fetch(`${apiUrl}${path}`, {
        method,
        headers: {
          Authorization: `Bot ${token}`,
          "User-Agent": userAgent,
          // A message with a file is multipart: fetch writes its Content-Type, with the boundary.
          ...(body === undefined || body instanceof FormData ? {} : { "Content-Type": "application/json" }),
          ...extraHeaders,
        },
        body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
        redirect: "error",
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof Error && error.name === "TimeoutError";
      throw new DiscordError(`Discord ${timedOut ? "timed out" : "could not be reached"}`, null);
    }
    if (response.status === 204) return null;
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON: judged by the status alone below.
    }
    if (response.ok) return json;
    const error = ErrorSchema.safeParse(json);
    const details = error.success ? error.data : {};
    const header = Number(response.headers.get("retry-after"));
    const retryAfterMs = details.retry_after !== undefined ? details.retry_after * 1000 : Number.isFinite(header) && header > 0 ? header * 1000 : null;
    throw new DiscordError((details.message === undefined ? undefined : truncate(details.message, 200)) ?? `HTTP ${response.status}`, response.status, details.code ?? null, retryAfterMs);
  };
}
