/**
 * What the outbox jobs that act in VRChat share (the decisions' membership actions, the calendar's
 * publications): a pace between their calls, and how a failure is told to the admins.
 */
import { failureText } from "~/utils/failure-text.server";
import { log } from "~/utils/log.server";
import { VRChatError } from "./vrchat-error";

export type ActionOutcome =
  | { kind: "delivered"; result: string }
  | { kind: "retry"; error: string; retryAfterMs?: number; slowDown?: boolean }
  | { kind: "failed"; error: string };

/**
 * Calls made through it leave at least `spacingMs` between them, in the order they were asked.
 * With `takeTurn` (a pace kept in the database: utils/pace.server), the spacing holds across every
 * process that shares it; should the database not answer, this process keeps its own pace.
 */
export function createPacer(spacingMs: number, now: () => number = Date.now, takeTurn?: () => Promise<number>) {
  let last = 0;
  let queue: Promise<void> = Promise.resolve();
  const ownWait = () => last + spacingMs - now();
  return function paced<T>(call: () => Promise<T>): Promise<T> {
    const turn = queue.then(async () => {
      const wait = takeTurn
        ? await takeTurn().catch((error: unknown) => {
            log.warn("the shared pace could not be read; this process keeps its own", { error: failureText(error) });
            return ownWait();
          })
        : ownWait();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      last = now();
    });
    queue = turn.catch(() => undefined);
    return turn.then(call);
  };
}

/** One pace for all of Dwell's actions in VRChat, whichever job (and, shared, whichever process) makes the call. */
export type Pacer = ReturnType<typeof createPacer>;

/** VRChat's own words, without our "VRChat … answered 403:" prefix. */
export const vrchatReason = (error: VRChatError) => error.message.replace(/^VRChat .*? answered \d+: /, "");

/**
 * A failure as the admins read it: waits are retried, refusals are theirs to look at. `forbidden`
 * words a 403 (by default: the bot account lacks a permission).
 */
export function actionOutcomeOf(error: unknown, forbidden?: (reason: string) => string): ActionOutcome {
  if (!(error instanceof VRChatError)) return { kind: "retry", error: failureText(error) };
  // An answer that could not be read: VRChat may have acted; the job reads the state again first.
  if (error.kind === "refused-shape") return { kind: "retry", error: "VRChat's answer could not be read" };
  if (error.kind === "rate-limited") return { kind: "retry", error: "VRChat asked us to slow down", retryAfterMs: error.retryAfterMs ?? undefined, slowDown: true };
  if (error.kind === "unreachable" || error.kind === "auth") return { kind: "retry", error: error.message };
  if (error.kind === "forbidden") {
    const reason = vrchatReason(error);
    return { kind: "failed", error: forbidden ? forbidden(reason) : `VRChat refused the bot account (${reason}): check its permissions in the group` };
  }
  return { kind: "failed", error: `VRChat answered ${error.status ?? "nothing"}: ${vrchatReason(error)}` };
}
