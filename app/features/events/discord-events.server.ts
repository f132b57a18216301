/**
 * Events in the Discord server's event list: which events should be there, saved with the event
 * (one outbox job that has the worker, flows/discord-events.server, make Discord match), and what
 * the Sanctum's cards show (the state, and how many are interested).
 */
import { and, eq, inArray, isNotNull, or } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { discordEvents, outbox, type DiscordEventRow, type EventRow } from "~/db/schema";

type Executor = Pick<Database, "select" | "insert" | "update">;

/**
 * After an event is saved or deleted: its entry in Discord's list is brought in step (made, edited,
 * taken down) by a job, when the event is to be listed or was already (an event never listed and
 * not to be has nothing to do).
 */
export async function touchDiscordEvent(tx: Executor, eventId: string, event: Pick<EventRow, "discordEvent"> | null, now: Date) {
  const [known] = await tx.select({ id: discordEvents.discordEventId, attempted: discordEvents.createAttemptedAt }).from(discordEvents).where(eq(discordEvents.eventId, eventId));
  const listed = known && (known.id !== null || known.attempted !== null);
  if (!event?.discordEvent && !listed) return;
  if (!known) await tx.insert(discordEvents).values({ eventId }).onConflictDoNothing();
  else await tx.update(discordEvents).set({ lastError: null, state: event?.discordEvent ? "waiting" : discordEvents.state }).where(and(eq(discordEvents.eventId, eventId), or(eq(discordEvents.state, "published"), eq(discordEvents.state, "failed"), eq(discordEvents.state, "waiting"), eq(discordEvents.state, "removed"))));
  const moved = await tx
    .update(outbox)
    .set({ nextAttemptAt: now })
    .where(and(eq(outbox.target, "discord_event"), eq(outbox.sourceId, eventId), eq(outbox.status, "pending")))
    .returning({ id: outbox.id });
  if (moved.length === 0) await tx.insert(outbox).values({ target: "discord_event", payload: { eventId }, sourceId: eventId, nextAttemptAt: now });
}

/** Each event's entry in Discord's list, by event. */
export async function listDiscordEvents(db: Pick<Database, "select">, eventIds: readonly string[]): Promise<Map<string, DiscordEventRow>> {
  if (eventIds.length === 0) return new Map();
  const rows = await db.select().from(discordEvents).where(inArray(discordEvents.eventId, [...eventIds]));
  return new Map(rows.map((row) => [row.eventId, row]));
}

/** How many are interested in each listed event, as Discord counted them just now. */
export async function recordInterest(db: Database, counts: ReadonlyMap<string, number>, now: Date): Promise<number> {
  if (counts.size === 0) return 0;
  const rows = await db.select({ eventId: discordEvents.eventId, id: discordEvents.discordEventId }).from(discordEvents).where(isNotNull(discordEvents.discordEventId));
  let updated = 0;
  for (const row of rows) {
    const count = counts.get(row.id!);
    if (count === undefined) continue;
    await db.update(discordEvents).set({ userCount: count, countedAt: now }).where(eq(discordEvents.eventId, row.eventId));
    updated++;
  }
  return updated;
}
