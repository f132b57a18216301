import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { eventApplications, events, jobRuns, profiles } from "~/db/schema";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { createEventSync, IMPORTED_WORLD_NAME, importEventByAdmin, importPlatformEvents } from "./event-sync.server";
import type { GroupDataResponse, PlatformEvent } from "./group-data";
import { createDemoGroupData, type GroupDataService } from "./group-data.server";

const NOW = new Date("2026-11-21T18:00:00.000Z");
const DAY = 24 * 60 * 60 * 1000;

function platformEvent(id: string, startsAt: string, overrides: Partial<PlatformEvent> = {}): PlatformEvent {
  return {
    id,
    title: `Event ${id}`,
    description: "From VRChat",
    imageUrl: null,
    startsAt,
    endsAt: Number.isNaN(Date.parse(startsAt)) ? null : new Date(Date.parse(startsAt) + 2 * 60 * 60 * 1000).toISOString(),
    location: null,
    attendeeCount: 3,
    ...overrides,
  };
}

const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs).toISOString();

/** A group data service serving a fixed calendar, as the cache would. */
function calendarSource(calendar: PlatformEvent[]): GroupDataService & { reads: number; membersOnlyEvents: PlatformEvent[] } {
  const source = {
    reads: 0,
    source: "vrchat" as const,
    async get() {
      source.reads++;
      const data: GroupDataResponse = {
        group: { memberCount: 1, onlineMemberCount: 0 },
        instances: [],
        posts: [],
        members: [],
        events: calendar,
        source: "vrchat",
        fetchedAt: new Date().toISOString(),
        stale: false,
      };
      return { status: "ready" as const, data };
    },
    peek() {
      return source.get();
    },
    status: async () => ({ source: "vrchat" as const, fetchedAt: null, lastError: null, lastErrorAt: null, refreshes: 0, parts: null }),
    membersOnly: async () => ({ events: source.membersOnlyEvents, posts: [] }),
    membersOnlyEvents: [] as PlatformEvent[],
    settle: async () => {},
  };
  return source;
}

