/**
 * "How was it?": after an event's end (RATING_DELAY_MINUTES later), each attendee marked attended is
 * asked once, by Discord DM when their Discord account is proven or confirmed by staff, and on their
 * status page, with a personal signed link. The link opens a page (no sign-in, no JavaScript needed)
 * to rate the event from 1 to 5 with an optional comment; one answer per attendee, which they may
 * change for 7 days after the event. Answers are for the hosts and staff only. Someone who asks not to
 * be asked again is not (by their VRChat or Discord account when proven, else that application).
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, gte, inArray, isNull, lte, sql } from "drizzle-orm";
import { href } from "react-router";
import type { Database } from "~/db/db.server";
import { eventApplications, eventRatings, events, ratingOptOuts } from "~/db/schema";
import { queueDiscordActions } from "~/features/discord/discord-jobs.server";
import { RATING_COMMENT_MAX } from "~/features/events/event-rating";
import { eventEnd, eventStart, formatLongDateTime, zoneOf } from "~/features/events/event-timing";
import { m } from "~/paraglide/messages";
import { inLanguage, personLanguage } from "~/utils/language.server";
import { escapeDiscordMarkdown } from "~/utils/text";

/** How long after an event's end an answer may be given or changed. */
export const RATING_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
const MINUTE = 60_000;

const signatureOf = (secret: string, applicationId: string) => createHmac("sha256", secret).update(`event rating:${applicationId}`).digest("base64url").slice(0, 32);

/** The personal link's token: the application's id and its signature. */
export const ratingToken = (secret: string, applicationId: string) => `${applicationId}.${signatureOf(secret, applicationId)}`;

/** The application a token is for, or null when it is not one this site signed. */
export function applicationOfToken(secret: string, token: string): string | null {
  const match = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{32})$/.exec(token);
  if (!match) return null;
  const expected = Buffer.from(signatureOf(secret, match[1]!));
  const given = Buffer.from(match[2]!);
  return given.length === expected.length && timingSafeEqual(given, expected) ? match[1]! : null;
}

export const ratingUrl = (siteOrigin: string, secret: string, applicationId: string) => `${siteOrigin}${href("/rate/:token", { token: ratingToken(secret, applicationId) })}`;

/** Whom an opt-out stands for: their proven (or staff-confirmed) VRChat account, else Discord account, else the application. */
function personKeyOf(row: { id: string; vrchatUserId: string | null; vrchatLinkedHow: string | null; discordUserId: string | null; discordLinkedHow: string | null }) {
  const confirmed = (how: string | null) => how === "proven" || how === "staff";
  if (row.vrchatUserId && confirmed(row.vrchatLinkedHow)) return `vrchat:${row.vrchatUserId}`;
  if (row.discordUserId && confirmed(row.discordLinkedHow)) return `discord:${row.discordUserId}`;
  return `application:${row.id}`;
}

const ATTENDEE = {
  id: eventApplications.id,
  status: eventApplications.status,
  attendance: eventApplications.attendance,
  language: eventApplications.language,
  vrchatUserId: eventApplications.vrchatUserId,
  vrchatLinkedHow: eventApplications.vrchatLinkedHow,
  discordUserId: eventApplications.discordUserId,
  discordLinkedHow: eventApplications.discordLinkedHow,
  ratingAskedAt: eventApplications.ratingAskedAt,
  event: { id: events.id, title: events.title, eventDate: events.eventDate, eventTime: events.eventTime, endDate: events.endDate, endTime: events.endTime, timezone: events.timezone },
};

export type RatingState =
  | { kind: "open"; event: { title: string; start: Date; timezone: string | null }; closesAt: Date; rating: number | null; comment: string | null }
  | { kind: "closed"; event: { title: string; start: Date; timezone: string | null } };

