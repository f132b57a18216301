/**
 * Once a day, the review channel in Discord gets one line when applications have waited more than
 * a day, with a link to the Sanctum; nothing when none have. However many processes run the check,
 * and however often, one line a (UTC) day: the day is claimed in the database first.
 */
import type { Database } from "~/db/db.server";
import { countWaitingSince } from "~/features/applications/applications.server";
import { queueReviewJob } from "~/features/discord/discord-review.server";
import { countHit } from "~/utils/rate-limit.server";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Queues today's reminder if it is due; what it did, for the log and the tests. */
export async function remindWaitingApplications(db: Database, sanctumUrl: string, now: Date): Promise<"sent" | "none-waiting" | "already-today"> {
  const waiting = await countWaitingSince(db, new Date(now.getTime() - DAY_MS));
  if (waiting === 0) return "none-waiting";
  return db.transaction(async (tx) => {
    // The first claim of the day wins; the job is written with it or not at all.
    if ((await countHit(tx, { key: "discord-review-reminder", windowMs: DAY_MS, now })) > 1) return "already-today" as const;
    await queueReviewJob(tx, { job: "reminder", waiting, url: sanctumUrl, day: now.toISOString().slice(0, 10) }, now);
    return "sent" as const;
  });
}
