/**
 * The rules of an application's answers (spec section 5, and every question type since), shared by
 * the form in the browser and the action on the server, which re-checks everything: the server
 * decides. A question hidden by its condition is never required and its answer is never kept.
 */
import type { QuestionType } from "~/db/enums";
import {
  AGREED,
  askedIn,
  TYPED_NUMBER,
  isCalendarDay,
  NO,
  YES,
  conditionHolds,
  type AnswerValue,
  type FormQuestion,
  type StoredAnswer,
} from "~/utils/form-questions";
import { m } from "~/paraglide/messages";
import { currentLanguage, dateFormat, intlLocale } from "~/utils/language";
import { vrchatUserIdFrom } from "~/utils/vrchat-profile-link";

export type { AnswerValue, FormQuestion, StoredAnswer } from "~/utils/form-questions";
export { isCalendarDay } from "~/utils/form-questions";

/** Longest answer accepted, by question type (a question's own limit may be lower, for text types). */
export const ANSWER_MAX_LENGTH: Record<QuestionType, number> = {
  text: 500,
  textarea: 10_000,
  select: 500,
  checkboxes: 500,
  yes_no: 3,
  number: 40,
  date: 10,
  agreement: 10,
  link: 2_000,
  vrchat_profile: 300,
  vrchat_username: 100,
  discord_handle: 100,
};

/** The types whose answer is typed text, and may have a character limit of their own. */
export const TEXT_TYPES: readonly QuestionType[] = ["text", "textarea", "vrchat_username", "discord_handle"];

/** The types whose answer has a shape of its own, checked below, whatever its length. */
const SHAPED_TYPES: readonly QuestionType[] = ["yes_no", "number", "date", "agreement"];

/** The question as the applicant reads it (in their language, where staff translated it). */
const shown = (question: FormQuestion) => askedIn(question, currentLanguage()).question;

export const profileLinkMessage = (question: FormQuestion) => m.answer_profile_link({ question: shown(question) });

export const answerFieldName = (questionId: string) => `answer.${questionId}`;

export const requiredAnswerMessage = (question: FormQuestion) => m.answer_required({ question: shown(question) });

/** The longest answer a question takes. */
export const maxLengthOf = (question: FormQuestion) =>
  Math.min(ANSWER_MAX_LENGTH[question.questionType], (TEXT_TYPES.includes(question.questionType) && question.settings?.maxLength) || Infinity);

export type Answers = Record<string, AnswerValue>;

export type AnswerCheck = { ok: true; answers: Answers } | { ok: false; message: string; questionId: string };

// C0 and C1 control characters other than tab and newline, which a textarea may hold.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/** What is stored of an answer: control characters dropped, line ends unified, trimmed. */
export function cleanAnswer(value: string, questionType: QuestionType): string {
  const unified = value.replace(/\r\n?/g, "\n").replace(CONTROL_CHARACTERS, "");
  const singleLine = questionType === "textarea" ? unified : unified.replace(/[\n\t]+/g, " ");
  return singleLine.trim();
}

/** A calendar day as people read it ('Mar 1, 2026'), the same wherever it is read. */
export const dayText = (day: string) =>
  dateFormat({ month: "short", day: "numeric", year: "numeric", timeZone: "UTC" }).format(new Date(`${day}T00:00:00Z`));

const numberText = (value: number) => value.toLocaleString(intlLocale(), { maximumFractionDigits: 10 });

function isWebAddress(text: string): boolean {
  if (!/^https?:\/\//i.test(text) || /\s/.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname.includes(".");
  } catch {
    return false;
  }
}

const failure = (question: FormQuestion, message: string): AnswerCheck => ({ ok: false, questionId: question.id, message });

