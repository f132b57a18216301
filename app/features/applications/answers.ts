/**
 * The rules of an application's answers (spec section 5), shared by the form in the browser and
 * the action on the server, which re-checks everything: the server decides.
 */
import type { QuestionType } from "~/db/enums";
import { vrchatUserIdFrom } from "~/utils/vrchat-profile-link";

export interface FormQuestion {
  id: string;
  question: string;
  questionType: QuestionType;
  options: string[] | null;
  required: boolean;
}

/** Longest answer accepted, by question type. */
export const ANSWER_MAX_LENGTH: Record<QuestionType, number> = {
  text: 500,
  textarea: 10_000,
  select: 500,
  vrchat_profile: 300,
};

export const profileLinkMessage = (question: FormQuestion) =>
  `Your answer to "${question.question}" must be a VRChat profile link, like https://vrchat.com/home/user/usr_…`;

export const answerFieldName = (questionId: string) => `answer.${questionId}`;

export const requiredAnswerMessage = (question: FormQuestion) => `Please answer: ${question.question}`;

export type AnswerCheck =
  | { ok: true; answers: Record<string, string> }
  | { ok: false; message: string; questionId: string };

// C0 and C1 control characters other than tab and newline, which a textarea may hold.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/** What is stored of an answer: control characters dropped, line ends unified, trimmed. */
export function cleanAnswer(value: string, questionType: QuestionType): string {
  const unified = value.replace(/\r\n?/g, "\n").replace(CONTROL_CHARACTERS, "");
  const singleLine = questionType === "textarea" ? unified : unified.replace(/[\n\t]+/g, " ");
  return singleLine.trim();
}

/**
 * Reads the answers to `questions` from submitted fields. Fields for other questions are ignored.
 * Checks run in the form's order and stop at the first problem, like the form does.
 */
export function checkAnswers(
  questions: readonly FormQuestion[],
  fields: (name: string) => unknown,
): AnswerCheck {
  const answers: Record<string, string> = {};
  for (const question of questions) {
    const raw = fields(answerFieldName(question.id));
    if (raw !== undefined && raw !== null && typeof raw !== "string") {
      return { ok: false, questionId: question.id, message: `Your answer to "${question.question}" must be text.` };
    }
    const answer = cleanAnswer(raw ?? "", question.questionType);
    if (question.required && answer === "") {
      return { ok: false, questionId: question.id, message: requiredAnswerMessage(question) };
    }
    const max = ANSWER_MAX_LENGTH[question.questionType];
    if (answer.length > max) {
      return {
        ok: false,
        questionId: question.id,
        message: `Your answer to "${question.question}" is too long: at most ${max.toLocaleString("en-US")} characters.`,
      };
    }
    if (question.questionType === "select" && answer !== "" && !(question.options ?? []).includes(answer)) {
      return {
        ok: false,
        questionId: question.id,
        message: `Please choose one of the options for "${question.question}".`,
      };
    }
    if (question.questionType === "vrchat_profile" && answer !== "" && !vrchatUserIdFrom(answer)) {
      return { ok: false, questionId: question.id, message: profileLinkMessage(question) };
    }
    answers[question.id] = answer;
  }
  return { ok: true, answers };
}

/**
 * The applicant's VRChat username and Discord ID: the answers to the first questions whose text
 * mentions "vrchat username" and "discord"; empty when the form has no such question.
 */
export function applicantIdentity(questions: readonly FormQuestion[], answers: Record<string, string>) {
  const answerTo = (phrase: string) => {
    const question = questions.find((q) => q.question.toLowerCase().includes(phrase));
    return question ? (answers[question.id] ?? "") : "";
  };
  return { vrchatUsername: answerTo("vrchat username"), discordId: answerTo("discord") };
}

/** The stored responses: question text → answer, as the original kept them. */
export function responsesByQuestion(questions: readonly FormQuestion[], answers: Record<string, string>) {
  return Object.fromEntries(questions.map((q) => [q.question, answers[q.id] ?? ""]));
}

/** The VRChat account an applicant gave in a profile-link answer (the first one), if any. */
export function profileLinkAnswer(questions: readonly FormQuestion[], answers: Record<string, string>) {
  for (const question of questions) {
    const userId = question.questionType === "vrchat_profile" ? vrchatUserIdFrom(answers[question.id] ?? "") : null;
    if (userId) return { questionId: question.id, userId };
  }
  return null;
}
