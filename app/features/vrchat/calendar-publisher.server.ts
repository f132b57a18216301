/**
 * The calendar worker: makes the group's VRChat calendar match what the admins want for each
 * published event (`vrchat_publications`), one outbox job at a time.
 *
 * - A job names a publication, not a change: it reads the publication as it is now, then creates,
 *   updates or deletes the calendar entry. Jobs for the same publication therefore add up to the
 *   latest state, however many edits came before.
 * - Never a duplicate entry: the entry's id is stored as soon as VRChat gives it; a create that may
 *   have reached VRChat without its answer (a crash, a timeout, an answer that cannot be read) is
 *   followed, next time, by a look at that month of the calendar for the entry at the same start
 *   carrying Dwell's mark (the event's page link) before creating again. One worker at a
 *   time works on a publication (`busy_until`), whatever the number of processes.
 * - Calls: one per create, update or delete (two after an unanswered create), paced a second apart.
 * Field facts come from the community's OpenAPI description of the VRChat API (vrchatapi/specification).
 */
import { and, eq, isNotNull, isNull, lt, notInArray, or, sql } from "drizzle-orm";
import { z } from "zod";
import { calendarCreationsInHour, lockCalendarAllowance, queueReplacedRemovals } from "~/db/calendar-jobs.server";
import type { Database } from "~/db/db.server";
import { vrchatPublications, type PublicationDetails, type PublicationRow } from "~/db/schema";
import { actionOutcomeOf, createPacer, type ActionOutcome, type Pacer } from "./vrchat-actions.server";
import type { VRChatClient } from "./vrchat-client.server";
import { VRChatError } from "./vrchat-error";
import { truncate } from "~/utils/text";
import { VRCHAT_CREATIONS_PER_HOUR } from "~/utils/vrchat-limits";

/** VRChat's description sets no pattern for an entry's id: whatever non-empty id it gives is the entry's. */
const CreatedSchema = z.object({ id: z.string().min(1).max(200) });
const MonthSchema = z.object({
  results: z.array(z.object({ id: z.string(), description: z.string().nullish(), startsAt: z.string().nullish() })).nullish(),
});
const PayloadSchema = z.object({ publicationId: z.uuid() });

/** The most of a month read when looking for an entry a lost answer may have created. */
const MONTH_PAGE = 100;

export interface CalendarPublisherOptions {
  db: Database;
  client: VRChatClient;
  groupId: string;
  /** One call's timeout, for the job's lease. */
  timeoutMs: number;
  /** The least time between two calls. */
  spacingMs?: number;
  /** The pace shared with Dwell's other actions in VRChat (by default, one of its own at `spacingMs`). */
  pacer?: Pacer;
  /** Creations VRChat allows a group an hour: never more are sent, whichever path queued them. */
  creationsPerHour?: number;
}

/** No room in VRChat's hourly allowance yet: the job waits until the oldest creation is an hour old. */
class AllowanceWait extends Error {
  readonly waitMs: number;
  constructor(waitMs: number) {
    super("Waiting for room in VRChat's hourly allowance of calendar events");
    this.waitMs = waitMs;
  }
}

/** The address of an entry on VRChat's website. */
export const calendarEntryUrl = (groupId: string, vrchatEventId: string) => `https://vrchat.com/home/group/${groupId}/calendar/${encodeURIComponent(vrchatEventId)}`;

function createBody(details: PublicationDetails) {
  return {
    title: details.title,
    description: details.description,
    startsAt: details.startsAt,
    endsAt: details.endsAt,
    category: details.category,
    accessType: details.accessType,
    languages: details.languages,
    platforms: details.platforms,
    sendCreationNotification: details.notify,
  };
}

/** VRChat's update takes everything but the access type (a change of access makes a new entry). */
function updateBody(details: PublicationDetails) {
  const { accessType: _accessType, sendCreationNotification: _notify, ...rest } = createBody(details);
  return rest;
}

const isNotFound = (error: unknown) => error instanceof VRChatError && error.status === 404;

