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
import { asPng } from "~/features/announcements/announcement-picture.server";
import { toDiscordMarkdown, toPlainText } from "~/features/announcements/announcement-text";
import type { OutsidePlace } from "~/features/announcements/announcements.server";
import { DiscordError, type DiscordBot } from "~/features/discord/discord-bot.server";
import type { DeliveryOutcome } from "~/features/notifications/notification";
import type { OutboxChannel } from "~/features/notifications/outbox.server";
import { vrchatReason } from "~/features/vrchat/vrchat-actions.server";
import { VRChatError } from "~/features/vrchat/vrchat-client.server";
import type { PostBody, PostKeeper } from "~/features/vrchat/vrchat-posts.server";
import { getEvent } from "~/features/events/events.server";
import { eventStart, zoneOf } from "~/features/events/event-timing";
import { m } from "~/paraglide/messages";
import { dateFormat } from "~/utils/language";
import { inLanguage } from "~/utils/language.server";
import { failureText } from "~/utils/failure-text.server";
import { problemText } from "~/utils/problem-text";
import { eventPageUrl } from "./event-series.server";

export interface AnnouncementServices {
  db: Database;
  /** VRChat's group posts: null when VRChat is not configured. */
  posts: PostKeeper | null;
  discord: DiscordBot | null;
  /** The announcement channel (DISCORD_ANNOUNCE_CHANNEL_ID). */
  discordChannelId: string | null;
  discordGuildId: string | null;
  /** The site's public address, for the announcement's page. */
  siteOrigin: string;
  defaultLanguage: () => string;
  /** One call's timeout, for the job's lease. */
  timeoutMs: number;
}

/** The places an announcement can go to with what the server was given. */
export function configuredPlaces(services: Pick<AnnouncementServices, "posts" | "discord" | "discordChannelId">): AnnouncementPlace[] {
  return ["site", ...(services.posts ? (["vrchat"] as const) : []), ...(services.discord && services.discordChannelId ? (["discord"] as const) : [])];
}

export const newsPageUrl = (siteOrigin: string) => (id: string) => `${siteOrigin.replace(/\/+$/, "")}/news/${id}`;

const PayloadSchema = z.object({ announcementId: z.uuid(), place: z.enum(["vrchat", "discord"]) });

/**
 * Why a place waits or failed, kept on it as a code and the service's own words (`code|words`): the
 * card says it in the reader's language (features/announcements/place-problems).
 */
export const PLACE_PROBLEMS = [
  "vrchat_forbidden",
  "vrchat_refused",
  "vrchat_gone",
  "vrchat_down",
  "vrchat_slow_down",
  "discord_forbidden",
  "discord_channel_gone",
  "discord_gone",
  "discord_token",
  "discord_refused",
  "discord_down",
  "discord_slow_down",
  "not_configured",
  "unexpected",
] as const;
export type PlaceProblem = (typeof PLACE_PROBLEMS)[number];
const problem = (code: PlaceProblem, words?: string) => problemText(code, words);

/** An outcome the place records: its problem code stays on the card. */
type PlaceOutcome =
  | { kind: "delivered"; result: string }
  | { kind: "retry"; problem: string; retryAfterMs?: number; slowDown?: boolean }
  | { kind: "failed"; problem: string };

/** Not yet time: the job waits for the announcement's time. */
class NotYet extends Error {
  readonly waitMs: number;
  constructor(waitMs: number) {
    super("Scheduled for later");
    this.waitMs = waitMs;
  }
}

/** Deleted there by someone else: never made again by itself. */
class GoneThere extends Error {}

interface Picture {
  id: string;
  type: string;
  data: Buffer;
  vrchatFileId: string | null;
}

/** What one service does for a place; the reconciling around it is the same for both. */
interface PlaceAdapter {
  place: OutsidePlace;
  create(announcement: AnnouncementRow, picture: Picture | null): Promise<{ externalId: string; url: string | null; note?: string }>;
  /** Throws GoneThere when what Dwell made is no longer there. */
  update(announcement: AnnouncementRow, row: AnnouncementPlaceRow, picture: Picture | null): Promise<void>;
  /** What is already gone counts as taken down. */
  remove(externalId: string): Promise<void>;
  findMade(announcement: AnnouncementRow, since: Date, known: ReadonlySet<string>): Promise<string | null>;
  urlOf(externalId: string): string | null;
  outcomeOf(error: unknown): PlaceOutcome;
}

function wordsOf(announcement: AnnouncementRow, language: string) {
  return announcement.texts[language] ?? Object.values(announcement.texts)[0]!;
}

