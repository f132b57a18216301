/**
 * Part 9: the door under load. 1,000 join requests wait in VRChat (the fake) and applications arrive
 * on the form at 1,000 an hour (one every 3.6 s, each with a profile link), with ten screening rules
 * (one asks for other groups) and the owner letting the rules decide join requests. Over a window of
 * real minutes, at the production allowances, it counts VRChat's calls per person screened, the
 * join-request list reads a minute, and each application's time from arrival to its screening.
 */
import { randomUUID } from "node:crypto";
import { fakeUserId, fakeVRChatEnv, startFakeVRChat, type FakeVRChat } from "../../tests/fakes/vrchat.ts";
import { figure, quantile, type Figure } from "./report.ts";
import { sleep, startSite, type DatabaseKind, type Query } from "./site.ts";

const PART = "9 screening at volume";
const WAITING = 1_000;
const ARRIVALS_PER_HOUR = 1_000;
const ORIGIN = "https://dwell.bench.example";
const KNOWN = ["system_trust_basic", "system_trust_known", "system_trust_trusted"];

/** Ten rules, as the screening page stores them: the first that holds decides. */
const RULES = [
  { name: "Bio mentions raiding", conditions: [{ kind: "bio_contains", words: ["raid", "crasher"] }], outcome: { kind: "reject", message: "Not here." } },
  { name: "Known users over 30 days, 18+", conditions: [{ kind: "trust_at_least", rank: "known_user" }, { kind: "account_older_than", days: 30 }, { kind: "shows_18_plus" }], outcome: { kind: "approve" } },
  { name: "Trusted users", conditions: [{ kind: "trust_at_least", rank: "trusted_user" }], outcome: { kind: "approve" } },
  { name: "Proven accounts", conditions: [{ kind: "proven" }, { kind: "trust_at_least", rank: "user" }], outcome: { kind: "approve" } },
  { name: "Members of a rival group", conditions: [{ kind: "in_groups", groupIds: ["grp_00000000-0000-4000-8000-00000000beef"] }], outcome: { kind: "flag", flag: "In a rival group" } },
  { name: "Often absent", conditions: [{ kind: "no_shows_at_least", count: 3 }], outcome: { kind: "flag", flag: "Three no-shows or more" } },
  { name: "Found on Discord", conditions: [{ kind: "answer_is", question: "How did you find the Dwellers?", options: ["Discord"] }], outcome: { kind: "flag", flag: "Came from Discord" } },
  { name: "No introduction in bio", conditions: [{ kind: "bio_lacks", words: ["hello", "hi"] }, { kind: "trust_at_least", rank: "user" }], outcome: { kind: "flag", flag: "Says nothing about themselves" } },
  { name: "Week-old accounts", conditions: [{ kind: "account_older_than", days: 7 }], outcome: { kind: "flag", flag: "Older than a week, not yet known" } },
  { name: "Everyone else", conditions: [{ kind: "trust_at_least", rank: "visitor" }], outcome: { kind: "flag", flag: "A new account: look closely" } },
];

function person(n: number, name: string, status: "requested" | "none") {
  return {
    id: fakeUserId(100_000 + n),
    displayName: name,
    status,
    requestedAt: status === "requested" ? new Date(Date.now() - n * 60_000).toISOString() : undefined,
    tags: n % 3 === 0 ? KNOWN : n % 3 === 1 ? ["system_trust_basic"] : [],
    dateJoined: n % 2 === 0 ? "2022-03-03" : new Date().toISOString().slice(0, 10),
    ageVerificationStatus: n % 2 === 0 ? ("18+" as const) : ("hidden" as const),
    bio: n % 50 === 0 ? "I raid for fun" : "hello there",
  };
}

async function seed(query: Query) {
  await query("insert into site_settings (id, join_requests_by_rules) values (1, true) on conflict (id) do update set join_requests_by_rules = true");
  await query("insert into application_questions (question, question_type, required, order_index) values ('Your VRChat profile link', 'vrchat_profile', true, 99)");
  for (const [position, rule] of RULES.entries()) {
    await query("insert into screening_rules (name, position, scope, conditions, outcome) values ($1, $2, 'group', $3::jsonb, $4::jsonb)", [
      rule.name,
      position,
      JSON.stringify(rule.conditions),
      JSON.stringify(rule.outcome),
    ]);
  }
}

