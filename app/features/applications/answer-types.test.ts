/** Every question type's rules, and questions that follow the answers, as the server checks them. */
import { describe, expect, it } from "vitest";
import { answerFieldName, applicantIdentity, checkAnswers, storedAnswers, type FormQuestion } from "./answers";

const q = (id: string, questionType: FormQuestion["questionType"], extra: Partial<FormQuestion> = {}): FormQuestion => ({
  id,
  question: `Question ${id}`,
  questionType,
  options: null,
  required: true,
  ...extra,
});

const check = (questions: FormQuestion[], answers: Record<string, unknown>) =>
  checkAnswers(questions, (name) => Object.entries(answers).find(([id]) => answerFieldName(id) === name)?.[1]);

const refusal = (questions: FormQuestion[], answers: Record<string, unknown>) => {
  const result = check(questions, answers);
  return result.ok ? null : result.message;
};

describe("each question type", () => {
  it("Checkboxes: among the options, not twice, within at least and at most; kept in the options' order", () => {
    const box = q("c", "checkboxes", { options: ["Red", "Green", "Blue", "Gold"], settings: { minChoices: 2, maxChoices: 3 } });
    expect(check([box], { c: ["Blue", "Red"] })).toEqual({ ok: true, answers: { c: ["Red", "Blue"] } });
    expect(refusal([box], { c: "Red" })).toBe('Please choose at least 2 for "Question c".');
    expect(refusal([box], { c: ["Red", "Green", "Blue", "Gold"] })).toBe('Please choose at most 3 for "Question c".');
    expect(refusal([box], { c: Array.from({ length: 40 }, () => "Red") })).toBe('Please choose among the options for "Question c".');
    expect(refusal([box], { c: ["Red", "Purple"] })).toBe('Please choose among the options for "Question c".');
    expect(refusal([box], {})).toBe("Please answer: Question c");
    expect(check([{ ...box, required: false }], {})).toEqual({ ok: true, answers: { c: [] } });
  });

  it("Yes / No: only Yes or No", () => {
    expect(check([q("y", "yes_no")], { y: "Yes" })).toEqual({ ok: true, answers: { y: "Yes" } });
    expect(refusal([q("y", "yes_no")], { y: "Maybe" })).toBe('Please answer "Question y" with Yes or No.');
  });

  it("Number: a plain number within its bounds, whole when asked; never an exponent or infinity", () => {
    const number = q("n", "number", { settings: { min: 1, max: 10, wholeNumber: true } });
    expect(check([number], { n: " 7 " })).toEqual({ ok: true, answers: { n: "7" } });
    expect(check([q("d", "number")], { d: "2,5" })).toEqual({ ok: true, answers: { d: "2.5" } });
    expect(refusal([number], { n: "1e309" })).toBe('Your answer to "Question n" must be a number, like 3 or 2.5.');
    expect(refusal([number], { n: "Infinity" })).toBe('Your answer to "Question n" must be a number, like 3 or 2.5.');
    expect(refusal([number], { n: "2.5" })).toBe('Your answer to "Question n" must be a whole number.');
    expect(refusal([number], { n: "0" })).toBe('Your answer to "Question n" must be at least 1.');
    expect(refusal([number], { n: "11" })).toBe('Your answer to "Question n" must be at most 10.');
  });

  it("Date: a day that exists, within its earliest and latest", () => {
    const date = q("d", "date", { settings: { earliest: "2026-01-01", latest: "2026-12-31" } });
    expect(check([date], { d: "2026-02-28" })).toEqual({ ok: true, answers: { d: "2026-02-28" } });
    expect(refusal([date], { d: "2026-02-30" })).toBe('Your answer to "Question d" must be a date that exists, like 2026-03-01.');
    expect(refusal([date], { d: "28/02/2026" })).toBe('Your answer to "Question d" must be a date that exists, like 2026-03-01.');
    expect(refusal([date], { d: "2025-12-31" })).toBe('Your answer to "Question d" must be on Jan 1, 2026 or later.');
    expect(refusal([date], { d: "2027-01-01" })).toBe('Your answer to "Question d" must be on Dec 31, 2026 or earlier.');
  });

  it("Agreement: ticked, and kept with the statement as it read", () => {
    const agreement = q("a", "agreement", { settings: { statement: "I have read the rules at https://dwell.example/rules" } });
    expect(refusal([agreement], {})).toBe("To apply, please agree: Question a");
    const result = check([agreement], { a: "agreed" });
    expect(result).toEqual({ ok: true, answers: { a: "Agreed" } });
    expect(result.ok && storedAnswers([agreement], result.answers)).toEqual([
      { questionId: "a", question: "Question a", type: "agreement", value: "Agreed", statement: "I have read the rules at https://dwell.example/rules" },
    ]);
  });

  it("Link: an http(s) web address only", () => {
    expect(check([q("l", "link")], { l: "https://example.com/me" })).toEqual({ ok: true, answers: { l: "https://example.com/me" } });
    for (const bad of ["javascript:alert(1)", "example.com", "https://localhost", "ftp://example.com/x", "https://exa mple.com"]) {
      expect(refusal([q("l", "link")], { l: bad })).toBe('Your answer to "Question l" must be a web address starting with https:// or http://.');
    }
  });

  it("a text type's own character limit", () => {
    const short = q("t", "text", { settings: { maxLength: 5 } });
    expect(check([short], { t: "12345" }).ok).toBe(true);
    expect(refusal([short], { t: "123456" })).toBe('Your answer to "Question t" is too long: at most 5 characters.');
  });

  it("two values for a one-answer question are refused as not text", () => {
    expect(refusal([q("t", "text")], { t: ["a", "b"] })).toBe('Your answer to "Question t" must be text.');
  });

  it("the application's VRChat username and Discord ID come from their own types first, else from the words", () => {
    const typed = [q("w", "text", { question: "What is your VRChat username?" }), q("u", "vrchat_username"), q("h", "discord_handle")];
    expect(applicantIdentity(typed, { w: "Words", u: "Typed", h: "typed#1" })).toEqual({ vrchatUsername: "Typed", discordId: "typed#1" });
  });
});

