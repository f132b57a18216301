/**
 * Reminders before an event, on a real database: each approved attendee with a linked Discord
 * account gets one DM per reminder time, once however many processes look and however the event is
 * edited; a reminder whose time passed before the approval is skipped, as are withdrawn attendees;
 * an open event's announcement channel gets one post per reminder time.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eventApplicationQuestions, eventApplications, events, outbox, profiles } from "~/db/schema";
import { answerFieldName } from "~/features/applications/answers";
import { listFormQuestions, submitApplication } from "~/features/applications/applications.server";
import { getApplicationStatus, newStatusToken } from "~/features/decisions/decisions.server";
import { readDiscordMarkdown } from "../../tests/fakes/discord";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../tests/setup/test-database";
import { decideApplication, findReview, type DecideServices, type Decider } from "./decide.server";
import { setSiteLanguages } from "~/utils/language.server";
import { sendDueReminders, startsIn, type ReminderServices } from "./event-reminders.server";
import { withdrawApplication } from "./withdraw.server";

const MINUTE = 60_000;
const keeper: Decider = { id: "", username: "keeper", via: "sanctum", role: "admin" };

describe("how far off the start is, in words", () => {
  it.each([
    [60 * MINUTE - 20_000, "in 1 hour"],
    [24 * 60 * MINUTE - 10_000, "in 24 hours"],
    [2 * 24 * 60 * MINUTE, "in 2 days"],
    [30 * MINUTE, "in 30 minutes"],
    [1 * MINUTE, "in 1 minute"],
    [5 * 60 * MINUTE + 20 * MINUTE, "in 5 hours"],
  ])("%d ms reads %s", (ms, words) => {
    expect(startsIn(ms)).toBe(words);
  });
});

describeEachDatabase("reminders before an event", (kind) => {
  let database: TestDatabase;
  let reminders: ReminderServices;
  let decide: DecideServices;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const [profile] = await database.db.insert(profiles).values({ username: "keeper", email: "keeper@dwell.example", role: "admin" }).returning({ id: profiles.id });
    keeper.id = profile!.id;
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(events);
    await database.db.delete(outbox);
    reminders = { db: database.db, leads: [1440, 60], directMessages: true, announce: true, siteOrigin: "https://dwell.example", wake: () => {} };
    decide = { db: database.db, vrchat: { membership: null, membershipActions: false }, discord: null, discordInvite: null, wake: () => {}, siteOrigin: "https://dwell.example" };
  });

  async function makeEvent(startsInMs: number, applicationRequired: boolean, createdAt = new Date(Date.now() - 3 * 24 * 60 * MINUTE)) {
    const start = new Date(Date.now() + startsInMs).toISOString();
    const [row] = await database.db
      .insert(events)
      .values({ title: "Lantern Night", eventDate: start.slice(0, 10), eventTime: start.slice(11, 19), worldName: "Garden", applicationRequired, createdAt })
      .returning();
    await database.db.insert(eventApplicationQuestions).values({ eventId: row!.id, question: "What is your VRChat username?" });
    return row!;
  }

  /** Applies as the form does, is approved by a staff member, and has their Discord account linked. */
  async function attendee(eventId: string, name: string, { approve = true, discord = true, language = "en" } = {}) {
    const questions = await listFormQuestions(database.db, { kind: "event", eventId });
    const status = newStatusToken();
    const result = await submitApplication(database.db, { scope: { kind: "event", eventId }, questions, fields: (field) => (field === answerFieldName(questions[0]!.id) ? name : undefined), now: new Date(), statusTokenHash: status.hash, language });
    if (!result.ok) throw new Error(result.message);
    const id = result.application.id;
    if (approve) await decideApplication(decide, (await findReview(database.db, eventId))!, { id, status: "approved" }, keeper);
    if (discord) await database.db.update(eventApplications).set({ discordUserId: `9000${name.length}${name.charCodeAt(0)}`, discordDisplayName: name }).where(eq(eventApplications.id, id));
    return { id, token: status.token };
  }

  const messages = async () =>
    (await database.db.select({ payload: outbox.payload, target: outbox.target }).from(outbox).where(eq(outbox.target, "discord_dm"))).map(
      (row) => row.payload as { applicationId: string; content: string; nonce: string; private?: boolean },
    );

  it("sends each approved attendee one DM per reminder time, once, skipping what came before their approval", async () => {
    // 59.5 minutes ahead: the hour's reminder is due; the day's time passed long ago.
    const event = await makeEvent(60 * MINUTE - 30_000, true);
    const early = await attendee(event.id, "Early");
    await database.db.update(eventApplications).set({ reviewedAt: new Date(Date.now() - 2 * 24 * 60 * MINUTE) }).where(eq(eventApplications.id, early.id));
    await attendee(event.id, "Late"); // approved just now, after the hour's reminder time
    const gone = await attendee(event.id, "Gone");
    await database.db.update(eventApplications).set({ reviewedAt: new Date(Date.now() - 2 * 24 * 60 * MINUTE) }).where(eq(eventApplications.id, gone.id));
    expect(await withdrawApplication(decide, gone.token, new Date())).toEqual({ kind: "withdrawn" });
    await attendee(event.id, "Waiting", { approve: false });
    await attendee(event.id, "Unlinked", { discord: false });

    // Two processes look at once, then again later: one DM, to the one it is for.
    await Promise.all([sendDueReminders(reminders, new Date()), sendDueReminders(reminders, new Date())]);
    await sendDueReminders(reminders, new Date(Date.now() + 5_000));
    const sent = await messages();
    expect(sent.map((message) => message.applicationId)).toEqual([early.id]);
    expect(sent[0]!.content).toMatch(/^Reminder: Lantern Night starts in 1 hour \(.+\), in Garden\.\nEvent page: https:\/\/dwell\.example\/events\//);
    // It carries the attendee's own status page: a fresh link that opens their application, the first still valid.
    const link = /\/applications\/status\/([A-Za-z0-9_-]{43})/.exec(sent[0]!.content)![1]!;
    expect(link).not.toBe(early.token);
    expect((await getApplicationStatus(database.db, link, new Date()))?.id).toBe(early.id);
    expect((await getApplicationStatus(database.db, early.token, new Date()))?.id).toBe(early.id);
    // Marked private: once sent, the job keeps no text with the link in it (features/discord's channel).
    expect(sent[0]).toMatchObject({ private: true });
    // Its own message id: the approval's DM is not taken for it.
    expect(sent[0]!.nonce).not.toBe(early.id.replaceAll("-", "").slice(0, 25));

    // The event moved an hour later: the hour's reminder was sent; nothing goes twice.
    const later = new Date(Date.now() + 2 * 60 * MINUTE).toISOString();
    await database.db.update(events).set({ eventDate: later.slice(0, 10), eventTime: later.slice(11, 19) }).where(eq(events.id, event.id));
    await sendDueReminders(reminders, new Date(Date.now() + 61 * MINUTE));
    expect(await messages()).toHaveLength(1);
  });

  it("reminds each attendee in the language they applied in; the channel in the site's default", async () => {
    setSiteLanguages(["en", "ja"]);
    try {
      const event = await makeEvent(60 * MINUTE - 30_000, true);
      for (const [name, language] of [["Early", "en"], ["Hayai", "ja"]] as const) {
        const { id } = await attendee(event.id, name, { language });
        await database.db.update(eventApplications).set({ reviewedAt: new Date(Date.now() - 2 * 24 * 60 * MINUTE) }).where(eq(eventApplications.id, id));
      }
      await sendDueReminders(reminders, new Date());
      const sent = await messages();
      const english = sent.find((message) => message.content.startsWith("Reminder:"))!;
      const japanese = sent.find((message) => message.content.startsWith("リマインダー："))!;
      expect(english.content).toContain("Lantern Night starts in 1 hour");
      expect(english.content).toContain("Your application (the join link once the instance opens, or withdraw): https://dwell.example/applications/status/");
      expect(japanese.content).toMatch(/^リマインダー：Lantern Nightは1 時間後に始まります（\d{4}年\d{1,2}月\d{1,2}日\(.\) \d{1,2}:\d{2} UTC）。ワールド「Garden」。\nイベントページ：https:\/\/dwell\.example\/events\//);
      expect(japanese.content).toContain("あなたの申請（インスタンスが開いたら参加リンク、または辞退）：https://dwell.example/applications/status/");
      // A Japanese page of theirs (its decision message too).
      const [row] = await database.db.select({ message: eventApplications.decisionMessage }).from(eventApplications).where(eq(eventApplications.discordDisplayName, "Hayai"));
      expect(row!.message).toContain("Hayaiさん：Lantern Nightへのご参加が確定しました。");
    } finally {
      setSiteLanguages(["en"]);
    }
  });

  it("writes what hosts and world authors wrote so that Discord shows it as text: no masked link, no mention", async () => {
    const event = await makeEvent(60 * MINUTE - 30_000, true);
    await database.db.update(events).set({ title: "Night [claim your prize](https://evil.example) @everyone", worldName: "**Bold** <@&1> World" }).where(eq(events.id, event.id));
    const early = await attendee(event.id, "Early");
    await database.db.update(eventApplications).set({ reviewedAt: new Date(Date.now() - 2 * 24 * 60 * MINUTE) }).where(eq(eventApplications.id, early.id));
    await sendDueReminders(reminders, new Date());
    const [sent] = await messages();
    const shown = readDiscordMarkdown(sent!.content.split("\n")[0]!);
    expect(shown.formatting).toEqual([]);
    expect(shown.shown).toContain("Night [claim your prize](https://evil.example) @everyone starts in 1 hour");
    expect(shown.shown).toContain("in **Bold** <@&1> World.");
  });

  it("posts an open event's reminder in the announcement channel once per reminder time", async () => {
    const event = await makeEvent(24 * 60 * MINUTE - 20_000, false);
    await sendDueReminders(reminders, new Date());
    await sendDueReminders(reminders, new Date());
    const posts = await database.db.select({ payload: outbox.payload }).from(outbox).where(eq(outbox.target, "discord_announcement"));
    expect(posts.map((post) => (post.payload as { content: string }).content)).toEqual([`Reminder: **Lantern Night** starts in 24 hours: https://dwell.example/events/${event.id}`]);
    await sendDueReminders(reminders, new Date(Date.now() + 23 * 60 * MINUTE + 30_000));
    expect(await database.db.select({ id: outbox.id }).from(outbox).where(eq(outbox.target, "discord_announcement"))).toHaveLength(2);
  });

  it("does not remind the channel of an event made after the reminder's time", async () => {
    await makeEvent(10 * MINUTE, false, new Date());
    expect(await sendDueReminders(reminders, new Date())).toEqual({ messages: 0, posts: 0 });
  });

  it("sends nothing when reminders are off", async () => {
    await makeEvent(30 * MINUTE, false);
    expect(await sendDueReminders({ ...reminders, leads: [] }, new Date())).toEqual({ messages: 0, posts: 0 });
  });
});
