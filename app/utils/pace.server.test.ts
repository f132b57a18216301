import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../tests/setup/test-database";
import { takeTurn } from "./pace.server";

describeEachDatabase("a pace kept in the database", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());

  it("gives turns a spacing apart, in order, however many takers ask at once", async () => {
    // A second apart: each taker reads the clock when its turn is given, and on a busy machine
    // those readings lie up to a tenth of a second apart, which the waits then differ by less.
    const waits = await Promise.all(Array.from({ length: 5 }, () => takeTurn(database.db, "test-turns", 1000)));
    const sorted = [...waits].sort((a, b) => a - b);
    expect(sorted[0]).toBeLessThan(250);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]! - sorted[i - 1]!).toBeGreaterThan(750);
    expect(sorted.at(-1)!).toBeGreaterThan(4 * 750);
  });
});
