/**
 * Part 5: submissions under load. 200 applicants at a time post the group application form as a
 * browser without JavaScript would: 5,000 distinct applicants plus deliberate duplicates (the
 * same VRChat username in other letter case). Afterwards the stored rows are counted in the
 * database: every accepted application must be there, and no duplicate may be.
 */
import { figure, quantile, type Figure } from "./report.ts";
import type { Site } from "./site.ts";

const PART = "5 submissions";

export interface SubmissionOptions {
  applicants: number;
  duplicates: number;
  concurrency: number;
}

interface Job {
  applicant: number;
  duplicate: boolean;
}

/** The form's field names, with each select's first real option (a select needs a valid one). */
async function readForm(url: string): Promise<{ fields: string[]; options: Map<string, string> }> {
  const html = await (await fetch(`${url}/apply`)).text();
  const fields = [...new Set([...html.matchAll(/name="(answer\.[0-9a-f-]{36})"/g)].map((m) => m[1]!))];
  const options = new Map<string, string>();
  for (const match of html.matchAll(/<select[^>]*name="(answer\.[0-9a-f-]{36})"[^>]*>(.*?)<\/select>/gs)) {
    const option = /<option[^>]*value="([^"]+)"/.exec(match[2]!);
    if (option) options.set(match[1]!, option[1]!.replaceAll("&amp;", "&").replaceAll("&#x27;", "'").replaceAll("&quot;", '"'));
  }
  if (fields.length < 2) throw new Error("the group application form has fewer fields than expected");
  return { fields, options };
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

export async function measureSubmissions(site: Site, options: SubmissionOptions): Promise<Figure[]> {
  const { fields, options: selectOptions } = await readForm(site.url);
  const run = `load-${Date.now().toString(36)}`;
  // The group form asks for the VRChat username first and the Discord username second.
  const body = (job: Job) => {
    const name = `${run}-${job.applicant}`;
    return new URLSearchParams(
      fields.map((field, i) => {
        if (i === 0) return [field, job.duplicate ? name.toUpperCase() : name];
        if (i === 1) return [field, job.duplicate ? `${name}-again` : `${name}-discord`];
        return [field, selectOptions.get(field) ?? "Benchmark answer"];
      }),
    );
  };
  const jobs = shuffle([
    ...Array.from({ length: options.applicants }, (_, applicant) => ({ applicant, duplicate: false })),
    ...Array.from({ length: options.duplicates }, (_, i) => ({
      applicant: Math.floor((i * options.applicants) / options.duplicates),
      duplicate: true,
    })),
  ]);

  const accepted = new Map<number, number>();
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      const sent = performance.now();
      const response = await fetch(`${site.url}/apply`, {
        method: "POST",
        body: body(job),
        headers: { Origin: site.url },
        redirect: "manual",
      }).catch(() => null);
      await response?.body?.cancel();
      latencies.push(performance.now() - sent);
      const status = response?.status ?? 0;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status === 200) accepted.set(job.applicant, (accepted.get(job.applicant) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;

  const stored = await site.withDatabase(async (query) => {
    const [row] = await query<{ count: number }>("select count(*)::int as count from applications where vrchat_username ilike $1", [`${run}-%`]);
    return row!.count;
  });
  const acceptedCount = [...accepted.values()].reduce((sum, n) => sum + n, 0);
  const duplicatesAccepted = [...accepted.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0);
  const serverErrors = [...statuses].filter(([status]) => status >= 500 || status === 0).reduce((sum, [, n]) => sum + n, 0);
  const refused = statuses.get(409) ?? 0;
  const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status || "no answer"}: ${n}`).join(", ");
  const database = site.kind;
  const zero = { op: "=" as const, value: 0, text: "0" };

  return [
    figure(PART, "submissions", "", [jobs.length], {
      database,
      note: `${options.applicants} applicants + ${options.duplicates} duplicates, ${options.concurrency} at a time, ${Math.round(jobs.length / seconds)}/s; ${byStatus}`,
    }),
    figure(PART, "lost (accepted but not stored)", "", [Math.max(0, acceptedCount - stored)], {
      database,
      goal: zero,
      note: `${stored} stored of ${options.applicants} applicants`,
    }),
    figure(PART, "5xx or no answer", "", [serverErrors], { database, goal: zero }),
    figure(PART, "duplicates accepted", "", [duplicatesAccepted], {
      database,
      goal: zero,
      note: `${refused} refused with 409`,
    }),
    figure(PART, "latency p50", "ms", [quantile(latencies, 0.5)], { database }),
    figure(PART, "latency p99", "ms", [quantile(latencies, 0.99)], { database, note: `max ${Math.round(Math.max(...latencies))} ms` }),
  ];
}
