import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { applicationQuestions, applications, eventApplicationQuestions, eventApplications, events, outbox } from "~/db/schema";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { answerFieldName, type FormQuestion } from "./answers";
import { DUPLICATE_MESSAGE, listFormQuestions, submitApplication, type ApplicationScope } from "./applications.server";

const NOW = new Date("2026-11-21T18:00:00Z");

describeEachDatabase("submitting applications", (kind) => {
  let database: TestDatabase;
  let eventId: string;
  let groupQuestions: FormQuestion[];
  let eventQuestions: FormQuestion[];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const { db } = database;
    const [event] = await db
      .insert(events)
      .values({ title: "Masquerade", eventDate: "2026-12-01", eventTime: "20:00", worldName: "Hall", applicationRequired: true })
      .returning({ id: events.id });
    eventId = event!.id;
    await db.insert(applicationQuestions).values([
      { question: "What is your VRChat username?", orderIndex: 0 },
      { question: "What is your Discord username?", orderIndex: 1 },
      { question: "Tell us about yourself", questionType: "textarea", orderIndex: 2 },
      { question: "How did you find us?", questionType: "select", options: ["Friend", "Event"], required: false, orderIndex: 3 },
    ]);
    // Inserted out of order: the form follows order_index.
    await db.insert(eventApplicationQuestions).values([
      { eventId, question: "Why this event?", questionType: "textarea", orderIndex: 1 },
      { eventId, question: "VRChat username", orderIndex: 0 },
    ]);
    groupQuestions = await listFormQuestions(db, { kind: "group" });
    eventQuestions = await listFormQuestions(db, { kind: "event", eventId });
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(applications);
    await database.db.delete(eventApplications);
    await database.db.delete(outbox);
  });

  const group: ApplicationScope = { kind: "group" };
  function groupFields(username: string, discord: string, extra: Record<string, unknown> = {}) {
    const values: Record<string, unknown> = {
      [answerFieldName(groupQuestions[0]!.id)]: username,
      [answerFieldName(groupQuestions[1]!.id)]: discord,
      [answerFieldName(groupQuestions[2]!.id)]: "I like quiet worlds.",
      ...extra,
    };
    return (name: string) => values[name];
  }

  it("lists questions in order with options only for select", () => {
    expect(groupQuestions.map((q) => q.question)).toEqual([
      "What is your VRChat username?",
      "What is your Discord username?",
      "Tell us about yourself",
      "How did you find us?",
    ]);
    expect(groupQuestions.map((q) => q.options)).toEqual([null, null, null, ["Friend", "Event"]]);
    expect(eventQuestions.map((q) => q.question)).toEqual(["VRChat username", "Why this event?"]);
  });

  it("stores a group application with its identity, responses and notification jobs in one go", async () => {
    const { db } = database;
    const result = await submitApplication(db, {
      scope: group,
      questions: groupQuestions,
      fields: groupFields(" Moth ", "moth#1"),
      now: NOW,
      onStored: async (tx, stored) => {
        await tx.insert(outbox).values({ target: "discord", payload: { id: stored.id }, sourceId: stored.id });
      },
    });
    expect(result.ok).toBe(true);
    const [row] = await db.select().from(applications);
    expect(row).toMatchObject({
      vrchatUsername: "Moth",
      discordId: "moth#1",
      status: "pending",
    });
    expect(row!.answers.map((answer) => [answer.questionId, answer.question, answer.value])).toEqual(
      groupQuestions.map((question) => [
        question.id,
        question.question,
        { "What is your VRChat username?": "Moth", "What is your Discord username?": "moth#1", "Tell us about yourself": "I like quiet worlds.", "How did you find us?": "" }[question.question],
      ]),
    );
    expect(row!.submittedAt).toEqual(NOW);
    expect(await db.select({ sourceId: outbox.sourceId }).from(outbox)).toEqual([{ sourceId: row!.id }]);
  });

  it("writes nothing when the notification jobs cannot be written", async () => {
    const { db } = database;
    await expect(
      submitApplication(db, {
        scope: group,
        questions: groupQuestions,
        fields: groupFields("Moth", "moth"),
        now: NOW,
        onStored: async () => {
          throw new Error("outbox unavailable");
        },
      }),
    ).rejects.toThrow("outbox unavailable");
    expect(await db.select().from(applications)).toEqual([]);
  });

  it("refuses a second application from the same person, by username or by Discord", async () => {
    const { db } = database;
    const submit = (username: string, discord: string) =>
      submitApplication(db, { scope: group, questions: groupQuestions, fields: groupFields(username, discord), now: NOW });
    expect((await submit("Moth", "moth#1")).ok).toBe(true);
    expect(await submit("MOTH", "someone-else")).toEqual({ ok: false, status: 409, message: DUPLICATE_MESSAGE.group() });
    expect(await submit("someone-else", "Moth#1")).toEqual({ ok: false, status: 409, message: DUPLICATE_MESSAGE.group() });
  });

  it("refuses a repeat before a lookup elsewhere (vet), by either claim, but not one an admin marked as spam", async () => {
    const { db } = database;
    const looked: string[] = [];
    const submit = (username: string, discord: string) =>
      submitApplication(db, {
        scope: group,
        questions: groupQuestions,
        fields: groupFields(username, discord),
        now: NOW,
        vet: async () => {
          looked.push(username);
          return null;
        },
      });
    expect((await submit("Moth", "moth#1")).ok).toBe(true);
    expect(await submit("  mOTH ", "someone-else")).toEqual({ ok: false, status: 409, message: DUPLICATE_MESSAGE.group() });
    expect(await submit("someone-else", " MOTH#1")).toEqual({ ok: false, status: 409, message: DUPLICATE_MESSAGE.group() });
    expect(looked).toEqual(["Moth"]);
    await db.update(applications).set({ spamAt: NOW });
    expect((await submit("moth", "moth#1")).ok).toBe(true);
    expect(looked).toEqual(["Moth", "moth"]);
    // An event's applications are apart: the same name applies to the event.
    const scope: ApplicationScope = { kind: "event", eventId };
    const eventFields = (name: string) => ({ [answerFieldName(eventQuestions[0]!.id)]: "Moth", [answerFieldName(eventQuestions[1]!.id)]: "To dance" })[name];
    const vet = async () => null;
    expect((await submitApplication(db, { scope, questions: eventQuestions, fields: eventFields, now: NOW, vet })).ok).toBe(true);
    expect((await submitApplication(db, { scope, questions: eventQuestions, fields: eventFields, now: NOW, vet })).ok).toBe(false);
  });

  it("scopes event duplicates to the event and stores an empty Discord ID without colliding", async () => {
    const { db } = database;
    const scope: ApplicationScope = { kind: "event", eventId };
    const fields = (username: string) => (name: string) =>
      ({ [answerFieldName(eventQuestions[0]!.id)]: username, [answerFieldName(eventQuestions[1]!.id)]: "To dance" })[name];
    expect((await submitApplication(db, { scope, questions: eventQuestions, fields: fields("Moth"), now: NOW })).ok).toBe(true);
    expect((await submitApplication(db, { scope, questions: eventQuestions, fields: fields("Lark"), now: NOW })).ok).toBe(true);
    expect(await submitApplication(db, { scope, questions: eventQuestions, fields: fields("moth"), now: NOW })).toEqual({
      ok: false,
      status: 409,
      message: DUPLICATE_MESSAGE.event(),
    });
    const rows = await db.select().from(eventApplications).where(eq(eventApplications.eventId, eventId));
    expect(rows.map((row) => row.discordId)).toEqual(["", ""]);
  });

  it("lets exactly one of many simultaneous submissions by one person through", async () => {
    const { db } = database;
    const results = await Promise.all(
      Array.from({ length: 25 }, () =>
        submitApplication(db, { scope: group, questions: groupQuestions, fields: groupFields("Twin", "twin"), now: NOW }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.status === 409)).toHaveLength(24);
    expect((await db.select({ n: count() }).from(applications))[0]!.n).toBe(1);
  });

  it("keeps the language the applicant applied in, and none when it is not known", async () => {
    const { db } = database;
    await submitApplication(db, { scope: group, questions: groupQuestions, fields: groupFields("Tsuki", "tsuki#1"), now: NOW, language: "ja" });
    await submitApplication(db, { scope: group, questions: groupQuestions, fields: groupFields("Moth", "moth#1"), now: NOW });
    const rows = await db.select({ name: applications.vrchatUsername, language: applications.language }).from(applications).orderBy(applications.vrchatUsername);
    expect(rows).toEqual([
      { name: "Moth", language: null },
      { name: "Tsuki", language: "ja" },
    ]);
  });

  it("stores every one of many simultaneous submissions by different people", async () => {
    const { db } = database;
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        submitApplication(db, { scope: group, questions: groupQuestions, fields: groupFields(`Dweller ${i}`, `d${i}`), now: NOW }),
      ),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    expect((await db.select({ n: count() }).from(applications))[0]!.n).toBe(40);
  });

  it.each([
    ["a missing required answer", { [2]: "" }],
    ["a huge answer", { [0]: "x".repeat(100_000) }],
    ["an option that does not exist", { [3]: "<script>alert(1)</script>" }],
    ["a non-text answer", { [1]: { toString: () => "object" } }],
  ])("stores nothing for %s", async (_name, overrides) => {
    const { db } = database;
    const extra = Object.fromEntries(
      Object.entries(overrides).map(([index, value]) => [answerFieldName(groupQuestions[Number(index)]!.id), value]),
    );
    const result = await submitApplication(db, {
      scope: group,
      questions: groupQuestions,
      fields: groupFields("Someone", "someone", extra),
      now: NOW,
    });
    expect(result).toMatchObject({ ok: false, status: 400 });
    expect(await db.select().from(applications)).toEqual([]);
  });
});