/** What the rating page shows for an application: null when it is not an attendee's (or not yet time). */
export async function ratingState(db: Database, applicationId: string, now: Date, delayMinutes: number): Promise<RatingState | null> {
  const [row] = await db.select(ATTENDEE).from(eventApplications).innerJoin(events, eq(events.id, eventApplications.eventId)).where(eq(eventApplications.id, applicationId));
  if (!row || row.status !== "approved" || row.attendance !== "attended") return null;
  const end = eventEnd(row.event);
  if (now.getTime() < end.getTime() + delayMinutes * MINUTE && !row.ratingAskedAt) return null;
  const event = { title: row.event.title, start: eventStart(row.event), timezone: row.event.timezone };
  const closesAt = new Date(end.getTime() + RATING_WINDOW_MS);
  if (now.getTime() >= closesAt.getTime()) return { kind: "closed", event };
  const [answer] = await db.select({ rating: eventRatings.rating, comment: eventRatings.comment }).from(eventRatings).where(eq(eventRatings.applicationId, applicationId));
  return { kind: "open", event, closesAt, rating: answer?.rating ?? null, comment: answer?.comment ?? null };
}

export type RatingOutcome = { ok: true; closesAt: Date } | { ok: false; status: 400 | 404 | 410; message: string };

/**
 * Keeps an attendee's answer (a new one, or a change within the 7 days): the same link sent twice at
 * once keeps one answer, the last. With `optOut`, they are not asked about another event.
 */
export async function saveRating(db: Database, input: { applicationId: string; rating: string; comment: string; optOut: boolean }, now: Date, delayMinutes: number): Promise<RatingOutcome> {
  const state = await ratingState(db, input.applicationId, now, delayMinutes);
  if (!state) return { ok: false, status: 404, message: m.rate_invalid() };
  if (state.kind === "closed") return { ok: false, status: 410, message: m.rate_closed() };
  if (!/^[1-5]$/.test(input.rating.trim())) return { ok: false, status: 400, message: m.rate_choose() };
  const comment = input.comment.replaceAll("\r\n", "\n").trim();
  if (comment.length > RATING_COMMENT_MAX) return { ok: false, status: 400, message: m.rate_too_long({ max: RATING_COMMENT_MAX, length: comment.length }) };
  const rating = Number(input.rating.trim());
  await db.transaction(async (tx) => {
    const [row] = await tx.select(ATTENDEE).from(eventApplications).innerJoin(events, eq(events.id, eventApplications.eventId)).where(eq(eventApplications.id, input.applicationId));
    const values = { applicationId: input.applicationId, eventId: row!.event.id, rating, comment: comment || null };
    await tx.insert(eventRatings).values(values).onConflictDoUpdate({ target: eventRatings.applicationId, set: { rating, comment: comment || null, updatedAt: now } });
    if (input.optOut) await tx.insert(ratingOptOuts).values({ personKey: personKeyOf(row!) }).onConflictDoNothing();
  });
  return { ok: true, closesAt: state.closesAt };
}

export interface RatingServices {
  db: Database;
  delayMinutes: number;
  /** The Discord bot is configured: the question goes by DM too. */
  directMessages: boolean;
  siteOrigin: string;
  /** The site's secret: signs the personal links. */
  secret: string;
  wake: () => void;
}

/** A rating request's own message id for Discord (a repeat is not sent twice). */
const nonceOf = (applicationId: string) => createHash("sha256").update(`rating:${applicationId}`).digest("hex").slice(0, 25);

