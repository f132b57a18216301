/**
 * Part 12: who came, read from the instances Dwell opened, at a busy evening's size. Ten events under
 * way at once, each with its instance (one the bot made, as VRChat lists its users to it) holding 80
 * people, and 80 approved attendees each (70 of them in it). While they run: the calls to VRChat per
 * instance a minute (one at most). At their end: how long marking each event took (the server's own
 * log). Then the evening's page of an event with 500 answers, each with a comment (p99).
 */
import { FAKE_GROUP_ID, FAKE_WORLD_ID, fakeUserId, fakeVRChatEnv, startFakeVRChat } from "../../tests/fakes/vrchat.ts";
import { signIn } from "../../tests/setup/sanctum-client.ts";
import { figure, quantile, type Figure } from "./report.ts";
import { sleep, startSite } from "./site.ts";

const PART = "12 evenings";
const ADMIN = { email: "bench-hearth@dwell.example", password: "moonlight-bench-hearth" };
const EVENTS = 10;
const PEOPLE = 80;
const COMMENTS = 500;

export async function measureEvenings({ minutes, samples }: { minutes: number; samples: number }): Promise<Figure[]> {
  const vrchat = await startFakeVRChat();
  vrchat.group.instances = [];
  const person = (event: number, i: number) => ({ id: fakeUserId(20_000 + event * 1_000 + i), displayName: `Guest ${event}-${i}` });
  for (let event = 0; event < EVENTS; event++) {
    vrchat.group.instances.push({
      location: `${FAKE_WORLD_ID}:${90_000 + event}~group(${FAKE_GROUP_ID})~groupAccessType(members)~region(eu)`,
      memberCount: PEOPLE,
      userCount: PEOPLE,
      type: "group",
      world: { name: "Bench Hall" },
      creatorId: "bench-bot",
      // 70 approved attendees and 10 who never applied.
      users: [...Array.from({ length: PEOPLE - 10 }, (_, i) => person(event, i)), ...Array.from({ length: 10 }, (_, i) => person(event, 500 + i))],
    });
  }
  const site = await startSite({ kind: "pglite", env: { ...fakeVRChatEnv(vrchat), VRCHAT_OPEN_INSTANCES: "true", VRCHAT_READ_JOIN_REQUESTS: "false", ATTENDANCE_MIN_MINUTES: "1" } });
  try {
    // The evenings started a minute ago and end `minutes` after the site is back.
    const start = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 60_000);
    const end = new Date(Math.ceil((Date.now() + 30_000) / 60_000) * 60_000 + minutes * 60_000);
    const ids = await site.withDatabase(async (query) => {
      const made: string[] = [];
      for (let event = 0; event < EVENTS; event++) {
        const [row] = await query<{ id: string }>(
          `insert into events (title, event_date, event_time, end_date, end_time, timezone, world_name, world_id, application_required)
           values ($1, $2, $3, $4, $5, 'UTC', 'Bench Hall', $6, true) returning id`,
          [`Bench Evening ${event}`, start.toISOString().slice(0, 10), start.toISOString().slice(11, 16), end.toISOString().slice(0, 10), end.toISOString().slice(11, 16), FAKE_WORLD_ID],
        );
        const id = row!.id;
        made.push(id);
        const location = vrchat.group.instances[event]!.location;
        const [worldId, instanceId] = location.split(":");
        await query(`insert into event_instances (event_id, state, location, world_id, instance_id, opened_at) values ($1, 'open', $2, $3, $4, now())`, [id, location, worldId, instanceId]);
        // 80 approved: 70 in the instance, 10 not.
        await query(
          `insert into event_applications (event_id, vrchat_username, status, vrchat_user_id, vrchat_linked_how)
           select $1, 'Guest ' || $2::int || '-' || g, 'approved', 'usr_' || lpad((20000 + $2::int * 1000 + g)::text, 8, '0') || '-aaaa-4bbb-8ccc-' || lpad((20000 + $2::int * 1000 + g)::text, 12, '0'), 'proven'
           from generate_series(0, ${PEOPLE - 1}) as g`,
          [id, event],
        );
      }
      // A past evening with 500 answers, each with a comment, for its page.
      const [past] = await query<{ id: string }>(`insert into events (title, event_date, event_time, timezone, world_name) values ('Bench Past Evening', '2026-11-20', '20:00', 'UTC', 'Bench Hall') returning id`);
      await query(
        `with apps as (
           insert into event_applications (event_id, vrchat_username, status, attendance)
           select $1, 'Rater ' || g, 'approved', 'attended' from generate_series(1, ${COMMENTS}) as g returning id
         )
         insert into event_ratings (application_id, event_id, rating, comment)
         select id, $1, 1 + (row_number() over ()) % 5, repeat('A kind word about the evening. ', 8) from apps`,
        [past!.id],
      );
      await query(`insert into event_instances (event_id, state, opened_at, closed_at, attendance_marked_at) values ($1, 'closed', '2026-11-20T19:45Z', '2026-11-20T22:00Z', '2026-11-20T22:01Z')`, [past!.id]);
      await query(
        `insert into instance_minutes (event_id, minute, people) select $1, timestamptz '2026-11-20T20:00Z' + g * interval '1 minute', (40 + 30 * sin(g / 20.0))::int from generate_series(0, 119) as g`,
        [past!.id],
      );
      return { evenings: made, past: past!.id };
    });
    site.createAdmin(ADMIN.email, ADMIN.password);

    // While they run: each read of an instance, with the minute it came in (watched every 200 ms).
    const readsFrom = Date.now();
    const perMinuteOf = new Map<string, number>();
    let seen = 0;
    while (Date.now() < end.getTime()) {
      const fresh = vrchat.requests.slice(seen);
      seen += fresh.length;
      const minute = Math.floor(Date.now() / 60_000);
      for (const request of fresh) {
        if (request.method !== "GET" || !request.path.startsWith("/instances/")) continue;
        const key = `${request.path} ${minute}`;
        perMinuteOf.set(key, (perMinuteOf.get(key) ?? 0) + 1);
      }
      await sleep(200);
    }
    const readMinutes = (Date.now() - readsFrom) / 60_000;
    const reads = vrchat.group.instances.map((instance) => vrchat.requests.filter((request) => request.method === "GET" && request.path === `/instances/${instance.location}`).length);
    const perMinute = Math.max(0, ...perMinuteOf.values());
    // At the end: each event's marking, as the server logged it.
    const deadline = Date.now() + 90_000;
    let marks: number[] = [];
    while (Date.now() < deadline) {
      marks = [...site.output().matchAll(/"msg":"attendance read from an event's instance".*?"ms":(\d+)/g)].map((match) => Number(match[1]));
      if (marks.length >= EVENTS) break;
      await sleep(1_000);
    }
    if (marks.length < EVENTS) throw new Error(`only ${marks.length} of ${EVENTS} events were marked within 90 s of their end`);

    // The evening's page with its chart and 500 comments.
    const cookie = await signIn(site.url, ADMIN.email, ADMIN.password);
    const get = async () => {
      const started = performance.now();
      const response = await fetch(`${site.url}/admin/events/${ids.past}/evening`, { headers: { cookie } });
      const body = await response.text();
      if (response.status !== 200 || !body.includes("A kind word")) throw new Error(`the evening's page answered ${response.status}`);
      return performance.now() - started;
    };
    for (let i = 0; i < 3; i++) await get();
    const times: number[] = [];
    for (let i = 0; i < samples; i++) times.push(await get());
    return [
      figure(PART, `Reads of any of ${EVENTS} open instances (${PEOPLE} people each) in any one minute, over ${readMinutes.toFixed(1)} min`, "calls/min", [perMinute], {
        database: "pglite",
        goal: { op: "<=", value: 1, text: "≤ 1 per instance a minute" },
        note: `reads per instance over the whole run: ${reads.join(", ")}`,
      }),
      figure(PART, `Marking who came at the end, each of ${EVENTS} events (${PEOPLE} approved, ${PEOPLE} seen): the slowest`, "ms", [Math.max(...marks)], {
        database: "pglite",
        goal: { op: "<", value: 2_000, text: "< 2 s per event" },
        note: `all: ${marks.join(", ")} ms (the server's log)`,
      }),
      figure(PART, `The evening's page with its chart and ${COMMENTS} comments: p99`, "ms", [quantile(times, 0.99)], {
        database: "pglite",
        goal: { op: "<", value: 150, text: "< 150 ms p99" },
        note: `p50 ${quantile(times, 0.5).toFixed(1)} ms, ${samples} requests`,
      }),
    ];
  } finally {
    await site.close();
    await vrchat.close();
  }
}
