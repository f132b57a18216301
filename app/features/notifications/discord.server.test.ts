import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { embedLimitErrors, readDiscordMarkdown, startFakeDiscord, type DiscordDelivery } from "../../../tests/fakes/discord";
import { createDiscordChannel, DISCORD_LIMITS } from "./discord.server";
import { sampleNotification } from "./test-notification";

function embedSize(embed: DiscordDelivery["body"]["embeds"][number]) {
  return embed.title.length + embed.fields.reduce((sum, field) => sum + field.name.length + field.value.length, 0);
}

describe("the Discord channel", () => {
  let fake: Awaited<ReturnType<typeof startFakeDiscord>>;
  beforeAll(async () => {
    fake = await startFakeDiscord();
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.setMode("normal");
    fake.requests.length = 0;
  });
  // A generous wait for the fake's answers (a loaded machine can take a second to answer on
  // loopback); the test of a Discord that hangs gives up sooner, on a channel of its own.
  const channel = (timeoutMs = 10_000) => createDiscordChannel({ webhookUrl: `${fake.url}/api/webhooks/42/secret?thread_id=7`, timeoutMs });

  it("posts one embed, keeping the webhook's query, that can ping no one", async () => {
    const notification = sampleNotification({
      answers: [
        { question: "Why do you wish to attend?", answer: "<script>alert(1)</script> & @everyone <@123>" },
        { question: "Say &amp;", answer: "Tom &amp; Jerry @here" },
        { question: "Anything else?", answer: "" },
      ],
    });
    expect(await channel().deliver(notification)).toEqual({ kind: "delivered" });

    expect(fake.requests).toHaveLength(1);
    const [delivery] = fake.requests;
    expect(delivery!.path).toBe("/api/webhooks/42/secret?thread_id=7&wait=true");
    expect(delivery!.headers["content-type"]).toBe("application/json");
    // Discord shows no HTML; its markdown is escaped, and allowed_mentions keeps it quiet.
    expect(delivery!.body).toEqual({
      username: "Dwell",
      allowed_mentions: { parse: [] },
      embeds: [
        {
          title: "New event application: Masquerade <Night> & Day",
          color: 0xeb459e,
          timestamp: "2026-11-21T18:00:00.000Z",
          fields: [
            { name: "VRChat Username", value: "Moth", inline: true },
            { name: "Discord ID", value: String.raw`moth\#0001`, inline: true },
            { name: "Why do you wish to attend?", value: String.raw`\<script\>alert\(1\)\<\/script\> \& \@everyone \<\@123\>` },
            { name: "Say &amp;", value: String.raw`Tom \&amp\; Jerry \@here` },
            { name: "Anything else?", value: "—" },
          ],
        },
      ],
    });
  });

  it("lets no applicant text form a link or formatting, and shows it letter for letter", async () => {
    const hostile = [
      "[Click for a prize](https://evil.example/steal)",
      "https://evil.example/plain and www.evil.example",
      "**bold** *italic* __under__ _lean_ ~~gone~~ ||spoiler|| `code`",
      "# Heading\n> quoted\n- listed\n1. numbered",
      "<@123> <#456> <t:1700000000> @everyone \\ back\\slash",
    ];
    const notification = sampleNotification({
      vrchat_username: "[me](https://evil.example)",
      discord_id: "**moth**",
      answers: hostile.map((answer, i) => ({ question: `Question ${i}`, answer })),
    });
    expect(await channel().deliver(notification)).toEqual({ kind: "delivered" });
    const fields = fake.requests[0]!.body.embeds[0]!.fields;
    const written = [notification.vrchat_username, notification.discord_id, ...hostile];
    for (const [i, field] of fields.entries()) {
      const read = readDiscordMarkdown(field.value);
      expect(read.formatting, field.value).toEqual([]);
      expect(read.shown).toBe(written[i]);
    }
    // The reader does see what an unescaped text would form.
    expect(readDiscordMarkdown(hostile[0]!).formatting).toContain("masked link");
    expect(readDiscordMarkdown(hostile[1]!).formatting).toContain("link");
    expect(readDiscordMarkdown(hostile[3]!).formatting).toContain("block");
  });

  it("titles a group application without an event", async () => {
    await channel().deliver(sampleNotification({ type: "group_application", event_title: null }));
    expect(fake.requests[0]!.body.embeds[0]).toMatchObject({ title: "New group application", color: 0x5865f2 });
    expect(fake.requests[0]!.body.embeds[0]!.url).toBeUndefined();
  });

  it("links an event application's title to the event's page", async () => {
    await channel().deliver(sampleNotification({ event_url: "https://dwell.example/events/7d0c1f8e-0000-4000-8000-000000000001" }));
    expect(fake.requests[0]!.body.embeds[0]).toMatchObject({
      title: "New event application: Masquerade <Night> & Day",
      url: "https://dwell.example/events/7d0c1f8e-0000-4000-8000-000000000001",
    });
  });

  it("shares the room among long answers within Discord's embed limits", async () => {
    const notification = sampleNotification({
      event_title: "T".repeat(1000),
      answers: [
        { question: "Short", answer: "Fine as it is" },
        ...Array.from({ length: 6 }, (_, i) => ({ question: `Essay ${i}`, answer: "A".repeat(5000) })),
      ],
    });
    expect(await channel().deliver(notification)).toEqual({ kind: "delivered" });

    const [embed] = fake.requests[0]!.body.embeds;
    expect(embed!.title.length).toBe(DISCORD_LIMITS.title);
    expect(embed!.title.endsWith("…")).toBe(true);
    expect(embedSize(embed!)).toBeLessThanOrEqual(DISCORD_LIMITS.total);
    expect(embedSize(embed!)).toBeGreaterThan(DISCORD_LIMITS.total - 10);
    const fields = embed!.fields;
    expect(fields).toHaveLength(2 + 7);
    expect(fields[2]).toEqual({ name: "Short", value: "Fine as it is" });
    for (const essay of fields.slice(3)) {
      expect(essay.value.length).toBeLessThanOrEqual(DISCORD_LIMITS.fieldValue);
      expect(essay.value.endsWith("…")).toBe(true);
      expect(essay.value.length).toBe(fields[3]!.value.length);
    }
  });

  it("counts the answers left out when there are more than fit", async () => {
    const notification = sampleNotification({
      answers: Array.from({ length: 40 }, (_, i) => ({ question: `Q${i} ${"?".repeat(400)}`, answer: "A".repeat(5000) })),
    });
    expect(await channel().deliver(notification)).toEqual({ kind: "delivered" });

    const [embed] = fake.requests[0]!.body.embeds;
    const fields = embed!.fields;
    expect(embedLimitErrors([embed!])).toEqual([]);
    expect(fields.length).toBeLessThanOrEqual(DISCORD_LIMITS.fields);
    expect(embedSize(embed!)).toBeLessThanOrEqual(DISCORD_LIMITS.total);
    for (const field of fields) {
      expect(field.name.length).toBeLessThanOrEqual(DISCORD_LIMITS.fieldName);
      expect(field.value.length).toBeLessThanOrEqual(DISCORD_LIMITS.fieldValue);
    }
    const shown = fields.length - 3;
    expect(shown).toBeGreaterThan(0);
    expect(fields.at(-1)).toEqual({ name: "Not shown", value: `${40 - shown} more answers: the full application is in the Sanctum.` });
  });

  it("uses all 25 fields for many short answers", async () => {
    const notification = sampleNotification({
      answers: Array.from({ length: 30 }, (_, i) => ({ question: `Q${i}`, answer: `A${i}` })),
    });
    expect(await channel().deliver(notification)).toEqual({ kind: "delivered" });
    const fields = fake.requests[0]!.body.embeds[0]!.fields;
    expect(fields).toHaveLength(DISCORD_LIMITS.fields);
    expect(fields.at(-2)).toEqual({ name: "Q21", value: "A21" });
    expect(fields.at(-1)!.value).toMatch(/^8 more answers/);
  });

  it("is refused by the fake for what Discord would refuse", async () => {
    const response = await fetch(`${fake.url}/api/webhooks/42/secret?wait=true`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ embeds: [{ title: "x", fields: [{ name: "Q", value: "" }, { name: "Q", value: "A".repeat(1025) }] }] }),
    });
    expect(response.status).toBe(400);
    expect(fake.requests).toHaveLength(0);
  });

  it("reports a 429 with the wait in Discord's body rather than its rounded header", async () => {
    fake.setMode("rate-limited", { retryAfterSeconds: 1.5 });
    expect(await channel().deliver(sampleNotification())).toEqual({
      kind: "retry",
      error: "Discord answered 429: You are being rate limited.",
      retryAfterMs: 1500,
      slowDown: true,
    });
  });

  it("retries when Discord is down, drops the connection or is too slow, and delivers once it is back", async () => {
    const discord = channel();
    const attemptsBefore = fake.attempts;
    fake.setMode("down");
    expect(await discord.deliver(sampleNotification())).toEqual({ kind: "retry", error: "Discord answered 503" });
    fake.setMode("disconnect");
    expect(await discord.deliver(sampleNotification())).toMatchObject({ kind: "retry", error: expect.stringMatching(/^Discord unreachable: /) });
    fake.setMode("hang");
    expect(await channel(1_000).deliver(sampleNotification())).toEqual({ kind: "retry", error: "Discord unreachable: timed out" });
    expect(fake.requests).toHaveLength(0);

    fake.setMode("normal");
    expect(await discord.deliver(sampleNotification())).toEqual({ kind: "delivered" });
    expect(fake.requests).toHaveLength(1);
    expect(fake.attempts - attemptsBefore).toBe(4);
  });

  it("does not take a 200 without the posted message as delivered", async () => {
    fake.setMode("garbage");
    expect(await channel().deliver(sampleNotification())).toEqual({
      kind: "retry",
      error: "Discord answered 200 without the expected confirmation",
    });
  });

  it("gives up on a deleted webhook without quoting its URL", async () => {
    fake.setMode("reject");
    expect(await channel().deliver(sampleNotification())).toEqual({ kind: "failed", error: "Discord answered 404: Unknown Webhook" });
  });
});
