import { describe, expect, it } from "vitest";
import {
  ANSWER_MAX_LENGTH,
  answerFieldName,
  applicantIdentity,
  checkAnswers,
  cleanAnswer,
  profileLinkAnswer,
  storedAnswers,
  type FormQuestion,
} from "./answers";

const questions: FormQuestion[] = [
  { id: "q1", question: "What is your VRChat username?", questionType: "text", options: null, required: true },
  { id: "q2", question: "Your Discord handle", questionType: "text", options: null, required: true },
  { id: "q3", question: "Why join?", questionType: "textarea", options: null, required: true },
  { id: "q4", question: "Which role?", questionType: "select", options: ["Listener", "Performer"], required: false },
];

const fieldsOf = (answers: Record<string, unknown>) => (name: string) =>
  Object.entries(answers).find(([id]) => answerFieldName(id) === name)?.[1];

describe("checkAnswers", () => {
  it("accepts complete answers and drops fields of other questions", () => {
    const result = checkAnswers(questions, (name) =>
      name === "answer.unknown" ? "ignored" : fieldsOf({ q1: " Moth ", q2: "moth", q3: "Because", q4: "" })(name),
    );
    expect(result).toEqual({ ok: true, answers: { q1: "Moth", q2: "moth", q3: "Because", q4: "" } });
  });

  it("stops at the first blank required answer, in order", () => {
    expect(checkAnswers(questions, fieldsOf({ q1: "Moth", q2: "   ", q3: "" }))).toEqual({
      ok: false,
      questionId: "q2",
      message: "Please answer: Your Discord handle",
    });
    expect(checkAnswers(questions, fieldsOf({}))).toMatchObject({ message: "Please answer: What is your VRChat username?" });
  });

  it("counts an answer of only control characters as blank", () => {
    expect(checkAnswers(questions, fieldsOf({ q1: "\u0000\u0007\u001b", q2: "x", q3: "x" }))).toMatchObject({ ok: false, questionId: "q1" });
  });

  it.each([
    ["a short answer over its limit", { q1: "x".repeat(ANSWER_MAX_LENGTH.text + 1) }, "q1", /too long: at most 500 characters/],
    ["a long answer over its limit", { q1: "a", q2: "b", q3: "x".repeat(ANSWER_MAX_LENGTH.textarea + 1) }, "q3", /at most 10,000 characters/],
    ["a choice that is not an option", { q1: "a", q2: "b", q3: "c", q4: "Dictator" }, "q4", /choose one of the options/],
    ["a file instead of text", { q1: new Blob(["x"]) }, "q1", /must be text/],
    ["a number instead of text", { q1: 42 }, "q1", /must be text/],
  ])("refuses %s with a clear message", (_name, answers, questionId, message) => {
    const result = checkAnswers(questions, fieldsOf(answers));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.questionId).toBe(questionId);
      expect(result.message).toMatch(message);
    }
  });

  it("keeps HTML and script text as plain text (escaping is the renderer's job)", () => {
    const payload = `<script>alert("x")</script><img src=x onerror=alert(1)>`;
    const result = checkAnswers(questions, fieldsOf({ q1: payload, q2: "b", q3: payload }));
    expect(result).toMatchObject({ ok: true, answers: { q1: payload, q3: payload } });
  });

  it("accepts answers exactly at the limits", () => {
    const result = checkAnswers(questions, fieldsOf({ q1: "é".repeat(500), q2: "b", q3: "😀".repeat(5000) }));
    expect(result.ok).toBe(true);
  });
});

describe("cleanAnswer", () => {
  it("unifies line ends, keeps lines in long answers, folds them in short ones", () => {
    expect(cleanAnswer("one\r\ntwo\rthree", "textarea")).toBe("one\ntwo\nthree");
    expect(cleanAnswer("one\r\ntwo\tthree", "text")).toBe("one two three");
  });

  it("drops control characters but not ordinary text", () => {
    expect(cleanAnswer("a\u0000b\u0008c\u007fd\u009fe ünï 日本", "text")).toBe("abcde ünï 日本");
  });
});

describe("applicantIdentity", () => {
  it("takes the VRChat username and Discord ID from the matching questions", () => {
    expect(applicantIdentity(questions, { q1: "Moth", q2: "moth#1" })).toEqual({ vrchatUsername: "Moth", discordId: "moth#1" });
  });

  it("is empty when the form has no such questions", () => {
    const other: FormQuestion[] = [{ id: "x", question: "Favourite world?", questionType: "text", options: null, required: true }];
    expect(applicantIdentity(other, { x: "Lakeside" })).toEqual({ vrchatUsername: "", discordId: "" });
  });

  it("matches without regard to case", () => {
    const shouty: FormQuestion[] = [
      { id: "a", question: "VRCHAT USERNAME", questionType: "text", options: null, required: true },
      { id: "b", question: "DISCORD", questionType: "text", options: null, required: true },
    ];
    expect(applicantIdentity(shouty, { a: "A", b: "B" })).toEqual({ vrchatUsername: "A", discordId: "B" });
  });
});

describe("storedAnswers", () => {
  it("keeps each answered question's id, text and type, in the form's order, and nothing for a question not shown", () => {
    expect(storedAnswers(questions, { q1: "Moth", q3: "why", q4: "" })).toEqual([
      { questionId: "q1", question: "What is your VRChat username?", type: "text", value: "Moth" },
      { questionId: "q3", question: "Why join?", type: "textarea", value: "why" },
      { questionId: "q4", question: "Which role?", type: "select", value: "" },
    ]);
  });
});

describe("a VRChat profile link answer", () => {
  const profile: FormQuestion = { id: "p", question: "Your VRChat profile", questionType: "vrchat_profile", options: null, required: false };
  const id = "usr_0b0b0b0b-1c1c-4d2d-8e3e-4f4f4f4f4f4f";

  it("takes a profile link or an id, and gives the account", () => {
    for (const given of [`https://vrchat.com/home/user/${id}`, id]) {
      const result = checkAnswers([profile], fieldsOf({ p: ` ${given} ` }));
      expect(result).toEqual({ ok: true, answers: { p: given } });
      expect(result.ok && profileLinkAnswer([profile], result.answers)).toEqual({ questionId: "p", userId: id });
    }
  });

  it("refuses anything else with a message saying what is wanted, and may be left empty when optional", () => {
    for (const given of ["Moth", `https://vrchat.com.evil.example/home/user/${id}`, "https://vrchat.com/home/world/wrld_1"]) {
      expect(checkAnswers([profile], fieldsOf({ p: given }))).toEqual({
        ok: false,
        questionId: "p",
        message: 'Your answer to "Your VRChat profile" must be a VRChat profile link, like https://vrchat.com/home/user/usr_…',
      });
    }
    const empty = checkAnswers([profile], fieldsOf({ p: "" }));
    expect(empty).toEqual({ ok: true, answers: { p: "" } });
    expect(empty.ok && profileLinkAnswer([profile], empty.answers)).toBeNull();
  });
});