/** The event an announcement announces, as each place says it: its start and its page. */
interface AnnouncedEvent {
  start: Date;
  /** The start in the event's own zone, in the site's default language (VRChat shows no reader's zone). */
  when: string;
  pageUrl: string;
}

async function announcedEvent(services: AnnouncementServices, announcement: AnnouncementRow): Promise<AnnouncedEvent | null> {
  if (!announcement.eventId) return null;
  const event = await getEvent(services.db, announcement.eventId);
  if (!event) return null;
  const start = eventStart(event);
  const when = inLanguage(services.defaultLanguage(), () =>
    // dateStyle cannot go with timeZoneName: the parts are named one by one.
    dateFormat({ weekday: "long", year: "numeric", month: "long", day: "numeric", hour: "numeric", minute: "2-digit", timeZone: zoneOf(event.timezone), timeZoneName: "short" }).format(start),
  );
  return { start, when, pageUrl: eventPageUrl(services.siteOrigin)(event.id) };
}

function vrchatAdapter(services: AnnouncementServices, posts: PostKeeper): PlaceAdapter {
  const pageUrl = newsPageUrl(services.siteOrigin);

  async function imageId(picture: Picture | null): Promise<string | undefined> {
    if (!picture) return undefined;
    if (picture.vrchatFileId) return picture.vrchatFileId;
    const fileId = await posts.upload(await asPng(picture.data, picture.type as "image/png"));
    await services.db.update(announcementPictures).set({ vrchatFileId: fileId }).where(eq(announcementPictures.id, picture.id));
    return fileId;
  }

  async function body(announcement: AnnouncementRow, picture: Picture | null, notify: boolean): Promise<PostBody> {
    // VRChat is the group's public face: its words are in the site's default language.
    const words = wordsOf(announcement, services.defaultLanguage());
    const everyone = announcement.audience === "everyone";
    const event = await announcedEvent(services, announcement);
    const text = [toPlainText(words.text), ...(event ? [inLanguage(services.defaultLanguage(), () => m.ann_event_line({ when: event.when, url: event.pageUrl }))] : [])].join("\n\n");
    const image = await imageId(picture);
    return {
      title: words.title,
      text: everyone ? `${text}\n\n${pageUrl(announcement.id)}` : text,
      visibility: everyone ? "public" : "group",
      sendNotification: notify,
      ...(announcement.vrchatRoleIds.length > 0 ? { roleIds: announcement.vrchatRoleIds } : {}),
      ...(image ? { imageId: image } : {}),
    };
  }

  return {
    place: "vrchat",
    async create(announcement, picture) {
      const externalId = await posts.create(await body(announcement, picture, announcement.notifyMembers));
      return { externalId, url: posts.pageUrl() };
    },
    async update(announcement, row, picture) {
      try {
        // An edit notifies nobody again.
        await posts.update(row.externalId!, await body(announcement, picture, false));
      } catch (error) {
        if (error instanceof VRChatError && error.status === 404) throw new GoneThere();
        throw error;
      }
    },
    async remove(externalId) {
      try {
        await posts.remove(externalId);
      } catch (error) {
        if (!(error instanceof VRChatError && error.status === 404)) throw error;
      }
    },
    findMade: (announcement, since, known) => posts.findMade(wordsOf(announcement, services.defaultLanguage()).title, since, known),
    urlOf: () => posts.pageUrl(),
    outcomeOf(error) {
      if (!(error instanceof VRChatError)) return { kind: "retry", problem: problem("unexpected", failureText(error)) };
      if (error.kind === "rate-limited") return { kind: "retry", problem: problem("vrchat_slow_down"), retryAfterMs: error.retryAfterMs ?? undefined, slowDown: true };
      if (error.kind === "unreachable" || error.kind === "auth" || error.kind === "refused-shape") return { kind: "retry", problem: problem("vrchat_down", error.message) };
      if (error.status === 403) return { kind: "failed", problem: problem("vrchat_forbidden", vrchatReason(error)) };
      return { kind: "failed", problem: problem("vrchat_refused", `${error.status ?? ""} ${vrchatReason(error)}`.trim()) };
    },
  };
}

/** Discord's news channel type: its messages can be sent on to the servers that follow it. */
const NEWS_CHANNEL = 5;
const EMBED_COLOUR = 0xf5b042;

