/**
 * Part 8: a person's file at its heaviest usual size: one person with 50 event applications (each
 * with its attendance marked, two history lines and a screening), a group application, a join
 * request, two bans and ten notes, among 5,000 other applications. An admin asks for the whole page
 * (with what VRChat says of them, from the fake) over loopback; the time is to the last byte.
 */
import type { FakeVRChat } from "../../tests/fakes/vrchat.ts";
import { signIn } from "../../tests/setup/sanctum-client.ts";
import { figure, quantile, type Figure } from "./report.ts";
import type { Site } from "./site.ts";

const PART = "8 person's file";
const PERSON = { id: "usr_0000bec4-aaaa-4bbb-8ccc-00000000bec4", name: "Bench Heron" };
const OTHERS = 5_000;

export async function measurePersonFile(site: Site, fake: FakeVRChat, { samples }: { samples: number }): Promise<Figure[]> {
  if (!fake.group.people.some((person) => person.id === PERSON.id)) {
    fake.group.people.push({ id: PERSON.id, displayName: PERSON.name, status: "member", tags: ["system_trust_basic", "system_trust_known", "system_trust_trusted"], dateJoined: "2022-02-02", ageVerificationStatus: "18+" });
  }
  await site.withDatabase(async (query) => {
    await query(
      `insert into events (title, event_date, event_time, world_name, application_required)
       select 'Bench night ' || g, date '2025-01-01' + g, '20:00', 'The Hearth', true from generate_series(1, 50) as g`,
    );
    await query(
      `insert into event_applications (event_id, vrchat_username, discord_id, vrchat_user_id, vrchat_display_name, status, attendance, submitted_at)
       select e.id, $1, 'benchheron', $2, $1, 'approved', (array['attended', 'no_show'])[1 + (row_number() over ()) % 2], now() - interval '1 day'
       from events e where e.title like 'Bench night %'`,
      [PERSON.name, PERSON.id],
    );
    await query(
      `insert into event_applications (event_id, vrchat_username, discord_id, status, submitted_at)
       select (select id from events where title = 'Bench night 1'), 'bench-other-' || g, 'bench-other-d-' || g, 'pending', now() - g * interval '1 minute'
       from generate_series(1, ${OTHERS}) as g`,
    );
    await query(
      `insert into application_audit_log (application_kind, application_id, actor_name, field, from_value, to_value)
       select 'event', a.id, 'bench keeper', 'status', s.f, s.t
       from event_applications a, (values ('pending', 'approved'), (null, 'attended')) as s(f, t) where a.vrchat_user_id = $1`,
      [PERSON.id],
    );
    await query(
      `insert into screenings (application_kind, application_id, state, rule_name, outcome)
       select 'event', id, 'done', 'Known users over 30 days', 'approve' from event_applications where vrchat_user_id = $1`,
      [PERSON.id],
    );
    await query(`insert into applications (vrchat_username, discord_id, vrchat_user_id, vrchat_display_name, vrchat_linked_how, status) values ($1, 'benchheron', $2, $1, 'proven', 'approved')`, [PERSON.name, PERSON.id]);
    await query(`insert into join_requests (vrchat_user_id, display_name) values ($1, $2)`, [PERSON.id, PERSON.name]);
    await query(
      `insert into bans (vrchat_user_id, display_name, source, banned_by, reason, lifted_at, lifted_by)
       values ($1, $2, 'dwell', 'bench keeper', 'An old quarrel.', now(), 'bench keeper')`,
      [PERSON.id, PERSON.name],
    );
    await query(`insert into person_notes (person_key, body, author_name) select $1, 'Note number ' || g, 'bench keeper' from generate_series(1, 10) as g`, [`vrchat-${PERSON.id}`]);
  });

  const email = `file-admin-${Date.now()}@dwell.example`;
  const password = "a long benchmark passphrase";
  site.createAdmin(email, password);
  const cookie = await signIn(site.url, email, password);
  const url = `${site.url}/admin/people/vrchat-${PERSON.id}`;
  const fetchFile = async () => {
    const started = performance.now();
    const response = await fetch(url, { headers: { Cookie: cookie } });
    const body = await response.text();
    const ms = performance.now() - started;
    if (response.status !== 200) throw new Error(`the file answered ${response.status}`);
    return { ms, body };
  };
  // The page must be the whole file, VRChat's facts included, or the time means nothing.
  // Without React's markers between adjacent texts ("51<!-- --> applications").
  const body = (await fetchFile()).body.replaceAll("<!-- -->", "");
  for (const expected of ["Attended 25", "25 no-shows", "51 applications", "Note number 10", "Known User", "Member of the group"]) {
    if (!body.includes(expected)) throw new Error(`the file does not say "${expected}"`);
  }
  for (let i = 0; i < 5; i++) await fetchFile();
  const times: number[] = [];
  for (let i = 0; i < samples; i++) times.push((await fetchFile()).ms);
  const database = site.kind;
  return [
    figure(PART, "50 applications + 50 attendances: whole page, p99", "ms", [quantile(times, 0.99)], {
      database,
      goal: { op: "<", value: 100, text: "< 100 ms p99" },
      note: `p50 ${quantile(times, 0.5).toFixed(1)} ms, p95 ${quantile(times, 0.95).toFixed(1)} ms, ${samples} requests`,
    }),
  ];
}
