/**
 * An event in the Discord server's event list, kept in step: each job names an event and makes its
 * Discord entry match the event as it is now (made, edited, taken down). A public event the admins
 * chose to list gets an external scheduled event (`POST /guilds/{guild.id}/scheduled-events`,
 * entity type 3, location = the event's page) with its start, end, description and card picture as
 * cover. A members-only event (published to VRChat's calendar for the group only) is never listed.
 *
 * Never twice: the entry's id is kept as soon as Discord gives it; a create whose answer was lost is
 * followed by a look among the server's events for the bot's own with this event's page as its
 * location. Never another's: only the id Dwell kept is edited or deleted; an entry deleted in Discord
 * by someone is not made again (the card says so).
 *
 * Discord's limits (its guild scheduled event reference): a name of 1–100 characters, a description
 * of at most 1,000, a location of at most 100; an external event needs its end.
 */
import { createHash } from "node:crypto";
import { and, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/db.server";
import { discordEvents, jobRuns, vrchatPublications, type DiscordEventRow, type EventRow } from "~/db/schema";
import type { DiscordBot } from "~/features/discord/discord-bot.server";
import { DiscordError } from "~/features/discord/discord-api.server";
import { recordInterest } from "~/features/events/discord-events.server";
import { eventCardImage } from "~/features/events/event-card-image.server";
import { eventEnd, eventStart } from "~/features/events/event-timing";
import { getEvent } from "~/features/events/events.server";
import type { DeliveryOutcome } from "~/features/notifications/notification";
import type { OutboxChannel } from "~/features/notifications/outbox.server";
import { failureText } from "~/utils/failure-text.server";
import { problemText } from "~/utils/problem-text";
import { eventPageUrl } from "./event-series.server";
import { defaultLanguage, inLanguage } from "~/utils/language.server";
import { truncate } from "~/utils/text";

export const DISCORD_EVENT_LIMITS = { name: 100, description: 1_000, location: 100 } as const;
const EXTERNAL = 3;
const GUILD_ONLY = 2;
/** Discord's "Unknown Guild Scheduled Event". */
const UNKNOWN_EVENT = 10070;

export interface DiscordEventServices {
  db: Database;
  bot: DiscordBot;
  siteOrigin: string;
  /** Where the event cards' world pictures come from (VRChat's API origin). */
  apiOrigin: string;
  timeoutMs: number;
}

const PayloadSchema = z.object({ eventId: z.uuid() });


/** Whether an event may be listed at all: not members-only on VRChat's calendar. */
async function isMembersOnly(db: Database, eventId: string): Promise<boolean> {
  const [publication] = await db
    .select({ details: vrchatPublications.details })
    .from(vrchatPublications)
    .where(and(eq(vrchatPublications.eventId, eventId), eq(vrchatPublications.wanted, true)));
  return publication?.details.accessType === "group";
}

function fieldsOf(event: EventRow, origin: string) {
  const url = eventPageUrl(origin)(event.id);
  return {
    name: truncate(event.title.trim(), DISCORD_EVENT_LIMITS.name),
    description: truncate(event.description.trim() || event.title.trim(), DISCORD_EVENT_LIMITS.description),
    scheduled_start_time: eventStart(event).toISOString(),
    scheduled_end_time: eventEnd(event).toISOString(),
    privacy_level: GUILD_ONLY,
    entity_type: EXTERNAL,
    entity_metadata: { location: truncate(url, DISCORD_EVENT_LIMITS.location) },
  };
}

class Gone extends Error {}

export function discordEventChannel(services: DiscordEventServices): OutboxChannel {
  const { db, bot } = services;
  const events = bot.scheduledEvents;
  // The card's picture, a look for a lost create, and the create.
  const maxDeliveryMs = 3 * services.timeoutMs + 5_000;
  const leaseMs = maxDeliveryMs + 10_000;

  async function claim(eventId: string): Promise<DiscordEventRow | null> {
    const [row] = await db
      .update(discordEvents)
      .set({ busyUntil: sql`now() + ${leaseMs} * interval '1 millisecond'` })
      .where(and(eq(discordEvents.eventId, eventId), or(isNull(discordEvents.busyUntil), lt(discordEvents.busyUntil, sql`now()`))))
      .returning();
    return row ?? null;
  }

  /** The event's card as Discord's cover (a data URI), in the site's default language. */
  async function cover(event: EventRow): Promise<string> {
    const { image } = await inLanguage(defaultLanguage(), () => eventCardImage(event, services.apiOrigin));
    return `data:image/jpeg;base64,${image.toString("base64")}`;
  }

  async function findMade(event: EventRow): Promise<string | null> {
    const [botId, listed] = await Promise.all([bot.messages.botId(), events.list()]);
    const location = fieldsOf(event, services.siteOrigin).entity_metadata.location;
    return listed.find((entry) => entry.creator_id === botId && entry.entity_metadata?.location === location)?.id ?? null;
  }

  async function reconcile(row: DiscordEventRow, now: Date): Promise<{ state: DiscordEventRow["state"]; values: Partial<DiscordEventRow>; result: string }> {
    const event = await getEvent(db, row.eventId);
    const listed = event !== null && event.discordEvent && !(await isMembersOnly(db, event.id));
    if (listed && event) {
      if (row.state === "gone") return { state: "gone", values: {}, result: "Deleted in Discord by someone: not made again" };
      const fields = fieldsOf(event, services.siteOrigin);
      // The card shows the title, the time and the world: a change to any of them draws it again.
      const fingerprint = createHash("sha256").update(JSON.stringify({ fields, world: [event.worldName, event.worldImageUrl, event.timezone] })).digest("base64url");
      if (!row.discordEventId) {
        const made = row.createAttemptedAt ? await findMade(event) : null;
        if (made) return { state: "published", values: { discordEventId: made, syncedFingerprint: null }, result: "Found the entry an earlier attempt made" };
        // Discord takes no event that has ended; one that has started is left off.
        if (eventStart(event) <= now) return { state: "removed", values: {}, result: "Started before it could be listed" };
        await db.update(discordEvents).set({ createAttemptedAt: now }).where(eq(discordEvents.eventId, row.eventId));
        const created = await events.create({ ...fields, image: await cover(event) });
        return { state: "published", values: { discordEventId: created.id, syncedFingerprint: fingerprint }, result: "Listed among the server's events" };
      }
      if (row.syncedFingerprint === fingerprint) return { state: "published", values: {}, result: "Already up to date" };
      // Once it has started, Discord keeps its times: only what it still takes is sent.
      const started = eventStart(event) <= now;
      try {
        await events.edit(row.discordEventId, started ? { name: fields.name, description: fields.description } : { ...fields, image: await cover(event) });
      } catch (error) {
        if (error instanceof DiscordError && (error.code === UNKNOWN_EVENT || error.status === 404)) throw new Gone();
        throw error;
      }
      return { state: "published", values: { syncedFingerprint: fingerprint }, result: "Updated in Discord" };
    }
    if (!row.discordEventId && !row.createAttemptedAt) return { state: "removed", values: {}, result: "Never listed: nothing to take down" };
    const id = row.discordEventId ?? (event ? await findMade(event) : null);
    if (id && row.state !== "gone") {
      try {
        await events.remove(id);
      } catch (error) {
        if (!(error instanceof DiscordError && (error.code === UNKNOWN_EVENT || error.status === 404))) throw error;
      }
    }
    return { state: "removed", values: { discordEventId: null, createAttemptedAt: null, syncedFingerprint: null, userCount: null }, result: id ? "Taken off Discord's event list" : "Never listed: nothing to take down" };
  }

  async function deliver(payload: unknown): Promise<DeliveryOutcome> {
    const parsed = PayloadSchema.safeParse(payload);
    if (!parsed.success) return { kind: "failed", error: "The job could not be read" };
    const row = await claim(parsed.data.eventId);
    if (!row) {
      const [exists] = await db.select({ id: discordEvents.eventId }).from(discordEvents).where(eq(discordEvents.eventId, parsed.data.eventId));
      return exists ? { kind: "retry", error: "Another worker is listing this event", retryAfterMs: 5_000 } : { kind: "delivered", result: "Nothing to list" };
    }
    let outcome: DeliveryOutcome;
    try {
      const done = await reconcile(row, new Date());
      await db.update(discordEvents).set({ ...done.values, state: done.state, lastError: null, busyUntil: null }).where(eq(discordEvents.eventId, row.eventId));
      return { kind: "delivered", result: done.result };
    } catch (error) {
      if (error instanceof Gone) {
        outcome = { kind: "delivered", result: "Deleted in Discord by someone: not made again" };
        await db.update(discordEvents).set({ state: "gone", lastError: "discord_event_gone", busyUntil: null }).where(eq(discordEvents.eventId, row.eventId));
        return outcome;
      }
      outcome = outcomeOf(error);
    }
    await db
      .update(discordEvents)
      .set({ busyUntil: null, lastError: outcome.kind === "delivered" ? null : outcome.error, ...(outcome.kind === "failed" ? { state: "failed" as const } : {}) })
      .where(eq(discordEvents.eventId, row.eventId));
    return outcome;
  }

  return { target: "discord_event", maxDeliveryMs, deliver };
}

/** Discord's answer, as the card says it: a code and Discord's words (features/events' texts). */
function outcomeOf(error: unknown): DeliveryOutcome {
  if (!(error instanceof DiscordError)) return { kind: "retry", error: problemText("unexpected", failureText(error)) };
  if (error.status === 429) return { kind: "retry", error: "discord_slow_down", retryAfterMs: error.retryAfterMs ?? undefined, slowDown: true };
  if (error.status === null || error.status >= 500) return { kind: "retry", error: problemText("discord_down", error.message) };
  if (error.status === 401) return { kind: "failed", error: "discord_token" };
  if (error.status === 403 || error.code === 50013) return { kind: "failed", error: "discord_events_forbidden" };
  return { kind: "failed", error: problemText("discord_refused", `${error.status} ${error.message}`) };
}

/** After the outbox gave up on a job: the card says it failed. */
export async function markDiscordEventFailed(db: Database, payload: unknown, error: string) {
  const parsed = PayloadSchema.safeParse(payload);
  if (!parsed.success) return;
  await db.update(discordEvents).set({ state: "failed", lastError: truncate(error, 500) }).where(and(eq(discordEvents.eventId, parsed.data.eventId), eq(discordEvents.state, "waiting")));
}

/** How often the interest in Discord is read, whatever the number of processes. */
export const INTEREST_READ_MS = 10 * 60_000;

/**
 * Reads how many are interested in each listed event (one call for the whole server), at most once
 * every ten minutes across processes, and only while some event is listed; null when not its turn.
 */
export async function refreshDiscordInterest(db: Database, bot: DiscordBot, now: Date): Promise<number | null> {
  const [anyListed] = await db.select({ id: discordEvents.eventId }).from(discordEvents).where(isNotNull(discordEvents.discordEventId)).limit(1);
  if (!anyListed) return null;
  const claimed = await db
    .insert(jobRuns)
    .values({ name: "discord-interest", startedAt: sql`now()` })
    .onConflictDoUpdate({ target: jobRuns.name, set: { startedAt: sql`now()` }, setWhere: sql`${jobRuns.startedAt} < now() - ${INTEREST_READ_MS - 5_000} * interval '1 millisecond'` })
    .returning({ name: jobRuns.name });
  if (claimed.length === 0) return null;
  const listed = await bot.scheduledEvents.list();
  return recordInterest(db, new Map(listed.map((entry) => [entry.id, entry.user_count ?? 0])), now);
}
