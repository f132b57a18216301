/**
 * Telegram Bot API `sendMessage` in HTML parse mode. Everything user-written is escaped (Telegram
 * accepts only a few tags and refuses a message with any other), and long answers are cut so the
 * message stays within Telegram's 4,096 characters; cuts happen before escaping, so no entity
 * such as `&amp;` is ever split.
 */
import { z } from "zod";
import {
  answerOrDash,
  classifyHttpFailure,
  formatSubmittedAt,
  headline,
  networkFailure,
  retryAfterHeader,
  truncate,
} from "./format";
import type { ApplicationNotification, DeliveryOutcome, NotificationChannel } from "./notification";

export const TELEGRAM_TEXT_LIMIT = 4096;

const ResponseSchema = z.object({
  ok: z.boolean(),
  description: z.string().optional(),
  parameters: z.object({ retry_after: z.number().optional() }).optional(),
});

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

export function buildTelegramText(notification: ApplicationNotification): string {
  const answers = notification.answers.map(({ question, answer }) => ({
    question: truncate(question, 300),
    answer: answerOrDash(answer),
  }));
  const render = () =>
    [
      `<b>${escapeHtml(truncate(headline(notification), 300))}</b>`,
      "",
      `<b>VRChat username:</b> ${escapeHtml(answerOrDash(truncate(notification.vrchat_username, 200)))}`,
      `<b>Discord ID:</b> ${escapeHtml(answerOrDash(truncate(notification.discord_id, 200)))}`,
      `<b>Submitted:</b> ${escapeHtml(formatSubmittedAt(notification.submitted_at))}`,
      ...answers.flatMap(({ question, answer }) => ["", `<b>${escapeHtml(question)}</b>`, escapeHtml(answer)]),
    ].join("\n");

  let text = render();
  // Shorten the longest answer until the message fits; each step cuts at least the overflow.
  while (text.length > TELEGRAM_TEXT_LIMIT) {
    const longest = answers.reduce((a, b) => (b.answer.length > a.answer.length ? b : a), answers[0]!);
    if (!longest || longest.answer.length <= 1) return truncate(text.replace(/<[^>]*>/g, ""), TELEGRAM_TEXT_LIMIT);
    const overflow = text.length - TELEGRAM_TEXT_LIMIT;
    longest.answer = truncate(longest.answer, Math.max(1, Array.from(longest.answer).length - overflow - 1));
    text = render();
  }
  return text;
}

export function createTelegramChannel({
  botToken,
  chatId,
  apiUrl = "https://api.telegram.org",
  timeoutMs = 10_000,
}: {
  botToken: string;
  chatId: string;
  apiUrl?: string;
  timeoutMs?: number;
}): NotificationChannel {
  const endpoint = `${apiUrl.replace(/\/+$/, "")}/bot${botToken}/sendMessage`;
  return {
    target: "telegram",
    async deliver(notification): Promise<DeliveryOutcome> {
      let response: Response;
      try {
        response = await fetch(endpoint, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({
            chat_id: chatId,
            text: buildTelegramText(notification),
            parse_mode: "HTML",
            link_preview_options: { is_disabled: true },
          }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        return networkFailure("Telegram", error);
      }
      const parsed = ResponseSchema.safeParse(await response.json().catch(() => undefined));
      if (response.ok && parsed.success && parsed.data.ok) return { kind: "delivered" };
      if (response.ok) return { kind: "retry", error: "Telegram answered 200 without a confirmation" };
      const retryAfterMs =
        parsed.success && parsed.data.parameters?.retry_after !== undefined
          ? parsed.data.parameters.retry_after * 1000
          : retryAfterHeader(response.headers.get("Retry-After"));
      return classifyHttpFailure(
        "Telegram",
        response.status,
        parsed.success ? parsed.data.description : undefined,
        retryAfterMs,
      );
    },
  };
}
