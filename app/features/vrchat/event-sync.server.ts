/**
 * Imports the group's VRChat calendar into the site's events (spec section 7, "Event sync").
 *
 * - Events that have not ended, and those that ended in the last 30 days, are imported; older ones
 *   are left out and not counted.
 * - An event is matched by its VRChat id. One that is already imported and unchanged on VRChat is
 *   `skipped`; one whose title, description or times changed on VRChat is updated and counted in
 *   `updated` (an admin's own edits stay until VRChat changes the event again). `added` counts new ones.
 * - VRChat gives an instant; it is stored as its UTC date and time with timezone UTC, which every
 *   page then shows in the visitor's own zone. VRChat events have no world: the world name says so.
 * - Runs at most once per interval across every process (a row in job_runs is the claim), whether
 *   a visit, the schedule or an admin asks; the calendar comes from the group data cache, so a sync
 *   costs VRChat no extra call.
 */
import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { events, jobRuns } from "~/db/schema";
import { log } from "~/utils/log.server";
import type { PlatformEvent } from "./group-data";
import type { GroupDataService } from "./group-data.server";

export interface SyncResult {
  added: number;
  /** Already imported, changed on VRChat since, and updated here. */
  updated: number;
  skipped: number;
  errors: string[];
}

export type SyncOutcome =
  | { ran: true; result: SyncResult }
  | { ran: false; reason: "not-configured" | "too-soon"; message: string; retryAfterMs: number };

export const SYNC_LOOKBACK_MS = 30 * 24 * 60 * 60 * 1000;
/** What an imported event's world name says: VRChat's calendar does not name a world. */
export const IMPORTED_WORLD_NAME = "VRChat group event";
const JOB_NAME = "event-sync";
const TITLE_MAX = 200;
const DESCRIPTION_MAX = 10_000;

function fingerprint(event: PlatformEvent): string {
  return createHash("sha256")
    .update(JSON.stringify([event.title, event.description, event.startsAt, event.endsAt]))
    .digest("base64url");
}

/** Upserts the calendar's events; one statement per event, so two syncs at once cannot duplicate one. */
export async function importPlatformEvents(db: Database, calendar: readonly PlatformEvent[], now: Date): Promise<SyncResult> {
  const result: SyncResult = { added: 0, updated: 0, skipped: 0, errors: [] };
  for (const event of calendar) {
    const title = event.title.trim().slice(0, TITLE_MAX) || "Untitled event";
    const start = Date.parse(event.startsAt);
    if (Number.isNaN(start)) {
      result.errors.push(`"${title}": its start time (${event.startsAt}) could not be read`);
      continue;
    }
    const end = event.endsAt ? Date.parse(event.endsAt) : start;
    if ((Number.isNaN(end) ? start : end) < now.getTime() - SYNC_LOOKBACK_MS) continue;

    const instant = new Date(start).toISOString();
    const values = {
      title,
      description: event.description.slice(0, DESCRIPTION_MAX),
      eventDate: instant.slice(0, 10),
      eventTime: instant.slice(11, 19),
      timezone: "UTC",
      worldName: IMPORTED_WORLD_NAME,
      vrchatEventId: event.id,
      vrchatFingerprint: fingerprint(event),
    };
    try {
      const rows = await db
        .insert(events)
        .values(values)
        .onConflictDoUpdate({
          target: events.vrchatEventId,
          set: {
            title: sql`excluded.title`,
            description: sql`excluded.description`,
            eventDate: sql`excluded.event_date`,
            eventTime: sql`excluded.event_time`,
            timezone: sql`excluded.timezone`,
            vrchatFingerprint: sql`excluded.vrchat_fingerprint`,
          },
          setWhere: sql`${events.vrchatFingerprint} is distinct from excluded.vrchat_fingerprint`,
        })
        // xmax is 0 on a row this statement inserted, and set on one it updated.
        .returning({ inserted: sql<boolean>`(xmax = 0)` });
      if (rows.length === 0) result.skipped++;
      else if (rows[0]!.inserted) result.added++;
      else result.updated++;
    } catch (error) {
      log.error("an imported VRChat event could not be saved", { error, vrchatEventId: event.id });
      result.errors.push(`"${title}": could not be saved`);
    }
  }
  return result;
}

