/**
 * Imports the group's VRChat calendar into the site's events (spec section 7, "Event sync").
 *
 * - Only public events are imported. Events VRChat shows to the group's members only never reach the
 *   public events by themselves: an admin may import one explicitly. One the sync imported earlier
 *   that has since become members-only is removed (or, if people have applied to it, kept as the
 *   admin's own and reported).
 * - Events that have not ended, and those that ended in the last 30 days, are imported; older ones
 *   are left out and not counted.
 * - Events the site published to VRChat (`vrchat_publications`, removed ones too) are never imported:
 *   they are the site's own already.
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
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { touchDiscordEvent } from "~/db/discord-event-jobs.server";
import { eventApplications, events, jobRuns, vrchatPublications } from "~/db/schema";
import { log } from "~/utils/log.server";
import { listPublishedEntryIds } from "./calendar-publisher.server";
import type { PlatformEvent } from "./group-data";
import type { GroupDataService } from "./group-data.server";
import type { MembersOnlyListing } from "./members-only-panel";
import type { MembersOnlyItems } from "./vrchat-api.server";
import { prefix, singleLine } from "~/utils/text";

export interface SyncResult {
  added: number;
  /** Already imported, changed on VRChat since, and updated here. */
  updated: number;
  skipped: number;
  /** Imported earlier, members-only on VRChat now: taken off the public events. */
  removed?: number;
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

/** A calendar entry's title as an event's: one line, within the events' limit. */
const importedTitle = (title: string) => prefix(singleLine(title), TITLE_MAX) || "Untitled event";

/** The longest an imported entry is taken to last; a longer or unreadable end is not kept (two hours, then). */
const IMPORTED_MAX_LENGTH_MS = 7 * 24 * 60 * 60 * 1000;

function importedValues(event: PlatformEvent, title: string, start: number) {
  const instant = new Date(start).toISOString();
  const end = event.endsAt ? Date.parse(event.endsAt) : Number.NaN;
  const endInstant = end > start && end - start <= IMPORTED_MAX_LENGTH_MS ? new Date(end).toISOString() : null;
  return {
    title,
    description: prefix(event.description, DESCRIPTION_MAX),
    eventDate: instant.slice(0, 10),
    eventTime: instant.slice(11, 19),
    endDate: endInstant?.slice(0, 10) ?? null,
    endTime: endInstant?.slice(11, 19) ?? null,
    timezone: "UTC",
    worldName: IMPORTED_WORLD_NAME,
    vrchatEventId: event.id,
    vrchatFingerprint: fingerprint(event),
  };
}

/**
 * Upserts the calendar's public events; one statement per event, so two syncs at once cannot
 * duplicate one. The caller passes public events only.
 */