/** One question's answer, read and checked: its value, or the failure to show. */
function checkOne(question: FormQuestion, raw: unknown): AnswerCheck | { ok: true; value: AnswerValue } {
  const named = { question: shown(question) };
  if (question.questionType === "checkboxes") {
    const ticked = raw === undefined || raw === null ? [] : Array.isArray(raw) ? raw : [raw];
    if (ticked.some((one) => typeof one !== "string")) return failure(question, m.answer_not_text(named));
    const options = question.options ?? [];
    const values = (ticked as string[]).map((one) => cleanAnswer(one, "text")).filter((one) => one !== "");
    if (values.some((one) => !options.includes(one)) || new Set(values).size !== values.length) {
      return failure(question, m.answer_choose_among(named));
    }
    if (question.required && values.length === 0) return failure(question, requiredAnswerMessage(question));
    const { minChoices, maxChoices } = question.settings ?? {};
    if (values.length > 0 && minChoices !== undefined && values.length < minChoices) {
      return failure(question, m.answer_choose_at_least({ ...named, count: minChoices }));
    }
    if (maxChoices !== undefined && values.length > maxChoices) return failure(question, m.answer_choose_at_most({ ...named, count: maxChoices }));
    // Kept in the options' order, whatever order they were sent in.
    return { ok: true, value: options.filter((option) => values.includes(option)) };
  }
  if (Array.isArray(raw) || (raw !== undefined && raw !== null && typeof raw !== "string")) {
    return failure(question, m.answer_not_text(named));
  }
  const answer = cleanAnswer(raw ?? "", question.questionType);
  if (answer === "") {
    if (!question.required) return { ok: true, value: "" };
    return failure(question, question.questionType === "agreement" ? m.answer_agree(named) : requiredAnswerMessage(question));
  }
  const max = maxLengthOf(question);
  // Types with a form of their own (a number, a date, Yes / No) say what that form is instead.
  if (answer.length > max && !SHAPED_TYPES.includes(question.questionType)) {
    return failure(question, m.answer_too_long({ ...named, count: max.toLocaleString(intlLocale()) }));
  }
  switch (question.questionType) {
    case "select":
      return (question.options ?? []).includes(answer) ? { ok: true, value: answer } : failure(question, m.answer_choose_one(named));
    case "yes_no":
      return answer === YES || answer === NO ? { ok: true, value: answer } : failure(question, m.answer_yes_or_no(named));
    case "agreement":
      return answer === "agreed" || answer === AGREED ? { ok: true, value: AGREED } : failure(question, m.answer_agree(named));
    case "vrchat_profile":
      return vrchatUserIdFrom(answer) ? { ok: true, value: answer } : failure(question, profileLinkMessage(question));
    case "link":
      return isWebAddress(answer) ? { ok: true, value: answer } : failure(question, m.answer_web_address(named));
    case "number": {
      if (answer.length > max || !TYPED_NUMBER.test(answer)) return failure(question, m.answer_number(named));
      const value = Number(answer.replace(",", "."));
      const { min, max: most, wholeNumber } = question.settings ?? {};
      if (!Number.isFinite(value)) return failure(question, m.answer_number(named));
      if (wholeNumber && !Number.isInteger(value)) return failure(question, m.answer_whole_number(named));
      if (min !== undefined && value < min) return failure(question, m.answer_at_least({ ...named, value: numberText(min) }));
      if (most !== undefined && value > most) return failure(question, m.answer_at_most({ ...named, value: numberText(most) }));
      return { ok: true, value: String(value) };
    }
    case "date": {
      if (!isCalendarDay(answer)) return failure(question, m.answer_date(named));
      const { earliest, latest } = question.settings ?? {};
      if (earliest && answer < earliest) return failure(question, m.answer_on_or_after({ ...named, day: dayText(earliest) }));
      if (latest && answer > latest) return failure(question, m.answer_on_or_before({ ...named, day: dayText(latest) }));
      return { ok: true, value: answer };
    }
    default:
      return { ok: true, value: answer };
  }
}

/**
 * Reads the answers to `questions` from submitted fields (`fields` gives a field's value, or its
 * values when sent more than once). Fields for other questions, and for questions their conditions
 * hide, are ignored. Checks run in the form's order and stop at the first problem, like the form does.
 */
export function checkAnswers(questions: readonly FormQuestion[], fields: (name: string) => unknown): AnswerCheck {
  const answers: Answers = {};
  const shown = new Set<string>();
  for (const question of questions) {
    if (!conditionHolds(question.showIf, answers, shown)) continue;
    shown.add(question.id);
    const checked = checkOne(question, fields(answerFieldName(question.id)));
    if (!checked.ok) return checked;
    if ("value" in checked) answers[question.id] = checked.value;
  }
  return { ok: true, answers };
}

/** The answers as kept on the application: the questions shown, in order, with their text and type as asked. */
export function storedAnswers(questions: readonly FormQuestion[], answers: Answers): StoredAnswer[] {
  return questions.flatMap((question) => {
    const value = answers[question.id];
    if (value === undefined) return [];
    // The statement as the applicant read it (their language's, where staff translated it).
    const statement = question.questionType === "agreement" && value === AGREED ? askedIn(question, currentLanguage()).statement : undefined;
    return [{ questionId: question.id, question: question.question, type: question.questionType, value, ...(statement ? { statement } : {}) }];
  });
}

/** Whether a question's text names what a type of its own now asks (the forms made before those types). */
export const namesVRChatUsername = (question: FormQuestion) => question.question.toLowerCase().includes("vrchat username");
export const namesDiscord = (question: FormQuestion) => question.question.toLowerCase().includes("discord");

/**
 * The applicant's VRChat username and Discord ID: the answers to the first 'VRChat username' and
 * 'Discord handle' questions, else (forms made before those types) to the first questions whose
 * text mentions "vrchat username" and "discord"; empty when the form has neither.
 */
export function applicantIdentity(questions: readonly FormQuestion[], answers: Answers) {
  const answerTo = (type: QuestionType, named: (question: FormQuestion) => boolean) => {
    const question = questions.find((q) => q.questionType === type) ?? questions.find(named);
    const value = question ? answers[question.id] : undefined;
    return typeof value === "string" ? value : "";
  };
  return { vrchatUsername: answerTo("vrchat_username", namesVRChatUsername), discordId: answerTo("discord_handle", namesDiscord) };
}

/** The VRChat account an applicant gave in a profile-link answer (the first one), if any. */
export function profileLinkAnswer(questions: readonly FormQuestion[], answers: Answers) {
  for (const question of questions) {
    const answer = answers[question.id];
    const userId = question.questionType === "vrchat_profile" && typeof answer === "string" ? vrchatUserIdFrom(answer) : null;
    if (userId) return { questionId: question.id, userId };
  }
  return null;
}