/** Asks each attendee marked attended of the events that ended RATING_DELAY_MINUTES ago (within the 7 days), once. */
export async function askForRatings(services: RatingServices, now: Date): Promise<number> {
  const { db } = services;
  const earliest = new Date(now.getTime() - RATING_WINDOW_MS - 2 * 24 * 60 * MINUTE).toISOString().slice(0, 10);
  const candidates = await db
    .select(ATTENDEE)
    .from(eventApplications)
    .innerJoin(events, eq(events.id, eventApplications.eventId))
    .where(and(eq(eventApplications.status, "approved"), eq(eventApplications.attendance, "attended"), isNull(eventApplications.ratingAskedAt), isNull(eventApplications.spamAt), gte(events.eventDate, earliest), lte(events.eventDate, now.toISOString().slice(0, 10))));
  const due = candidates.filter((row) => {
    const end = eventEnd(row.event).getTime();
    return end + services.delayMinutes * MINUTE <= now.getTime() && now.getTime() < end + RATING_WINDOW_MS;
  });
  if (due.length === 0) return 0;
  const optedOut = new Set((await db.select({ key: ratingOptOuts.personKey }).from(ratingOptOuts).where(inArray(ratingOptOuts.personKey, due.map(personKeyOf)))).map((row) => row.key));
  let asked = 0;
  for (const row of due) {
    if (optedOut.has(personKeyOf(row))) continue;
    const queued = await db.transaction(async (tx) => {
      const claimed = await tx.update(eventApplications).set({ ratingAskedAt: now }).where(and(eq(eventApplications.id, row.id), isNull(eventApplications.ratingAskedAt))).returning({ id: eventApplications.id });
      if (claimed.length === 0) return false;
      const proven = row.discordLinkedHow === "proven" || row.discordLinkedHow === "staff";
      if (services.directMessages && row.discordUserId && proven) {
        const language = personLanguage(row.language);
        const message = inLanguage(language, () =>
          m.dm_rating({
            event: escapeDiscordMarkdown(row.event.title),
            date: formatLongDateTime(eventStart(row.event), zoneOf(row.event.timezone)),
            link: ratingUrl(services.siteOrigin, services.secret, row.id),
          }),
        );
        await queueDiscordActions(tx, { applicationKind: "event", applicationId: row.id, userId: row.discordUserId, actor: { id: "dwell", name: "Dwell (how was it?)" } }, { grantRole: false, message, nonce: nonceOf(row.id), private: true }, now);
      }
      return true;
    });
    if (queued) asked++;
  }
  if (asked > 0) services.wake();
  return asked;
}

/** The status page's 'How was it?' link: for an attendee who was asked, while the 7 days last. */
export async function ratingLinkFor(db: Database, siteOrigin: string, secret: string, applicationId: string, now: Date, delayMinutes: number): Promise<{ url: string; rated: boolean } | null> {
  const state = await ratingState(db, applicationId, now, delayMinutes);
  if (!state || state.kind !== "open") return null;
  return { url: ratingUrl(siteOrigin, secret, applicationId), rated: state.rating !== null };
}

/** What the hosts and staff read: the average, the count, and each comment (newest first). */
export async function ratingsOf(db: Database, eventIds: readonly string[]) {
  if (eventIds.length === 0) return { average: null, count: 0, comments: [] as { rating: number; comment: string; at: Date }[] };
  const ids = [...eventIds];
  const [summary] = await db.select({ average: sql<number | null>`avg(${eventRatings.rating})::float8`, count: sql<number>`count(*)::int` }).from(eventRatings).where(inArray(eventRatings.eventId, ids));
  const comments = await db
    .select({ rating: eventRatings.rating, comment: eventRatings.comment, at: eventRatings.updatedAt })
    .from(eventRatings)
    .where(and(inArray(eventRatings.eventId, ids), sql`${eventRatings.comment} is not null`))
    .orderBy(sql`${eventRatings.updatedAt} desc`)
    .limit(500);
  return { average: summary?.average ?? null, count: summary?.count ?? 0, comments: comments.map((row) => ({ rating: row.rating, comment: row.comment!, at: row.at })) };
}

/** Each event's average and count of answers (a series' table). */
export async function ratingSummaries(db: Database, eventIds: readonly string[]): Promise<Map<string, { average: number; count: number }>> {
  if (eventIds.length === 0) return new Map();
  const rows = await db
    .select({ eventId: eventRatings.eventId, average: sql<number>`avg(${eventRatings.rating})::float8`, count: sql<number>`count(*)::int` })
    .from(eventRatings)
    .where(inArray(eventRatings.eventId, [...eventIds]))
    .groupBy(eventRatings.eventId);
  return new Map(rows.map((row) => [row.eventId, { average: row.average, count: row.count }]));
}
