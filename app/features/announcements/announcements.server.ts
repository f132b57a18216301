/**
 * Announcements: written once in the Sanctum, saved with one row per place they go to (the site,
 * VRChat, Discord) and one outbox job per outside place, all in one transaction. The jobs name a
 * place, not a change: the worker (flows/announcements.server) reads the announcement as it is when
 * the job runs, so any number of edits add up to the latest, and a job due before a scheduled time
 * waits for it. What the site shows is read here too, members-only ones only for those who may see
 * them.
 */
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lte, sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import type { AnnouncementPlace } from "~/db/enums";
import {
  announcementHistory,
  announcementPictures,
  announcementPlaces,
  announcements,
  siteSettings,
  teamHistory,
  type AnnouncementPlaceRow,
  type AnnouncementRow,
  type AnnouncementText,
} from "~/db/schema";
import { queueOrMoveJob } from "~/db/outbox-jobs.server";
import type { AnnouncementChoice, PlaceView } from "./announcement-input";
import type { PictureCheck } from "./announcement-picture.server";

type Executor = Pick<Database, "select" | "insert" | "update" | "delete">;

export interface Actor {
  id: string;
  username: string;
}

/** A new picture, checked; or the one it has kept; or none. */
export type PictureChange = { kind: "keep" } | { kind: "remove" } | { kind: "new"; bytes: Buffer; check: Extract<PictureCheck, { ok: true }> };

/** The outbox target of each outside place. */
export const PLACE_TARGETS = { vrchat: "vrchat_post", discord: "discord_post" } as const;
export type OutsidePlace = keyof typeof PLACE_TARGETS;
export const isOutsidePlace = (place: AnnouncementPlace): place is OutsidePlace => place !== "site";

export const PlaceJobSchemaShape = { announcementId: "uuid", place: "vrchat|discord" } as const;

/** The jobs that make each outside place match the announcement, due at `at` (a pending one is moved instead). */
async function queuePlaces(tx: Executor, announcementId: string, places: readonly OutsidePlace[], at: Date) {
  for (const place of places) await queueOrMoveJob(tx, { target: PLACE_TARGETS[place], sourceId: announcementId, payload: { announcementId, place }, at });
}

async function remember(tx: Executor, announcementId: string, actor: Actor | null, change: string) {
  await tx.insert(announcementHistory).values({ announcementId, actorId: actor?.id ?? null, actorName: actor?.username ?? "Dwell", change });
}

async function savePicture(tx: Executor, picture: PictureChange, current: string | null): Promise<string | null> {
  if (picture.kind === "keep") return current;
  if (picture.kind === "remove") return null;
  const [row] = await tx
    .insert(announcementPictures)
    .values({ type: picture.check.type, data: picture.bytes, width: picture.check.width, height: picture.check.height })
    .returning({ id: announcementPictures.id });
  return row!.id;
}

function textsOf(choice: AnnouncementChoice): Record<string, AnnouncementText> {
  return Object.fromEntries(Object.entries(choice.texts).filter(([, words]) => words.title.trim() || words.text.trim()).map(([language, words]) => [language, { title: words.title.trim(), text: words.text.trim() }]));
}

/** What the form chose, as the announcement's columns. */
function columnsOf(choice: AnnouncementChoice) {
  return {
    texts: textsOf(choice),
    audience: choice.audience,
    vrchatRoleIds: choice.vrchatRoleIds,
    notifyMembers: choice.notifyMembers,
    discordRoleId: choice.discordRoleId,
  };
}

/** When the places are asked to act: at its time, or now when that has come. */
const dueAt = (publishAt: Date, now: Date) => (publishAt > now ? publishAt : now);

export async function createAnnouncement(db: Database, choice: AnnouncementChoice, picture: PictureChange, actor: Actor, now: Date): Promise<string> {
  return db.transaction(async (tx) => {
    const pictureId = await savePicture(tx, picture, null);
    const [row] = await tx
      .insert(announcements)
      .values({
        ...columnsOf(choice),
        pictureId,
        eventId: choice.eventId,
        publishAt: choice.publishAt,
        createdBy: actor.id,
      })
      .returning({ id: announcements.id });
    const id = row!.id;
    if (choice.places.length > 0) await tx.insert(announcementPlaces).values(choice.places.map((place) => ({ announcementId: id, place })));
    await remember(tx, id, actor, historyWord(choice.publishAt, now, "created"));
    if (choice.publishAt) await queuePlaces(tx, id, choice.places.filter(isOutsidePlace), dueAt(choice.publishAt, now));
    return id;
  });
}

