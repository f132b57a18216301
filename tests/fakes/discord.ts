/**
 * A Discord webhook: POST /api/webhooks/{id}/{token}. Like Discord, it refuses a message whose
 * embeds break the embed limits, and answers the message itself when asked to `wait`.
 */
import type { IncomingHttpHeaders } from "node:http";
import { parseJsonBody, startFake, type FakeReply } from "./fake-server";

export interface DiscordEmbedField {
  name: string;
  value: string;
  inline?: boolean;
}

interface Embed {
  title?: string;
  url?: string;
  description?: string;
  color?: number;
  timestamp?: string;
  fields?: DiscordEmbedField[];
  footer?: { text: string };
}

export interface DiscordDelivery {
  /** Path and query, as sent. */
  path: string;
  headers: IncomingHttpHeaders;
  /** As the channel sends it: a title and fields in every embed. */
  body: {
    username?: string;
    /** A plain message (the announcement channel's); at most 2,000 characters. */
    content?: string;
    embeds: (Embed & { title: string; fields: DiscordEmbedField[] })[];
    allowed_mentions?: { parse: string[] };
  };
}

/**
 * How Discord reads markdown in an embed's field value, as far as links and formatting go: a
 * backslash before any character that is not a letter, digit or space shows that character as
 * itself; otherwise masked links `[text](url)`, bare `http(s)://` links, `**`, `*`, `__`, `_`, `~~`,
 * `||`, backticks, and `#`, `>`, `-` or `1.` at a line's start format the text. Returns the text as
 * shown and the constructs found.
 */
export function readDiscordMarkdown(text: string): { shown: string; formatting: string[] } {
  const formatting = new Set<string>();
  let shown = "";
  let lineStart = true;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    const next = text[i + 1];
    if (char === "\\" && next !== undefined && !/[\p{L}\p{N}\s]/u.test(next)) {
      shown += next;
      i++;
      lineStart = false;
      continue;
    }
    const rest = text.slice(i);
    if (lineStart && /^(#{1,3} |> |[-*] |\d+\. )/.test(rest)) formatting.add("block");
    if (/^\[[^\]]*\]\([^)]*\)/.test(rest)) formatting.add("masked link");
    if (/^https?:\/\/\S/.test(rest)) formatting.add("link");
    if (/^(\*|_|~~|\|\||`)/.test(rest)) formatting.add("emphasis");
    shown += char;
    lineStart = char === "\n";
  }
  return { shown, formatting: [...formatting] };
}

/** A delivery's embeds as people read them in Discord: title and fields, markdown escapes undone. */
export function shownText(delivery: DiscordDelivery): string {
  return delivery.body.embeds
    .flatMap((embed) => [embed.title, ...embed.fields.flatMap((field) => [field.name, readDiscordMarkdown(field.value).shown])])
    .join("\n");
}

const unknownWebhook: FakeReply = { status: 404, body: { message: "Unknown Webhook", code: 10015 } };

/** What Discord would refuse in these embeds, or none: https://discord.com/developers/docs/resources/message#embed-object-embed-limits */
export function embedLimitErrors(embeds: Embed[]): string[] {
  const errors: string[] = [];
  let total = 0;
  for (const [i, embed] of embeds.entries()) {
    const fields = embed.fields ?? [];
    const check = (what: string, text: string | undefined, max: number) => {
      if (text === undefined) return;
      total += text.length;
      if (text.length > max) errors.push(`embeds.${i}.${what}: must be ${max} or fewer in length`);
    };
    check("title", embed.title, 256);
    check("description", embed.description, 4096);
    check("footer.text", embed.footer?.text, 2048);
    if (fields.length > 25) errors.push(`embeds.${i}.fields: must be 25 or fewer in length`);
    for (const [j, field] of fields.entries()) {
      if (field.name.trim() === "" || field.value.trim() === "") errors.push(`embeds.${i}.fields.${j}: must not be empty`);
      check(`fields.${j}.name`, field.name, 256);
      check(`fields.${j}.value`, field.value, 1024);
    }
  }
  if (total > 6000) errors.push("embeds: embed size exceeds maximum size of 6000");
  return errors;
}

export function startFakeDiscord() {
  let messageId = 1000;
  return startFake<DiscordDelivery>({
    accept(request) {
      const url = new URL(request.path, "http://discord.test");
      if (request.method !== "POST" || !/^\/api\/webhooks\/\d+\/[^/]+$/.test(url.pathname)) return { reply: unknownWebhook };
      const body = parseJsonBody(request) as DiscordDelivery["body"];
      body.embeds ??= [];
      // Like Discord: a message needs content or an embed, and content has a limit.
      if (!body.content && body.embeds.length === 0) return { reply: { status: 400, body: { message: "Cannot send an empty message", code: 50006 } } };
      if (body.content && body.content.length > 2000) return { reply: { status: 400, body: { message: "Invalid Form Body", code: 50035 } } };
      const errors = embedLimitErrors(body.embeds);
      if (errors.length > 0) return { reply: { status: 400, body: { message: "Invalid Form Body", code: 50035, errors } } };
      messageId++;
      const delivery = { path: request.path, headers: request.headers, body };
      if (url.searchParams.get("wait") !== "true") return { delivery, reply: { status: 204 } };
      return { delivery, reply: { status: 200, body: { id: String(messageId), type: 0, embeds: body.embeds } } };
    },
    rateLimited: (_request, seconds) => ({
      status: 429,
      body: { message: "You are being rate limited.", retry_after: seconds, global: false },
      headers: { "Retry-After": String(Math.ceil(seconds)) },
    }),
    rejected: () => unknownWebhook,
  });
}
