import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { groupSamples } from "~/db/schema";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { bucketOf, listGroupTrend, recordGroupSample } from "./group-trends.server";

describeEachDatabase("the group's counts over time", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(groupSamples);
  });

  const at = (iso: string) => new Date(iso);
  const rowsOf = async (resolution: "minute" | "hour" | "day") =>
    (await database.db.select().from(groupSamples)).filter((row) => row.resolution === resolution).length;

  it("keeps a reading per minute, and per hour and day the last member count and the highest online count", async () => {
    await recordGroupSample(database.db, { memberCount: 100, onlineCount: 9 }, at("2026-11-24T10:05:10Z"));
    await recordGroupSample(database.db, { memberCount: 101, onlineCount: 14 }, at("2026-11-24T10:07:40Z"));
    await recordGroupSample(database.db, { memberCount: 103, onlineCount: 4 }, at("2026-11-24T10:59:00Z"));
    const now = at("2026-11-24T11:00:00Z");
    expect(await listGroupTrend(database.db, "24h", now)).toEqual([
      { at: "2026-11-24T10:05:00.000Z", members: 100, online: 9 },
      { at: "2026-11-24T10:07:00.000Z", members: 101, online: 14 },
      { at: "2026-11-24T10:59:00.000Z", members: 103, online: 4 },
    ]);
    expect(await listGroupTrend(database.db, "30d", now)).toEqual([{ at: "2026-11-24T10:00:00.000Z", members: 103, online: 14 }]);
    expect(await listGroupTrend(database.db, "1y", now)).toEqual([{ at: "2026-11-24T00:00:00.000Z", members: 103, online: 14 }]);
  });

  it("keeps minutes for a day and hours for 90 days, days for good: storage stays bounded", async () => {
    const start = Date.parse("2026-01-01T00:00:00Z");
    // A reading every 10 minutes for 100 days (14,400 refreshes' worth), written as the refresh does.
    for (let i = 0; i < 100 * 144; i += 37) {
      await recordGroupSample(database.db, { memberCount: 500 + i, onlineCount: i % 50 }, new Date(start + i * 10 * 60_000));
    }
    const last = new Date(start + (100 * 144 - 1) * 10 * 60_000);
    await recordGroupSample(database.db, { memberCount: 1, onlineCount: 1 }, last);
    expect(await rowsOf("minute")).toBeLessThanOrEqual(24 * 60 + 1);
    expect(await rowsOf("hour")).toBeLessThanOrEqual(90 * 24 + 1);
    expect(await rowsOf("day")).toBe(100);
    const month = await listGroupTrend(database.db, "30d", last);
    expect(month.length).toBeGreaterThan(100);
    expect(Date.parse(month[0]!.at)).toBeGreaterThanOrEqual(last.getTime() - 31 * 24 * 3600_000);
    expect(await listGroupTrend(database.db, "24h", last)).toEqual(
      expect.arrayContaining([{ at: bucketOf("minute", last).toISOString(), members: 1, online: 1 }]),
    );
  });
});