function discordAdapter(services: AnnouncementServices, bot: DiscordBot, channelId: string): PlaceAdapter {
  const pageUrl = newsPageUrl(services.siteOrigin);
  const messages = bot.messages;
  let channelType: number | null = null;

  function file(picture: Picture | null) {
    if (!picture) return null;
    const extension = picture.type === "image/png" ? "png" : picture.type === "image/webp" ? "webp" : "jpg";
    return { name: `announcement.${extension}`, type: picture.type, data: picture.data };
  }

  async function body(announcement: AnnouncementRow, picture: Picture | null) {
    const words = wordsOf(announcement, services.defaultLanguage());
    const everyone = announcement.audience === "everyone";
    const attached = file(picture);
    const role = announcement.discordRoleId;
    const event = await announcedEvent(services, announcement);
    // Discord shows each reader the time in their own zone.
    const unix = event ? Math.floor(event.start.getTime() / 1000) : 0;
    const fields = event
      ? inLanguage(services.defaultLanguage(), () => [
          { name: m.ann_event_when(), value: `<t:${unix}:F> (<t:${unix}:R>)` },
          { name: m.ann_event_page(), value: event.pageUrl },
        ])
      : [];
    return {
      // Only the role staff chose is mentioned; nothing in the text pings anyone.
      content: role ? `<@&${role}>` : "",
      embeds: [
        {
          title: words.title,
          description: toDiscordMarkdown(words.text),
          color: EMBED_COLOUR,
          // A members-only announcement has no page a member could open on the site.
          ...(everyone ? { url: pageUrl(announcement.id) } : {}),
          ...(attached ? { image: { url: `attachment://${attached.name}` } } : {}),
          ...(fields.length > 0 ? { fields } : {}),
        },
      ],
      allowed_mentions: { parse: [], roles: role ? [role] : [] },
    };
  }

  const urlOf = (externalId: string) => (services.discordGuildId ? `https://discord.com/channels/${services.discordGuildId}/${channelId}/${externalId}` : null);
  const isDiscord = (error: unknown, ...codes: number[]) => error instanceof DiscordError && error.code !== null && codes.includes(error.code);

  return {
    place: "discord",
    async create(announcement, picture) {
      const made = await messages.post(channelId, { ...(await body(announcement, picture)), nonce: announcement.id.replaceAll("-", "").slice(0, 25), enforce_nonce: true }, file(picture));
      let note: string | undefined;
      channelType ??= await messages.channelType(channelId).catch(() => null);
      if (channelType === NEWS_CHANNEL) {
        // Sent on to following servers; a refusal here leaves the message itself published.
        note = await messages.crosspost(channelId, made.id).then(
          () => "crossposted",
          (error: unknown) => `not crossposted: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      return { externalId: made.id, url: urlOf(made.id), note };
    },
    async update(announcement, row, picture) {
      const changedPicture = row.syncedPictureId !== (picture?.id ?? null);
      const update = { ...(await body(announcement, picture)), ...(changedPicture && !picture ? { attachments: [] } : {}) };
      try {
        await messages.edit(channelId, row.externalId!, update, changedPicture ? file(picture) : null);
      } catch (error) {
        if (isDiscord(error, 10008)) throw new GoneThere();
        throw error;
      }
    },
    async remove(externalId) {
      try {
        await messages.remove(channelId, externalId);
      } catch (error) {
        if (!isDiscord(error, 10008)) throw error;
      }
    },
    async findMade(announcement, since, known) {
      const [botId, recent] = await Promise.all([messages.botId(), messages.recent(channelId, 50)]);
      const title = wordsOf(announcement, services.defaultLanguage()).title;
      const found = recent.find((message) => !known.has(message.id) && message.author?.id === botId && (message.embeds ?? []).some((embed) => embed.title === title) && Date.parse(message.timestamp ?? "") >= since.getTime() - 60_000);
      return found?.id ?? null;
    },
    urlOf,
    outcomeOf(error) {
      if (!(error instanceof DiscordError)) return { kind: "retry", problem: problem("unexpected", failureText(error)) };
      if (error.status === 429) return { kind: "retry", problem: problem("discord_slow_down"), retryAfterMs: error.retryAfterMs ?? undefined, slowDown: true };
      if (error.status === null || error.status >= 500) return { kind: "retry", problem: problem("discord_down", error.message) };
      if (error.status === 401) return { kind: "failed", problem: problem("discord_token") };
      if (error.status === 403 || error.code === 50013 || error.code === 50001) return { kind: "failed", problem: problem("discord_forbidden", error.message) };
      if (error.code === 10003 || error.status === 404) return { kind: "failed", problem: problem("discord_channel_gone", error.message) };
      return { kind: "failed", problem: problem("discord_refused", `${error.status} ${error.message}`) };
    },
  };
}

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
