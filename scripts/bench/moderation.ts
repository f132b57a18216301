/**
 * Part 11: the role bridge and the moderation history at a large group's size, against the VRChat
 * and Discord fakes. 2,000 people proven in both places (1,000 holding the VRChat role, 500 the
 * Discord role, 10,000 members in the Discord server); an owner links the two roles over HTTP, and the
 * time is until the Roles page shows the dry run (the holders read, the plan made). Then the fill:
 * the changes that reach VRChat and Discord in its first minute, against the bridge's pace, and the
 * time it will take to finish, from the queue's own schedule. And /admin/moderation over 100,000 acts:
 * the first page and each filter (p99), and the whole CSV.
 */
import { FAKE_REGULAR_ROLE_ID, fakeDiscordBotEnv, fakeSnowflake, startFakeDiscordBot } from "../../tests/fakes/discord-bot.ts";
import { fakeUserId, fakeVRChatEnv, startFakeVRChat } from "../../tests/fakes/vrchat.ts";
import { signIn } from "../../tests/setup/sanctum-client.ts";
import { figure, quantile, type Figure } from "./report.ts";
import { sleep, startSite } from "./site.ts";

const PART = "11 moderation";
const OWNER = { email: "bench-oak@dwell.example", password: "moonlight-bench-oak" };
const PAIRS = 2_000;
const DISCORD_MEMBERS = 10_000;
const ACTS = 100_000;
const PACE = 30;

