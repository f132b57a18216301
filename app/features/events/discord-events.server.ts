/**
 * Events in the Discord server's event list: what the Sanctum's cards show (the state, and how many
 * are interested). Saving an event queues its entry's job (db/discord-event-jobs.server).
 */
import { eq, inArray, isNotNull } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { discordEvents, type DiscordEventRow } from "~/db/schema";

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
