/**
 * Part 6: Lighthouse (its default mobile configuration, simulated throttling) driving Debian's
 * Chromium over the public pages, a few runs each; the median of each category is judged.
 */
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../../tests/setup/chromium.ts";
import { figure, type Figure } from "./report.ts";
import type { Site } from "./site.ts";

const PART = "6 lighthouse";
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;

export interface LighthouseOptions {
  runs: number;
  eventId: string;
}

export interface LighthouseResult {
  figures: Figure[];
  /** Per page and category: the audits that cost points in the last run. */
  losses: Record<string, Record<string, string[]>>;
}

export async function measureLighthouse(site: Site, { runs, eventId }: LighthouseOptions): Promise<LighthouseResult> {
  const pages = [
    ["/", "/"],
    ["/events", "/events"],
    ["/events/{id}", `/events/${eventId}`],
    ["/apply", "/apply"],
  ] as const;
  const scores = new Map<string, number[]>();
  const losses: LighthouseResult["losses"] = {};
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ["--headless=new", ...CHROMIUM_FLAGS],
    // The browser's zone matches the tz cookie below: the first load is not a reload.
    envVars: { ...process.env, TZ: "UTC" },
  });
  try {
    for (let run = 0; run < runs; run++) {
      for (const [label, path] of pages) {
        const result = await lighthouse(`${site.url}${path}`, {
          port: chrome.port,
          output: "json",
          logLevel: "error",
          onlyCategories: [...CATEGORIES],
          extraHeaders: { Cookie: "tz=UTC" },
        });
        if (!result) throw new Error(`Lighthouse gave no result for ${path}`);
        const { categories, audits } = result.lhr;
        losses[label] = {};
        for (const category of CATEGORIES) {
          const score = categories[category]?.score;
          const key = `${label} ${category}`;
          scores.set(key, [...(scores.get(key) ?? []), score === null || score === undefined ? Number.NaN : score * 100]);
          losses[label][category] = (categories[category]?.auditRefs ?? [])
            .filter((ref) => ref.weight > 0 && (audits[ref.id]?.score ?? 1) < 1)
            .map((ref) => `${ref.id} (${Math.round((audits[ref.id]?.score ?? 0) * 100)})`);
        }
      }
    }
  } finally {
    chrome.kill();
  }

  const figures = pages.flatMap(([label]) =>
    CATEGORIES.map((category) => {
      const lost = losses[label]?.[category] ?? [];
      const result = figure(PART, `${label} ${category}`, "", scores.get(`${label} ${category}`) ?? [], {
        goal: { op: ">=", value: 95, text: "≥ 95" },
      });
      // Where a goal is missed, say which audits cost the points.
      if (result.verdict === "MISS" && lost.length) result.note = `losing: ${lost.slice(0, 3).join(", ")}`;
      return result;
    }),
  );
  return { figures, losses };
}
