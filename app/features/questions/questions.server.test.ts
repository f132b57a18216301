import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { applicationQuestions, eventApplicationQuestions, events } from "~/db/schema";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { QuestionInputSchema } from "./question-input";
import {
  addQuestion,
  deleteQuestion,
  listQuestions,
  reorderQuestions,
  StaleOrderError,
  updateQuestion,
  type QuestionScope,
} from "./questions.server";

const input = (question: string, extra: Record<string, unknown> = {}) => QuestionInputSchema.parse({ question, ...extra });

describeEachDatabase("the question editor", (kind) => {
  let database: TestDatabase;
  let eventA: QuestionScope;
  let eventB: QuestionScope;
  const group: QuestionScope = { kind: "group" };

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const rows = await database.db
      .insert(events)
      .values([
        { title: "A", eventDate: "2026-12-01", eventTime: "20:00", worldName: "W", applicationRequired: true },
        { title: "B", eventDate: "2026-12-02", eventTime: "20:00", worldName: "W", applicationRequired: true },
      ])
      .returning({ id: events.id });
    eventA = { kind: "event", eventId: rows[0]!.id };
    eventB = { kind: "event", eventId: rows[1]!.id };
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(eventApplicationQuestions);
    await database.db.delete(applicationQuestions);
  });

  it("adds each new question last, numbering from 0 per scope", async () => {
    const { db } = database;
    await addQuestion(db, eventA, input("First"));
    await addQuestion(db, eventA, input("Second", { questionType: "textarea", required: false }));
    await addQuestion(db, eventB, input("Other event"));
    await addQuestion(db, group, input("Group one"));
    expect((await listQuestions(db, eventA)).map((q) => [q.question, q.orderIndex, q.required])).toEqual([
      ["First", 0, true],
      ["Second", 1, false],
    ]);
    expect((await listQuestions(db, eventB)).map((q) => q.orderIndex)).toEqual([0]);
    expect((await listQuestions(db, group)).map((q) => q.question)).toEqual(["Group one"]);
  });

  it("keeps options for Multiple Choice only, without the empty ones", async () => {
    const { db } = database;
    await addQuestion(db, group, input("Pick", { questionType: "select", options: ["A", "", " B ", ""] }));
    await addQuestion(db, group, input("Say", { questionType: "text", options: ["ignored"] }));
    expect((await listQuestions(db, group)).map((q) => q.options)).toEqual([["A", "B"], null]);
    expect(QuestionInputSchema.safeParse({ question: "Pick", questionType: "select", options: ["", " "] }).success).toBe(false);
    expect(QuestionInputSchema.safeParse({ question: "   " }).success).toBe(false);
  });

  it("saves a new order as 0..n-1 in one go, and refuses one that no longer matches", async () => {
    const { db } = database;
    for (const q of ["a", "b", "c", "d"]) await addQuestion(db, eventA, input(q));
    const ids = (await listQuestions(db, eventA)).map((q) => q.id);
    await reorderQuestions(db, eventA, [ids[3]!, ids[0]!, ids[2]!, ids[1]!]);
    expect((await listQuestions(db, eventA)).map((q) => [q.question, q.orderIndex])).toEqual([
      ["d", 0],
      ["a", 1],
      ["c", 2],
      ["b", 3],
    ]);
    // Missing one, repeating one, or naming another event's question: refused, nothing changed.
    const other = await addQuestion(db, eventB, input("x"));
    for (const bad of [ids.slice(0, 3), [ids[0]!, ids[0]!, ids[1]!, ids[2]!], [ids[0]!, ids[1]!, ids[2]!, other]]) {
      await expect(reorderQuestions(db, eventA, bad)).rejects.toThrow(StaleOrderError);
    }
    expect((await listQuestions(db, eventA)).map((q) => q.question)).toEqual(["d", "a", "c", "b"]);
  });

  it("edits and deletes only within the scope", async () => {
    const { db } = database;
    const id = await addQuestion(db, eventA, input("Mine"));
    expect(await updateQuestion(db, eventB, id, input("Hijacked"))).toBe(false);
    expect(await deleteQuestion(db, group, id)).toBe(false);
    expect(await updateQuestion(db, eventA, id, input("Mine, edited", { questionType: "select", options: ["Yes"] }))).toBe(true);
    expect((await listQuestions(db, eventA))[0]).toMatchObject({ question: "Mine, edited", questionType: "select", options: ["Yes"] });
    expect(await deleteQuestion(db, eventA, "not-an-id")).toBe(false);
    expect(await deleteQuestion(db, eventA, id)).toBe(true);
    expect(await listQuestions(db, eventA)).toEqual([]);
  });
});
