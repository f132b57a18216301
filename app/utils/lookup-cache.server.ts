/**
 * Lookups in another service (VRChat, Discord) for the Sanctum: each answer is kept a few minutes,
 * and the calls they make are limited per minute, so however many cards staff open, the service is
 * asked a bounded number of times. With `spend` (a count kept in the database) the limit holds for
 * every process that shares it; without, for this process.
 */

/** Whose lookups a call spends: the staff's, or the visitors' own (an applicant's act, such as a withdrawal's refill). */
export type LookupAllowance = "staff" | "visitors";

/** A lookup asked for more calls than the minute allows: the admin tries again shortly. */
export class LookupBudgetError extends Error {
  override name = "LookupBudgetError";
}

export interface LookupCacheOptions {
  /** How long an answer is reused. */
  ttlMs: number;
  /** Calls allowed per minute, answers from the cache not counted. */
  callsPerMinute: number;
  /** What the admin reads when the minute's calls are spent. */
  /** Why a call was refused, in the asker's language. */
  budgetMessage: () => string;
  now?: () => number;
  /** Answers kept at most (the oldest go first). */
  maxEntries?: number;
  /** Counts one call against a minute's allowance shared between processes: false once spent. */
  spend?: (callsPerMinute: number) => Promise<boolean>;
}

export function createLookupCache({ ttlMs, callsPerMinute, budgetMessage, now = Date.now, maxEntries = 500, spend }: LookupCacheOptions) {
  const entries = new Map<string, { until: number; value: Promise<unknown> }>();
  let minute = { start: 0, calls: 0 };
  return {
    /** The answer for `key`, from the cache or from `load` (which counts as one call). */
    get<T>(key: string, load: () => Promise<T>): Promise<T> {
      const at = now();
      const hit = entries.get(key);
      if (hit && hit.until > at) return hit.value as Promise<T>;
      let value: Promise<T>;
      if (spend) {
        value = spend(callsPerMinute).then((allowed) => {
          if (!allowed) throw new LookupBudgetError(budgetMessage());
          return load();
        });
      } else {
        if (at - minute.start >= 60_000) minute = { start: at, calls: 0 };
        if (minute.calls >= callsPerMinute) return Promise.reject(new LookupBudgetError(budgetMessage()));
        minute.calls++;
        value = load();
      }
      entries.set(key, { until: at + ttlMs, value });
      // A failed lookup is not kept: the next one asks again.
      value.catch(() => entries.delete(key));
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      return value;
    },
    /** Forgets an answer that an action has made stale. */
    forget(key: string) {
      entries.delete(key);
    },
  };
}