/**
 * What the history keeps of a change, as a word the card says in its reader's language
 * (announcement-history.ts): `published`, `scheduled <time>`, `draft`, `edited`, `deleted`, `retried <place>`.
 */
function historyWord(publishAt: Date | null, now: Date, fallback: "created" | "edited"): string {
  if (!publishAt) return fallback === "created" ? "draft" : "edited";
  if (publishAt > now) return `scheduled ${publishAt.toISOString()}`;
  return fallback === "created" ? "published" : "edited";
}

export class AnnouncementGoneError extends Error {
  override name = "AnnouncementGoneError";
}

/**
 * A saved change: a new version every place is brought to. A place left out is taken down there;
 * a place added is sent. Once published, it cannot go back to a draft or to a later time.
 */
export async function updateAnnouncement(db: Database, id: string, choice: AnnouncementChoice, picture: PictureChange, actor: Actor, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const [current] = await tx.select().from(announcements).where(and(eq(announcements.id, id), isNull(announcements.deletedAt))).for("update");
    if (!current) throw new AnnouncementGoneError();
    const published = current.publishAt !== null && current.publishAt <= now;
    const publishAt = published ? current.publishAt : choice.publishAt;
    const pictureId = await savePicture(tx, picture, current.pictureId);
    await tx
      .update(announcements)
      .set({
        ...columnsOf(choice),
        pictureId,
        publishAt,
        version: sql`${announcements.version} + 1`,
      })
      .where(eq(announcements.id, id));
    const places = await tx.select().from(announcementPlaces).where(eq(announcementPlaces.announcementId, id));
    const chosen = new Set(choice.places);
    for (const place of choice.places) {
      const known = places.find((row) => row.place === place);
      if (!known) await tx.insert(announcementPlaces).values({ announcementId: id, place });
      else if (!known.wanted) await tx.update(announcementPlaces).set({ wanted: true, state: "waiting", lastError: null }).where(and(eq(announcementPlaces.announcementId, id), eq(announcementPlaces.place, place)));
    }
    const dropped = places.filter((row) => row.wanted && !chosen.has(row.place));
    if (dropped.length > 0) {
      await tx
        .update(announcementPlaces)
        .set({ wanted: false })
        .where(and(eq(announcementPlaces.announcementId, id), inArray(announcementPlaces.place, dropped.map((row) => row.place))));
    }
    await remember(tx, id, actor, historyWord(publishAt, now, "edited"));
    const outside = [...new Set([...choice.places, ...dropped.map((row) => row.place)])].filter(isOutsidePlace);
    // A draft's places have nothing to do yet; those it left have nothing to take down.
    if (publishAt) await queuePlaces(tx, id, outside, dueAt(publishAt, now));
    else if (dropped.length > 0) await queuePlaces(tx, id, dropped.map((row) => row.place).filter(isOutsidePlace), now);
  });
}

/** Deleted here, and taken down everywhere Dwell put it. */
export async function deleteAnnouncement(db: Database, id: string, actor: Actor, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(announcements)
      .set({ deletedAt: now, version: sql`${announcements.version} + 1` })
      .where(and(eq(announcements.id, id), isNull(announcements.deletedAt)))
      .returning({ id: announcements.id });
    if (!row) return false;
    const places = await tx.update(announcementPlaces).set({ wanted: false }).where(eq(announcementPlaces.announcementId, id)).returning({ place: announcementPlaces.place });
    await remember(tx, id, actor, "deleted");
    await queuePlaces(tx, id, places.map((p) => p.place).filter(isOutsidePlace), now);
    return true;
  });
}

/** 'Try again' on a place that failed: it is sent again now. */
export async function retryPlace(db: Database, id: string, place: OutsidePlace, actor: Actor, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(announcementPlaces)
      .set({ state: "waiting", lastError: null })
      .where(and(eq(announcementPlaces.announcementId, id), eq(announcementPlaces.place, place), eq(announcementPlaces.state, "failed")))
      .returning({ place: announcementPlaces.place });
    if (!row) return false;
    await remember(tx, id, actor, `retried ${place}`);
    await queuePlaces(tx, id, [place], now);
    return true;
  });
}

