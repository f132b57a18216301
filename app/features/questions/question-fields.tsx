import { Plus, X } from "lucide-react";
import { Switch } from "radix-ui";
import { useId, useState } from "react";
import { fieldClass } from "~/components/ui/field";
import type { QuestionType } from "~/db/enums";
import { QUESTION_TYPE_LABELS } from "./question-input";

export interface QuestionDraft {
  question: string;
  questionType: QuestionType;
  required: boolean;
  options: string[];
}

export const EMPTY_DRAFT: QuestionDraft = { question: "", questionType: "text", required: true, options: [] };

/**
 * The fields of a question, shared by 'Add New Question' and the inline edit. Changing the type to
 * Multiple Choice starts the options with one empty entry; any other type clears them.
 */
export function QuestionFields({
  draft,
  onChange,
  types,
}: {
  draft: QuestionDraft;
  onChange: (draft: QuestionDraft) => void;
  types: readonly QuestionType[];
}) {
  const id = useId();
  const [optionKeys, setOptionKeys] = useState(() => draft.options.map((_, i) => i));
  const [nextKey, setNextKey] = useState(draft.options.length);

  function setType(questionType: QuestionType) {
    if (questionType === "select") {
      onChange({ ...draft, questionType, options: draft.questionType === "select" ? draft.options : [""] });
      if (draft.questionType !== "select") {
        setOptionKeys([nextKey]);
        setNextKey(nextKey + 1);
      }
    } else {
      onChange({ ...draft, questionType, options: [] });
      setOptionKeys([]);
    }
  }

  return (
    <div className="grid gap-4 sm:grid-cols-[1fr_14rem]">
      <div className="space-y-2">
        <label htmlFor={`${id}-question`} className="block text-sm font-semibold text-mist-100">Question</label>
        <input
          id={`${id}-question`}
          name="question"
          value={draft.question}
          onChange={(e) => onChange({ ...draft, question: e.target.value })}
          maxLength={500}
          className={fieldClass}
        />
      </div>
      <div className="space-y-2">
        <label htmlFor={`${id}-type`} className="block text-sm font-semibold text-mist-100">Question Type</label>
        <select id={`${id}-type`} name="questionType" value={draft.questionType} onChange={(e) => setType(e.target.value as QuestionType)} className={fieldClass}>
          {types.map((type) => (
            <option key={type} value={type}>{QUESTION_TYPE_LABELS[type]}</option>
          ))}
        </select>
      </div>
      <div className="flex items-center gap-3 sm:col-span-2">
        <Switch.Root
          id={`${id}-required`}
          name="required"
          checked={draft.required}
          onCheckedChange={(required) => onChange({ ...draft, required })}
          className="relative h-6 w-11 shrink-0 rounded-full bg-night-700 transition-colors data-[state=checked]:bg-aurora-500"
        >
          <Switch.Thumb className="block size-5 translate-x-0.5 rounded-full bg-white transition-transform data-[state=checked]:translate-x-[1.375rem]" />
        </Switch.Root>
        <label htmlFor={`${id}-required`} className="text-sm font-semibold text-mist-100">Required</label>
      </div>
      {draft.questionType === "vrchat_profile" ? (
        <p className="text-sm text-mist-400 sm:col-span-2">
          Applicants paste their VRChat profile link; it is checked when they send the form, and their account is then linked
          to the application.
        </p>
      ) : null}
      {draft.questionType === "select" ? (
        <fieldset className="space-y-2 sm:col-span-2">
          <legend className="mb-2 text-sm font-semibold text-mist-100">Options</legend>
          {draft.options.map((option, index) => (
            <div key={optionKeys[index] ?? index} className="flex gap-2">
              <input
                name="options"
                aria-label={`Option ${index + 1}`}
                value={option}
                maxLength={200}
                onChange={(e) => onChange({ ...draft, options: draft.options.map((o, i) => (i === index ? e.target.value : o)) })}
                className={fieldClass}
              />
              <button
                type="button"
                aria-label={`Remove option ${index + 1}`}
                onClick={() => {
                  onChange({ ...draft, options: draft.options.filter((_, i) => i !== index) });
                  setOptionKeys(optionKeys.filter((_, i) => i !== index));
                }}
                className="inline-flex size-11 shrink-0 items-center justify-center rounded-lg text-mist-300 hover:bg-white/5"
              >
                <X aria-hidden="true" className="size-4" />
              </button>
            </div>
          ))}
          <button
            type="button"
            onClick={() => {
              onChange({ ...draft, options: [...draft.options, ""] });
              setOptionKeys([...optionKeys, nextKey]);
              setNextKey(nextKey + 1);
            }}
            className="inline-flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-semibold text-aurora-300 hover:bg-white/5"
          >
            <Plus aria-hidden="true" className="size-4" />
            Add Option
          </button>
        </fieldset>
      ) : null}
    </div>
  );
}