describeEachDatabase("event sync", (kind) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    await database.db.delete(events);
    await database.db.delete(jobRuns);
    await database.db.delete(profiles);
  });

  const imported = () =>
    database.db
      .select({
        vrchatEventId: events.vrchatEventId,
        title: events.title,
        eventDate: events.eventDate,
        eventTime: events.eventTime,
        timezone: events.timezone,
        worldName: events.worldName,
      })
      .from(events)
      .orderBy(events.eventDate, events.eventTime);

  it("imports events that have not ended, and those that ended in the last 30 days", async () => {
    const calendar = [
      platformEvent("cal_upcoming", at(3 * DAY)),
      platformEvent("cal_live", at(-1 * 60 * 60 * 1000)),
      platformEvent("cal_recent", at(-20 * DAY)),
      platformEvent("cal_old", at(-40 * DAY)),
    ];
    const result = await importPlatformEvents(database.db, calendar, NOW);
    expect(result).toEqual({ added: 3, updated: 0, skipped: 0, errors: [] });
    expect((await imported()).map((row) => row.vrchatEventId)).toEqual(["cal_recent", "cal_live", "cal_upcoming"]);
  });

  it("is idempotent: a second run skips what it imported", async () => {
    const calendar = [platformEvent("cal_a", at(DAY)), platformEvent("cal_b", at(2 * DAY))];
    await importPlatformEvents(database.db, calendar, NOW);
    const again = await importPlatformEvents(database.db, calendar, NOW);
    expect(again).toEqual({ added: 0, updated: 0, skipped: 2, errors: [] });
    expect(await imported()).toHaveLength(2);
  });

  it("updates an event changed on VRChat, and keeps an admin's edits otherwise", async () => {
    await importPlatformEvents(database.db, [platformEvent("cal_a", at(DAY)), platformEvent("cal_b", at(2 * DAY))], NOW);
    await database.db.update(events).set({ worldName: "The Black Cat" }).where(eq(events.vrchatEventId, "cal_a"));

    const moved = platformEvent("cal_a", at(DAY + 60 * 60 * 1000), { title: "Moved an hour later" });
    const result = await importPlatformEvents(database.db, [moved, platformEvent("cal_b", at(2 * DAY))], NOW);
    expect(result).toEqual({ added: 0, updated: 1, skipped: 1, errors: [] });
    const [row] = await database.db.select().from(events).where(eq(events.vrchatEventId, "cal_a"));
    expect(row).toMatchObject({ title: "Moved an hour later", eventTime: "19:00:00", worldName: "The Black Cat" });
  });

  it("stores VRChat's instant as its UTC date and time, whatever offset it was written with", async () => {
    const calendar = [
      // 8:30 PM in Los Angeles on 30 November is 04:30 UTC on 1 December.
      platformEvent("cal_la", "2026-11-30T20:30:00-08:00"),
      platformEvent("cal_utc", "2026-12-24T23:59:59.000Z"),
      platformEvent("cal_tokyo", "2026-12-01T09:15:00+09:00"),
    ];
    await importPlatformEvents(database.db, calendar, NOW);
    const rows = await imported();
    expect(rows).toEqual([
      { vrchatEventId: "cal_tokyo", title: "Event cal_tokyo", eventDate: "2026-12-01", eventTime: "00:15:00", timezone: "UTC", worldName: IMPORTED_WORLD_NAME },
      { vrchatEventId: "cal_la", title: "Event cal_la", eventDate: "2026-12-01", eventTime: "04:30:00", timezone: "UTC", worldName: IMPORTED_WORLD_NAME },
      { vrchatEventId: "cal_utc", title: "Event cal_utc", eventDate: "2026-12-24", eventTime: "23:59:59", timezone: "UTC", worldName: IMPORTED_WORLD_NAME },
    ]);
  });

  it("keeps VRChat's end, in UTC; an end it cannot use leaves the two-hour default", async () => {
    const calendar = [
      platformEvent("cal_long", "2026-11-30T22:00:00Z", { endsAt: "2026-12-01T02:30:00+01:00" }),
      platformEvent("cal_backwards", "2026-11-30T22:00:00Z", { endsAt: "2026-11-30T21:00:00Z" }),
      platformEvent("cal_endless", "2026-11-30T22:00:00Z", { endsAt: "2027-03-01T00:00:00Z" }),
    ];
    await importPlatformEvents(database.db, calendar, NOW);
    const rows = await database.db.select({ id: events.vrchatEventId, endDate: events.endDate, endTime: events.endTime }).from(events).orderBy(events.vrchatEventId);
    expect(rows).toEqual([
      { id: "cal_backwards", endDate: null, endTime: null },
      { id: "cal_endless", endDate: null, endTime: null },
      { id: "cal_long", endDate: "2026-12-01", endTime: "01:30:00" },
    ]);
  });

  it("reports the events it cannot read, and imports the rest", async () => {
    const result = await importPlatformEvents(
      database.db,
      [platformEvent("cal_bad", "next tuesday", { title: "Mystery night" }), platformEvent("cal_good", at(DAY))],
      NOW,
    );
    expect(result.added).toBe(1);
    expect(result.errors).toEqual(['"Mystery night": its start time (next tuesday) could not be read']);
  });

  it("never duplicates an event when two syncs run at once", async () => {
    const calendar = Array.from({ length: 10 }, (_, index) => platformEvent(`cal_${index}`, at((index + 1) * DAY)));
    const [a, b] = await Promise.all([
      importPlatformEvents(database.db, calendar, NOW),
      importPlatformEvents(database.db, calendar, NOW),
    ]);
    expect(a.added + b.added).toBe(10);
    expect(a.skipped + b.skipped).toBe(10);
    expect(await imported()).toHaveLength(10);
  });

  it("runs at most once per interval for visits and the schedule; admins may ask sooner", async () => {
    const source = calendarSource([platformEvent("cal_a", at(DAY))]);
    const sync = createEventSync({ db: database.db, groupData: source, minIntervalMs: 60_000, adminIntervalMs: 100 });
    const first = await sync.run("visit");
    expect(first).toEqual({ ran: true, result: { added: 1, updated: 0, skipped: 0, removed: 0, errors: [] } });

    const burst = await Promise.all(Array.from({ length: 10 }, () => sync.run("visit")));
    expect(burst.every((outcome) => !outcome.ran && outcome.reason === "too-soon")).toBe(true);
    expect(source.reads).toBe(1);

    await new Promise((resolve) => setTimeout(resolve, 150));
    const admin = await sync.run("admin");
    expect(admin).toEqual({ ran: true, result: { added: 0, updated: 0, skipped: 1, removed: 0, errors: [] } });
    const [run] = await database.db.select().from(jobRuns);
    expect(run?.result).toEqual({ added: 0, updated: 0, skipped: 1, removed: 0, errors: [] });
  });

  it("takes an event it imported off the public events once it is members-only, unless people applied to it", async () => {
    const calendar = [platformEvent("cal_a", at(DAY)), platformEvent("cal_b", at(2 * DAY)), platformEvent("cal_c", at(3 * DAY))];
    const source = calendarSource(calendar);
    const sync = createEventSync({ db: database.db, groupData: source, minIntervalMs: 0, adminIntervalMs: 0 });
    await sync.run("admin");
    const [b] = await database.db.select({ id: events.id }).from(events).where(eq(events.vrchatEventId, "cal_b"));
    await database.db.insert(eventApplications).values({ eventId: b!.id, vrchatUsername: "Wren" });

    // On VRChat, a and b are now for the group's members only: the visitors' calendar lacks them.
    source.membersOnlyEvents = [calendar[0]!, calendar[1]!];
    calendar.splice(0, 2);
    const outcome = await sync.run("admin");
    expect(outcome).toMatchObject({ ran: true, result: { removed: 1, errors: [expect.stringMatching(/^1 imported event\(s\) became members-only/)] } });
    // No title in a result the public endpoint also answers.
    expect(JSON.stringify(outcome)).not.toContain("Event cal_b");
    const rows = await database.db.select({ id: events.vrchatEventId, how: events.vrchatImport }).from(events).orderBy(events.vrchatEventId);
    expect(rows).toEqual([
      { id: "cal_b", how: "admin" },
      { id: "cal_c", how: "sync" },
    ]);
  });

  it("imports a members-only event when an admin asks, and the sync leaves it there", async () => {
    const membersOnly = platformEvent("cal_m", at(DAY), { title: "Members' circle" });
    const admin = await database.db.insert(profiles).values({ username: "Keeper", email: "keeper@dwell.example", role: "admin" }).returning({ id: profiles.id });
    expect(await importEventByAdmin(database.db, [membersOnly], "cal_unknown", admin[0]!.id)).toBeNull();
    const done = await importEventByAdmin(database.db, [membersOnly], "cal_m", admin[0]!.id);
    expect(done).toMatchObject({ created: true });
    expect(await importEventByAdmin(database.db, [membersOnly], "cal_m", admin[0]!.id)).toEqual({ id: done!.id, created: false });

    const source = calendarSource([]);
    source.membersOnlyEvents = [membersOnly];
    await createEventSync({ db: database.db, groupData: source, minIntervalMs: 0 }).run("admin");
    const [row] = await database.db.select().from(events).where(eq(events.vrchatEventId, "cal_m"));
    expect(row).toMatchObject({ title: "Members' circle", vrchatImport: "admin", createdBy: admin[0]!.id });
  });

  it("does nothing without VRChat: the demo calendar is never imported", async () => {
    const sync = createEventSync({ db: database.db, groupData: createDemoGroupData(), minIntervalMs: 0 });
    expect(await sync.run("admin")).toMatchObject({ ran: false, reason: "not-configured" });
    expect(await imported()).toEqual([]);
  });
});
