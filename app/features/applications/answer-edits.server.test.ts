/**
 * An applicant's edit on a real database: written with one history line while the application
 * waits; a decision taken first (or at the same moment, under the row lock) wins and nothing is
 * written; the same answers again write nothing; a name someone else applied with is refused.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { applicationAuditLog, applications } from "~/db/schema";
import type { StoredAnswer } from "~/utils/form-questions";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../../../tests/setup/test-database";
import { changedAnswers, nextEditAllowedAt, saveAnswerEdit } from "./answer-edits.server";

const Q1 = "00000000-0000-4000-8000-0000000000c1";
const Q2 = "00000000-0000-4000-8000-0000000000c2";
const answersWith = (guests: string): StoredAnswer[] => [
  { questionId: Q1, question: "What is your VRChat username?", type: "vrchat_username", value: "Moth" },
  { questionId: Q2, question: "How many guests?", type: "number", value: guests },
];

describeEachDatabase("an applicant's edit", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.delete(applications);
    await database.db.delete(applicationAuditLog);
  });

  async function applied(name = "Moth") {
    const [row] = await database.db.insert(applications).values({ vrchatUsername: name, discordId: name.toLowerCase(), answers: answersWith("1") }).returning({ id: applications.id });
    return row!.id;
  }
  const edit = (id: string, guests: string, name = "Moth") =>
    saveAnswerEdit(database.db, { kind: "group", id }, { answers: answersWith(guests), vrchatUsername: name, discordId: name.toLowerCase(), link: { kind: "keep" } }, new Date());

  it("writes the new answers with one history line of what changed, and nothing when nothing changed", async () => {
    const id = await applied();
    expect(await edit(id, "2")).toEqual({ kind: "saved", changed: 1 });
    const [row] = await database.db.select({ answers: applications.answers }).from(applications).where(eq(applications.id, id));
    expect(row!.answers[1]!.value).toBe("2");
    expect(await database.db.select({ field: applicationAuditLog.field, from: applicationAuditLog.fromValue, to: applicationAuditLog.toValue, by: applicationAuditLog.actorName }).from(applicationAuditLog)).toEqual([
      { field: "answers", from: "How many guests?: 1", to: "How many guests?: 2", by: "the applicant" },
    ]);
    expect(await edit(id, "2")).toEqual({ kind: "unchanged" });
    expect(await database.db.select().from(applicationAuditLog)).toHaveLength(1);
  });

  it("loses to a decision: taken before, or at the same moment", async () => {
    const id = await applied();
    await database.db.update(applications).set({ status: "approved" }).where(eq(applications.id, id));
    expect(await edit(id, "3")).toEqual({ kind: "decided" });

    // The decision holds the row while the edit arrives: the edit waits, then finds it decided.
    const other = await applied("Wren");
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const deciding = database.db.transaction(async (tx) => {
      await tx.select({ id: applications.id }).from(applications).where(eq(applications.id, other)).for("update");
      await tx.update(applications).set({ status: "rejected" }).where(eq(applications.id, other));
      locked();
      await held;
    });
    // The edit is sent only once the decision holds the row (on PostgreSQL the decision's connection
    // may otherwise begin after the edit has read the row: the edit then came first, and won).
    await lockTaken;
    const editing = edit(other, "3", "Wren");
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    await deciding;
    expect(await editing).toEqual({ kind: "decided" });
    const rows = await database.db.select({ answers: applications.answers }).from(applications).where(eq(applications.id, other));
    expect(rows[0]!.answers[1]!.value).toBe("1");
    expect(await database.db.select().from(applicationAuditLog)).toEqual([]);
  });

  it("takes at most ten edits an hour, each in the history; the eleventh is refused until the first leaves the hour", async () => {
    const id = await applied();
    const start = Date.now();
    const at = (minutes: number) => new Date(start + minutes * 60_000);
    for (let i = 0; i < 10; i++) {
      const outcome = await saveAnswerEdit(database.db, { kind: "group", id }, { answers: answersWith(String(i + 2)), vrchatUsername: "Moth", discordId: "moth", link: { kind: "keep" } }, at(i));
      expect(outcome).toEqual({ kind: "saved", changed: 1 });
    }
    const refused = await saveAnswerEdit(database.db, { kind: "group", id }, { answers: answersWith("99"), vrchatUsername: "Moth", discordId: "moth", link: { kind: "keep" } }, at(30));
    expect(refused).toEqual({ kind: "too-many", allowedAt: at(60) });
    expect(await nextEditAllowedAt(database.db, { kind: "group", id }, at(30))).toEqual(at(60));
    expect(await database.db.select().from(applicationAuditLog)).toHaveLength(10);
    const [row] = await database.db.select({ answers: applications.answers }).from(applications).where(eq(applications.id, id));
    expect(row!.answers[1]!.value).toBe("11");
    // An hour after the first, one more may be made.
    expect(await nextEditAllowedAt(database.db, { kind: "group", id }, at(60.1))).toBeNull();
    expect(await saveAnswerEdit(database.db, { kind: "group", id }, { answers: answersWith("99"), vrchatUsername: "Moth", discordId: "moth", link: { kind: "keep" } }, at(60.1))).toEqual({ kind: "saved", changed: 1 });
  });

  it("refuses a name another applicant already applied with", async () => {
    await applied("Lark");
    const id = await applied("Moth");
    expect(await edit(id, "2", "lark")).toEqual({ kind: "duplicate" });
  });

  it("says what changed, an answer no longer asked included", () => {
    const before = answersWith("1");
    const after: StoredAnswer[] = [before[0]!];
    expect(changedAnswers(before, after)).toEqual({ count: 1, before: "How many guests?: 1", after: "How many guests?: (not asked)" });
  });
});
