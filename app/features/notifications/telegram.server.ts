/**
 * Telegram Bot API `sendMessage` in HTML parse mode. Telegram refuses a whole message over one tag
 * it does not know, so everything user-written is escaped. The message is built as plain text
 * pieces and cut to size before escaping: the 4,096-character limit counts the text after entity
 * parsing, and a cut made there can never split an entity such as `&amp;` or lose a closing tag.
 */
import { z } from "zod";
import {
  fairShare,
  formatSubmittedAt,
  headline,
  callService,
  httpFailure,
  orDash,
  retryAfterHeader,
  unconfirmed,
} from "./format";
import { ELLIPSIS, prefix, truncate } from "~/utils/text";
import type { ApplicationNotification, DeliveryOutcome, NotificationChannel } from "./notification";
import { m } from "~/paraglide/messages";

export const TELEGRAM_TEXT_LIMIT = 4096;
/** Short enough that a long title or question leaves the answers room. */
const LINE_LIMIT = 256;

const SentSchema = z.object({ ok: z.literal(true) });
const ErrorSchema = z.object({
  description: z.string().optional(),
  parameters: z
    .object({ retry_after: z.number().nonnegative().optional(), migrate_to_chat_id: z.number().optional() })
    .optional(),
});

function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/**
 * Telegram makes "@name" a mention that notifies that person: a word joiner after the "@" (shown as
 * nothing) keeps an applicant's text from pinging anyone in the admins' chat.
 */
export const WORD_JOINER = "\u2060";
function quiet(text: string): string {
  return text.replace(/@(?=\w)/g, `@${WORD_JOINER}`);
}

interface Piece {
  text: string;
  bold?: boolean;
}

/** The message in HTML, shown by Telegram as at most `TELEGRAM_TEXT_LIMIT` characters. */
function buildTelegramText(notification: ApplicationNotification): string {
  const line = (text: string) => truncate(text, LINE_LIMIT);
  const pieces: Piece[] = [
    { text: line(headline(notification)), bold: true },
    { text: "\n\n" },
    { text: m.ntf_vrchat_username_line(), bold: true },
    { text: line(orDash(quiet(notification.vrchat_username))) },
    { text: "\n" },
    { text: m.ntf_discord_id_line(), bold: true },
    { text: line(orDash(quiet(notification.discord_id))) },
    { text: "\n" },
    { text: m.ntf_submitted_line(), bold: true },
    { text: formatSubmittedAt(notification.submitted_at) },
  ];
  const answers = notification.answers.map(({ question, answer }) => ({ question: line(question), answer: orDash(quiet(answer)) }));
  const fixed = answers.reduce(
    (sum, { question }) => sum + "\n\n".length + question.length + "\n".length,
    pieces.reduce((sum, piece) => sum + piece.text.length, 0),
  );
  const cap = fairShare(
    answers.map(({ answer }) => answer.length),
    TELEGRAM_TEXT_LIMIT - fixed,
  );
  for (const { question, answer } of answers) {
    pieces.push({ text: "\n\n" }, { text: question, bold: true }, { text: "\n" }, { text: truncate(answer, cap) });
  }
  return fitPieces(pieces, TELEGRAM_TEXT_LIMIT).map(toHtml).join("");
}

/** For forms so long that the questions alone overflow: keeps what fits and ends with "…". */
function fitPieces(pieces: Piece[], limit: number): Piece[] {
  if (pieces.reduce((sum, piece) => sum + piece.text.length, 0) <= limit) return pieces;
  const kept: Piece[] = [];
  let room = limit - ELLIPSIS.length;
  for (const piece of pieces) {
    if (piece.text.length > room) {
      kept.push({ ...piece, text: prefix(piece.text, room) });
      break;
    }
    kept.push(piece);
    room -= piece.text.length;
  }
  return [...kept, { text: ELLIPSIS }];
}

function toHtml({ text, bold }: Piece): string {
  if (text === "") return "";
  return bold ? `<b>${escapeHtml(text)}</b>` : escapeHtml(text);
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
    maxDeliveryMs: timeoutMs,
    async deliver(notification): Promise<DeliveryOutcome> {
      const answer = await callService("Telegram", endpoint, {
        body: JSON.stringify({
          chat_id: chatId,
          text: buildTelegramText(notification),
          parse_mode: "HTML",
          link_preview_options: { is_disabled: true },
        }),
        timeoutMs,
      });
      if (!answer.sent) return answer.outcome;
      const { response, body } = answer;
      if (response.ok) {
        // Only `ok: true` says the message was sent; a 200 from anything else (a proxy) does not.
        return SentSchema.safeParse(body).success ? { kind: "delivered" } : unconfirmed("Telegram", response.status);
      }
      const parsed = ErrorSchema.safeParse(body);
      const { description, parameters } = parsed.success ? parsed.data : {};
      const retryAfter = parameters?.retry_after;
      return httpFailure(
        "Telegram",
        response.status,
        parameters?.migrate_to_chat_id === undefined
          ? description
          : `${description ?? "the chat moved"} (the chat's new ID is ${parameters.migrate_to_chat_id})`,
        retryAfter === undefined ? retryAfterHeader(response.headers.get("Retry-After")) : Math.ceil(retryAfter * 1000),
      );
    },
  };
}
