import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseTelegramHtml, startFakeTelegram } from "../../../tests/fakes/telegram";
import { createTelegramChannel, WORD_JOINER, TELEGRAM_TEXT_LIMIT } from "./telegram.server";
import { sampleNotification } from "./test-notification";

const TOKEN = "123456:secret-bot-token";

describe("the Telegram channel", () => {
  let fake: Awaited<ReturnType<typeof startFakeTelegram>>;
  beforeAll(async () => {
    fake = await startFakeTelegram({ token: TOKEN });
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.setMode("normal");
    fake.requests.length = 0;
  });
  // A generous wait for the fake's answers (a loaded machine can take a second to answer on
  // loopback); the test of a Telegram that hangs gives up sooner, on a channel of its own.
  const channel = (botToken = TOKEN, timeoutMs = 10_000) => createTelegramChannel({ botToken, chatId: "-10042", apiUrl: fake.url, timeoutMs });

  it("sends one HTML message in which everything user-written is escaped", async () => {
    const notification = sampleNotification({
      vrchat_username: `Moth "the <b>old</b>" O'Hare`,
      answers: [
        { question: "Why do you wish to attend?", answer: "<script>alert(1)</script> & @everyone <@123>" },
        { question: "Say &amp; <i>", answer: "Tom &amp; Jerry" },
        { question: "Anything else?", answer: "  " },
      ],
    });
    expect(await channel().deliver(notification)).toEqual({ kind: "delivered" });

    expect(fake.requests).toHaveLength(1);
    const [delivery] = fake.requests;
    expect(delivery!.token).toBe(TOKEN);
    expect(delivery!.headers["content-type"]).toBe("application/json");
    expect(delivery!.body).toEqual({
      chat_id: "-10042",
      parse_mode: "HTML",
      link_preview_options: { is_disabled: true },
      text: [
        "<b>New event application: Masquerade &lt;Night&gt; &amp; Day</b>",
        "",
        "<b>VRChat username: </b>Moth &quot;the &lt;b&gt;old&lt;/b&gt;&quot; O&#39;Hare",
        "<b>Discord ID: </b>moth#0001",
        "<b>Submitted: </b>2026-11-21 18:00:00 UTC",
        "",
        "<b>Why do you wish to attend?</b>",
        `&lt;script&gt;alert(1)&lt;/script&gt; &amp; @${WORD_JOINER}everyone &lt;@${WORD_JOINER}123&gt;`,
        "",
        "<b>Say &amp;amp; &lt;i&gt;</b>",
        "Tom &amp;amp; Jerry",
        "",
        "<b>Anything else?</b>",
        "—",
      ].join("\n"),
    });
    // What the admins read is exactly what was written.
    expect(delivery!.shownText).toContain(`VRChat username: Moth "the <b>old</b>" O'Hare`);
    // A word joiner (shown as nothing) after each "@": Telegram makes no mention of "@everyone".
    const shown = delivery!.shownText.replaceAll(WORD_JOINER, "");
    expect(shown).toContain("<script>alert(1)</script> & @everyone <@123>");
    expect(delivery!.shownText).not.toMatch(/@\w/);
    expect(delivery!.shownText).toContain("Say &amp; <i>\nTom &amp; Jerry");
  });

  it("cuts long answers to fit Telegram's limit, sharing the room and splitting no entity", async () => {
    const notification = sampleNotification({
      answers: [
        { question: "Short", answer: "Fine as it is" },
        { question: "Essay", answer: `&<>"'`.repeat(3000) },
        { question: "Another essay", answer: "x".repeat(9000) },
      ],
    });
    expect(await channel().deliver(notification)).toEqual({ kind: "delivered" });

    const { body, shownText } = fake.requests[0]!;
    // The fake refuses what Telegram would refuse (broken entity, unclosed tag, too long), so the
    // delivery above already proves the text is valid; these say how it was cut.
    expect(shownText.length).toBeLessThanOrEqual(TELEGRAM_TEXT_LIMIT);
    expect(shownText.length).toBeGreaterThan(TELEGRAM_TEXT_LIMIT - 10);
    expect(shownText).toContain("Short\nFine as it is\n\nEssay\n");
    const [, essay, another] = shownText.split(/\n\n(?:Essay|Another essay)\n/);
    expect(essay!.endsWith("…")).toBe(true);
    expect(another!.endsWith("…")).toBe(true);
    expect(Math.abs(essay!.length - another!.length)).toBeLessThanOrEqual(1);
    expect(body.text.match(/&(?!amp;|lt;|gt;|quot;|#39;)/g)).toBeNull();
  });

  it("cuts the message itself when even the questions do not fit", async () => {
    const notification = sampleNotification({
      answers: Array.from({ length: 60 }, (_, i) => ({ question: `Question ${i} <${"?".repeat(100)}>`, answer: "&" })),
    });
    expect(await channel().deliver(notification)).toEqual({ kind: "delivered" });

    const { body, shownText } = fake.requests[0]!;
    expect(shownText.length).toBeLessThanOrEqual(TELEGRAM_TEXT_LIMIT);
    expect(shownText.endsWith("…")).toBe(true);
    expect(shownText).toContain("Question 0 <");
    expect(shownText).not.toContain("Question 59");
    expect(parseTelegramHtml(body.text)).toEqual({ text: shownText });
  });

  it("reports a 429 with the wait Telegram asked for", async () => {
    fake.setMode("rate-limited", { retryAfterSeconds: 7 });
    expect(await channel().deliver(sampleNotification())).toEqual({
      kind: "retry",
      error: "Telegram answered 429: Too Many Requests: retry after 7",
      retryAfterMs: 7000,
      slowDown: true,
    });
  });

  it("retries when Telegram is down, drops the connection or is too slow, and delivers once it is back", async () => {
    const telegram = channel();
    const attemptsBefore = fake.attempts;
    fake.setMode("down");
    expect(await telegram.deliver(sampleNotification())).toEqual({ kind: "retry", error: "Telegram answered 503" });
    fake.setMode("disconnect");
    expect(await telegram.deliver(sampleNotification())).toMatchObject({ kind: "retry", error: expect.stringMatching(/^Telegram unreachable: /) });
    fake.setMode("hang");
    expect(await channel(TOKEN, 1_000).deliver(sampleNotification())).toEqual({ kind: "retry", error: "Telegram unreachable: timed out" });
    expect(fake.requests).toHaveLength(0);

    fake.setMode("normal");
    expect(await telegram.deliver(sampleNotification())).toEqual({ kind: "delivered" });
    expect(fake.requests).toHaveLength(1);
    expect(fake.attempts - attemptsBefore).toBe(4);
  });

  it("does not take a 200 without Telegram's confirmation as delivered", async () => {
    fake.setMode("garbage");
    expect(await channel().deliver(sampleNotification())).toEqual({
      kind: "retry",
      error: "Telegram answered 200 without the expected confirmation",
    });
  });

  it("gives up when the chat does not exist or the token is wrong, never quoting the token", async () => {
    fake.setMode("reject");
    expect(await channel().deliver(sampleNotification())).toEqual({ kind: "failed", error: "Telegram answered 400: Bad Request: chat not found" });

    fake.setMode("normal");
    const outcome = await channel("999:wrong-token").deliver(sampleNotification());
    expect(outcome).toEqual({ kind: "failed", error: "Telegram answered 401: Unauthorized" });
  });

  it("reports a network failure without the URL, which holds the token", async () => {
    const gone = await startFakeTelegram();
    await gone.close();
    const outcome = await createTelegramChannel({ botToken: TOKEN, chatId: "1", apiUrl: gone.url, timeoutMs: 10_000 }).deliver(
      sampleNotification(),
    );
    expect(outcome).toEqual({ kind: "retry", error: "Telegram unreachable: ECONNREFUSED" });
  });
});
