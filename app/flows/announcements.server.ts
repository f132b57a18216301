/**
 * An announcement reaching VRChat and Discord: the outbox's workers for its places. Each job names
 * one place of one announcement and makes that place match the announcement as it is now (made,
 * edited, or taken down), so edits that come while the first publish still waits add up, and a
 * place that fails never holds up the others (each place is a job of its own, in its service's lane).
 *
 * - Never twice: the id of what a place made is stored as soon as it is known; a create whose answer
 *   was lost is followed, next time, by a look for what it made (the bot's own post or message with
 *   this title, made since the attempt) before making another. Discord also drops a second message
 *   with the same nonce.
 * - Never another's: only what Dwell made (its id here) is edited or deleted. A post or message
 *   deleted there by someone is not made again: the card says so.
 * - One worker at a time per place (`busy_until`), whatever the number of processes.
 */
import { and, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/db.server";
import { announcementPictures, announcementPlaces, announcements, type AnnouncementPlaceRow, type AnnouncementRow } from "~/db/schema";
import type { AnnouncementPlace } from "~/db/enums";
import type { OutsidePlace } from "~/features/announcements/announcements.server";
import type { DeliveryOutcome } from "~/features/notifications/notification";
import type { OutboxChannel } from "~/features/notifications/outbox.server";

import {
  discordAdapter,
  GoneThere,
  NotYet,
  PLACE_PROBLEMS,
  problem,
  vrchatAdapter,
  type AnnouncementServices,
  type Picture,
  type PlaceAdapter,
  type PlaceOutcome,
} from "./announcement-places.server";

/** The places an announcement can go to with what the server was given. */
export function configuredPlaces(services: Pick<AnnouncementServices, "posts" | "discord" | "discordChannelId">): AnnouncementPlace[] {
  return ["site", ...(services.posts ? (["vrchat"] as const) : []), ...(services.discord && services.discordChannelId ? (["discord"] as const) : [])];
}

const PayloadSchema = z.object({ announcementId: z.uuid(), place: z.enum(["vrchat", "discord"]) });

async function pictureOf(db: Database, id: string | null): Promise<Picture | null> {
  if (!id) return null;
  const [row] = await db.select().from(announcementPictures).where(eq(announcementPictures.id, id));
  return row ? { id: row.id, type: row.type, data: row.data, vrchatFileId: row.vrchatFileId } : null;
}

/** Every id a place of this kind holds: what a look for a lost create must not take for its own. */
async function knownIds(db: Database, place: OutsidePlace): Promise<Set<string>> {
  const rows = await db.select({ id: announcementPlaces.externalId }).from(announcementPlaces).where(and(eq(announcementPlaces.place, place), isNotNull(announcementPlaces.externalId)));
  return new Set(rows.map((row) => row.id!));
}

function placeChannel(services: AnnouncementServices, adapter: PlaceAdapter, target: "vrchat_post" | "discord_post"): OutboxChannel {
  const { db } = services;
  // An upload, a look for a lost create, the create, and a crosspost, each perhaps after a new login.
  const maxDeliveryMs = 6 * services.timeoutMs + 5_000;
  const leaseMs = maxDeliveryMs + 10_000;
  const where = (id: string) => and(eq(announcementPlaces.announcementId, id), eq(announcementPlaces.place, adapter.place));

  async function claim(id: string): Promise<AnnouncementPlaceRow | null> {
    const [row] = await db
      .update(announcementPlaces)
      .set({ busyUntil: sql`now() + ${leaseMs} * interval '1 millisecond'` })
      .where(and(where(id), or(isNull(announcementPlaces.busyUntil), lt(announcementPlaces.busyUntil, sql`now()`))))
      .returning();
    return row ?? null;
  }

  /** Records what the place has now; it is published only if nobody changed the announcement meanwhile. */
  async function settle(announcement: AnnouncementRow, values: Partial<AnnouncementPlaceRow>, state: "published" | "removed" | "gone", lastError: string | null = null) {
    await db
      .update(announcementPlaces)
      .set({
        ...values,
        syncedVersion: announcement.version,
        syncedPictureId: announcement.pictureId,
        lastError,
        state: sql`case when (select ${announcements.version} from ${announcements} where ${announcements.id} = ${announcement.id}) = ${announcement.version} or ${state} <> 'published' then ${state} else ${announcementPlaces.state} end`,
      })
      .where(where(announcement.id));
  }

  async function reconcile(announcement: AnnouncementRow, row: AnnouncementPlaceRow, now: Date): Promise<string> {
    const wanted = row.wanted && !announcement.deletedAt;
    if (wanted && !announcement.publishAt) return "A draft: nothing to send yet";
    if (wanted && announcement.publishAt! > now) throw new NotYet(announcement.publishAt!.getTime() - now.getTime());
    if (wanted) {
      if (row.state === "gone") return "Deleted there by someone: not made again";
      const picture = await pictureOf(db, announcement.pictureId);
      if (!row.externalId) {
        const made = row.createAttemptedAt ? await adapter.findMade(announcement, row.createAttemptedAt, await knownIds(db, adapter.place)) : null;
        if (made) {
          await settle(announcement, { externalId: made, url: adapter.urlOf(made) }, "published");
          // What it found is the version it sent then: a later edit brings it up to date.
          return "Found what an earlier attempt made";
        }
        await db.update(announcementPlaces).set({ createAttemptedAt: now }).where(where(announcement.id));
        const created = await adapter.create(announcement, picture);
        await settle(announcement, { externalId: created.externalId, url: created.url }, "published");
        return created.note ? `Published (${created.note})` : "Published";
      }
      if (row.syncedVersion >= announcement.version && row.state === "published") return "Already up to date";
      try {
        await adapter.update(announcement, row, picture);
      } catch (error) {
        if (!(error instanceof GoneThere)) throw error;
        await settle(announcement, {}, "gone", problem(adapter.place === "vrchat" ? "vrchat_gone" : "discord_gone"));
        return "Deleted there by someone: not made again";
      }
      await settle(announcement, {}, "published");
      return "Updated";
    }
    const id = row.externalId ?? (row.createAttemptedAt ? await adapter.findMade(announcement, row.createAttemptedAt, await knownIds(db, adapter.place)) : null);
    if (id && row.state !== "gone") await adapter.remove(id);
    await settle(announcement, { externalId: id }, "removed");
    return id ? "Taken down" : "Never sent: nothing to take down";
  }

  async function deliver(payload: unknown): Promise<DeliveryOutcome> {
    const parsed = PayloadSchema.safeParse(payload);
    if (!parsed.success || parsed.data.place !== adapter.place) return { kind: "failed", error: "The job could not be read" };
    const { announcementId } = parsed.data;
    const row = await claim(announcementId);
    if (!row) {
      const [exists] = await db.select({ place: announcementPlaces.place }).from(announcementPlaces).where(where(announcementId));
      if (!exists) return { kind: "delivered", result: "Nothing to send" };
      return { kind: "retry", error: "Another worker is sending this announcement", retryAfterMs: 5_000 };
    }
    let outcome: PlaceOutcome;
    try {
      const [announcement] = await db.select().from(announcements).where(eq(announcements.id, announcementId));
      outcome = announcement ? { kind: "delivered", result: await reconcile(announcement, row, new Date()) } : { kind: "delivered", result: "Nothing to send" };
    } catch (error) {
      outcome = error instanceof NotYet ? { kind: "retry", problem: "", retryAfterMs: error.waitMs } : adapter.outcomeOf(error);
    }
    await db
      .update(announcementPlaces)
      .set({
        busyUntil: null,
        ...(outcome.kind === "delivered" ? {} : { lastError: outcome.problem || null }),
        ...(outcome.kind === "failed" ? { state: "failed" as const } : {}),
      })
      .where(where(announcementId));
    if (outcome.kind === "delivered") return outcome;
    if (outcome.kind === "failed") return { kind: "failed", error: outcome.problem };
    return { kind: "retry", error: outcome.problem || "Scheduled for later", retryAfterMs: outcome.retryAfterMs, slowDown: outcome.slowDown };
  }

  return { target, maxDeliveryMs, deliver };
}

/** The outbox channels of the places configured. */
export function announcementChannels(services: AnnouncementServices): OutboxChannel[] {
  return [
    ...(services.posts ? [placeChannel(services, vrchatAdapter(services, services.posts), "vrchat_post")] : []),
    ...(services.discord && services.discordChannelId ? [placeChannel(services, discordAdapter(services, services.discord, services.discordChannelId), "discord_post")] : []),
  ];
}

/** After the outbox gave up on a place's job (too many attempts): the card says it failed, with why. */
export async function markPlaceFailed(db: Database, payload: unknown, error: string) {
  const parsed = PayloadSchema.safeParse(payload);
  if (!parsed.success) return;
  await db
    .update(announcementPlaces)
    .set({ state: "failed", lastError: error.includes("|") || (PLACE_PROBLEMS as readonly string[]).includes(error) ? error : problem("unexpected", error) })
    .where(and(eq(announcementPlaces.announcementId, parsed.data.announcementId), eq(announcementPlaces.place, parsed.data.place), eq(announcementPlaces.state, "waiting")));
}
