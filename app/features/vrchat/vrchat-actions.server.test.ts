import { afterAll, beforeAll, expect, it } from "vitest";
import { takeTurn } from "~/utils/pace.server";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { createPacer } from "./vrchat-actions.server";

describeEachDatabase("the actions' pace, shared through the database", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());

  it("keeps one pace between two pacers that share it, as two processes would", async () => {
    const calls: number[] = [];
    // Half a second apart, so that a timer firing late on a busy machine (a tenth of a second has
    // been seen) does not bring two calls closer than the pace allows by much.
    const pacers = [0, 1].map(() => createPacer(500, Date.now, () => takeTurn(database.db, "two-takers", 500)));
    await Promise.all(Array.from({ length: 8 }, (_, i) => pacers[i % 2]!(async () => calls.push(Date.now()))));
    calls.sort((a, b) => a - b);
    const gaps = calls.slice(1).map((at, i) => at - calls[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(350);
    // Alone, each pacer would have let its four calls go 500 ms apart, side by side with the other's.
    expect(calls.at(-1)! - calls[0]!).toBeGreaterThanOrEqual(7 * 400);
  });
});