export function createCalendarPublisher({ db, client, groupId, timeoutMs, spacingMs = 1_000, pacer, creationsPerHour = VRCHAT_CREATIONS_PER_HOUR }: CalendarPublisherOptions) {
  const paced = pacer ?? createPacer(spacingMs);
  // At most two calls per job (a look at the month, then the create), each perhaps after a new login.
  const maxDeliveryMs = 4 * timeoutMs + 2 * spacingMs;
  const leaseMs = maxDeliveryMs + 10_000;

  async function claim(id: string): Promise<PublicationRow | null> {
    const [row] = await db
      .update(vrchatPublications)
      .set({ busyUntil: sql`now() + ${leaseMs} * interval '1 millisecond'` })
      .where(and(eq(vrchatPublications.id, id), or(isNull(vrchatPublications.busyUntil), lt(vrchatPublications.busyUntil, sql`now()`))))
      .returning();
    return row ?? null;
  }

  /**
   * The entry a create made without us hearing back: in its month, at its start, carrying Dwell's
   * mark (the description's last line, the event's own page, which nobody else writes). An entry
   * someone made by hand with the same title is not Dwell's.
   */
  async function findMade(details: PublicationDetails): Promise<string | null> {
    const month = details.startsAt.slice(0, 7);
    const listed = await paced(() =>
      client.get(`/calendar/${groupId}`, MonthSchema, { date: `${month}-01T00:00:00.000Z`, n: MONTH_PAGE, offset: 0 }),
    );
    const start = Date.parse(details.startsAt);
    // The entry this one replaces has the same title and start: an entry another publication holds is not it.
    const known = await listPublishedEntryIds(db);
    const mark = details.description.split("\n").at(-1)!;
    const found = (listed.results ?? []).find(
      (entry) => !known.has(entry.id) && (entry.description ?? "").includes(mark) && Date.parse(entry.startsAt ?? "") === start,
    );
    return found?.id ?? null;
  }

  /** Records what VRChat has now; the state is final only if nobody changed the publication meanwhile. */
  async function settle(row: PublicationRow, values: Partial<PublicationRow>, state: "published" | "removed") {
    await db
      .update(vrchatPublications)
      .set({
        ...values,
        syncedVersion: row.version,
        lastError: null,
        state: sql`case when ${vrchatPublications.version} = ${row.version} then ${state} else ${vrchatPublications.state} end`,
      })
      .where(eq(vrchatPublications.id, row.id));
  }

  /** On the calendar: recorded, and the entry it replaces (another audience) may now come off it. */
  async function published(row: PublicationRow, values: Partial<PublicationRow>): Promise<string> {
    await settle(row, values, "published");
    if (row.eventId) await queueReplacedRemovals(db, row.eventId, new Date());
    return "Published to VRChat's calendar";
  }

  async function create(row: PublicationRow): Promise<string> {
    const made = row.createAttemptedAt ? await findMade(row.details) : null;
    if (made) return published(row, { vrchatEventId: made, vrchatCreatedAt: row.createAttemptedAt });
    // The allowance counted and this creation reserved in one locked step: two workers (or processes) never overrun it.
    const wait = await db.transaction(async (tx) => {
      await lockCalendarAllowance(tx);
      const now = new Date();
      const used = await calendarCreationsInHour(tx, now, { excluding: row.id });
      if (used.count >= creationsPerHour) return Math.max(1_000, (used.oldest?.getTime() ?? now.getTime()) + 60 * 60_000 - now.getTime());
      await tx.update(vrchatPublications).set({ createAttemptedAt: now }).where(eq(vrchatPublications.id, row.id));
      return 0;
    });
    if (wait > 0) throw new AllowanceWait(wait);
    const created = await paced(() => client.sendFor("POST", `/calendar/${groupId}/event`, createBody(row.details), CreatedSchema));
    return published(row, { vrchatEventId: created.id, vrchatCreatedAt: new Date() });
  }

  /** The entry that replaces this one, while it is not yet on VRChat's calendar. */
  async function awaitedReplacement(row: PublicationRow): Promise<boolean> {
    if (!row.eventId) return false;
    const [successor] = await db
      .select({ id: vrchatPublications.id })
      .from(vrchatPublications)
      .where(and(eq(vrchatPublications.eventId, row.eventId), eq(vrchatPublications.wanted, true), isNull(vrchatPublications.vrchatEventId)));
    return successor !== undefined;
  }

  async function reconcile(row: PublicationRow): Promise<string> {
    if (row.wanted) {
      const entryId = row.vrchatEventId;
      if (!entryId) return create(row);
      if (row.syncedVersion >= row.version) {
        await settle(row, {}, "published");
        return "Already up to date on VRChat's calendar";
      }
      try {
        await paced(() => client.send("PUT", `/calendar/${groupId}/${encodeURIComponent(entryId)}/event`, updateBody(row.details)));
      } catch (error) {
        if (!isNotFound(error)) throw error;
        // Deleted on VRChat meanwhile: the admins still want it there, so it is made again.
        return create({ ...row, vrchatEventId: null, createAttemptedAt: null });
      }
      await settle(row, {}, "published");
      return "Updated on VRChat's calendar";
    }
    if ((row.vrchatEventId || row.createAttemptedAt) && (await awaitedReplacement(row))) return "Kept on VRChat's calendar until its new entry is published";
    const id = row.vrchatEventId ?? (row.createAttemptedAt ? await findMade(row.details) : null);
    if (!id) {
      await settle(row, {}, "removed");
      return "Never reached VRChat's calendar: nothing to remove";
    }
    try {
      await paced(() => client.send("DELETE", `/calendar/${groupId}/${encodeURIComponent(id)}`, undefined));
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    await settle(row, { vrchatEventId: id }, "removed");
    return "Removed from VRChat's calendar";
  }

  async function deliver(payload: unknown): Promise<ActionOutcome> {
    const parsed = PayloadSchema.safeParse(payload);
    if (!parsed.success) return { kind: "failed", error: "The job could not be read" };
    const { publicationId } = parsed.data;
    const row = await claim(publicationId);
    if (!row) {
      const [exists] = await db.select({ id: vrchatPublications.id }).from(vrchatPublications).where(eq(vrchatPublications.id, publicationId));
      if (!exists) return { kind: "delivered", result: "Nothing to publish" };
      return { kind: "retry", error: "Another worker is publishing this event", retryAfterMs: 5_000 };
    }
    let outcome: ActionOutcome;
    try {
      outcome = { kind: "delivered", result: await reconcile(row) };
    } catch (error) {
      // The card already says VRChat refused it: the reason is VRChat's own words (a 403 here is as often
      // one of its limits as a missing permission).
      outcome = error instanceof AllowanceWait ? { kind: "retry", error: error.message, retryAfterMs: error.waitMs } : actionOutcomeOf(error, (reason) => `VRChat's answer: ${reason}`);
    }
    await db
      .update(vrchatPublications)
      .set({
        busyUntil: null,
        ...(outcome.kind === "delivered" ? {} : { lastError: truncate(outcome.error, 500) }),
        ...(outcome.kind === "failed" ? { state: "failed" as const } : {}),
      })
      .where(eq(vrchatPublications.id, row.id));
    return outcome;
  }

  return {
    channel: { target: "vrchat_calendar" as const, maxDeliveryMs, deliver },
  };
}

export type CalendarPublisher = ReturnType<typeof createCalendarPublisher>;

/** After the outbox gave up on a job (too many attempts): the card says so, with its last error. */
export async function markPublicationFailed(db: Database, payload: unknown, error: string) {
  const parsed = PayloadSchema.safeParse(payload);
  if (!parsed.success) return;
  await db
    .update(vrchatPublications)
    .set({ state: "failed", lastError: truncate(error, 500) })
    .where(and(eq(vrchatPublications.id, parsed.data.publicationId), notInArray(vrchatPublications.state, ["removed", "published"])));
}

/** Every VRChat calendar entry the site published, now or before: the import must not bring them in again. */
export async function listPublishedEntryIds(db: Pick<Database, "select">): Promise<Set<string>> {
  const rows = await db
    .select({ id: vrchatPublications.vrchatEventId })
    .from(vrchatPublications)
    .where(isNotNull(vrchatPublications.vrchatEventId));
  return new Set(rows.map((row) => row.id!));
}
