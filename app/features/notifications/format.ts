import type { ApplicationNotification } from "./notification";

/** Shown for an unanswered question: chat services refuse empty fields, and a dash reads as "none". */
export const NO_ANSWER = "—";

/** Cuts text to `max` characters (code points), ending with an ellipsis when it was longer. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars.slice(0, Math.max(0, max - 1)).join("")}…`;
}

export function headline(notification: ApplicationNotification): string {
  return notification.type === "event_application"
    ? `New event application: ${notification.event_title ?? "an event"}`
    : "New group application";
}

/** "2026-11-21 18:00:00 UTC": unambiguous for admins wherever they are. */
export function formatSubmittedAt(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

export function answerOrDash(answer: string): string {
  return answer.trim() === "" ? NO_ANSWER : answer;
}

/** The HTTP failure every channel reports the same way: retry for 5xx and 429, give up for other 4xx. */
export function classifyHttpFailure(
  service: string,
  status: number,
  description: string | undefined,
  retryAfterMs: number | undefined,
) {
  const error = `${service} answered ${status}${description ? `: ${truncate(description, 200)}` : ""}`;
  if (status === 429) return { kind: "retry" as const, error, retryAfterMs };
  if (status >= 500 || status === 408) return { kind: "retry" as const, error };
  return { kind: "failed" as const, error };
}

/** A network error or timeout: worth another try. */
export function networkFailure(service: string, error: unknown) {
  const reason =
    error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")
      ? "timed out"
      : error instanceof Error
        ? error.message
        : String(error);
  return { kind: "retry" as const, error: `${service} unreachable: ${reason}` };
}

/** Seconds from a Retry-After header (seconds or an HTTP date), as milliseconds. */
export function retryAfterHeader(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds * 1000));
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
