/**
 * What each outside place does for an announcement (a VRChat group post, a message in the Discord
 * server's announcement channel): the reconciling around it is the same for both
 * (announcements.server.ts).
 */
import { eq } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import { announcementPictures, type AnnouncementPlaceRow, type AnnouncementRow } from "~/db/schema";
import { asPng } from "~/features/announcements/announcement-picture.server";
import { toDiscordMarkdown, toPlainText } from "~/features/announcements/announcement-text";
import type { OutsidePlace } from "~/features/announcements/announcements.server";
import type { DiscordBot } from "~/features/discord/discord-bot.server";
import { DiscordError } from "~/features/discord/discord-api.server";
import { vrchatReason } from "~/features/vrchat/vrchat-actions.server";
import { VRChatError } from "~/features/vrchat/vrchat-error";
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

export const newsPageUrl = (siteOrigin: string) => (id: string) => `${siteOrigin.replace(/\/+$/, "")}/news/${id}`;

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
export const problem = (code: PlaceProblem, words?: string) => problemText(code, words);

/** An outcome the place records: its problem code stays on the card. */
export type PlaceOutcome =
  | { kind: "delivered"; result: string }
  | { kind: "retry"; problem: string; retryAfterMs?: number; slowDown?: boolean }
  | { kind: "failed"; problem: string };

/** Not yet time: the job waits for the announcement's time. */
export class NotYet extends Error {
  readonly waitMs: number;
  constructor(waitMs: number) {
    super("Scheduled for later");
    this.waitMs = waitMs;
  }
}

/** Deleted there by someone else: never made again by itself. */
export class GoneThere extends Error {}

export interface Picture {
  id: string;
  type: string;
  data: Buffer;
  vrchatFileId: string | null;
}

/** What one service does for a place; the reconciling around it is the same for both. */
export interface PlaceAdapter {
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

export function vrchatAdapter(services: AnnouncementServices, posts: PostKeeper): PlaceAdapter {
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

export function discordAdapter(services: AnnouncementServices, bot: DiscordBot, channelId: string): PlaceAdapter {
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
