import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { applicationQuestions, eventApplicationQuestions, events } from "~/db/schema";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { QuestionInputSchema } from "./question-input";
import {
  addQuestion,
  copyEventQuestions,
  deleteQuestion,
  QuestionRuleError,
  listQuestions,
  reorderQuestions,
  saveQuestionTranslation,
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

  it("keeps a question's words in another language, its own options' labels only, and carries them to a series' copy", async () => {
    const { db } = database;
    await addQuestion(db, eventA, input("Which lantern?", { questionType: "select", options: ["Red", "Blue"], helpText: "Pick one" }));
    const [question] = await listQuestions(db, eventA);
    expect(await saveQuestionTranslation(db, eventA, question!.id, "ja", { question: "どの提灯？", helpText: "", options: { Red: "赤", Blue: "", Gone: "消えた" } })).toBe(true);
    expect((await listQuestions(db, eventA))[0]!.translations).toEqual({ ja: { question: "どの提灯？", options: { Red: "赤" } } });
    // Not this scope's question: nothing is written.
    expect(await saveQuestionTranslation(db, eventB, question!.id, "ja", { question: "x" })).toBe(false);
    expect(await saveQuestionTranslation(db, eventA, "not-an-id", "ja", { question: "x" })).toBe(false);
    await copyEventQuestions(db, eventA.kind === "event" ? eventA.eventId : "", eventB.kind === "event" ? eventB.eventId : "");
    expect((await listQuestions(db, eventB))[0]!.translations).toEqual({ ja: { question: "どの提灯？", options: { Red: "赤" } } });
    // All empty: the translation is gone.
    await saveQuestionTranslation(db, eventA, question!.id, "ja", { question: " ".trim(), options: {} });
    expect((await listQuestions(db, eventA))[0]!.translations).toEqual({});
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

  it("keeps each type's own rules, and refuses rules that contradict themselves, with a message naming what is wrong", async () => {
    const { db } = database;
    await addQuestion(db, group, input("Guests", { questionType: "number", min: "0", max: "3", wholeNumber: true, maxLength: "9", options: ["x"] }));
    await addQuestion(db, group, input("Rules", { questionType: "agreement", statement: "Be kind.", required: false, helpText: "Read them first." }));
    expect((await listQuestions(db, group)).map((q) => [q.settings, q.options, q.required, q.helpText])).toEqual([
      [{ min: 0, max: 3, wholeNumber: true }, null, true, null],
      [{ statement: "Be kind." }, null, true, "Read them first."],
    ]);
    const refused = (extra: Record<string, unknown>) => {
      const parsed = QuestionInputSchema.safeParse({ question: "Q", ...extra });
      return parsed.success ? null : parsed.error.issues[0]!.message;
    };
    expect(refused({ questionType: "checkboxes", options: ["A", "B", "A"] })).toBe('Each option must differ: "A" is there twice');
    expect(refused({ questionType: "checkboxes", options: ["", " "] })).toBe("Add at least one option for a Checkboxes question");
    expect(refused({ questionType: "checkboxes", options: ["A", "B"], minChoices: "3", maxChoices: "2" })).toBe("At least (3) is above at most (2)");
    expect(refused({ questionType: "number", min: "5", max: "1" })).toBe("The minimum (5) is above the maximum (1)");
    expect(refused({ questionType: "number", min: "1e309" })).toBe("Minimum must be a number, like 3 or 2.5");
    expect(refused({ questionType: "date", earliest: "2026-02-30" })).toBe("Earliest date must be a date that exists, like 2026-03-01");
    expect(refused({ questionType: "date", earliest: "2026-03-02", latest: "2026-03-01" })).toBe("The earliest date (2026-03-02) is after the latest (2026-03-01)");
    expect(refused({ questionType: "agreement" })).toBe("Write the statement applicants agree to");
    expect(refused({ questionType: "text", maxLength: "501" })).toBe("Character limit: from 1 to 500 for a Short Text question");
    expect(refused({ questionType: "teleport" })).toBe("Choose a question type from the list");
  });

  it("lets a question depend only on an earlier one and on answers it can have; keeps the order and the deletions from breaking that", async () => {
    const { db } = database;
    const role = await addQuestion(db, eventA, input("Role", { questionType: "select", options: ["Listener", "Performer"] }));
    const act = await addQuestion(db, eventA, input("Act", { showIf: { questionId: role, when: "is", values: ["Performer"] } }));
    const rule = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => (error instanceof QuestionRuleError ? error.message : error));

    expect(await rule(addQuestion(db, eventA, input("Odd", { showIf: { questionId: role, when: "is", values: ["Dancer"] } })))).toBe('"Dancer" is not an answer to "Role".');
    expect(await rule(addQuestion(db, eventA, input("Odd", { showIf: { questionId: act, when: "is", values: ["x"] } })))).toMatch(/^"Act" has no choices to depend on/);
    expect(await rule(addQuestion(db, eventA, input("Odd", { showIf: { questionId: "00000000-0000-4000-8000-000000000000", when: "answered" } })))).toMatch(/no longer on the form/);
    expect(await rule(updateQuestion(db, eventA, act, input("Act", { showIf: { questionId: act, when: "answered" } })))).toBe("A question cannot depend on its own answer.");
    expect(await rule(updateQuestion(db, eventA, role, input("Role", { questionType: "select", options: ["Listener", "Performer"], showIf: { questionId: act, when: "answered" } })))).toBe(
      'A question can only depend on an earlier one: "Act" comes after it.',
    );
    // Another event's question is not on this form.
    const elsewhere = await addQuestion(db, eventB, input("Elsewhere", { questionType: "yes_no" }));
    expect(await rule(addQuestion(db, eventA, input("Odd", { showIf: { questionId: elsewhere, when: "is", values: ["Yes"] } })))).toMatch(/no longer on the form/);
    // The question depended on cannot lose the answer the condition names, go below it, or go.
    expect(await rule(updateQuestion(db, eventA, role, input("Role", { questionType: "select", options: ["Listener"] })))).toBe(
      '"Act" depends on the answer to "Role": "Performer" is not an answer to "Role". Change or remove that condition first.',
    );
    expect(await rule(reorderQuestions(db, eventA, [act, role]))).toMatch(/^"Act" depends on the answer to "Role": A question can only depend on an earlier one/);
    expect(await rule(deleteQuestion(db, eventA, role))).toBe('"Act" depends on the answer to this question: remove that condition first.');
    expect((await listQuestions(db, eventA)).map((q) => [q.question, q.options])).toEqual([
      ["Role", ["Listener", "Performer"]],
      ["Act", null],
    ]);
    // Once the condition is gone, all of that is allowed.
    expect(await updateQuestion(db, eventA, act, input("Act"))).toBe(true);
    await reorderQuestions(db, eventA, [act, role]);
    expect(await deleteQuestion(db, eventA, role)).toBe(true);
  });

  it("copies an event's questions to another with their conditions pointing at the copies", async () => {
    const { db } = database;
    const role = await addQuestion(db, eventA, input("Role", { questionType: "yes_no" }));
    await addQuestion(db, eventA, input("Act", { showIf: { questionId: role, when: "is", values: ["Yes"] } }));
    await db.transaction((tx) => copyEventQuestions(tx, eventA.kind === "event" ? eventA.eventId : "", eventB.kind === "event" ? eventB.eventId : ""));
    const copied = await listQuestions(db, eventB);
    expect(copied.map((q) => q.question)).toEqual(["Role", "Act"]);
    expect(copied[1]!.showIf).toEqual({ questionId: copied[0]!.id, when: "is", values: ["Yes"] });
  });
});
