/**
 * Who came, read from the instance Dwell opened, against the VRChat fake over loopback and a real
 * database: an evening read minute by minute (each minute once, however many look), people coming,
 * leaving and coming back, a person who came without applying, the marks at the end, a staff
 * member's mark kept, an evening VRChat could not be read for, and an instance closed early.
 */
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { applicationAuditLog, eventApplications, eventInstances, events, instanceMinutes, instancePresence, vrchatSessions } from "~/db/schema";
import { markAttendance } from "~/features/applications/attendance.server";
import { listInstanceAttendance } from "~/features/events/instance-attendance.server";
import { createVRChatClient } from "~/features/vrchat/vrchat-client.server";
import { createInstanceOpener } from "~/features/vrchat/vrchat-instances.server";
import { databaseSessionStore } from "~/features/vrchat/vrchat-session.server";
import { FAKE_GROUP_ID, FAKE_SESSION_SECRET, FAKE_USERNAME, FAKE_WORLD_ID, fakeUserId, fakeVRChatAccount, startFakeVRChat, type FakeVRChat } from "../../tests/fakes/vrchat";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../tests/setup/test-database";
import { openEventInstance, type InstanceServices } from "./event-instance.server";
import { markEndedEvents, markFromInstance, readEventInstances, READ_FROM_INSTANCE, type AttendanceServices } from "./event-attendance.server";

const MINUTE = 60 * 1000;
const person = (n: number) => ({ id: fakeUserId(n), displayName: `Guest ${n}` });

