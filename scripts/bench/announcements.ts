/**
 * Part 10: an announcement published to all three places, as staff publish it (the Sanctum's form,
 * over HTTP), against the VRChat and Discord fakes: from 'Publish now' until the VRChat post, the
 * Discord message and the site's page all exist. Twenty, one after another; the goal is on the 95th
 * percentile.
 */
import { FAKE_ANNOUNCE_CHANNEL_ID, fakeDiscordBotEnv, startFakeDiscordBot } from "../../tests/fakes/discord-bot.ts";
import { fakeVRChatEnv, startFakeVRChat } from "../../tests/fakes/vrchat.ts";
import { signIn } from "../../tests/setup/sanctum-client.ts";
import { figure, type Figure } from "./report.ts";
import { sleep, startSite } from "./site.ts";

const ADMIN = { email: "bench-crier@dwell.example", password: "moonlight-bench-crier" };

function percentile(values: number[], p: number): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function measureAnnouncements({ runs }: { runs: number }): Promise<Figure[]> {
  const vrchat = await startFakeVRChat();
  vrchat.group.posts = [];
  const discord = await startFakeDiscordBot();
  const site = await startSite({ kind: "pglite", env: { ...fakeVRChatEnv(vrchat), ...fakeDiscordBotEnv(discord), DISCORD_ANNOUNCE_CHANNEL_ID: FAKE_ANNOUNCE_CHANNEL_ID } });
  try {
    site.createAdmin(ADMIN.email, ADMIN.password);
    const cookie = await signIn(site.url, ADMIN.email, ADMIN.password);
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const title = `Bench announcement ${String(i).padStart(2, "0")}`;
      const form = new FormData();
      form.set("intent", "publish");
      form.set("title.en", title);
      form.set("text.en", "Lanterns at dusk, **everyone** welcome. [The rules](https://dwell.example/rules)");
      form.set("audience", "everyone");
      for (const place of ["site", "vrchat", "discord"]) form.append("place", place);
      const started = performance.now();
      const response = await fetch(`${site.url}/admin/announcements/new`, { method: "POST", body: form, headers: { Origin: site.url, cookie }, redirect: "manual" });
      await response.body?.cancel();
      const id = /\/admin\/announcements\/([0-9a-f-]{36})/.exec(response.headers.get("location") ?? "")?.[1];
      if (response.status !== 302 || !id) throw new Error(`publishing answered ${response.status}`);
      for (;;) {
        const inVRChat = vrchat.group.posts.some((post) => post.title === title);
        const inDiscord = discord.announcements.some((message) => message.embeds[0]?.title === title);
        const onSite = inVRChat && inDiscord ? (await fetch(`${site.url}/news/${id}`)).status === 200 : false;
        if (onSite) break;
        if (performance.now() - started > 60_000) throw new Error(`${title} was not published everywhere within a minute`);
        await sleep(25);
      }
      times.push(performance.now() - started);
    }
    const p95 = percentile(times, 95);
    return [
      figure("10", `Publish to the site, VRChat and Discord: until published everywhere (p95 of ${runs})`, "ms", [p95], { goal: { op: "<", value: 5_000, text: "< 5 s (p95)" } }),
      figure("10", "Publish to the site, VRChat and Discord: median", "ms", times),
    ];
  } finally {
    await site.close();
    await vrchat.close();
    await discord.close();
  }
}
