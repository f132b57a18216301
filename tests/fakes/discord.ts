/** A Discord webhook endpoint: POST /api/webhooks/{id}/{token}?wait=true with an embed. */
import { startFake, type FakeRequest } from "./fake-server";

export interface DiscordDelivery {
  path: string;
  body: {
    username?: string;
    embeds: { title: string; fields: { name: string; value: string; inline?: boolean }[]; timestamp?: string; footer?: { text: string } }[];
    allowed_mentions?: { parse: string[] };
  };
}

export function startFakeDiscord() {
  return startFake<DiscordDelivery>({
    accept(request: FakeRequest) {
      if (request.method !== "POST" || !request.path.startsWith("/api/webhooks/")) {
        return { reply: { status: 404, body: { message: "Unknown Webhook", code: 10015 } } };
      }
      const body = JSON.parse(request.body) as DiscordDelivery["body"];
      return { record: { path: request.path, body }, reply: { status: 200, body: { id: "1", type: 0 } } };
    },
    rateLimited: (seconds) => ({
      status: 429,
      body: { message: "You are being rate limited.", retry_after: seconds, global: false },
      headers: { "Retry-After": String(Math.ceil(seconds)) },
    }),
    rejected: () => ({ status: 404, body: { message: "Unknown Webhook", code: 10015 } }),
  });
}
