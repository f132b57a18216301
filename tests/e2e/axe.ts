import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect, type Page } from "@playwright/test";

/** The impacts that fail the suite; minor and moderate findings are left to review. */
const BLOCKING = ["serious", "critical"];

/**
 * axe-core's minified build, given to a page once per document, when a check first asks for it
 * (given to every page a context opens, as an init script, the accessibility file took 296-309 s
 * alone instead of 269 s: most pages it opened were never checked). Through @axe-core/playwright each
 * check sent the whole unminified source (1.5 MB) to the page twice before running it: about 0.6 s
 * of a check that runs in 0.1-0.3 s, and over a second on a busy machine (decision 030).
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * Runs axe-core on the page as it is now (all rules, WCAG 2.2 AA and best practices) and fails
 * with each serious or critical violation spelled out: rule, impact, help text, and the elements.
 */
export async function expectNoSeriousViolations(page: Page, what: string, { contrastMeasured = false }: { contrastMeasured?: boolean } = {}) {
  // Given as an expression through the browser's own protocol, which the page's
  // Content-Security-Policy does not govern (a script tag or an eval in the page would be refused).
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  // `contrastMeasured`: the caller measures the text's contrast as drawn (expectReadableText, over
  // gradients and translucent panels that axe's CSS-based rule can only mark for review), so axe's
  // own, the slowest of its rules, adds nothing there. The site has no frames: the page is the whole.
  const blocking = await page.evaluate(
    async ({ contrastMeasured, blockingImpacts }) => {
      const { axe } = window as unknown as { axe: typeof import("axe-core") };
      // Only violations are read, so only they are described in full.
      const { violations } = await axe.run(document, {
        resultTypes: ["violations"],
        rules: contrastMeasured ? { "color-contrast": { enabled: false } } : {},
      });
      return violations
        .filter((violation) => blockingImpacts.includes(violation.impact ?? ""))
        .map(({ id, impact, help, helpUrl, nodes }) => ({
          id,
          impact: impact ?? "",
          help,
          helpUrl,
          nodes: nodes.map((node) => ({ target: node.target.join(" "), failureSummary: node.failureSummary ?? "" })),
        }));
    },
    { contrastMeasured, blockingImpacts: BLOCKING },
  );
  const report = blocking
    .map((violation) => {
      const nodes = violation.nodes.map((node) => `    ${node.target}\n      ${node.failureSummary.replaceAll("\n", "\n      ")}`).join("\n");
      return `${violation.id} (${violation.impact}): ${violation.help}\n  ${violation.helpUrl}\n${nodes}`;
    })
    .join("\n\n");
  expect(blocking, `axe found serious or critical violations on ${what}:\n\n${report}`).toEqual([]);
}