export async function measureModeration({ samples, fillSeconds }: { samples: number; fillSeconds: number }): Promise<Figure[]> {
  const vrchat = await startFakeVRChat();
  const discord = await startFakeDiscordBot();
  vrchat.group.roles.push({ id: "grol_regular", name: "Event Regular", description: "", holders: [] });
  const regular = vrchat.group.roles.at(-1)!;
  for (let i = 0; i < PAIRS; i++) {
    vrchat.group.people.push({ id: fakeUserId(10_000 + i), displayName: `Bench Dweller ${i}`, status: "member" });
    if (i % 2 === 0) regular.holders.push(fakeUserId(10_000 + i));
  }
  for (let i = 0; i < DISCORD_MEMBERS; i++) discord.members.push({ id: fakeSnowflake(10_000 + i), username: `bench${i}`, roles: i < PAIRS && i % 4 === 1 ? [FAKE_REGULAR_ROLE_ID] : [] });
  const site = await startSite({
    kind: "pglite",
    env: { ...fakeVRChatEnv(vrchat), ...fakeDiscordBotEnv(discord), VRCHAT_MEMBERSHIP_ACTIONS: "true", VRCHAT_READ_JOIN_REQUESTS: "false", ROLE_BRIDGE_CALLS_PER_MINUTE: String(PACE) },
  });
  try {
    await site.withDatabase(async (query) => {
      await query(
        `insert into applications (vrchat_username, discord_id, status, vrchat_user_id, vrchat_display_name, vrchat_linked_how, discord_user_id, discord_linked_how)
         select 'Bench Dweller ' || g, 'bench' || g, 'approved',
                'usr_' || lpad((10000 + g)::text, 8, '0') || '-aaaa-4bbb-8ccc-' || lpad((10000 + g)::text, 12, '0'), 'Bench Dweller ' || g, 'proven',
                (300000000000000000 + 10000 + g)::text, 'proven'
         from generate_series(0, ${PAIRS - 1}) as g`,
      );
      // 100,000 acts over a year: three places, every kind, 40 moderators, 20,000 people.
      await query(
        `insert into moderation_acts (place, source_id, kind, actor_key, actor_account_id, actor_name, target_vrchat_id, target_discord_id, target_name, reason, at)
         select (array['vrchat', 'discord', 'dwell'])[1 + g % 3], 'bench-' || g,
                (array['ban', 'unban', 'kick', 'timeout', 'role_add', 'role_remove', 'approve', 'reject', 'instance_kick'])[1 + g % 9],
                'bench:moderator-' || (g % 40), 'moderator-' || (g % 40), 'Moderator ' || (g % 40),
                'usr_' || lpad((g % 20000)::text, 8, '0') || '-bbbb-4bbb-8ccc-' || lpad((g % 20000)::text, 12, '0'),
                (310000000000000000 + g % 20000)::text, 'Person ' || (g % 20000), 'Reason ' || g,
                now() - (g * interval '5 minutes')
         from generate_series(1, ${ACTS}) as g`,
      );
    });
    site.createAdmin(OWNER.email, OWNER.password);
    await site.withDatabase((query) => query(`update profiles set role = 'owner' where email = $1`, [OWNER.email]));
    const cookie = await signIn(site.url, OWNER.email, OWNER.password);
    const get = async (path: string) => {
      const started = performance.now();
      const response = await fetch(`${site.url}${path}`, { headers: { cookie } });
      const body = await response.text();
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
      return { ms: performance.now() - started, body };
    };

    // The link, until its dry run is on the page.
    const started = performance.now();
    const linked = await fetch(`${site.url}/admin/roles`, {
      method: "POST",
      body: new URLSearchParams({ intent: "link", vrchatRoleId: "grol_regular", discordRoleId: FAKE_REGULAR_ROLE_ID, direction: "both" }),
      headers: { Origin: site.url, cookie },
    });
    await linked.body?.cancel();
    if (linked.status !== 200) throw new Error(`linking answered ${linked.status}`);
    let page = "";
    for (;;) {
      page = (await get("/admin/roles")).body.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
      if (page.includes("Dry run, among")) break;
      if (performance.now() - started > 120_000) throw new Error("no dry run within two minutes");
      await sleep(100);
    }
    const dryRunMs = performance.now() - started;
    const pairs = /Dry run, among ([\d,]+) people/.exec(page)?.[1];
    if (pairs !== "2,000") throw new Error(`the dry run counts ${pairs} people, not 2,000`);
    const pageTimes: number[] = [];
    for (let i = 0; i < 10; i++) pageTimes.push((await get("/admin/roles")).ms);

    // The fill: what reaches the two places in its first minute, and when it will be done.
    const link = /data-link-id="([0-9a-f-]{36})"/.exec((await get("/admin/roles")).body)![1]!;
    const given = () => regular.holders.length + discord.members.filter((member) => member.roles?.includes(FAKE_REGULAR_ROLE_ID)).length;
    const before = given();
    const fill = await fetch(`${site.url}/admin/roles`, { method: "POST", body: new URLSearchParams({ intent: "fill", id: link }), headers: { Origin: site.url, cookie } });
    const fillText = await fill.text();
    const total = Number(/Filling in: ([\d,]+) changes/.exec(fillText)?.[1]?.replaceAll(",", "") ?? Number.NaN);
    if (fill.status !== 200 || !Number.isFinite(total)) throw new Error(`the fill answered ${fill.status}`);
    await sleep(fillSeconds * 1000);
    const sentInWindow = given() - before;
    const perMinute = (sentInWindow * 60) / fillSeconds;
    const schedule = await site.withDatabase((query) => query<{ first: string; last: string }>(`select min(next_attempt_at) as first, max(next_attempt_at) as last from outbox where target = 'member_role'`));
    const finishMinutes = (Date.parse(schedule[0]!.last) - Date.parse(schedule[0]!.first)) / 60_000;

    // The history: the first page, each filter, and the CSV.
    const filters: [string, string][] = [
      ["first page", ""],
      ["place", "?place=discord"],
      ["kind", "?kind=ban"],
      ["moderator", "?moderator=bench%3Amoderator-7"],
      ["person (account id)", `?person=${fakeUserId(1234).replace("aaaa", "bbbb")}`],
      ["person (name)", "?person=Person%201234"],
      ["dates", `?from=${new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10)}&to=${new Date(Date.now() - 20 * 86_400_000).toISOString().slice(0, 10)}`],
      ["moderator and kind, with the activity table", "?moderator=bench%3Amoderator-7&kind=kick"],
    ];
    const historyFigures: Figure[] = [];
    for (const [name, query] of filters) {
      const first = await get(`/admin/moderation${query}`);
      if (!first.body.includes('data-testid="moderation-act"')) throw new Error(`/admin/moderation${query} lists nothing`);
      for (let i = 0; i < 3; i++) await get(`/admin/moderation${query}`);
      const times: number[] = [];
      for (let i = 0; i < samples; i++) times.push((await get(`/admin/moderation${query}`)).ms);
      historyFigures.push(
        figure(PART, `/admin/moderation over 100,000 acts, ${name}: p99`, "ms", [quantile(times, 0.99)], {
          database: "pglite",
          goal: { op: "<", value: 200, text: "< 200 ms p99" },
          note: `p50 ${quantile(times, 0.5).toFixed(1)} ms, ${samples} requests`,
        }),
      );
    }
    const csvStarted = performance.now();
    const csv = await fetch(`${site.url}/admin/moderation/export`, { headers: { cookie } });
    const rows = (await csv.text()).trim().split("\r\n").length - 1;
    const csvMs = performance.now() - csvStarted;
    if (rows < ACTS) throw new Error(`the CSV has ${rows} rows, not ${ACTS}`);

    return [
      figure(PART, "A new link over 2,000 proven people: from 'Link' to the dry run on the page", "ms", [dryRunMs], { database: "pglite", goal: { op: "<", value: 10_000, text: "< 10 s" }, note: "holders read from both fakes (10,000 Discord members), then the plan" }),
      figure(PART, "The Roles page with that dry run: median", "ms", pageTimes, { database: "pglite" }),
      figure(PART, `The fill's changes a minute (${total} to make; first ${fillSeconds} s)`, "calls/min", [perMinute], { database: "pglite", goal: { op: "<=", value: PACE, text: `≤ ${PACE} (ROLE_BRIDGE_CALLS_PER_MINUTE)` } }),
      figure(PART, `The fill's time to finish, from its queued schedule (${total} changes at ${PACE} a minute)`, "min", [finishMinutes], { database: "pglite" }),
      ...historyFigures,
      figure(PART, "The moderation CSV, 100,000 rows: whole download", "ms", [csvMs], { database: "pglite", goal: { op: "<", value: 5_000, text: "< 5 s" } }),
    ];
  } finally {
    await site.close();
    await vrchat.close();
    await discord.close();
  }
}
