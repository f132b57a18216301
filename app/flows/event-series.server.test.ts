/**
 * 'Repeats' on a real database: a weekly series makes its events eight weeks ahead and keeps that far
 * ahead (once each, whatever the looks), each its own event with the series' questions, messages and
 * calendar choice; 'this and the following' moves and changes the later ones and refuses an end that
 * would delete events with applications; 'delete this and the following' ends the series.
 */
import { asc, eq, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { eventApplicationQuestions, eventApplications, eventSeries, events, outbox, profiles, vrchatPublications } from "~/db/schema";
import { listFormQuestions, submitApplication } from "~/features/applications/applications.server";
import { answerFieldName } from "~/features/applications/answers";
import { listDecisionMessages, newStatusToken, saveDecisionMessage } from "~/features/decisions/decisions.server";
import { EventInputSchema } from "~/features/events/event-input";
import { addDays, SERIES_TEXTS } from "~/features/events/event-series";
import { DEFAULT_PUBLICATION_CHOICE } from "~/features/events/vrchat-publication";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../tests/setup/test-database";
import type { DecideServices } from "./decide.server";
import { copyToFollowing, createEventSeries, deleteFollowing, eventPageUrl, keepSeries, saveFollowing } from "./event-series.server";

const SITE = "https://dwell.example";
const DAY = 86_400_000;

describeEachDatabase("repeating events", (kind) => {
  let database: TestDatabase;
  let services: DecideServices;
  let staffId: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const [profile] = await database.db.insert(profiles).values({ username: "keeper", email: "keeper@dwell.example", role: "admin" }).returning({ id: profiles.id });
    staffId = profile!.id;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(events);
    await database.db.delete(eventSeries);
    await database.db.delete(outbox);
    await database.db.delete(vrchatPublications);
    services = { db: database.db, vrchat: { membership: null, membershipActions: false }, discord: null, discordInvite: null, wake: () => {}, siteOrigin: "https://dwell.example", notificationTargets: [] };
  });

  const today = () => new Date().toISOString().slice(0, 10);
  const form = (fields: Record<string, string>) =>
    ({ ...EventInputSchema.parse({ worldName: "Lantern Garden", eventTime: "20:00", ...fields }), worldImageUrl: null, worldCheckedAt: null });

  async function occurrences() {
    return database.db
      .select({ id: events.id, title: events.title, eventDate: events.eventDate, eventTime: events.eventTime, index: events.seriesIndex, maxAttendees: events.maxAttendees })
      .from(events)
      .where(isNotNull(events.seriesId))
      .orderBy(asc(events.seriesIndex));
  }

  async function apply(eventId: string, name: string) {
    const questions = await listFormQuestions(database.db, { kind: "event", eventId });
    const values: Record<string, string> = Object.fromEntries(questions.map((question) => [answerFieldName(question.id), name]));
    const result = await submitApplication(database.db, { scope: { kind: "event", eventId }, questions, fields: (field) => values[field], now: new Date(), statusTokenHash: newStatusToken().hash });
    if (!result.ok) throw new Error(result.message);
    return result.application.id;
  }

  it("makes a weekly series eight weeks ahead, each event its own, and keeps it that far ahead once", async () => {
    const first = addDays(today(), 2);
    const input = form({ title: "Moonlit Reading Circle", eventDate: first, applicationRequired: "on", maxAttendees: "12", applicationDeadline: addDays(first, -1) });
    const created = await createEventSeries(database.db, { siteOrigin: SITE, input, rule: { frequency: "weekly", end: { untilDate: null, occurrenceCount: 12 } }, createdBy: staffId, hostId: staffId, publication: undefined }, new Date());
    expect(created).toEqual({ kind: "saved", made: 8 });
    const made = await occurrences();
    // Today + 2, + 9, … + 51: the eighth (+ 58) is past the eight weeks.
    expect(made.map(({ eventDate, index }) => [index, eventDate])).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((index) => [index, addDays(first, 7 * index)]));
    expect(new Set(made.map(({ title, eventTime, maxAttendees }) => `${title} ${eventTime} ${maxAttendees}`))).toEqual(new Set(["Moonlit Reading Circle 20:00:00 12"]));
    const [third] = await database.db.select().from(events).where(eq(events.id, made[2]!.id));
    // The deadline keeps its distance from the date.
    expect(third!.applicationDeadline?.toISOString().slice(0, 10)).toBe(addDays(made[2]!.eventDate, -1));

    // Questions and messages set on the first, then used for the following events (and what comes later).
    await database.db.insert(eventApplicationQuestions).values([
      { eventId: made[0]!.id, question: "What is your VRChat username?", orderIndex: 0 },
      { eventId: made[0]!.id, question: "Which book are you bringing?", orderIndex: 1 },
    ]);
    await saveDecisionMessage(database.db, { kind: "event", eventId: made[0]!.id }, "approved", "en", "See you by the lanterns, {username}.");
    // An application on the fifth keeps its questions (answers refer to them).
    await apply(made[4]!.id, "Early Bird");
    expect(await copyToFollowing(database.db, made[0]!.id, "questions")).toEqual({ copied: 6, kept: 1 });
    expect(await copyToFollowing(database.db, made[0]!.id, "messages")).toEqual({ copied: 7, kept: 0 });
    const asked = async (eventId: string) => (await listFormQuestions(database.db, { kind: "event", eventId })).map((question) => question.question);
    expect(await asked(made[3]!.id)).toEqual(["What is your VRChat username?", "Which book are you bringing?"]);
    expect(await asked(made[4]!.id)).toEqual([]);

    // A week on, the look makes the next one; looking again (or twice at once) makes nothing more.
    const weekOn = new Date(Date.now() + 7 * DAY);
    const looks = await Promise.all([keepSeries(database.db, eventPageUrl(SITE), weekOn), keepSeries(database.db, eventPageUrl(SITE), weekOn)]);
    expect(looks[0]! + looks[1]!).toBe(1);
    expect(await keepSeries(database.db, eventPageUrl(SITE), weekOn)).toBe(0);
    const later = await occurrences();
    expect(later.at(-1)).toMatchObject({ index: 8, eventDate: addDays(first, 56) });
    expect(await asked(later.at(-1)!.id)).toEqual(["What is your VRChat username?", "Which book are you bringing?"]);
    expect((await listDecisionMessages(database.db, { kind: "event", eventId: later.at(-1)!.id }, "en", "en"))[0]).toMatchObject({ own: true, body: "See you by the lanterns, {username}." });

    // Each event its own applications.
    await apply(made[1]!.id, "Wren");
    const applicationsOf = async (eventId: string) => (await database.db.select().from(eventApplications).where(eq(eventApplications.eventId, eventId))).map((row) => row.id);
    expect(await applicationsOf(made[1]!.id)).toHaveLength(1);
    expect(await applicationsOf(made[2]!.id)).toHaveLength(0);
    expect(await applicationsOf(made[4]!.id)).toHaveLength(1);

    // An event deleted from the series does not come back; the count still ends it at twelve.
    await database.db.delete(events).where(eq(events.id, made[6]!.id));
    const farOn = new Date(Date.now() + 60 * DAY);
    await keepSeries(database.db, eventPageUrl(SITE), farOn);
    const all = await occurrences();
    expect(all.map(({ index }) => index)).toEqual([0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11]);
    expect(await keepSeries(database.db, eventPageUrl(SITE), new Date(Date.now() + 200 * DAY))).toBe(0);
  });

  it("changes this and the following events, moving them to the series' dates from this one", async () => {
    const first = addDays(today(), 1);
    await createEventSeries(database.db, { siteOrigin: SITE, input: form({ title: "Tea at Dusk", eventDate: first }), rule: { frequency: "weekly", end: { untilDate: null, occurrenceCount: 6 } }, createdBy: staffId, hostId: staffId, publication: undefined }, new Date());
    const made = await occurrences();
    expect(made).toHaveLength(6);
    // From the third on: a day later, at 21:00, every two weeks, renamed.
    const moved = addDays(made[2]!.eventDate, 1);
    const saved = await saveFollowing(services, made[2]!.id, form({ title: "Tea at Midnight", eventDate: moved, eventTime: "21:00" }), { frequency: "biweekly", end: { untilDate: null, occurrenceCount: 6 } }, undefined, undefined, new Date());
    expect(saved).toEqual({ kind: "saved" });
    const after = await occurrences();
    expect(after.map(({ index, title, eventDate, eventTime }) => [index, title, eventDate, eventTime.slice(0, 5)])).toEqual([
      [0, "Tea at Dusk", made[0]!.eventDate, "20:00"],
      [1, "Tea at Dusk", made[1]!.eventDate, "20:00"],
      [2, "Tea at Midnight", moved, "21:00"],
      [3, "Tea at Midnight", addDays(moved, 14), "21:00"],
      [4, "Tea at Midnight", addDays(moved, 28), "21:00"],
      [5, "Tea at Midnight", addDays(moved, 42), "21:00"],
    ]);

    // A shorter series would delete the fifth, which has an application: refused, nothing saved.
    await apply(after[4]!.id, "Sparrow");
    const shorter = await saveFollowing(services, after[2]!.id, form({ title: "Tea, shorter", eventDate: moved, eventTime: "21:00" }), { frequency: "biweekly", end: { untilDate: null, occurrenceCount: 4 } }, undefined, undefined, new Date());
    expect(shorter).toEqual({ kind: "refused", field: "repeatUntil", error: SERIES_TEXTS.applicationsBeyondEnd });
    expect((await occurrences()).map(({ title }) => title)).toEqual(after.map(({ title }) => title));

    // 'Never' from the fourth: the series ends there, the sixth (no applications) is deleted... but the fifth has one.
    const ended = await saveFollowing(services, after[3]!.id, form({ title: "Tea at Midnight", eventDate: after[3]!.eventDate, eventTime: "21:00" }), null, undefined, undefined, new Date());
    expect(ended.kind).toBe("refused");
    // 'Delete this and the following' from the fifth: it goes (its application with it), with the sixth.
    expect(await deleteFollowing(database.db, after[4]!.id, new Date())).toBe(true);
    expect((await occurrences()).map(({ index }) => index)).toEqual([0, 1, 2, 3]);
    const [series] = await database.db.select().from(eventSeries);
    expect(series).toMatchObject({ occurrenceCount: 4 });
    expect(await keepSeries(database.db, eventPageUrl(SITE), new Date(Date.now() + 90 * DAY))).toBe(0);
  });

  it("makes an event into a series, and publishes each of its events to VRChat's calendar with its own page", async () => {
    const date = addDays(today(), 3);
    const [single] = await database.db.insert(events).values({ title: "Open Mic", eventDate: date, eventTime: "19:00", worldName: "Stage" }).returning();
    const publication = { choice: DEFAULT_PUBLICATION_CHOICE, pageUrl: eventPageUrl(SITE) };
    const saved = await saveFollowing(services, single!.id, form({ title: "Open Mic", eventDate: date, eventTime: "19:00" }), { frequency: "monthly", end: { untilDate: addDays(date, 200), occurrenceCount: null } }, publication, undefined, new Date());
    expect(saved).toEqual({ kind: "saved" });
    const made = await occurrences();
    expect(made.length).toBeGreaterThanOrEqual(2);
    expect(made.length).toBeLessThanOrEqual(3);
    const published = await database.db.select({ eventId: vrchatPublications.eventId, details: vrchatPublications.details }).from(vrchatPublications);
    expect(published.map(({ eventId }) => eventId).sort()).toEqual(made.map(({ id }) => id).sort());
    const dates = new Map(made.map(({ id, eventDate }) => [id, eventDate]));
    for (const { details, eventId } of published) {
      expect(details).toMatchObject({ title: "Open Mic", description: `${SITE}/events/${eventId}`, startsAt: `${dates.get(eventId!)}T19:00:00.000Z` });
    }
  });

  it("refuses a series whose events would overrun VRChat's hourly calendar allowance, saving nothing", async () => {
    const date = addDays(today(), 2);
    const publication = { choice: DEFAULT_PUBLICATION_CHOICE, pageUrl: eventPageUrl(SITE) };
    // Five entries created in VRChat in the last half hour: five left, and the series would publish eight now.
    const recently = new Date(Date.now() - 30 * 60_000);
    await database.db.insert(vrchatPublications).values(Array.from({ length: 5 }, (_, index) => ({ wanted: false, state: "removed" as const, vrchatEventId: `cal_recent_${index}`, vrchatCreatedAt: recently, details: { title: "x", description: "", startsAt: "", endsAt: "", category: "hangout", accessType: "public" as const, languages: [], platforms: [], notify: false } })));
    const refused = await createEventSeries(database.db, { siteOrigin: SITE, input: form({ title: "Too Many", eventDate: date }), rule: { frequency: "weekly", end: { untilDate: null, occurrenceCount: 30 } }, createdBy: staffId, hostId: staffId, publication }, new Date());
    expect(refused).toMatchObject({ kind: "refused", field: "publishToVRChat" });
    expect(refused).toMatchObject({ error: expect.stringContaining("would publish 8 now and 5 are left this hour") });
    expect(await database.db.select().from(events)).toEqual([]);
    expect(await database.db.select().from(eventSeries)).toEqual([]);
    expect(await database.db.select().from(vrchatPublications)).toHaveLength(5);
    // A monthly one publishes three at most now: it fits.
    const monthly = await createEventSeries(database.db, { siteOrigin: SITE, input: form({ title: "Fits", eventDate: date }), rule: { frequency: "monthly", end: { untilDate: null, occurrenceCount: 30 } }, createdBy: staffId, hostId: staffId, publication }, new Date());
    expect(monthly.kind).toBe("saved");
  });
});
