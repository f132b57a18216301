/**
 * A Discord channel webhook: one embed per application. Discord refuses a whole message (400)
 * when any embed limit is passed, so every part is cut to size here. `allowed_mentions` is empty:
 * nothing an applicant writes ("@everyone", "<@123>") can ping anyone, and what they write is
 * escaped: it cannot form a link or formatting either.
 */
import { z } from "zod";
import {
  fairShare,
  headline,
  callService,
  httpFailure,
  orDash,
  retryAfterHeader,
  unconfirmed,
} from "./format";
import { escapeDiscordMarkdown, truncate } from "~/utils/text";
import type { Database } from "~/db/db.server";
import { outbox } from "~/db/schema";
import type { ApplicationNotification, ApplicationType, DeliveryOutcome, NotificationChannel } from "./notification";
import { m } from "~/paraglide/messages";
import { counted } from "~/utils/language";
import { defaultLanguage, inLanguage } from "~/utils/language.server";

/** https://discord.com/developers/docs/resources/message#embed-object-embed-limits */
export const DISCORD_LIMITS = {
  title: 256,
  fieldName: 256,
  fieldValue: 1024,
  fields: 25,
  /** Title, description, field names and values, footer and author name together. */
  total: 6000,
} as const;
/** No answer is cut shorter than this; answers that would be are left out and counted instead. */
const MIN_ANSWER = 64;
/** No real VRChat name or Discord ID comes near this; a longer one is cut so the answers keep their room. */
const IDENTITY_LIMIT = 256;

const EMBED_COLOURS: Record<ApplicationType, number> = {
  group_application: 0x5865f2,
  event_application: 0xeb459e,
};

const MessageSchema = z.object({ id: z.string() });
const ErrorSchema = z.object({ message: z.string().optional(), retry_after: z.number().nonnegative().optional() });

interface DiscordEmbed {
  title: string;
  /** The title links here: the event's page, for an event application. */
  url?: string;
  color: number;
  timestamp: string;
  fields: { name: string; value: string; inline?: boolean }[];
}

/**
 * The application as one embed, within Discord's limits (also what the review channel gets): its
 * fixed words in the site's default language, whoever's request it is built in.
 */
export function buildDiscordEmbed(notification: ApplicationNotification): DiscordEmbed {
  return inLanguage(defaultLanguage(), () => embedOf(notification));
}

function embedOf(notification: ApplicationNotification): DiscordEmbed {
  const title = truncate(headline(notification), DISCORD_LIMITS.title);
  const identity = [
    { name: m.ntf_vrchat_username(), value: truncate(orDash(escapeDiscordMarkdown(notification.vrchat_username)), IDENTITY_LIMIT), inline: true },
    { name: m.ntf_discord_id(), value: truncate(orDash(escapeDiscordMarkdown(notification.discord_id)), IDENTITY_LIMIT), inline: true },
  ];
  const answers = notification.answers.map(({ question, answer }) => ({
    name: truncate(orDash(question), DISCORD_LIMITS.fieldName),
    value: orDash(escapeDiscordMarkdown(answer)),
  }));
  const omitted = (count: number) => ({
    name: m.ntf_not_shown(),
    value: counted(count, m.ntf_more_answers_one, m.ntf_more_answers),
  });
  const length = (fields: { name: string; value: string }[]) =>
    fields.reduce((sum, { name, value }) => sum + name.length + value.length, 0);

  // The most answers that fit with at least MIN_ANSWER characters each, leaving room for a closing
  // field that counts the others.
  const base = title.length + length(identity);
  let shown = Math.min(answers.length, DISCORD_LIMITS.fields - identity.length);
  if (shown < answers.length) shown--;
  const fixedFor = (count: number) =>
    base +
    answers.slice(0, count).reduce((sum, { name }) => sum + name.length, 0) +
    (count < answers.length ? length([omitted(answers.length - count)]) : 0);
  while (shown > 0 && fixedFor(shown) + shown * MIN_ANSWER > DISCORD_LIMITS.total) shown--;

  const kept = answers.slice(0, shown);
  const cap = Math.min(
    DISCORD_LIMITS.fieldValue,
    fairShare(
      kept.map(({ value }) => value.length),
      DISCORD_LIMITS.total - fixedFor(shown),
    ),
  );
  const fields = [...identity, ...kept.map(({ name, value }) => ({ name, value: truncate(value, cap) }))];
  if (shown < answers.length) fields.push(omitted(answers.length - shown));
  const url = notification.event_url ?? undefined;
  return { title, ...(url ? { url } : {}), color: EMBED_COLOURS[notification.type], timestamp: notification.submitted_at, fields };
}

