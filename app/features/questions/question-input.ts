/** An application question as the editor sends it (spec sections 4 and 5). */
import { z } from "zod";
import { QUESTION_TYPES } from "~/db/enums";

export const QUESTION_TYPE_LABELS = {
  text: "Short Text",
  textarea: "Long Text",
  select: "Multiple Choice",
  vrchat_profile: "VRChat Profile Link",
} as const;

/** The types a scope's questions may have: both may ask for a profile link (it links the applicant's VRChat account). */
export const QUESTION_TYPES_OF = {
  group: ["text", "textarea", "select", "vrchat_profile"],
  event: ["text", "textarea", "select", "vrchat_profile"],
} as const satisfies Record<"group" | "event", readonly (keyof typeof QUESTION_TYPE_LABELS)[]>;

export const QuestionInputSchema = z
  .object({
    question: z.string().trim().min(1, { error: "Question is required" }).max(500, { error: "Question: at most 500 characters" }),
    questionType: z.enum(QUESTION_TYPES).default("text"),
    required: z.boolean().default(true),
    options: z.array(z.string().trim().max(200, { error: "Options: at most 200 characters each" })).max(50).default([]),
  })
  // Empty options are dropped; options are kept for Multiple Choice only.
  .transform((input) => ({
    ...input,
    options: input.questionType === "select" ? input.options.filter((option) => option !== "") : null,
  }))
  .refine((input) => input.options === null || input.options.length > 0, {
    error: "Add at least one option for a Multiple Choice question",
    path: ["options"],
  });

export type QuestionInput = z.output<typeof QuestionInputSchema>;

/** Reads the editor's form: the Required switch posts "on" when set. */
export function questionInputFromForm(form: FormData) {
  return QuestionInputSchema.safeParse({
    question: form.get("question"),
    questionType: form.get("questionType") ?? undefined,
    required: form.get("required") === "on",
    options: form.getAll("options").map(String),
  });
}
