/**
 * Part 4: the Sanctum at scale. 10,000 applications on one event, inserted in one statement; then
 * an admin (made with the operator's command) times the review page's first page and the full
 * CSV export, over loopback.
 */
import { signIn } from "../../tests/setup/sanctum-client.ts";
import { figure, spread, type Figure } from "./report.ts";
import type { Site } from "./site.ts";

const PART = "4 admin at scale";
export const APPLICATIONS = 10_000;

export interface AdminScaleOptions {
  eventId: string;
  reviewSamples: number;
  exportSamples: number;
}

async function timed(url: string, cookie: string): Promise<{ ms: number; body: string }> {
  const started = performance.now();
  const response = await fetch(url, { headers: { Cookie: cookie } });
  const body = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return { ms, body };
}

export async function measureAdminScale(site: Site, { eventId, reviewSamples, exportSamples }: AdminScaleOptions): Promise<Figure[]> {
  const stored = await site.withDatabase(async (query) => {
    await query(
      `insert into event_applications (event_id, vrchat_username, discord_id, answers, status, submitted_at)
       select $1::uuid, 'scale-applicant-' || g, 'scale-discord-' || g,
              coalesce((select jsonb_agg(jsonb_build_object('questionId', id, 'question', question, 'type', question_type, 'value', 'Answer number ' || g) order by order_index)
                        from event_application_questions where event_id = $1::uuid), '[]'::jsonb),
              (array['pending', 'approved', 'rejected'])[1 + g % 3],
              now() - g * interval '1 minute'
       from generate_series(1, ${APPLICATIONS}) as g`,
      [eventId],
    );
    const [row] = await query<{ count: number }>("select count(*)::int as count from event_applications where event_id = $1::uuid", [eventId]);
    return row!.count;
  });

  const email = `scale-admin-${Date.now()}@dwell.example`;
  const password = "a long benchmark passphrase";
  site.createAdmin(email, password);
  const cookie = await signIn(site.url, email, password);
  const database = site.kind;

  const reviewUrl = `${site.url}/admin/events/${eventId}/applications`;
  for (let i = 0; i < 2; i++) await timed(reviewUrl, cookie);
  const review: number[] = [];
  for (let i = 0; i < reviewSamples; i++) review.push((await timed(reviewUrl, cookie)).ms);

  const exportUrl = `${site.url}/admin/events/${eventId}/applications/export`;
  await timed(exportUrl, cookie);
  const exports: number[] = [];
  let rows = 0;
  for (let i = 0; i < exportSamples; i++) {
    const { ms, body } = await timed(exportUrl, cookie);
    exports.push(ms);
    rows = body.trimEnd().split("\n").length - 1;
  }

  return [
    figure(PART, "applications on the event", "", [stored], { database }),
    figure(PART, "review page, first page", "ms", spread(review), {
      database,
      goal: { op: "<", value: 300, text: "< 300 ms" },
      note: `p50 of ${reviewSamples}`,
    }),
    figure(PART, "CSV export, all applications", "ms", exports, {
      database,
      goal: { op: "<", value: 1000, text: "< 1 s" },
      note: `${rows.toLocaleString("en-US")} rows`,
    }),
  ];
}