/** What the card says of each place. */
export function placeViews(announcement: Pick<AnnouncementRow, "publishAt" | "deletedAt" | "id">, places: readonly AnnouncementPlaceRow[], now: Date, siteUrl: (id: string) => string): PlaceView[] {
  return places
    .filter((row) => row.wanted || row.externalId !== null || row.state === "failed")
    .map((row) => {
      if (row.place === "site") {
        const state = announcement.deletedAt || !row.wanted ? "removed" : !announcement.publishAt ? "draft" : announcement.publishAt > now ? "scheduled" : "published";
        return { place: row.place, state, url: state === "published" ? siteUrl(announcement.id) : null, problem: null };
      }
      const state =
        row.state === "waiting" && row.wanted && !announcement.publishAt
          ? "draft"
          : row.state === "waiting" && row.wanted && announcement.publishAt && announcement.publishAt > now
            ? "scheduled"
            : row.state;
      return { place: row.place, state, url: row.wanted && row.state === "published" ? row.url : null, problem: row.lastError };
    });
}

export interface AnnouncementSummary {
  id: string;
  title: string;
  audience: AnnouncementRow["audience"];
  publishAt: string | null;
  deleted: boolean;
  eventId: string | null;
  places: PlaceView[];
}

const titleIn = (texts: Record<string, AnnouncementText>, language: string, fallback: string) => texts[language]?.title || texts[fallback]?.title || "";

/** The Sanctum's list: drafts and scheduled first, then the published, newest first; deleted ones last. */
export async function listAnnouncements(
  db: Database,
  options: { now: Date; language: string; defaultLanguage: string; siteUrl: (id: string) => string; limit?: number },
): Promise<AnnouncementSummary[]> {
  const rows = await db
    .select()
    .from(announcements)
    .orderBy(sql`${announcements.deletedAt} is not null`, sql`${announcements.publishAt} is not null`, desc(announcements.publishAt), desc(announcements.createdAt))
    .limit(options.limit ?? 200);
  const places = rows.length === 0 ? [] : await db.select().from(announcementPlaces).where(inArray(announcementPlaces.announcementId, rows.map((row) => row.id))).orderBy(asc(announcementPlaces.place));
  return rows.map((row) => ({
    id: row.id,
    title: titleIn(row.texts, options.language, options.defaultLanguage),
    audience: row.audience,
    publishAt: row.publishAt?.toISOString() ?? null,
    deleted: row.deletedAt !== null,
    eventId: row.eventId,
    places: placeViews(row, placesInOrder(places.filter((place) => place.announcementId === row.id)), options.now, options.siteUrl),
  }));
}

const PLACE_ORDER: Record<AnnouncementPlace, number> = { site: 0, vrchat: 1, discord: 2 };
const placesInOrder = (rows: AnnouncementPlaceRow[]) => rows.toSorted((a, b) => PLACE_ORDER[a.place] - PLACE_ORDER[b.place]);

export interface AnnouncementDetail {
  row: AnnouncementRow;
  places: AnnouncementPlaceRow[];
  picture: { width: number; height: number; type: string } | null;
  history: { actorName: string; change: string; createdAt: string }[];
}

export async function getAnnouncement(db: Database, id: string): Promise<AnnouncementDetail | null> {
  const [row] = await db.select().from(announcements).where(eq(announcements.id, id));
  if (!row) return null;
  const [places, history, picture] = await Promise.all([
    db.select().from(announcementPlaces).where(eq(announcementPlaces.announcementId, id)),
    db
      .select({ actorName: announcementHistory.actorName, change: announcementHistory.change, createdAt: announcementHistory.createdAt })
      .from(announcementHistory)
      .where(eq(announcementHistory.announcementId, id))
      .orderBy(desc(announcementHistory.createdAt))
      .limit(50),
    row.pictureId
      ? db.select({ width: announcementPictures.width, height: announcementPictures.height, type: announcementPictures.type }).from(announcementPictures).where(eq(announcementPictures.id, row.pictureId))
      : Promise.resolve([]),
  ]);
  return { row, places: placesInOrder(places), picture: picture[0] ?? null, history: history.map((h) => ({ ...h, createdAt: h.createdAt.toISOString() })) };
}

/** An announcement as the site shows it: in the reader's language, else the default one. */
export interface NewsItem {
  id: string;
  title: string;
  text: string;
  language: string;
  publishedAt: string;
  updatedAt: string;
  membersOnly: boolean;
  picture: { width: number; height: number } | null;
  eventId: string | null;
}

function newsItem(row: AnnouncementRow, picture: { width: number; height: number } | null, language: string, fallback: string): NewsItem {
  const own = row.texts[language];
  const words = own?.title && own.text ? own : row.texts[fallback]!;
  return {
    id: row.id,
    title: words.title,
    text: words.text,
    language: words === own ? language : fallback,
    publishedAt: row.publishAt!.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    membersOnly: row.audience === "members",
    picture,
    eventId: row.eventId,
  };
}

