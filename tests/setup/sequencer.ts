import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The files that run longest, longest first: most of their time is spent waiting on the clock (an
 * event night lived in real minutes, a second's pace between VRChat calls, an authenticator's next
 * 30-second code) or on a process of their own (a second build of the site, servers started from
 * nothing). Left to Vitest's order (the unit files first, then the integration files by size) the
 * longest started last and the suite waited on them at the end, the two cores half idle; started
 * first, they wait beside everything else. In the order of their times in a whole `npm test` on two
 * cores (decision 030); a file not listed comes after them.
 */
const LONGEST_FIRST = [
  "tests/integration/event-night-http.test.ts",
  "tests/integration/secrets.test.ts",
  "tests/integration/server-process.test.ts",
  "tests/integration/decisions-loop.test.ts",
  "tests/integration/spam-defence.test.ts",
  "tests/integration/event-instance-http.test.ts",
  "tests/integration/backup.test.ts",
  "tests/integration/faults.test.ts",
  "tests/integration/two-factor.test.ts",
  "tests/integration/vrchat-http.test.ts",
  "tests/integration/discord-review.test.ts",
  "tests/integration/admin-authz.test.ts",
  "tests/integration/public-origin.test.ts",
  "tests/integration/insight-http.test.ts",
];

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const index = LONGEST_FIRST.findIndex((path) => spec.moduleId.endsWith(path));
      return index < 0 ? LONGEST_FIRST.length : index;
    };
    return sorted
      .map((spec, order) => ({ spec, order }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.order - b.order)
      .map(({ spec }) => spec);
  }
}
