/**
 * The Telegram Bot API's sendMessage: POST /bot{token}/sendMessage. Like Telegram, it refuses
 * HTML it cannot parse and texts over 4,096 characters after entity parsing.
 */
import type { IncomingHttpHeaders } from "node:http";
import { parseJsonBody, startFake, type FakeReply } from "./fake-server";

const TEXT_LIMIT = 4096;

export interface TelegramDelivery {
  token: string;
  headers: IncomingHttpHeaders;
  body: {
    chat_id: string | number;
    text: string;
    parse_mode?: string;
    link_preview_options?: { is_disabled?: boolean };
  };
  /** The text as the chat shows it: tags gone, entities decoded. */
  shownText: string;
}

const refuse = (status: number, description: string): FakeReply => ({
  status,
  body: { ok: false, error_code: status, description },
});

/** Only the tags Telegram's HTML mode knows: https://core.telegram.org/bots/api#html-style */
const TAGS = new Set(["b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "a", "code", "pre", "span", "tg-spoiler", "tg-emoji", "blockquote"]);
const NAMED_ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };

/** Telegram's HTML parse mode, strictly: the text it would show, or why it would refuse it. */
export function parseTelegramHtml(html: string): { text: string } | { error: string } {
  let text = "";
  const open: string[] = [];
  let i = 0;
  while (i < html.length) {
    const char = html[i]!;
    if (char === "<") {
      const end = html.indexOf(">", i);
      if (end < 0) return { error: `Unclosed start tag at byte offset ${i}` };
      const tag = html.slice(i + 1, end);
      const closing = tag.startsWith("/");
      const name = (closing ? tag.slice(1) : tag).split(/\s/)[0]!.toLowerCase();
      if (!TAGS.has(name)) return { error: `Unsupported start tag "${name}" at byte offset ${i}` };
      if (closing && open.pop() !== name) return { error: `Unmatched end tag at byte offset ${i}` };
      if (!closing) open.push(name);
      i = end + 1;
    } else if (char === "&") {
      const entity = /^&(?:#(\d+)|#x([0-9a-f]+)|([a-z]+));/i.exec(html.slice(i, i + 12));
      const decoded = entity?.[1]
        ? String.fromCodePoint(Number(entity[1]))
        : entity?.[2]
          ? String.fromCodePoint(parseInt(entity[2], 16))
          : NAMED_ENTITIES[entity?.[3] ?? ""];
      if (!entity || decoded === undefined) return { error: `Unsupported HTML entity at byte offset ${i}` };
      text += decoded;
      i += entity[0].length;
    } else {
      text += char;
      i++;
    }
  }
  if (open.length > 0) return { error: `Can't find end tag corresponding to start tag "${open.at(-1)}"` };
  return { text };
}

/**
 * `token`, when given, is the only bot token accepted; otherwise any is. `chats`, when given, are
 * the chats the bot was added to (getChat answers "chat not found" for any other).
 */
export function startFakeTelegram({ token, chats }: { token?: string; chats?: string[] } = {}) {
  let messageId = 0;
  return startFake<TelegramDelivery>({
    accept(request) {
      const method = /^\/bot([^/]+)\/(getMe|getChat)$/.exec(request.path);
      if (method) {
        if (token !== undefined && method[1] !== token) return { reply: refuse(401, "Unauthorized") };
        if (method[2] === "getMe") return { reply: { status: 200, body: { ok: true, result: { id: 4242, is_bot: true, first_name: "Dwell", username: "dwell_bot" } } } };
        const chatId = String((parseJsonBody(request) as { chat_id?: unknown }).chat_id ?? "");
        if (chats !== undefined && !chats.includes(chatId)) return { reply: refuse(400, "Bad Request: chat not found") };
        return { reply: { status: 200, body: { ok: true, result: { id: Number(chatId) || chatId, type: "supergroup", title: "Dwell staff" } } } };
      }
      const match = /^\/bot([^/]+)\/sendMessage$/.exec(request.path);
      if (request.method !== "POST" || !match) return { reply: refuse(404, "Not Found") };
      if (token !== undefined && match[1] !== token) return { reply: refuse(401, "Unauthorized") };
      const body = parseJsonBody(request) as TelegramDelivery["body"];
      if (body.chat_id === undefined || typeof body.text !== "string") {
        return { reply: refuse(400, "Bad Request: chat_id and text are required") };
      }
      const parsed = body.parse_mode === "HTML" ? parseTelegramHtml(body.text) : { text: body.text };
      if ("error" in parsed) return { reply: refuse(400, `Bad Request: can't parse entities: ${parsed.error}`) };
      if (parsed.text.trim() === "") return { reply: refuse(400, "Bad Request: message text is empty") };
      if (parsed.text.length > TEXT_LIMIT) return { reply: refuse(400, "Bad Request: message is too long") };
      messageId++;
      return {
        delivery: { token: match[1]!, headers: request.headers, body, shownText: parsed.text },
        reply: {
          status: 200,
          body: { ok: true, result: { message_id: messageId, date: 0, chat: { id: body.chat_id }, text: parsed.text } },
        },
      };
    },
    rateLimited: (_request, seconds) => ({
      status: 429,
      body: {
        ok: false,
        error_code: 429,
        description: `Too Many Requests: retry after ${seconds}`,
        parameters: { retry_after: seconds },
      },
    }),
    rejected: () => refuse(400, "Bad Request: chat not found"),
  });
}
