import { Plus, X } from "lucide";
import { Icon } from "~/components/ui/icon";
import { Switch } from "radix-ui";
import { useId, useState, type ReactNode } from "react";
import { fieldClass } from "~/components/ui/field";
import type { QuestionType } from "~/db/enums";
import { CONDITION_TYPES, NO, YES, type QuestionSettings, type ShowIf } from "~/utils/form-questions";
import { CHOICE_TYPES, questionTypeName, TYPE_MAX_LENGTH } from "./question-input";
import { m } from "~/paraglide/messages";
import { formatCount } from "~/utils/language";

/** A question as the editor holds it while it is written: every rule as the text in its box. */
export interface QuestionDraft {
  question: string;
  questionType: QuestionType;
  required: boolean;
  options: string[];
  helpText: string;
  maxLength: string;
  minChoices: string;
  maxChoices: string;
  min: string;
  max: string;
  wholeNumber: boolean;
  earliest: string;
  latest: string;
  statement: string;
  showIf: ShowIf | null;
}

export const EMPTY_DRAFT: QuestionDraft = {
  question: "",
  questionType: "text",
  required: true,
  options: [],
  helpText: "",
  maxLength: "",
  minChoices: "",
  maxChoices: "",
  min: "",
  max: "",
  wholeNumber: false,
  earliest: "",
  latest: "",
  statement: "",
  showIf: null,
};

const shown = (value: number | undefined) => (value === undefined ? "" : String(value));

/** A saved question as a draft, for its inline edit. */
export function draftOf(question: {
  question: string;
  questionType: QuestionType;
  required: boolean;
  options: string[] | null;
  helpText: string | null;
  settings: QuestionSettings;
  showIf: ShowIf | null;
}): QuestionDraft {
  const { settings } = question;
  return {
    question: question.question,
    questionType: question.questionType,
    required: question.required,
    options: question.options ?? [],
    helpText: question.helpText ?? "",
    maxLength: shown(settings.maxLength),
    minChoices: shown(settings.minChoices),
    maxChoices: shown(settings.maxChoices),
    min: shown(settings.min),
    max: shown(settings.max),
    wholeNumber: settings.wholeNumber ?? false,
    earliest: settings.earliest ?? "",
    latest: settings.latest ?? "",
    statement: settings.statement ?? "",
    showIf: question.showIf,
  };
}

/** An earlier question a condition may name. */
export interface EarlierQuestion {
  id: string;
  question: string;
  questionType: QuestionType;
  options: string[] | null;
}

function Labelled({ id, label, children, wide = false }: { id: string; label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? "space-y-2 sm:col-span-2" : "space-y-2"}>
      <label htmlFor={id} className="block text-sm font-semibold text-mist-100">{label}</label>
      {children}
    </div>
  );
}

/**
 * The fields of a question, shared by 'Add New Question' and the inline edit. Changing the type to
 * one with options (Multiple Choice, Checkboxes) starts them with one empty entry; any other type
 * clears them. Each type shows only its own rules.
 */
