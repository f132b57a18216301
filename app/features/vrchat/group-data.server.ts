/**
 * The group's live data, served from a cache in the database: fresh for one window (2 minutes by
 * default), refreshed by one process at a time, whatever the number of visitors.
 *
 * - A process reads the cached row at most once per window while it is fresh (it keeps a copy).
 * - When the row is stale, the first process to take the refresh lease (an atomic upsert on the
 *   row) calls VRChat; the others keep serving the stale copy. The lease runs out by itself if
 *   that process dies.
 * - A failed refresh keeps the last good value, logs the error, and holds the lease for a window
 *   (or as long as VRChat asked), so a VRChat outage costs one attempt per window, not one per visit.
 * - Only a page with nothing cached at all waits for the refresh.
 */
import { eq, sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { groupDataCache } from "~/db/schema";
import { failureText } from "~/utils/failure-text.server";
import { log } from "~/utils/log.server";
import { demoGroupData } from "./demo-group";
import { GROUP_PARTS, type GroupData, type GroupDataResponse, type GroupDataSource, type GroupDataState, type GroupPart } from "./group-data";
import type { GroupSnapshot, MembersOnlyItems, PartStatus, RefreshOutcome, RefreshState } from "./vrchat-api.server";
import { recordGroupSample } from "./group-trends.server";
import { VRChatError } from "./vrchat-error";

export interface GroupDataStatus {
  source: GroupDataSource | null;
  fetchedAt: Date | null;
  /** The last refresh failed as a whole (every part, or the refresh itself). */
  lastError: string | null;
  lastErrorAt: Date | null;
  refreshes: number;
  /** Each part's own state (VRChat only). */
  parts: Record<GroupPart, PartStatus> | null;
}

export interface GroupDataService {
  /** "vrchat", "demo", or null when the statistics are off (no VRChat and no demo). */
  readonly source: GroupDataSource | null;
  /** What is cached now, never waiting for VRChat (a stale or missing value starts a refresh). */
  peek(): Promise<GroupDataState>;
  /** Like peek, but waits for the refresh when nothing is cached yet. */
  get(): Promise<GroupDataState>;
  status(): Promise<GroupDataStatus>;
  /** What VRChat shows only to the group's members, for the Sanctum (never for a visitor's page). */
  membersOnly(): Promise<MembersOnlyItems | null>;
  /** Resolves once a refresh this process started has finished (for a clean shutdown). */
  settle(): Promise<void>;
}

interface CachedRow {
  data: GroupData | null;
  fetchedAt: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  refreshes: number;
}

export interface CachedGroupDataOptions {
  db: Database;
  /** The cache row's key. */
  groupId: string;
  /**
   * Reads the group from VRChat, starting from the last snapshot (a part that fails keeps its value):
   * called at most once per window across every process, and must finish by `deadline`.
   */
  refreshUpstream(previous: Partial<GroupSnapshot>, deadline: number): Promise<RefreshOutcome>;
  windowMs: number;
  /** How long a refresh may take before another process may take over (the refresh stops before). */
  leaseMs?: number;
  /** How long `get` waits for a first value. */
  waitMs?: number;
  /** While the row is stale and another process refreshes, how often to look again. */
  recheckMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createCachedGroupData(options: CachedGroupDataOptions): GroupDataService {
  const { db, groupId, refreshUpstream, windowMs, leaseMs = 60_000, waitMs = 20_000, recheckMs = 1_000 } = options;
  let copy: CachedRow | null = null;
  let checkedAt = 0;
  let reading: Promise<CachedRow | null> | null = null;
  let refreshing: Promise<void> | null = null;

  const isFresh = (row: CachedRow | null) =>
    !!row?.fetchedAt && Date.now() - row.fetchedAt.getTime() < windowMs;

  function readRow(): Promise<CachedRow | null> {
    reading ??= db
      .select({
        data: groupDataCache.data,
        fetchedAt: groupDataCache.fetchedAt,
        lastError: groupDataCache.lastError,
        lastErrorAt: groupDataCache.lastErrorAt,
        refreshes: groupDataCache.refreshes,
      })
      .from(groupDataCache)
      .where(eq(groupDataCache.groupId, groupId))
      .then(([row]) => (row ? { ...row, data: row.data as GroupData | null } : null))
      .finally(() => {
        reading = null;
      });
    return reading;
  }

  /** Takes the refresh lease if the row is stale and nobody holds it: one atomic statement. */
  async function claimLease(): Promise<boolean> {
    const claimed = await db
      .insert(groupDataCache)
      .values({ groupId, refreshLeaseUntil: sql`now() + ${leaseMs} * interval '1 millisecond'` })
      .onConflictDoUpdate({
        target: groupDataCache.groupId,
        set: { refreshLeaseUntil: sql`excluded.refresh_lease_until` },
        setWhere: sql`(${groupDataCache.refreshLeaseUntil} is null or ${groupDataCache.refreshLeaseUntil} < now())
          and (${groupDataCache.fetchedAt} is null or ${groupDataCache.fetchedAt} < now() - ${windowMs} * interval '1 millisecond')`,
      })
      .returning({ groupId: groupDataCache.groupId });
    return claimed.length > 0;
  }

  /** The last snapshot, restricted parts included: read only by the refresh itself. */
  async function previousSnapshot(): Promise<Partial<GroupSnapshot>> {
    const [row] = await db
      .select({ data: groupDataCache.data, membersOnly: groupDataCache.membersOnly, state: groupDataCache.refreshState })
      .from(groupDataCache)
      .where(eq(groupDataCache.groupId, groupId));
    return {
      data: (row?.data as GroupData | null) ?? undefined,
      membersOnly: (row?.membersOnly as MembersOnlyItems | null) ?? undefined,
      state: (row?.state as RefreshState | null) ?? undefined,
    };
  }

  async function recordFailure(message: string, coolDownMs: number, state?: RefreshState) {
    await db
      .update(groupDataCache)
      .set({
        lastError: message,
        lastErrorAt: sql`now()`,
        refreshLeaseUntil: sql`now() + ${coolDownMs} * interval '1 millisecond'`,
        refreshes: sql`${groupDataCache.refreshes} + 1`,
        ...(state ? { refreshState: state } : {}),
      })
      .where(eq(groupDataCache.groupId, groupId));
  }

  async function refresh(): Promise<void> {
    if (!(await claimLease())) return;
    try {
      // The refresh stops asking VRChat before its lease runs out, so no second one overlaps it.
      const outcome = await refreshUpstream(await previousSnapshot(), Date.now() + Math.max(1_000, leaseMs - 5_000));
      const { data, membersOnly, state } = outcome.snapshot;
      if (outcome.failed.length === GROUP_PARTS.length) {
        const first = state.parts[outcome.failed[0]!];
        const message = first.lastError ?? "VRChat could not be read";
        log.error("refreshing the VRChat group data failed; the last good value is served", { groupId, error: message });
        await recordFailure(message, Math.max(windowMs, outcome.backOffMs ?? 0), state);
        return;
      }
      if (outcome.failed.length > 0) {
        log.warn("part of the VRChat group data could not be read; its last good value is served", {
          groupId,
          parts: outcome.failed.map((part) => `${part}: ${state.parts[part].lastError}`),
        });
      }
      await db
        .update(groupDataCache)
        .set({
          data,
          membersOnly,
          refreshState: state,
          fetchedAt: sql`now()`,
          // VRChat asked us to slow down: no refresh before that, even once this window is over.
          refreshLeaseUntil: outcome.backOffMs ? sql`now() + ${outcome.backOffMs} * interval '1 millisecond'` : null,
          lastError: null,
          lastErrorAt: null,
          refreshes: sql`${groupDataCache.refreshes} + 1`,
        })
        .where(eq(groupDataCache.groupId, groupId));
      // The counts just read, for the Sanctum's charts (a group part that failed read nothing new).
      if (!outcome.failed.includes("group") && data?.group) {
        await recordGroupSample(db, { memberCount: data.group.memberCount, onlineCount: data.group.onlineMemberCount }, new Date()).catch((error: unknown) =>
          log.warn("keeping the group's counts for the charts failed", { error }),
        );
      }
    } catch (error) {
      const message = failureText(error);
      log.error("refreshing the VRChat group data failed; the last good value is served", { error, groupId });
      await recordFailure(message, Math.max(windowMs, error instanceof VRChatError ? (error.retryAfterMs ?? 0) : 0));
    } finally {
      copy = null;
      checkedAt = 0;
    }
  }

  function startRefresh(): Promise<void> {
    refreshing ??= refresh()
      .catch((error: unknown) => log.error("the group data cache could not be written", { error }))
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  }

  /** The cached row, as this process last saw it; stale rows are looked at again at most once per recheck. */
  async function current(): Promise<CachedRow | null> {
    if (isFresh(copy) || (copy && Date.now() - checkedAt < recheckMs)) return copy;
    copy = await readRow();
    checkedAt = Date.now();
    if (!isFresh(copy)) void startRefresh();
    return copy;
  }

  function toState(row: CachedRow | null): GroupDataState | null {
    if (row?.data && row.fetchedAt) {
      const response: GroupDataResponse = {
        ...row.data,
        source: "vrchat",
        fetchedAt: row.fetchedAt.toISOString(),
        // Older than a window because VRChat failed (not merely because a refresh is under way).
        stale: !isFresh(row) && row.lastError !== null,
      };
      return { status: "ready", data: response };
    }
    return null;
  }

  return {
    source: "vrchat",
    async peek() {
      const row = await current();
      return toState(row) ?? (row?.lastError ? { status: "error", message: row.lastError } : { status: "loading" });
    },
    async get() {
      const started = Date.now();
      for (;;) {
        const row = await current();
        const ready = toState(row);
        if (ready) return ready;
        if (refreshing) {
          // This process is the one asking VRChat: its answer (or error) is the one to give.
          await refreshing;
          const after = await current();
          const state = toState(after);
          if (state) return state;
          if (after?.lastError) return { status: "error", message: after.lastError };
        } else if (row?.lastError && row.lastErrorAt && row.lastErrorAt.getTime() >= started - windowMs) {
          return { status: "error", message: row.lastError };
        }
        if (Date.now() - started > waitMs) {
          return { status: "error", message: "VRChat did not answer in time; try again in a minute" };
        }
        await sleep(Math.min(recheckMs, 250));
        checkedAt = 0;
      }
    },
    async status() {
      const [row, [extra]] = await Promise.all([
        readRow(),
        db.select({ state: groupDataCache.refreshState }).from(groupDataCache).where(eq(groupDataCache.groupId, groupId)),
      ]);
      return {
        source: "vrchat",
        fetchedAt: row?.fetchedAt ?? null,
        lastError: row?.lastError ?? null,
        lastErrorAt: row?.lastErrorAt ?? null,
        refreshes: row?.refreshes ?? 0,
        parts: (extra?.state as RefreshState | null)?.parts ?? null,
      };
    },
    async membersOnly() {
      const [row] = await db
        .select({ membersOnly: groupDataCache.membersOnly })
        .from(groupDataCache)
        .where(eq(groupDataCache.groupId, groupId));
      return (row?.membersOnly as MembersOnlyItems | null) ?? null;
    },
    async settle() {
      await refreshing;
    },
  };
}

/**
 * The service as one request sees it: every `peek` of the request gives the same snapshot, so the
 * navigation bar (the layout's loader) and the dashboard (the page's) never show two refreshes.
 */
export function oneSnapshotPerRequest(service: GroupDataService): GroupDataService {
  let peeked: Promise<GroupDataState> | undefined;
  return {
    get source() {
      return service.source;
    },
    peek: () => (peeked ??= service.peek()),
    get: () => service.get(),
    status: () => service.status(),
    membersOnly: () => service.membersOnly(),
    settle: () => service.settle(),
  };
}

/** The example group, served while VRChat is not configured: computed, never cached. */
export function createDemoGroupData(): GroupDataService {
  const state = (): GroupDataState => {
    const now = new Date();
    return { status: "ready", data: { ...demoGroupData(now), source: "demo", fetchedAt: now.toISOString(), stale: false } };
  };
  return {
    source: "demo",
    peek: async () => state(),
    get: async () => state(),
    status: async () => ({ source: "demo", fetchedAt: null, lastError: null, lastErrorAt: null, refreshes: 0, parts: null }),
    membersOnly: async () => null,
    settle: async () => {},
  };
}

/** Neither VRChat nor the demo: the site shows no statistics. */
export function createGroupDataOff(): GroupDataService {
  return {
    source: null,
    peek: async () => ({ status: "off" }),
    get: async () => ({ status: "off" }),
    status: async () => ({ source: null, fetchedAt: null, lastError: null, lastErrorAt: null, refreshes: 0, parts: null }),
    membersOnly: async () => null,
    settle: async () => {},
  };
}
