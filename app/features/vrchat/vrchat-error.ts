/**
 * What went wrong, as the dashboard tells it apart: VRChat not answering (network, timeout, 5xx),
 * asking us to slow down (429), answering in a shape that was refused, refusing the bot account
 * access (403: a permission or the membership), a login problem, or another HTTP answer.
 */
export type VRChatErrorKind = "unreachable" | "rate-limited" | "refused-shape" | "forbidden" | "auth" | "http";

export class VRChatError extends Error {
  override name = "VRChatError";
  /** The HTTP status, or null when no answer came (network, timeout, paused login). */
  readonly status: number | null;
  /** How long VRChat asked us to wait, when it did. */
  readonly retryAfterMs: number | null;
  readonly kind: VRChatErrorKind;
  /** No answer came within the timeout. */
  timedOut = false;
  /** Nothing was sent: VRChat could not be reached at all, or it had asked for quiet (a 429's wait). */
  notSent = false;
  constructor(message: string, status: number | null, retryAfterMs: number | null = null, kind?: VRChatErrorKind) {
    super(message);
    this.status = status;
    this.retryAfterMs = retryAfterMs;
    this.kind = kind ?? kindOfStatus(status);
  }
}

function kindOfStatus(status: number | null): VRChatErrorKind {
  if (status === null || status >= 500) return "unreachable";
  if (status === 429) return "rate-limited";
  if (status === 403) return "forbidden";
  if (status === 401) return "auth";
  return "http";
}
