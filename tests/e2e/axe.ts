import { AxeBuilder } from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** The impacts that fail the suite; minor and moderate findings are left to review. */
const BLOCKING = new Set(["serious", "critical"]);

/**
 * Runs axe-core on the page as it is now (all rules, WCAG 2.2 AA and best practices) and fails
 * with each serious or critical violation spelled out: rule, impact, help text, and the elements.
 */
export async function expectNoSeriousViolations(page: Page, what: string, { contrastMeasured = false }: { contrastMeasured?: boolean } = {}) {
  // `contrastMeasured`: the caller measures the text's contrast as drawn (expectReadableText, over
  // gradients and translucent panels that axe's CSS-based rule can only mark for review), so axe's
  // own, the slowest of its rules, adds nothing there.
  // Run in the page itself: the site has no frames, and the default mode opens a second page for
  // every check to merge the frames' results in.
  // Only violations are read, so only they are described in full.
  const builder = new AxeBuilder({ page }).setLegacyMode().options({ resultTypes: ["violations"] });
  const results = await (contrastMeasured ? builder.disableRules(["color-contrast"]) : builder).analyze();
  const blocking = results.violations.filter((violation) => BLOCKING.has(violation.impact ?? ""));
  const report = blocking
    .map((violation) => {
      const nodes = violation.nodes
        .map((node) => `    ${node.target.join(" ")}\n      ${node.failureSummary?.replaceAll("\n", "\n      ") ?? ""}`)
        .join("\n");
      return `${violation.id} (${violation.impact}): ${violation.help}\n  ${violation.helpUrl}\n${nodes}`;
    })
    .join("\n\n");
  expect(blocking, `axe found serious or critical violations on ${what}:\n\n${report}`).toEqual([]);
}
