/** What the VRChat client reads of an HTTP answer: how long it asks to wait, a cookie, its error's words. */
import { truncate } from "~/utils/text";

export function retryAfterMs(response: Response): number | null {
  const header = response.headers.get("retry-after");
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

export function cookieValue(response: Response, name: string): string | null {
  for (const cookie of response.headers.getSetCookie()) {
    const [pair] = cookie.split(";");
    const separator = pair!.indexOf("=");
    if (separator > 0 && pair!.slice(0, separator).trim() === name) return pair!.slice(separator + 1).trim() || null;
  }
  return null;
}

/** VRChat's error body is `{ error: { message, status_code } }`; anything else is ignored. */
export async function upstreamMessage(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string };
    const message = typeof body.error === "string" ? body.error : body.error?.message;
    if (typeof message === "string" && message) return truncate(message, 200);
  } catch {
    // Not JSON: fall through to the status alone.
  }
  return response.statusText || `HTTP ${response.status}`;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
