/**
 * One question of an application form, as plain HTML fields that post without JavaScript: the
 * right control for its type, its help text under it, and the value sent before (after a refusal).
 */
import { clsx } from "clsx";
import { m } from "~/paraglide/messages";
import type { ReactNode } from "react";
import { fieldClass } from "~/components/ui/field";
import { askedIn, NO, YES, type AnswerValue, type FormQuestion } from "~/utils/form-questions";
import { currentLanguage } from "~/utils/language";
import { answerFieldName, maxLengthOf } from "./answers";

/** Web addresses in a statement (an agreement's rules) become links; the rest stays text. */
function withLinks(text: string): ReactNode[] {
  return text.split(/(https?:\/\/[^\s<>"]+[^\s<>".,;:!?)])/g).map((part, index) =>
    index % 2 === 1 ? (
      <a key={index} href={part} target="_blank" rel="noopener noreferrer" className="text-aurora-300 underline hover:text-ember-300">
        {part}
      </a>
    ) : (
      part
    ),
  );
}

function RequiredMark({ required }: { required: boolean }) {
  return required ? (
    <>
      <span aria-hidden="true" className="ml-1 text-ember-400">*</span>
      <span className="sr-only"> {m.form_required()}</span>
    </>
  ) : null;
}

export function QuestionField({
  question,
  invalid,
  errorId,
  value,
  onlyIf,
}: {
  question: FormQuestion;
  invalid: boolean;
  errorId: string;
  /** The answer sent before, to fill the field again. */
  value: AnswerValue | undefined;
  /** When the question depends on an earlier answer: the condition, said for a form without JavaScript. */
  onlyIf: string | null;
}) {
  const id = `question-${question.id}`;
  const name = answerFieldName(question.id);
  // Its words in the page's language, where staff translated it; the values sent stay as written.
  const shown = askedIn(question, currentLanguage());
  const helpId = shown.helpText ? `${id}-help` : null;
  const hintId = question.questionType === "vrchat_profile" ? `${id}-hint` : null;
  const describedBy = [invalid ? errorId : null, helpId, hintId].filter(Boolean).join(" ") || undefined;
  const text = typeof value === "string" ? value : "";
  const chosen = Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
  const settings = question.settings ?? {};
  const common = { id, name, "aria-required": question.required, "aria-invalid": invalid, "aria-describedby": describedBy, className: fieldClass };
  const help = (
    <>
      {onlyIf ? <p className="conditional-note hidden text-sm text-aurora-300">{onlyIf}</p> : null}
      {shown.helpText ? (
        <p id={helpId!} className="text-sm text-mist-400">
          {shown.helpText}
        </p>
      ) : null}
    </>
  );

  // Several controls: a group with a legend, so the question is read with each choice.
  if (question.questionType === "checkboxes" || question.questionType === "yes_no" || question.questionType === "agreement") {
    const choices = question.questionType === "checkboxes" ? (question.options ?? []) : question.questionType === "yes_no" ? [YES, NO] : ["agreed"];
    return (
      // A radio group may say it is required; a group of checkboxes says so in its legend.
      <fieldset
        id={id}
        role={question.questionType === "yes_no" ? "radiogroup" : undefined}
        aria-required={question.questionType === "yes_no" ? question.required : undefined}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        className="space-y-2"
      >
        <legend className="font-semibold text-mist-100">
          {shown.question}
          <RequiredMark required={question.required} />
        </legend>
        {help}
        {question.questionType === "agreement" && shown.statement ? (
          <p className="whitespace-pre-line rounded-xl border border-aurora-400/20 bg-night-900/40 px-4 py-3 text-sm text-mist-200">{withLinks(shown.statement)}</p>
        ) : null}
        <div className={clsx(question.questionType === "yes_no" ? "flex gap-6" : "space-y-2")}>
          {choices.map((choice, index) => (
            <label key={choice} className="flex min-h-11 items-center gap-3 text-mist-100">
              <input
                type={question.questionType === "yes_no" ? "radio" : "checkbox"}
                id={index === 0 ? `${id}-first` : undefined}
                name={name}
                value={choice}
                defaultChecked={chosen.includes(choice) || (choice === "agreed" && chosen.includes("Agreed"))}
                className="size-5 shrink-0 accent-ember-400"
              />
              <span>{question.questionType === "agreement" ? m.form_i_agree() : choice === YES && question.questionType === "yes_no" ? m.form_yes() : choice === NO && question.questionType === "yes_no" ? m.form_no() : shown.option(choice)}</span>
            </label>
          ))}
        </div>
      </fieldset>
    );
  }

  let control: ReactNode;
  switch (question.questionType) {
    case "textarea":
      control = <textarea {...common} defaultValue={text} rows={5} maxLength={maxLengthOf(question)} />;
      break;
    case "select":
      control = (
        <select {...common} defaultValue={text}>
          <option value="">{m.form_choose_option()}</option>
          {(question.options ?? []).map((option) => (
            <option key={option} value={option}>
              {shown.option(option)}
            </option>
          ))}
        </select>
      );
      break;
    case "number":
      control = <input {...common} defaultValue={text} type="text" inputMode={settings.wholeNumber ? "numeric" : "decimal"} maxLength={maxLengthOf(question)} autoComplete="off" />;
      break;
    case "date":
      control = <input {...common} defaultValue={text} type="date" min={settings.earliest} max={settings.latest} />;
      break;
    case "link":
      control = <input {...common} defaultValue={text} type="url" inputMode="url" maxLength={maxLengthOf(question)} placeholder="https://" autoComplete="off" />;
      break;
    case "vrchat_profile":
      control = (
        <>
          <input {...common} defaultValue={text} type="url" inputMode="url" maxLength={maxLengthOf(question)} placeholder="https://vrchat.com/home/user/usr_…" autoComplete="off" />
          <p id={hintId!} className="text-sm text-mist-400">
            {m.form_profile_help()}
          </p>
        </>
      );
      break;
    default:
      control = <input {...common} defaultValue={text} type="text" maxLength={maxLengthOf(question)} autoComplete="off" />;
  }
  return (
    <div className="space-y-2">
      <label htmlFor={id} className="block font-semibold text-mist-100">
        {shown.question}
        <RequiredMark required={question.required} />
      </label>
      {help}
      {control}
    </div>
  );
}