/** Claims the run if the last one started at least `minIntervalMs` ago: one atomic statement. */
async function claimRun(db: Database, minIntervalMs: number): Promise<boolean> {
  const claimed = await db
    .insert(jobRuns)
    .values({ name: JOB_NAME, startedAt: sql`now()` })
    .onConflictDoUpdate({
      target: jobRuns.name,
      set: { startedAt: sql`now()`, finishedAt: null },
      setWhere: sql`${jobRuns.startedAt} < now() - ${minIntervalMs} * interval '1 millisecond'`,
    })
    .returning({ name: jobRuns.name });
  return claimed.length > 0;
}

export interface LastSync {
  startedAt: Date;
  finishedAt: Date | null;
  result: SyncResult | null;
}

export async function lastSync(db: Database): Promise<LastSync | null> {
  const [row] = await db
    .select({ startedAt: jobRuns.startedAt, finishedAt: jobRuns.finishedAt, result: jobRuns.result })
    .from(jobRuns)
    .where(eq(jobRuns.name, JOB_NAME));
  return row ? { ...row, result: row.result as SyncResult | null } : null;
}

export interface EventSyncOptions {
  db: Database;
  groupData: GroupDataService;
  /** The least time between two syncs asked for by visits or the schedule. */
  minIntervalMs: number;
  /** The least time between two syncs an admin asks for (a double click, a sync already running). */
  adminIntervalMs?: number;
}

export interface EventSync {
  run(trigger: "visit" | "schedule" | "admin"): Promise<SyncOutcome>;
  /** A visit's sync: in the background, throttled, never failing the page. */
  runInBackground(): void;
  /** Resolves once the runs this process started have finished (for a clean shutdown). */
  settle(): Promise<void>;
}

export function createEventSync({ db, groupData, minIntervalMs, adminIntervalMs = 15_000 }: EventSyncOptions): EventSync {
  const running = new Set<Promise<unknown>>();

  function run(trigger: "visit" | "schedule" | "admin"): Promise<SyncOutcome> {
    const attempt = runNow(trigger);
    running.add(attempt);
    // Only the bookkeeping: the caller gets the outcome, or the error, from `attempt` itself.
    const done = () => running.delete(attempt);
    attempt.then(done, done);
    return attempt;
  }

  async function runNow(trigger: "visit" | "schedule" | "admin"): Promise<SyncOutcome> {
    if (groupData.source !== "vrchat") {
      return {
        ran: false,
        reason: "not-configured",
        message: "VRChat is not configured: there is no calendar to import.",
        retryAfterMs: 0,
      };
    }
    const interval = trigger === "admin" ? adminIntervalMs : minIntervalMs;
    if (!(await claimRun(db, interval))) {
      const last = await lastSync(db);
      const retryAfterMs = last ? Math.max(0, last.startedAt.getTime() + interval - Date.now()) : interval;
      return {
        ran: false,
        reason: "too-soon",
        message: last?.finishedAt ? "Events were synced a moment ago; try again shortly." : "A sync is already running.",
        retryAfterMs,
      };
    }
    let result: SyncResult;
    const state = await groupData.get();
    if (state.status === "ready") {
      result = await importPlatformEvents(db, state.data.events, new Date());
    } else {
      const message = state.status === "error" ? state.message : "The VRChat calendar is not available yet.";
      result = { added: 0, updated: 0, skipped: 0, errors: [message] };
    }
    await db.update(jobRuns).set({ finishedAt: sql`now()`, result }).where(eq(jobRuns.name, JOB_NAME));
    if (result.errors.length > 0) log.warn("event sync finished with errors", { trigger, ...result });
    else log.info("event sync finished", { trigger, added: result.added, updated: result.updated, skipped: result.skipped });
    return { ran: true, result };
  }

  return {
    run,
    runInBackground() {
      if (groupData.source !== "vrchat") return;
      run("visit").catch((error: unknown) => log.error("event sync failed", { error }));
    },
    async settle() {
      await Promise.allSettled(running);
    },
  };
}