/** Published on the site by now, not deleted; members-only ones only when asked for. */
function onSite(now: Date, withMembersOnly: boolean) {
  return and(
    isNull(announcements.deletedAt),
    isNotNull(announcements.publishAt),
    lte(announcements.publishAt, now),
    withMembersOnly ? undefined : eq(announcements.audience, "everyone"),
    sql`exists (select 1 from ${announcementPlaces} where ${announcementPlaces.announcementId} = ${announcements.id} and ${announcementPlaces.place} = 'site' and ${announcementPlaces.wanted})`,
  );
}

const newsColumns = { row: announcements, width: announcementPictures.width, height: announcementPictures.height };

export async function listNews(
  db: Database,
  options: { now: Date; language: string; defaultLanguage: string; limit: number; offset?: number; withMembersOnly?: boolean },
): Promise<{ items: NewsItem[]; total: number }> {
  const where = onSite(options.now, options.withMembersOnly ?? false);
  const [rows, [total]] = await Promise.all([
    db
      .select(newsColumns)
      .from(announcements)
      .leftJoin(announcementPictures, eq(announcementPictures.id, announcements.pictureId))
      .where(where)
      .orderBy(desc(announcements.publishAt))
      .limit(options.limit)
      .offset(options.offset ?? 0),
    db.select({ n: count() }).from(announcements).where(where),
  ]);
  return {
    items: rows.map(({ row, width, height }) => newsItem(row, width && height ? { width, height } : null, options.language, options.defaultLanguage)),
    total: total?.n ?? 0,
  };
}

export async function getNews(
  db: Database,
  id: string,
  options: { now: Date; language: string; defaultLanguage: string; withMembersOnly?: boolean },
): Promise<NewsItem | null> {
  const [found] = await db
    .select(newsColumns)
    .from(announcements)
    .leftJoin(announcementPictures, eq(announcementPictures.id, announcements.pictureId))
    .where(and(eq(announcements.id, id), onSite(options.now, options.withMembersOnly ?? false)));
  if (!found) return null;
  return newsItem(found.row, found.width && found.height ? { width: found.width, height: found.height } : null, options.language, options.defaultLanguage);
}

/** A published announcement's picture, with the same privacy as its page. */
export async function getNewsPicture(db: Database, id: string, options: { now: Date; withMembersOnly?: boolean }): Promise<{ data: Buffer; type: string } | null> {
  const [found] = await db
    .select({ data: announcementPictures.data, type: announcementPictures.type })
    .from(announcements)
    .innerJoin(announcementPictures, eq(announcementPictures.id, announcements.pictureId))
    .where(and(eq(announcements.id, id), onSite(options.now, options.withMembersOnly ?? false)));
  return found ?? null;
}

/** A picture as the staff see it on the card (drafts included). */
export async function getPicture(db: Database, pictureId: string): Promise<{ data: Buffer; type: string } | null> {
  const [found] = await db.select({ data: announcementPictures.data, type: announcementPictures.type }).from(announcementPictures).where(eq(announcementPictures.id, pictureId));
  return found ?? null;
}

/** The ids of every VRChat post Dwell made: /news shows VRChat's own posts beside them, never these twice. */
export async function listMadePostIds(db: Database): Promise<Set<string>> {
  const rows = await db
    .select({ id: announcementPlaces.externalId })
    .from(announcementPlaces)
    .where(and(eq(announcementPlaces.place, "vrchat"), isNotNull(announcementPlaces.externalId)));
  return new Set(rows.map((row) => row.id!));
}

/** The Discord roles the owner allows announcements to mention. */
export async function getMentionRoleIds(db: Pick<Database, "select">): Promise<string[]> {
  const [row] = await db.select({ ids: siteSettings.announceRoleIds }).from(siteSettings);
  return row?.ids ?? [];
}

/** The owner's short list of Discord roles an announcement may mention (recorded in the team's history). */
export async function setMentionRoleIds(db: Database, ids: string[], names: string[], actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(siteSettings).values({ id: 1, announceRoleIds: ids }).onConflictDoUpdate({ target: siteSettings.id, set: { announceRoleIds: ids } });
    await tx.insert(teamHistory).values({
      actorId: actor.id,
      actorName: actor.username,
      change: names.length > 0 ? `let announcements mention ${names.map((name) => `@${name}`).join(", ")} in Discord` : "let announcements mention no Discord role",
    });
  });
}
