/**
 * What the three channels share: how an application reads in a message, and how an HTTP answer
 * becomes a `DeliveryOutcome`.
 * Lengths are UTF-16 code units (see ~/utils/text).
 */
import { truncate } from "~/utils/text";
import { formatCount } from "~/utils/language";
import type { ApplicationNotification, ApplicationType, DeliveryOutcome } from "./notification";
import { m } from "~/paraglide/messages";

/** Shown for an unanswered question: chat services refuse empty fields, and a dash reads as "none". */
export const NO_ANSWER = "—";
export const APPLICATION_TYPE_LABELS: Record<ApplicationType, string> = {
  get group_application() {
    return m.ntf_type_group();
  },
  get event_application() {
    return m.ntf_type_event();
  },
};

/** A staff message's first line (in the language the message is written in). */
export function headline(notification: ApplicationNotification): string {
  const event = notification.event_title;
  if (notification.edited) {
    const count = notification.edits ?? 1;
    if (count > 1) return event ? m.ntf_edited_many_title({ event, count: formatCount(count) }) : m.ntf_edited_many({ count: formatCount(count) });
    return event ? m.ntf_edited_title({ event }) : m.ntf_edited();
  }
  if (notification.type === "group_application") return m.ntf_new_group();
  if (notification.moved_up) return event ? m.ntf_moved_up_title({ event }) : m.ntf_moved_up();
  const title = event ? m.ntf_new_event_title({ event }) : m.ntf_new_event();
  return notification.waitlist ? m.ntf_waitlisted({ title }) : title;
}

/** "2026-11-21 18:00:00 UTC": unambiguous for admins wherever they are. */
export function formatSubmittedAt(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

export function orDash(text: string): string {
  return text.trim() === "" ? NO_ANSWER : text;
}

/**
 * The largest cap such that texts of these lengths, each cut to the cap, add up to no more than
 * `budget`: one long answer is cut before short ones lose anything, and several long ones share
 * the room equally.
 */
export function fairShare(lengths: readonly number[], budget: number): number {
  const sorted = [...lengths].sort((a, b) => a - b);
  let left = Math.max(0, budget);
  for (const [index, length] of sorted.entries()) {
    const share = Math.floor(left / (sorted.length - index));
    if (length > share) return share;
    left -= length;
  }
  return sorted.at(-1) ?? 0;
}

/**
 * A 4xx other than 408 and 429 will not pass by trying again (wrong token, unknown chat, deleted
 * webhook); anything else might.
 */
export function httpFailure(
  service: string,
  status: number,
  description: string | undefined,
  retryAfterMs?: number,
): DeliveryOutcome {
  const error = `${service} answered ${status}${description ? `: ${truncate(description, 300)}` : ""}`;
  if (status === 429) return retryAfterMs === undefined ? { kind: "retry", error, slowDown: true } : { kind: "retry", error, retryAfterMs, slowDown: true };
  if (status >= 400 && status < 500 && status !== 408) return { kind: "failed", error };
  return { kind: "retry", error };
}

/** A 2xx whose body does not say the message arrived: trying again risks a duplicate, not a loss. */
export function unconfirmed(service: string, status: number): DeliveryOutcome {
  return { kind: "retry", error: `${service} answered ${status} without the expected confirmation` };
}

export function networkFailure(service: string, error: unknown): DeliveryOutcome {
  return { kind: "retry", error: `${service} unreachable: ${networkReason(error)}` };
}

/**
 * Only the error's kind, never its message: undici's messages can quote the request URL, which
 * holds the bot token or the webhook secret.
 */
function networkReason(error: unknown): string {
  if (!(error instanceof Error)) return "network error";
  if (error.name === "TimeoutError" || error.name === "AbortError") return "timed out";
  const { cause } = error;
  if (cause && typeof cause === "object" && "code" in cause && typeof cause.code === "string") return cause.code;
  return error.name;
}

/** A Retry-After header (seconds or an HTTP date) in milliseconds. */
export function retryAfterHeader(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (value.trim() !== "" && Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds * 1000));
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The body as JSON, or undefined when it is not JSON: a proxy's HTML error page is an answer like
 * any other, and the caller's zod schema decides what it means.
 */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export type ServiceAnswer = { sent: true; response: Response; body: unknown } | { sent: false; outcome: DeliveryOutcome };

/**
 * One request to a service, within `timeoutMs`: its response and body (parsed as JSON when it is
 * JSON), or, when nothing usable came back, the outcome to record.
 */
export async function callService(
  service: string,
  url: string | URL,
  init: { body: string | URLSearchParams; headers?: Record<string, string>; timeoutMs: number },
): Promise<ServiceAnswer> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...init.headers },
      body: init.body,
      signal: AbortSignal.timeout(init.timeoutMs),
    });
    return { sent: true, response, body: parseJson(await response.text()) };
  } catch (error) {
    return { sent: false, outcome: networkFailure(service, error) };
  }
}