describe("questions that follow the answers", () => {
  const role = q("role", "select", { options: ["Listener", "Performer"] });
  const act = q("act", "text", { showIf: { questionId: "role", when: "is", values: ["Performer"] } });
  const stage = q("stage", "yes_no", { showIf: { questionId: "act", when: "answered", values: [] } });
  const gear = q("gear", "text", { showIf: { questionId: "stage", when: "is", values: ["Yes"] } });
  const why = q("why", "text", { required: false, showIf: { questionId: "role", when: "is_not", values: ["Performer"] } });
  const form = [role, act, stage, gear, why];

  it("a hidden question is never required, and its answer is never kept, even when sent", () => {
    const result = check(form, { role: "Listener", act: "Juggling", stage: "Yes", gear: "Drums" });
    expect(result).toEqual({ ok: true, answers: { role: "Listener", why: "" } });
    expect(result.ok && storedAnswers(form, result.answers).map((answer) => answer.questionId)).toEqual(["role", "why"]);
  });

  it("chains: a question shown by a shown question's answer, required once shown", () => {
    expect(refusal(form, { role: "Performer" })).toBe("Please answer: Question act");
    expect(refusal(form, { role: "Performer", act: "Fire" })).toBe("Please answer: Question stage");
    expect(refusal(form, { role: "Performer", act: "Fire", stage: "Yes" })).toBe("Please answer: Question gear");
    expect(check(form, { role: "Performer", act: "Fire", stage: "No", gear: "sent anyway" })).toEqual({
      ok: true,
      answers: { role: "Performer", act: "Fire", stage: "No" },
    });
  });

  it("a condition on a Checkboxes answer holds when any chosen value is named", () => {
    const likes = q("likes", "checkboxes", { options: ["Music", "Games"] });
    const band = q("band", "text", { showIf: { questionId: "likes", when: "is", values: ["Music"] } });
    expect(refusal([likes, band], { likes: ["Games", "Music"] })).toBe("Please answer: Question band");
    expect(check([likes, band], { likes: "Games", band: "x" })).toEqual({ ok: true, answers: { likes: ["Games"] } });
  });
});
