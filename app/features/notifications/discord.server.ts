/**
 * Discord channel webhook: one embed per application. Discord's embed limits are hard errors
 * (400), so every part is cut to size here. `allowed_mentions` is empty: nothing an applicant
 * writes ("@everyone", "<@123>") can ping anyone.
 */
import { z } from "zod";
import {
  answerOrDash,
  classifyHttpFailure,
  headline,
  networkFailure,
  retryAfterHeader,
  truncate,
} from "./format";
import type { ApplicationNotification, DeliveryOutcome, NotificationChannel } from "./notification";

export const DISCORD_LIMITS = {
  title: 256,
  fieldName: 256,
  fieldValue: 1024,
  fields: 25,
  total: 6000,
} as const;

const RateLimitBodySchema = z.object({ retry_after: z.number().nonnegative() });
const ErrorBodySchema = z.object({ message: z.string() });

interface EmbedField {
  name: string;
  value: string;
  inline?: boolean;
}

export function buildDiscordEmbed(notification: ApplicationNotification) {
  const title = truncate(headline(notification), DISCORD_LIMITS.title);
  const fields: EmbedField[] = [
    { name: "VRChat Username", value: truncate(answerOrDash(notification.vrchat_username), 256), inline: true },
    { name: "Discord ID", value: truncate(answerOrDash(notification.discord_id), 256), inline: true },
  ];
  const footer = { text: "Dwell" };
  // Room left for the answers, keeping space for a closing "N more" field.
  let budget =
    DISCORD_LIMITS.total - title.length - footer.text.length - fields.reduce((n, f) => n + f.name.length + f.value.length, 0) - 60;
  let shown = 0;
  for (const { question, answer } of notification.answers) {
    if (fields.length >= DISCORD_LIMITS.fields - 1) break;
    const name = truncate(question.trim() || "Question", DISCORD_LIMITS.fieldName);
    const room = Math.min(DISCORD_LIMITS.fieldValue, budget - name.length);
    if (room < 20) break;
    const value = truncate(answerOrDash(answer), room);
    fields.push({ name, value });
    budget -= name.length + Array.from(value).length;
    shown++;
  }
  const left = notification.answers.length - shown;
  if (left > 0) fields.push({ name: "More answers", value: `${left} more not shown here; see the Sanctum.` });
  return {
    title,
    color: 0x7a5af8,
    fields,
    timestamp: notification.submitted_at,
    footer,
  };
}

export function createDiscordChannel({
  webhookUrl,
  timeoutMs = 10_000,
}: {
  webhookUrl: string;
  timeoutMs?: number;
}): NotificationChannel {
  const url = new URL(webhookUrl);
  url.searchParams.set("wait", "true");
  return {
    target: "discord",
    async deliver(notification): Promise<DeliveryOutcome> {
      let response: Response;
      try {
        response = await fetch(url, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({
            username: "Dwell",
            embeds: [buildDiscordEmbed(notification)],
            allowed_mentions: { parse: [] },
          }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        return networkFailure("Discord", error);
      }
      if (response.ok) {
        await response.body?.cancel();
        return { kind: "delivered" };
      }
      const body: unknown = await response.json().catch(() => undefined);
      const limited = RateLimitBodySchema.safeParse(body);
      const retryAfterMs = limited.success
        ? Math.ceil(limited.data.retry_after * 1000)
        : retryAfterHeader(response.headers.get("Retry-After"));
      const message = ErrorBodySchema.safeParse(body);
      return classifyHttpFailure("Discord", response.status, message.success ? message.data.message : undefined, retryAfterMs);
    },
  };
}
