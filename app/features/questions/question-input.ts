/** An application question as the editor sends it (spec sections 4 and 5, and every type since). */
import { z } from "zod";
import { QUESTION_TYPES, type QuestionType } from "~/db/enums";
import { m } from "~/paraglide/messages";
import { formatCount } from "~/utils/language";
import { isCalendarDay, SHOW_IF_WHEN, TYPED_NUMBER, type QuestionSettings, type ShowIf } from "~/utils/form-questions";

const TYPE_NAME = {
  text: m.qtype_text,
  textarea: m.qtype_textarea,
  select: m.qtype_select,
  checkboxes: m.qtype_checkboxes,
  yes_no: m.qtype_yes_no,
  number: m.qtype_number,
  date: m.qtype_date,
  agreement: m.qtype_agreement,
  link: m.qtype_link,
  vrchat_profile: m.qtype_vrchat_profile,
  vrchat_username: m.qtype_vrchat_username,
  discord_handle: m.qtype_discord_handle,
} as const satisfies Record<QuestionType, () => string>;
/** A type's name as the page's language says it. */
export const questionTypeName = (type: QuestionType) => TYPE_NAME[type]();

/** The types a scope's questions may have: both forms may ask every type. */
export const QUESTION_TYPES_OF = {
  group: QUESTION_TYPES,
  event: QUESTION_TYPES,
} as const satisfies Record<"group" | "event", readonly QuestionType[]>;

/** The types with a list of options. */
export const CHOICE_TYPES: readonly QuestionType[] = ["select", "checkboxes"];

/** Longest answer a text type takes (a question's own limit may be lower). */
export const TYPE_MAX_LENGTH: Partial<Record<QuestionType, number>> = { text: 500, textarea: 10_000, vrchat_username: 100, discord_handle: 100 };

/** An optional field of the editor: blank is "not set". */
const blank = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);
/** A field's name in a refusal, in the editor's language. */
type Label = () => string;
const optionalText = (max: number, label: Label) =>
  z.preprocess(blank, z.string().trim().max(max, { error: () => m.qi_at_most_chars({ label: label(), max: formatCount(max) }) }).optional());
const optionalWhole = (label: Label) =>
  z.preprocess(
    blank,
    z.coerce
      .number({ error: () => m.qi_whole({ label: label() }) })
      .int({ error: () => m.qi_whole({ label: label() }) })
      .min(0, { error: () => m.qi_not_below_zero({ label: label() }) })
      .max(100_000, { error: () => m.qi_too_large({ label: label() }) })
      .optional(),
  );
const optionalNumber = (label: Label) =>
  z.preprocess(
    blank,
    z
      .string()
      .trim()
      .regex(TYPED_NUMBER, { error: () => m.qi_number({ label: label() }) })
      .transform((text) => Number(text.replace(",", ".")))
      .refine((value) => Number.isFinite(value) && Math.abs(value) <= 1e15, { error: () => m.qi_too_large({ label: label() }) })
      .optional(),
  );
const optionalDay = (label: Label) =>
  z.preprocess(blank, z.string().trim().refine(isCalendarDay, { error: () => m.qi_day({ label: label() }) }).optional());