describeEachDatabase("who came, read from the event's instance", (kind) => {
  let database: TestDatabase;
  let fake: FakeVRChat;
  let opening: InstanceServices;
  let services: AttendanceServices;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(events);
    await database.db.delete(vrchatSessions);
    fake = await startFakeVRChat();
    fake.group.instances = [];
    const client = createVRChatClient({ ...fakeVRChatAccount(fake), store: databaseSessionStore(database.db, FAKE_USERNAME, FAKE_SESSION_SECRET), baseDelayMs: 5, maxAttempts: 1 });
    const instances = createInstanceOpener({ client, groupId: FAKE_GROUP_ID });
    opening = { db: database.db, instances, announce: false, siteOrigin: "https://dwell.example", wake: () => {}, roles: { db: database.db, roles: null, membership: null, invites: false, wake: () => {} }, directMessages: false };
    services = { db: database.db, people: instances.people, minMinutes: 15 };
  });
  afterEach(() => fake.close());

  /** An hour-long open event that started a minute ago, its instance open, and five approved attendees (accounts 1–5). */
  async function eveningUnderWay() {
    const start = new Date(Math.floor(Date.now() / MINUTE) * MINUTE - MINUTE);
    const end = new Date(start.getTime() + 60 * MINUTE);
    const [event] = await database.db
      .insert(events)
      .values({ title: "Lantern Night", eventDate: start.toISOString().slice(0, 10), eventTime: start.toISOString().slice(11, 16), endDate: end.toISOString().slice(0, 10), endTime: end.toISOString().slice(11, 16), timezone: "UTC", worldName: "Garden", worldId: FAKE_WORLD_ID, instanceLeadMinutes: 15, instanceRegion: "eu", instanceAccess: "public" })
      .returning();
    expect(await openEventInstance(opening, event!.id, new Date(), { manual: true })).toMatchObject({ kind: "opened" });
    const attendees = await database.db
      .insert(eventApplications)
      .values([1, 2, 3, 4, 5].map((n) => ({ eventId: event!.id, vrchatUsername: `Guest ${n}`, status: "approved" as const, vrchatUserId: fakeUserId(n), vrchatLinkedHow: "proven" as const })))
      .returning({ id: eventApplications.id, vrchatUserId: eventApplications.vrchatUserId });
    const instance = fake.group.instances.at(-1)!;
    return { event: event!, start, end, attendees, instance };
  }
  const at = (start: Date, minutes: number) => new Date(start.getTime() + minutes * MINUTE + 5_000);

  it("reads the evening once a minute, and at its end marks who came, who did not, and who came without applying", async () => {
    const { event, start, end, attendees, instance } = await eveningUnderWay();
    for (let minute = 0; minute < 60; minute++) {
      // Guests 1 and 2 all evening; 3 leaves after 5 minutes; 6 never applied; 4 comes back for 12 minutes only.
      instance.users = [person(1), person(2), ...(minute < 5 ? [person(3)] : []), person(6), ...(minute >= 30 && minute < 42 ? [person(4)] : [])];
      if (minute === 35) instance.users = [...instance.users, person(1)]; // listed twice: one person
      const now = at(start, minute);
      // Two processes looking at once read the minute once.
      const reads = await Promise.all([readEventInstances(services, now), readEventInstances(services, now)]);
      expect(reads[0]! + reads[1]!).toBe(1);
    }
    const instanceReads = fake.requests.filter((request) => request.method === "GET" && request.path.startsWith("/instances/"));
    expect(instanceReads).toHaveLength(60);
    const minutes = await database.db.select().from(instanceMinutes).where(eq(instanceMinutes.eventId, event.id));
    expect(minutes).toHaveLength(60);
    expect(Math.max(...minutes.map((row) => row.people!))).toBe(4);
    const seen = Object.fromEntries((await database.db.select().from(instancePresence)).map((row) => [row.displayName, row.minutesSeen]));
    expect(seen).toEqual({ "Guest 1": 60, "Guest 2": 60, "Guest 3": 5, "Guest 4": 12, "Guest 6": 60 });

    // Before the end nothing is marked; a host's mark made meanwhile is kept.
    expect(await markFromInstance(services, event.id, at(start, 59))).toBeNull();
    const five = attendees.find((attendee) => attendee.vrchatUserId === fakeUserId(5))!;
    await markAttendance(database.db, event.id, [five.id], "attended", { id: null as unknown as string, username: "Host" });
    expect(await markEndedEvents(services, new Date(end.getTime() + MINUTE))).toBe(1);
    const marks = Object.fromEntries(
      (await database.db.select({ user: eventApplications.vrchatUserId, attendance: eventApplications.attendance, source: eventApplications.attendanceSource }).from(eventApplications)).map((row) => [row.user, `${row.attendance} (${row.source})`]),
    );
    expect(marks).toEqual({
      [fakeUserId(1)]: "attended (instance)",
      [fakeUserId(2)]: "attended (instance)",
      [fakeUserId(3)]: "no_show (instance)",
      [fakeUserId(4)]: "no_show (instance)",
      [fakeUserId(5)]: "attended (staff)",
    });
    const history = await database.db.select({ actor: applicationAuditLog.actorName, to: applicationAuditLog.toValue }).from(applicationAuditLog).where(eq(applicationAuditLog.field, "attendance"));
    expect(history.filter((entry) => entry.actor === READ_FROM_INSTANCE)).toHaveLength(4);
    // The event's card: the marks, the evening's people, and who came without applying.
    expect((await listInstanceAttendance(database.db, [event.id])).get(event.id)).toEqual({ now: 3, seen: 5, marked: { attended: 3, noShows: 2 }, unreadable: false, withoutApplying: ["Guest 6"] });
    // Once: a later look marks nothing again.
    expect(await markEndedEvents(services, new Date(end.getTime() + 2 * MINUTE))).toBe(0);
  });

  it("marks no one on an evening VRChat could not be read for more than half of, and counts the minutes after an early close as read", async () => {
    const { event, start, end, instance } = await eveningUnderWay();
    instance.users = [person(1)];
    for (let minute = 0; minute < 60; minute++) {
      if (minute === 20) await fake.setMode("down");
      await readEventInstances(services, at(start, minute));
    }
    await fake.setMode("normal");
    const gaps = (await database.db.select().from(instanceMinutes).where(eq(instanceMinutes.eventId, event.id))).filter((row) => row.people === null);
    expect(gaps).toHaveLength(40);
    expect(await markFromInstance(services, event.id, end)).toEqual({ kind: "unreadable", readMinutes: 20, minutes: 60 });
    const [row] = await database.db.select().from(eventInstances).where(eq(eventInstances.eventId, event.id));
    expect(row!.attendanceNote).toBe("unreadable");
    expect((await listInstanceAttendance(database.db, [event.id])).get(event.id)).toMatchObject({ unreadable: true, marked: null });
    expect((await database.db.select({ attendance: eventApplications.attendance }).from(eventApplications)).every((application) => application.attendance === null)).toBe(true);
  });

  it("takes an instance closed early as empty from then on, and stops reading it", async () => {
    const { event, start, end, instance } = await eveningUnderWay();
    instance.users = [person(1), person(2)];
    for (let minute = 0; minute < 20; minute++) await readEventInstances(services, at(start, minute));
    instance.closed = true;
    for (let minute = 20; minute < 60; minute++) await readEventInstances(services, at(start, minute));
    const reads = fake.requests.filter((request) => request.method === "GET" && request.path.startsWith("/instances/"));
    expect(reads).toHaveLength(21);
    expect(await markFromInstance(services, event.id, end)).toEqual({ kind: "marked", attended: 2, noShows: 3, unlinked: 0 });
  });
});
