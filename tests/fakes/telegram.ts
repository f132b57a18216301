/** The Telegram Bot API's sendMessage: POST /bot{token}/sendMessage. */
import { startFake, type FakeRequest } from "./fake-server";

export interface TelegramDelivery {
  token: string;
  body: { chat_id: string; text: string; parse_mode?: string; link_preview_options?: { is_disabled?: boolean } };
}

export function startFakeTelegram() {
  return startFake<TelegramDelivery>({
    accept(request: FakeRequest) {
      const match = /^\/bot([^/]+)\/sendMessage$/.exec(request.path);
      if (request.method !== "POST" || !match) {
        return { reply: { status: 404, body: { ok: false, error_code: 404, description: "Not Found" } } };
      }
      const body = JSON.parse(request.body) as TelegramDelivery["body"];
      return {
        record: { token: match[1]!, body },
        reply: { status: 200, body: { ok: true, result: { message_id: 1, chat: { id: body.chat_id }, text: body.text } } },
      };
    },
    rateLimited: (seconds) => ({
      status: 429,
      body: { ok: false, error_code: 429, description: `Too Many Requests: retry after ${seconds}`, parameters: { retry_after: seconds } },
    }),
    rejected: () => ({ status: 400, body: { ok: false, error_code: 400, description: "Bad Request: chat not found" } }),
  });
}
