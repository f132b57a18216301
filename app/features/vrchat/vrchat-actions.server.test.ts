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
    const pacers = [0, 1].map(() => createPacer(150, Date.now, () => takeTurn(database.db, "two-takers", 150)));
    await Promise.all(Array.from({ length: 8 }, (_, i) => pacers[i % 2]!(async () => calls.push(Date.now()))));
    calls.sort((a, b) => a - b);
    const gaps = calls.slice(1).map((at, i) => at - calls[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(120);
    // Alone, each pacer would have let its four calls go 150 ms apart, side by side with the other's.
    expect(calls.at(-1)! - calls[0]!).toBeGreaterThanOrEqual(7 * 120);
  });
});
