/**
 * Reads kept in this process's memory for a moment, per database, and forgotten at once when this
 * process writes what they read. Other processes (on PostgreSQL) see a change within `ttlMs`.
 */
export function createMemo(ttlMs: number) {
  const byDatabase = new WeakMap<object, Map<string, { at: number; value: Promise<unknown> }>>();
  return {
    get<T>(db: object, key: string, load: () => Promise<T>, now = Date.now()): Promise<T> {
      let entries = byDatabase.get(db);
      if (!entries) byDatabase.set(db, (entries = new Map()));
      const kept = entries.get(key);
      if (kept && now - kept.at < ttlMs) return kept.value as Promise<T>;
      const value = load();
      entries.set(key, { at: now, value });
      // A failed read is not kept.
      value.catch(() => entries.delete(key));
      return value;
    },
    forget(db: object) {
      byDatabase.delete(db);
    },
  };
}

/** The application forms' questions, read for every form served and every one sent. */
export const formQuestionsMemo = createMemo(1_000);