export function createDiscordChannel({ webhookUrl, timeoutMs = 10_000 }: { webhookUrl: string; timeoutMs?: number }): NotificationChannel {
  const url = new URL(webhookUrl);
  // Without wait=true Discord answers 204 before the message exists, and errors in it go unseen.
  url.searchParams.set("wait", "true");
  return {
    target: "discord",
    maxDeliveryMs: timeoutMs,
    async deliver(notification): Promise<DeliveryOutcome> {
      const answer = await callService("Discord", url, {
        body: JSON.stringify({
          username: "Dwell",
          embeds: [buildDiscordEmbed(notification)],
          allowed_mentions: { parse: [] },
        }),
        timeoutMs,
      });
      if (!answer.sent) return answer.outcome;
      const { response, body } = answer;
      if (response.ok) {
        return MessageSchema.safeParse(body).success ? { kind: "delivered" } : unconfirmed("Discord", response.status);
      }
      const parsed = ErrorSchema.safeParse(body);
      const { message, retry_after } = parsed.success ? parsed.data : {};
      // The body's retry_after has milliseconds; the Retry-After header is rounded to seconds.
      const retryAfterMs =
        retry_after === undefined ? retryAfterHeader(response.headers.get("Retry-After")) : Math.ceil(retry_after * 1000);
      return httpFailure("Discord", response.status, message, retryAfterMs);
    },
  };
}

/** What the announcement channel posts: a line for the group's members (an instance open, a reminder). */
export const AnnouncementSchema = z.object({ content: z.string().min(1).max(2_000) });
export type Announcement = z.infer<typeof AnnouncementSchema>;

/**
 * The group's announcement channel (DISCORD_ANNOUNCE_WEBHOOK_URL): plain messages for members, apart
 * from the staff's application channel. Nothing in them pings anyone.
 */
export function createDiscordAnnouncementChannel({ webhookUrl, timeoutMs = 10_000 }: { webhookUrl: string; timeoutMs?: number }) {
  const url = new URL(webhookUrl);
  url.searchParams.set("wait", "true");
  return {
    target: "discord_announcement" as const,
    maxDeliveryMs: timeoutMs,
    async deliver(payload: unknown): Promise<DeliveryOutcome> {
      const parsed = AnnouncementSchema.safeParse(payload);
      if (!parsed.success) return { kind: "failed", error: "The announcement could not be read" };
      const answer = await callService("Discord", url, {
        body: JSON.stringify({ username: "Dwell", content: parsed.data.content, allowed_mentions: { parse: [] } }),
        timeoutMs,
      });
      if (!answer.sent) return answer.outcome;
      const { response, body } = answer;
      if (response.ok) return MessageSchema.safeParse(body).success ? { kind: "delivered", result: "Announced in Discord" } : unconfirmed("Discord", response.status);
      const parsedError = ErrorSchema.safeParse(body);
      const { message, retry_after } = parsedError.success ? parsedError.data : {};
      const retryAfterMs = retry_after === undefined ? retryAfterHeader(response.headers.get("Retry-After")) : Math.ceil(retry_after * 1000);
      return httpFailure("Discord", response.status, message, retryAfterMs);
    },
  };
}

/** Queues an announcement (in the caller's transaction); `sourceId` names what caused it. */
export async function queueAnnouncement(tx: Pick<Database, "insert">, announcement: Announcement, sourceId: string, at: Date) {
  await tx.insert(outbox).values({ target: "discord_announcement", payload: announcement, sourceId, nextAttemptAt: at });
}
