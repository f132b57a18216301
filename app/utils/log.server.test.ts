import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import { describeEachDatabase, createTestDatabase, type TestDatabase } from "../../tests/setup/test-database";
import { profiles } from "~/db/schema";
import { log, setLogLevel } from "./log.server";

describeEachDatabase("a failed query in the log", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());
  afterEach(() => {
    setLogLevel("info");
    vi.restoreAllMocks();
  });

  /** What the log wrote to stderr while `run` ran. */
  async function written(run: () => Promise<void>): Promise<string> {
    let text = "";
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      text += String(chunk);
      return true;
    });
    await run();
    return text;
  }

  it("names the query and its reason, never the values it carried", async () => {
    const row = { id: crypto.randomUUID(), email: "someone.private@dwell.example", username: "Private Person" };
    await database.db.insert(profiles).values(row);
    const error = await database.db
      .insert(profiles)
      .values({ ...row, id: crypto.randomUUID() })
      .then(() => null, (failure: unknown) => failure);
    expect(String(error)).toContain("someone.private@dwell.example");

    const line = await written(async () => log.error("storing failed", { error }));
    expect(line).toContain("Failed query: insert into");
    expect(line).toContain("params: (not logged)");
    expect(line).toMatch(/duplicate key|unique/i);
    expect(line).not.toContain("someone.private");
    expect(line).not.toContain("Private Person");
  });
});
