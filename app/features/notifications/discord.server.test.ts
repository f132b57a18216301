import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeDiscord } from "../../../tests/fakes/discord";
import { buildDiscordEmbed, createDiscordChannel, DISCORD_LIMITS } from "./discord.server";
import { sampleNotification } from "./test-notification";

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
  const channel = () => createDiscordChannel({ webhookUrl: `${fake.url}/api/webhooks/42/secret`, timeoutMs: 300 });

  it("posts one embed that can ping no one", async () => {
    expect(await channel().deliver(sampleNotification())).toEqual({ kind: "delivered" });
    const [delivery] = fake.requests;
    expect(delivery!.path).toBe("/api/webhooks/42/secret?wait=true");
    expect(delivery!.body.allowed_mentions).toEqual({ parse: [] });
    const [embed] = delivery!.body.embeds;
    expect(embed!.title).toBe("New event application: Masquerade <Night> & Day");
    expect(embed!.timestamp).toBe("2026-11-21T18:00:00.000Z");
    expect(embed!.fields).toEqual([
      { name: "VRChat Username", value: "Moth", inline: true },
      { name: "Discord ID", value: "moth#0001", inline: true },
      { name: "Why do you wish to attend?", value: "<script>alert(1)</script> & @everyone <@123>" },
      { name: "Anything else?", value: "—" },
    ]);
  });

  it("keeps within Discord's embed limits however much was written", () => {
    const embed = buildDiscordEmbed(
      sampleNotification({
        event_title: "T".repeat(1000),
        answers: Array.from({ length: 40 }, (_, i) => ({ question: `Q${i} ${"?".repeat(400)}`, answer: "A".repeat(5000) })),
      }),
    );
    const lengths = [embed.title, embed.footer.text, ...embed.fields.flatMap((f) => [f.name, f.value])].map((s) => Array.from(s).length);
    expect(lengths.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(DISCORD_LIMITS.total);
    expect(Array.from(embed.title).length).toBeLessThanOrEqual(DISCORD_LIMITS.title);
    expect(embed.fields.length).toBeLessThanOrEqual(DISCORD_LIMITS.fields);
    for (const field of embed.fields) {
      expect(Array.from(field.name).length).toBeLessThanOrEqual(DISCORD_LIMITS.fieldName);
      expect(Array.from(field.value).length).toBeLessThanOrEqual(DISCORD_LIMITS.fieldValue);
      expect(field.value.length).toBeGreaterThan(0);
    }
    expect(embed.fields.at(-1)!.value).toMatch(/more not shown/);
  });

  it("reports a 429 with the wait Discord asked for", async () => {
    fake.setMode("rate-limited", { retryAfterSeconds: 1.5 });
    expect(await channel().deliver(sampleNotification())).toMatchObject({ kind: "retry", retryAfterMs: 1500 });
  });

  it("retries when Discord is down or too slow", async () => {
    fake.setMode("down");
    expect(await channel().deliver(sampleNotification())).toMatchObject({ kind: "retry", error: "Discord answered 503" });
    fake.setMode("hang");
    expect(await channel().deliver(sampleNotification())).toMatchObject({ kind: "retry", error: "Discord unreachable: timed out" });
  });

  it("gives up on an unknown webhook", async () => {
    fake.setMode("reject");
    expect(await channel().deliver(sampleNotification())).toEqual({ kind: "failed", error: "Discord answered 404: Unknown Webhook" });
  });
});