export async function importPlatformEvents(db: Database, calendar: readonly PlatformEvent[], now: Date): Promise<SyncResult> {
  const result: SyncResult = { added: 0, updated: 0, skipped: 0, errors: [] };
  // The site's own events, published to VRChat: already here, and never to be brought in again.
  const published = await listPublishedEntryIds(db);
  for (const event of calendar) {
    if (published.has(event.id)) {
      result.skipped++;
      continue;
    }
    const title = importedTitle(event.title);
    const start = Date.parse(event.startsAt);
    if (Number.isNaN(start)) {
      result.errors.push(`"${title}": its start time (${event.startsAt}) could not be read`);
      continue;
    }
    const end = event.endsAt ? Date.parse(event.endsAt) : start;
    if ((Number.isNaN(end) ? start : end) < now.getTime() - SYNC_LOOKBACK_MS) continue;

    const values = { ...importedValues(event, title, start), vrchatImport: "sync" as const };
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
            endDate: sql`excluded.end_date`,
            endTime: sql`excluded.end_time`,
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

/**
 * Takes events the sync imported off the public events once VRChat shows them to members only. One
 * that people have applied to is kept (their applications with it), becomes the admins' own, and is
 * reported, so an admin decides.
 */
export async function withdrawMembersOnly(db: Database, membersOnlyIds: readonly string[]): Promise<{ removed: number; kept: string[] }> {
  // `kept` holds titles: for the Sanctum, never for a public answer or a log line.
  if (membersOnlyIds.length === 0) return { removed: 0, kept: [] };
  return db.transaction(async (tx) => {
    const imported = await tx
      .select({ id: events.id, title: events.title })
      .from(events)
      .where(and(inArray(events.vrchatEventId, [...membersOnlyIds]), eq(events.vrchatImport, "sync")));
    if (imported.length === 0) return { removed: 0, kept: [] };
    const withApplications = new Set(
      (
        await tx
          .selectDistinct({ eventId: eventApplications.eventId })
          .from(eventApplications)
          .where(inArray(eventApplications.eventId, imported.map((event) => event.id)))
      ).map((row) => row.eventId),
    );
    const applied = imported.filter((event) => withApplications.has(event.id));
    const unapplied = imported.filter((event) => !withApplications.has(event.id)).map((event) => event.id);
    // An entry an admin had listed in Discord's event list comes off it too.
    for (const id of unapplied) await touchDiscordEvent(tx, id, null, new Date());
    if (unapplied.length > 0) await tx.delete(events).where(inArray(events.id, unapplied));
    if (applied.length > 0) await tx.update(events).set({ vrchatImport: "admin" }).where(inArray(events.id, applied.map((event) => event.id)));
    return { removed: unapplied.length, kept: applied.map((event) => event.title) };
  });
}

/**
 * An admin's import of a VRChat event (members-only ones included) as a site event; the existing
 * one when it was imported before. Null when the event is not in the group's calendar.
 */
export async function importEventByAdmin(
  db: Database,
  calendar: readonly PlatformEvent[],
  vrchatEventId: string,
  adminId: string,
): Promise<{ id: string; created: boolean } | null> {
  const event = calendar.find((candidate) => candidate.id === vrchatEventId);
  if (!event) return null;
  // One the site published: its own event is the one.
  const [own] = await db
    .select({ eventId: vrchatPublications.eventId })
    .from(vrchatPublications)
    .where(eq(vrchatPublications.vrchatEventId, vrchatEventId));
  if (own) return own.eventId ? { id: own.eventId, created: false } : null;
  const start = Date.parse(event.startsAt);
  if (Number.isNaN(start)) return null;
  const title = importedTitle(event.title);
  const [row] = await db
    .insert(events)
    .values({ ...importedValues(event, title, start), vrchatImport: "admin", createdBy: adminId })
    .onConflictDoNothing({ target: events.vrchatEventId })
    .returning({ id: events.id });
  if (row) return { id: row.id, created: true };
  const [existing] = await db.select({ id: events.id }).from(events).where(eq(events.vrchatEventId, vrchatEventId));
  // Public on VRChat before: now the admins' own, so the sync never takes it away.
  if (existing) await db.update(events).set({ vrchatImport: "admin" }).where(eq(events.id, existing.id));
  return existing ? { id: existing.id, created: false } : null;
}

/**
 * The members-only items for the Sanctum: calendar events not ended or ended in the last 30 days
 * (soonest first), each saying whether it is already a site event, and the posts.
 */
export async function membersOnlyListing(db: Database, items: MembersOnlyItems | null, now: Date): Promise<MembersOnlyListing> {
  const calendar = (items?.events ?? [])
    .filter((event) => Date.parse(event.endsAt ?? event.startsAt) >= now.getTime() - SYNC_LOOKBACK_MS)
    .sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt))
    .slice(0, 30);
  const ids = calendar.map((event) => event.id);
  const imported = new Set(
    ids.length === 0
      ? []
      : (await db.select({ id: events.vrchatEventId }).from(events).where(inArray(events.vrchatEventId, ids))).map((row) => row.id),
  );
  for (const id of await listPublishedEntryIds(db)) imported.add(id);
  return {
    events: calendar.map((event) => ({ id: event.id, title: event.title, startsAt: event.startsAt, imported: imported.has(event.id) })),
    posts: (items?.posts ?? []).slice(0, 20).map((post) => ({ id: post.id, title: post.title, createdAt: post.createdAt })),
  };
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
      // Visitors' data holds public events only; members-only ones come from the Sanctum's side.
      result = await importPlatformEvents(db, state.data.events, new Date());
      const membersOnly = await groupData.membersOnly();
      const withdrawn = await withdrawMembersOnly(db, membersOnly?.events.map((event) => event.id) ?? []);
      result.removed = withdrawn.removed;
      // No title: this result is also the answer of the public sync endpoint.
      if (withdrawn.kept.length > 0) {
        result.errors.push(`${withdrawn.kept.length} imported event(s) became members-only on VRChat but have applications: kept for the admins to decide`);
      }
    } else {
      const message = state.status === "error" ? state.message : "The VRChat calendar is not available yet.";
      result = { added: 0, updated: 0, skipped: 0, errors: [message] };
    }
    await db.update(jobRuns).set({ finishedAt: sql`now()`, result }).where(eq(jobRuns.name, JOB_NAME));
    // Counts only: an error may name a members-only event, which stays in the Sanctum.
    const figures = { trigger, added: result.added, updated: result.updated, skipped: result.skipped, removed: result.removed };
    if (result.errors.length > 0) log.warn("event sync finished with errors", { ...figures, errors: result.errors.length });
    else log.info("event sync finished", figures);
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