export async function measureScreeningLoad({ kind, postgresUrl, minutes }: { kind: DatabaseKind; postgresUrl?: string; minutes: number }): Promise<Figure[]> {
  const fake: FakeVRChat = await startFakeVRChat();
  for (let n = 0; n < WAITING; n++) fake.group.people.push(person(n, `Knocker ${n}`, "requested"));
  const arrivals = Math.round((minutes * ARRIVALS_PER_HOUR) / 60);
  for (let n = 0; n < arrivals; n++) fake.group.people.push(person(WAITING + n, `Arrival ${n} ${randomUUID().slice(0, 6)}`, "none"));
  // Behind a proxy that passes on each applicant's own address, as deployed: the per-address limits
  // (the profile-link checks among them) then meet one applicant each, not the whole benchmark.
  const site = await startSite({ kind, postgresUrl, env: { ...fakeVRChatEnv(fake), VRCHAT_MEMBERSHIP_ACTIONS: "true", TRUST_PROXY: "true", PUBLIC_URL: ORIGIN } });
  try {
    await site.withDatabase(seed);
    const form = await (await fetch(`${site.url}/apply`)).text();
    const fields = [...form.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!);
    // The demo's questions, then the profile link (added last).
    if (fields.length < 5) throw new Error(`the form has ${fields.length} fields`);
    const before = { ...fake.calls };
    const started = Date.now();
    const spacing = 3_600_000 / ARRIVALS_PER_HOUR;
    for (let n = 0; n < arrivals; n++) {
      const account = fake.group.people[WAITING + n]!;
      const answers = [account.displayName, `arrival-${n}-${randomUUID().slice(0, 6)}`, n % 5 === 0 ? "Discord" : "A friend", "hello"];
      const values = fields.map((field, i) => [field, i === fields.length - 1 ? `https://vrchat.com/home/user/${account.id}` : (answers[i] ?? "")]);
      const response = await fetch(`${site.url}/apply`, { method: "POST", body: new URLSearchParams(values), headers: { Origin: ORIGIN, "X-Forwarded-For": `10.9.${n >> 8}.${n & 255}` } });
      await response.body?.cancel();
      if (response.status !== 200) throw new Error(`applying answered ${response.status}`);
      await sleep(Math.max(0, started + (n + 1) * spacing - Date.now()));
    }
    const elapsedMinutes = (Date.now() - started) / 60_000;
    const calls = (endpoint: string) => (fake.calls[endpoint] ?? 0) - (before[endpoint] ?? 0);
    const result = await site.withDatabase(async (query) => {
      const screened = await query<{ kind: string; n: number }>("select application_kind as kind, count(*)::int as n from screenings where state = 'done' group by 1");
      const latency = await query<{ ms: number }>(
        `select extract(epoch from (s.updated_at - a.submitted_at)) * 1000 as ms
         from applications a join screenings s on s.application_id = a.id and s.application_kind = 'group' where s.state = 'done'`,
      );
      const [linked] = await query<{ linked: number; total: number; claimed: number }>(
        "select count(vrchat_user_id)::int as linked, count(*)::int as total, count(*) filter (where vrchat_profile_check = 'claimed')::int as claimed from applications",
      );
      // The people whose VRChat account screening read (an application with no account linked has none to read).
      const [read] = await query<{ n: number }>("select count(*)::int as n from screenings where state = 'done' and jsonb_typeof(facts -> 'vrchat') = 'object'");
      const [stored] = await query<{ n: number }>("select count(*)::int as n from join_requests");
      const outcomes = await query<{ outcome: string | null; n: number }>("select outcome, count(*)::int as n from screenings where state = 'done' group by 1 order by 1");
      return { screened, latency: latency.map((row) => Number(row.ms)), linked: linked!, read: read!.n, stored: stored!.n, outcomes };
    });
    const screenedPeople = result.screened.reduce((sum, row) => sum + row.n, 0);
    // The form's profile-link checks read the user too (the visitors' allowance): not screening's.
    const visitorReads = result.linked.linked + result.linked.claimed;
    const screeningReads = calls("user") - visitorReads + calls("userGroups");
    const perPerson = result.read > 0 ? screeningReads / result.read : Number.NaN;
    const database = kind;
    const byKind = Object.fromEntries(result.screened.map((row) => [row.kind, row.n]));
    const perMinute = screenedPeople / elapsedMinutes;
    return [
      figure(PART, `screening's VRChat calls per person read (${result.read} of ${screenedPeople} screened had an account to read)`, "calls", [perPerson], {
        database,
        goal: { op: "<=", value: 2, text: "≤ 2 (one user read, + groups when a rule asks)" },
        note: `${calls("user") - visitorReads} user reads, ${calls("userGroups")} group lists; besides, ${visitorReads} profile-link checks and ${calls("membership")} standings read before acting`,
      }),
      figure(PART, "join-request list reads a minute", "reads", [calls("joinRequests") / elapsedMinutes], {
        database,
        goal: { op: "<=", value: 10.5, text: "≤ 10 pages, once a minute" },
        note: `${result.stored} requests stored of ${WAITING} waiting`,
      }),
      figure(PART, "people screened a minute (screening allowance 30 calls/min)", "people", [perMinute], {
        database,
        note: `${byKind.group ?? 0} applications, ${byKind.join_request ?? 0} join requests in ${elapsedMinutes.toFixed(1)} min; 2,000 would take ${Math.round(2_000 / Math.max(perMinute, 0.01))} min`,
      }),
      figure(PART, "application: arrival to screening, p50", "s", [quantile(result.latency, 0.5) / 1000], { database, note: `${result.latency.length} of ${arrivals} screened in the window` }),
      figure(PART, "application: arrival to screening, p95", "s", [quantile(result.latency, 0.95) / 1000], {
        database,
        note: `${result.linked.linked} of ${result.linked.total} linked on arrival (visitors' lookups: 6 a minute); outcomes ${result.outcomes.map((row) => `${row.outcome ?? "none"} ${row.n}`).join(", ")}`,
      }),
    ];
  } finally {
    await site.close();
    await fake.close();
  }
}