export function QuestionFields({
  draft,
  onChange,
  types,
  earlier,
}: {
  draft: QuestionDraft;
  onChange: (draft: QuestionDraft) => void;
  types: readonly QuestionType[];
  /** The questions above this one: what its condition may depend on. */
  earlier: readonly EarlierQuestion[];
}) {
  const id = useId();
  const [optionKeys, setOptionKeys] = useState(() => draft.options.map((_, i) => i));
  const [nextKey, setNextKey] = useState(draft.options.length);
  const type = draft.questionType;
  const set = (change: Partial<QuestionDraft>) => onChange({ ...draft, ...change });

  function setType(questionType: QuestionType) {
    const hadOptions = CHOICE_TYPES.includes(draft.questionType);
    if (CHOICE_TYPES.includes(questionType)) {
      onChange({ ...draft, questionType, options: hadOptions ? draft.options : [""] });
      if (!hadOptions) {
        setOptionKeys([nextKey]);
        setNextKey(nextKey + 1);
      }
    } else {
      onChange({ ...draft, questionType, options: [] });
      setOptionKeys([]);
    }
  }

  const limit = TYPE_MAX_LENGTH[type];
  const target = earlier.find((question) => question.id === draft.showIf?.questionId);
  const targetChoices = target ? (target.questionType === "yes_no" ? [YES, NO] : CONDITION_TYPES.includes(target.questionType) ? (target.options ?? []) : []) : [];

  return (
    <div className="grid gap-4 sm:grid-cols-[1fr_14rem]">
      <Labelled id={`${id}-question`} label={m.qf_question()}>
        <input id={`${id}-question`} name="question" value={draft.question} onChange={(e) => set({ question: e.target.value })} maxLength={500} className={fieldClass} />
      </Labelled>
      <Labelled id={`${id}-type`} label={m.qf_type()}>
        <select id={`${id}-type`} name="questionType" value={type} onChange={(e) => setType(e.target.value as QuestionType)} className={fieldClass}>
          {types.map((one) => (
            <option key={one} value={one}>{questionTypeName(one)}</option>
          ))}
        </select>
      </Labelled>
      <Labelled id={`${id}-help`} label={m.qf_help()} wide>
        <input id={`${id}-help`} name="helpText" value={draft.helpText} onChange={(e) => set({ helpText: e.target.value })} maxLength={500} className={fieldClass} />
      </Labelled>
      {type === "agreement" ? null : (
        <div className="flex items-center gap-3 sm:col-span-2">
          <Switch.Root
            id={`${id}-required`}
            name="required"
            checked={draft.required}
            onCheckedChange={(required) => set({ required })}
            className="relative h-6 w-11 shrink-0 rounded-full bg-night-700 transition-colors data-[state=checked]:bg-aurora-500"
          >
            <Switch.Thumb className="block size-5 translate-x-0.5 rounded-full bg-white transition-transform data-[state=checked]:translate-x-[1.375rem]" />
          </Switch.Root>
          <label htmlFor={`${id}-required`} className="text-sm font-semibold text-mist-100">{m.qf_required()}</label>
        </div>
      )}
      {type === "vrchat_profile" ? (
        <p className="text-sm text-mist-400 sm:col-span-2">
          {m.qf_profile_hint()}
        </p>
      ) : type === "vrchat_username" || type === "discord_handle" ? (
        <p className="text-sm text-mist-400 sm:col-span-2">
          {type === "vrchat_username" ? m.qf_vrchat_taken() : m.qf_discord_taken()}
        </p>
      ) : null}
      {limit !== undefined ? (
        <Labelled id={`${id}-max-length`} label={m.qf_limit({ limit: formatCount(limit) })}>
          <input id={`${id}-max-length`} name="maxLength" inputMode="numeric" value={draft.maxLength} onChange={(e) => set({ maxLength: e.target.value })} className={fieldClass} />
        </Labelled>
      ) : null}
      {type === "checkboxes" ? (
        <div className="grid gap-4 sm:col-span-2 sm:grid-cols-2">
          <Labelled id={`${id}-min-choices`} label={m.qf_at_least()}>
            <input id={`${id}-min-choices`} name="minChoices" inputMode="numeric" value={draft.minChoices} onChange={(e) => set({ minChoices: e.target.value })} className={fieldClass} />
          </Labelled>
          <Labelled id={`${id}-max-choices`} label={m.qf_at_most()}>
            <input id={`${id}-max-choices`} name="maxChoices" inputMode="numeric" value={draft.maxChoices} onChange={(e) => set({ maxChoices: e.target.value })} className={fieldClass} />
          </Labelled>
        </div>
      ) : null}
      {type === "number" ? (
        <div className="grid gap-4 sm:col-span-2 sm:grid-cols-3">
          <Labelled id={`${id}-min`} label={m.qf_minimum()}>
            <input id={`${id}-min`} name="min" inputMode="decimal" value={draft.min} onChange={(e) => set({ min: e.target.value })} className={fieldClass} />
          </Labelled>
          <Labelled id={`${id}-max`} label={m.qf_maximum()}>
            <input id={`${id}-max`} name="max" inputMode="decimal" value={draft.max} onChange={(e) => set({ max: e.target.value })} className={fieldClass} />
          </Labelled>
          <label className="flex items-center gap-3 pt-7 text-sm font-semibold text-mist-100">
            <input type="checkbox" name="wholeNumber" checked={draft.wholeNumber} onChange={(e) => set({ wholeNumber: e.target.checked })} className="size-5 accent-ember-400" />
            {m.qf_whole()}
          </label>
        </div>
      ) : null}
      {type === "date" ? (
        <div className="grid gap-4 sm:col-span-2 sm:grid-cols-2">
          <Labelled id={`${id}-earliest`} label={m.qf_earliest()}>
            <input id={`${id}-earliest`} name="earliest" type="date" value={draft.earliest} onChange={(e) => set({ earliest: e.target.value })} className={fieldClass} />
          </Labelled>
          <Labelled id={`${id}-latest`} label={m.qf_latest()}>
            <input id={`${id}-latest`} name="latest" type="date" value={draft.latest} onChange={(e) => set({ latest: e.target.value })} className={fieldClass} />
          </Labelled>
        </div>
      ) : null}
      {type === "agreement" ? (
        <Labelled id={`${id}-statement`} label={m.qf_statement()} wide>
          <textarea id={`${id}-statement`} name="statement" rows={4} value={draft.statement} onChange={(e) => set({ statement: e.target.value })} maxLength={5_000} className={fieldClass} />
        </Labelled>
      ) : null}
      {CHOICE_TYPES.includes(type) ? (
        <fieldset className="space-y-2 sm:col-span-2">
          <legend className="mb-2 text-sm font-semibold text-mist-100">{m.qf_options()}</legend>
          {draft.options.map((option, index) => (
            <div key={optionKeys[index] ?? index} className="flex gap-2">
              <input
                name="options"
                aria-label={m.qf_option({ number: index + 1 })}
                value={option}
                maxLength={200}
                onChange={(e) => set({ options: draft.options.map((o, i) => (i === index ? e.target.value : o)) })}
                className={fieldClass}
              />
              <button
                type="button"
                aria-label={m.qf_remove_option({ number: index + 1 })}
                onClick={() => {
                  set({ options: draft.options.filter((_, i) => i !== index) });
                  setOptionKeys(optionKeys.filter((_, i) => i !== index));
                }}
                className="inline-flex size-11 shrink-0 items-center justify-center rounded-lg text-mist-300 hover:bg-white/5"
              >
                <Icon node={X} className="size-4" />
              </button>
            </div>
          ))}
          <button
            type="button"
            onClick={() => {
              set({ options: [...draft.options, ""] });
              setOptionKeys([...optionKeys, nextKey]);
              setNextKey(nextKey + 1);
            }}
            className="inline-flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-semibold text-aurora-300 hover:bg-white/5"
          >
            <Icon node={Plus} className="size-4" />
            {m.qf_add_option()}
          </button>
        </fieldset>
      ) : null}
      {earlier.length > 0 ? (
        <fieldset className="space-y-3 rounded-xl border border-aurora-400/15 p-4 sm:col-span-2">
          <legend className="px-1 text-sm font-semibold text-mist-100">{m.qf_show()}</legend>
          <div className="grid gap-3 sm:grid-cols-2">
            <Labelled id={`${id}-show-if`} label={m.qf_depends()}>
              <select
                id={`${id}-show-if`}
                name="showIfQuestion"
                value={draft.showIf?.questionId ?? ""}
                onChange={(e) => set({ showIf: e.target.value ? { questionId: e.target.value, when: "answered", values: [] } : null })}
                className={fieldClass}
              >
                <option value="">{m.qf_always()}</option>
                {earlier.map((question) => (
                  <option key={question.id} value={question.id}>
                    {m.qf_only_when({ question: question.question })}
                  </option>
                ))}
              </select>
            </Labelled>
            {draft.showIf ? (
              <Labelled id={`${id}-show-when`} label={m.qf_its_answer()}>
                <select
                  id={`${id}-show-when`}
                  name="showIfWhen"
                  value={draft.showIf.when}
                  onChange={(e) => set({ showIf: { ...draft.showIf!, when: e.target.value as ShowIf["when"] } })}
                  className={fieldClass}
                >
                  <option value="answered">{m.qf_is_answered()}</option>
                  {targetChoices.length ? <option value="is">{m.qf_is_one_of()}</option> : null}
                  {targetChoices.length ? <option value="is_not">{m.qf_is_none_of()}</option> : null}
                </select>
              </Labelled>
            ) : null}
          </div>
          {draft.showIf && draft.showIf.when !== "answered" ? (
            <div className="flex flex-wrap gap-x-6 gap-y-2">
              {targetChoices.map((choice) => (
                <label key={choice} className="flex min-h-11 items-center gap-2 text-sm text-mist-100">
                  <input
                    type="checkbox"
                    name="showIfValues"
                    value={choice}
                    checked={draft.showIf!.values.includes(choice)}
                    onChange={(e) =>
                      set({
                        showIf: {
                          ...draft.showIf!,
                          values: e.target.checked ? [...draft.showIf!.values, choice] : draft.showIf!.values.filter((value) => value !== choice),
                        },
                      })
                    }
                    className="size-5 accent-ember-400"
                  />
                  {choice}
                </label>
              ))}
            </div>
          ) : null}
        </fieldset>
      ) : null}
    </div>
  );
}
