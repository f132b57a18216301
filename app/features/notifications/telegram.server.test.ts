import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeTelegram } from "../../../tests/fakes/telegram";
import { buildTelegramText, createTelegramChannel, TELEGRAM_TEXT_LIMIT } from "./telegram.server";
import { sampleNotification } from "./test-notification";

describe("the Telegram channel", () => {
  let fake: Awaited<ReturnType<typeof startFakeTelegram>>;
  beforeAll(async () => {
    fake = await startFakeTelegram();
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.setMode("normal");
    fake.requests.length = 0;
  });
  const channel = () => createTelegramChannel({ botToken: "123:ABC", chatId: "-10042", apiUrl: fake.url, timeoutMs: 300 });

  it("sends an HTML message with everything user-written escaped", async () => {
    expect(await channel().deliver(sampleNotification())).toEqual({ kind: "delivered" });
    const [delivery] = fake.requests;
    expect(delivery!.token).toBe("123:ABC");
    expect(delivery!.body).toMatchObject({ chat_id: "-10042", parse_mode: "HTML", link_preview_options: { is_disabled: true } });
    const text = delivery!.body.text;
    expect(text).toContain("<b>New event application: Masquerade &lt;Night&gt; &amp; Day</b>");
    expect(text).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &amp; @everyone &lt;@123&gt;");
    expect(text).toContain("<b>Submitted:</b> 2026-11-21 18:00:00 UTC");
    expect(text).toContain("<b>Anything else?</b>\n—");
    // Only the message's own bold tags remain as markup.
    expect(text.replace(/<\/?b>/g, "")).not.toMatch(/[<>]/);
  });

  it("cuts long texts to Telegram's limit without breaking an entity", () => {
    const text = buildTelegramText(
      sampleNotification({ answers: [{ question: "Essay", answer: "&<>".repeat(5000) }, { question: "More", answer: "x".repeat(3000) }] }),
    );
    expect(text.length).toBeLessThanOrEqual(TELEGRAM_TEXT_LIMIT);
    expect(text).toContain("…");
    // Every & starts a complete entity.
    expect(text.match(/&(?!amp;|lt;|gt;|quot;)/g)).toBeNull();
  });

  it("reports a 429 with Telegram's retry_after", async () => {
    fake.setMode("rate-limited", { retryAfterSeconds: 7 });
    expect(await channel().deliver(sampleNotification())).toMatchObject({ kind: "retry", retryAfterMs: 7000 });
  });

  it("retries when Telegram is down, slow, or answers without a confirmation", async () => {
    for (const mode of ["down", "hang", "garbage"] as const) {
      fake.setMode(mode);
      expect(await channel().deliver(sampleNotification())).toMatchObject({ kind: "retry" });
    }
    expect(fake.requests).toHaveLength(0);
  });

  it("gives up when the chat does not exist, without leaking the token", async () => {
    fake.setMode("reject");
    const outcome = await channel().deliver(sampleNotification());
    expect(outcome).toEqual({ kind: "failed", error: "Telegram answered 400: Bad Request: chat not found" });
    expect(JSON.stringify(outcome)).not.toContain("ABC");
  });
});
