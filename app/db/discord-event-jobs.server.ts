/**
 * The queue of Discord's event list, written to wherever an event is saved or deleted: the admins'
 * saves (features/events) and the calendar sync's removals (features/vrchat). One job per event
 * has the worker (flows/discord-events.server) make its entry match the event as it is then.
 */
import { and, eq, ne } from "drizzle-orm";
import type { Database } from "./db.server";
import { queueOrMoveJob } from "./outbox-jobs.server";
import { discordEvents, type EventRow } from "./schema";

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
  // An entry deleted in Discord by someone stays so: it is never listed again by itself.
  else await tx.update(discordEvents).set({ lastError: null, state: event?.discordEvent ? "waiting" : discordEvents.state }).where(and(eq(discordEvents.eventId, eventId), ne(discordEvents.state, "gone")));
  await queueOrMoveJob(tx, { target: "discord_event", sourceId: eventId, payload: { eventId }, at: now });
}