export const QuestionInputSchema = z
  .object({
    question: z
      .string()
      .trim()
      .min(1, { error: () => m.qi_question_required() })
      .max(500, { error: () => m.qi_at_most_chars({ label: m.qf_question(), max: formatCount(500) }) }),
    questionType: z.enum(QUESTION_TYPES, { error: () => m.qi_choose_type() }).default("text"),
    required: z.boolean().default(true),
    options: z
      .array(z.string().trim().max(200, { error: () => m.qi_options_long({ max: formatCount(200) }) }))
      .max(50, { error: () => m.qi_options_many({ max: formatCount(50) }) })
      .default([]),
    helpText: optionalText(500, m.qi_help),
    maxLength: optionalWhole(m.qi_limit),
    minChoices: optionalWhole(m.qi_at_least),
    maxChoices: optionalWhole(m.qi_at_most),
    min: optionalNumber(m.qi_minimum),
    max: optionalNumber(m.qi_maximum),
    wholeNumber: z.boolean().default(false),
    earliest: optionalDay(m.qi_earliest),
    latest: optionalDay(m.qi_latest),
    statement: optionalText(5_000, m.qi_statement),
    showIf: z
      .object({
        questionId: z.uuid({ error: () => m.qi_choose_depends() }),
        when: z.enum(SHOW_IF_WHEN, { error: () => m.qi_choose_when() }),
        values: z.array(z.string().trim().max(200)).max(50).default([]),
      })
      .nullable()
      .default(null),
  })
  .superRefine((input, context) => {
    const issue = (message: string, path: string) => context.addIssue({ code: "custom", message, path: [path] });
    const type = input.questionType;
    if (CHOICE_TYPES.includes(type)) {
      const options = input.options.filter((option) => option !== "");
      if (options.length === 0) issue(m.qi_add_option({ type: questionTypeName(type) }), "options");
      const twice = options.find((option, index) => options.indexOf(option) !== index);
      if (twice !== undefined) issue(m.qi_option_twice({ option: twice }), "options");
    }
    const limit = TYPE_MAX_LENGTH[type];
    if (limit !== undefined && input.maxLength !== undefined && (input.maxLength < 1 || input.maxLength > limit)) {
      issue(m.qi_limit_range({ limit: formatCount(limit), type: questionTypeName(type) }), "maxLength");
    }
    if (type === "checkboxes") {
      const count = input.options.filter((option) => option !== "").length;
      if (input.maxChoices !== undefined && input.maxChoices < 1) issue(m.qi_at_most_one(), "maxChoices");
      if (input.minChoices !== undefined && input.maxChoices !== undefined && input.minChoices > input.maxChoices) {
        issue(m.qi_min_above_max({ min: formatCount(input.minChoices), max: formatCount(input.maxChoices) }), "minChoices");
      }
      if (input.minChoices !== undefined && input.minChoices > count) issue(m.qi_min_above_count({ min: formatCount(input.minChoices), count: formatCount(count) }), "minChoices");
    }
    if (type === "number" && input.min !== undefined && input.max !== undefined && input.min > input.max) {
      issue(m.qi_minimum_above({ min: String(input.min), max: String(input.max) }), "min");
    }
    if (type === "date" && input.earliest && input.latest && input.earliest > input.latest) {
      issue(m.qi_earliest_after({ earliest: input.earliest, latest: input.latest }), "earliest");
    }
    if (type === "agreement" && !input.statement) issue(m.qi_statement_needed(), "statement");
    if (input.showIf && input.showIf.when !== "answered" && input.showIf.values.filter((value) => value !== "").length === 0) {
      issue(m.qi_choose_answers(), "showIf");
    }
  })
  // Each type keeps only its own rules; options are kept for the choice types only.
  .transform((input) => {
    const type = input.questionType;
    const settings: QuestionSettings = {};
    if (TYPE_MAX_LENGTH[type] !== undefined && input.maxLength !== undefined) settings.maxLength = input.maxLength;
    if (type === "checkboxes") {
      if (input.minChoices) settings.minChoices = input.minChoices;
      if (input.maxChoices !== undefined) settings.maxChoices = input.maxChoices;
    }
    if (type === "number") {
      if (input.min !== undefined) settings.min = input.min;
      if (input.max !== undefined) settings.max = input.max;
      if (input.wholeNumber) settings.wholeNumber = true;
    }
    if (type === "date") {
      if (input.earliest) settings.earliest = input.earliest;
      if (input.latest) settings.latest = input.latest;
    }
    if (type === "agreement") settings.statement = input.statement;
    const showIf: ShowIf | null = input.showIf
      ? { questionId: input.showIf.questionId, when: input.showIf.when, values: input.showIf.when === "answered" ? [] : [...new Set(input.showIf.values.filter((value) => value !== ""))] }
      : null;
    return {
      question: input.question,
      questionType: type,
      // An agreement is there to be agreed to: it is always required.
      required: type === "agreement" ? true : input.required,
      options: CHOICE_TYPES.includes(type) ? input.options.filter((option) => option !== "") : null,
      helpText: input.helpText ?? null,
      settings,
      showIf,
    };
  });

export type QuestionInput = z.output<typeof QuestionInputSchema>;

/** Reads the editor's form: the switches post "on" when set; the condition only when an earlier question is chosen. */
export function questionInputFromForm(form: FormData) {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : undefined;
  };
  const showIfQuestion = text("showIfQuestion");
  return QuestionInputSchema.safeParse({
    question: form.get("question"),
    questionType: form.get("questionType") ?? undefined,
    required: form.get("required") === "on",
    options: form.getAll("options").map(String),
    helpText: text("helpText"),
    maxLength: text("maxLength"),
    minChoices: text("minChoices"),
    maxChoices: text("maxChoices"),
    min: text("min"),
    max: text("max"),
    wholeNumber: form.get("wholeNumber") === "on",
    earliest: text("earliest"),
    latest: text("latest"),
    statement: text("statement"),
    showIf: showIfQuestion ? { questionId: showIfQuestion, when: text("showIfWhen") ?? "is", values: form.getAll("showIfValues").map(String) } : null,
  });
}
