import { Loader2 } from "lucide-react";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { Form, useNavigation } from "react-router";
import { toast } from "sonner";
import { fieldClass } from "~/components/ui/field";
import { Button } from "~/components/ui/button";
import { clsx } from "clsx";
import { ANSWER_MAX_LENGTH, answerFieldName, checkAnswers, type FormQuestion } from "./answers";

/** The server refuses bodies over this size (413); the form says so before sending. */
export const MAX_FORM_BYTES = 256 * 1024;

export interface FormFailure {
  ok: false;
  error: string;
  questionId?: string;
  values?: Record<string, string>;
}

function formBytes(form: FormData): number {
  let bytes = 0;
  const encoder = new TextEncoder();
  for (const [name, value] of form) {
    bytes += encoder.encode(name).length + (typeof value === "string" ? encoder.encode(value).length : value.size);
  }
  return bytes;
}

/**
 * The questions of an application as a plain HTML form: it posts to the route's action without
 * JavaScript, and once hydrated checks the answers first (the same rules the server applies) and
 * submits without a page load.
 */
export function ApplicationForm({
  questions,
  submitLabel,
  failure,
  formStarted,
}: {
  questions: FormQuestion[];
  submitLabel: string;
  failure: FormFailure | undefined;
  /** When the form was served, signed by the server (its fill-time check). */
  formStarted: string;
}) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  const [clientError, setClientError] = useState<{ message: string; questionId?: string } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const errorId = useId();

  // A new answer from the server replaces whatever the browser found before it.
  const [seenFailure, setSeenFailure] = useState(failure);
  if (failure !== seenFailure) {
    setSeenFailure(failure);
    setClientError(null);
  }
  const error = clientError ?? (failure ? { message: failure.error, questionId: failure.questionId } : null);

  useEffect(() => {
    if (!failure) return;
    toast.error(failure.error);
    if (failure.questionId) {
      formRef.current?.querySelector<HTMLElement>(`[name="${answerFieldName(failure.questionId)}"]`)?.focus();
    }
  }, [failure]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const form = new FormData(event.currentTarget);
    const checked = checkAnswers(questions, (name) => form.get(name) ?? undefined);
    const problem = !checked.ok
      ? { message: checked.message, questionId: checked.questionId }
      : formBytes(form) > MAX_FORM_BYTES
        ? { message: "Your answers are too long to send: 256 KB at most in all." }
        : null;
    if (!problem) {
      setClientError(null);
      return;
    }
    event.preventDefault();
    setClientError(problem);
    toast.error(problem.message);
    if (problem.questionId) {
      event.currentTarget
        .querySelector<HTMLElement>(`[name="${answerFieldName(problem.questionId)}"]`)
        ?.focus();
    }
  }

  return (
    <Form method="post" noValidate ref={formRef} onSubmit={onSubmit} className="space-y-6" aria-describedby={error ? errorId : undefined}>
      <div id={errorId} role="alert" className={clsx(!error && "sr-only")}>
        {error ? (
          <p className="rounded-xl border border-red-400/40 bg-red-500/10 px-4 py-3 text-red-200">
            {error.message}
          </p>
        ) : null}
      </div>
      <input type="hidden" name="form_started" value={formStarted} />
      <Honeypot />
      {questions.map((question) => (
        <QuestionField
          key={question.id}
          question={question}
          invalid={error?.questionId === question.id}
          errorId={errorId}
          defaultValue={failure?.values?.[question.id] ?? ""}
        />
      ))}
      <Button type="submit" size="lg" disabled={submitting} aria-busy={submitting} className="w-full sm:w-auto">
        {submitting ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : null}
        {submitLabel}
      </Button>
    </Form>
  );
}

/**
 * A field people never see or hear (off screen, hidden from assistive technology, out of the tab
 * order) and scripts fill in: a post with it filled is refused. Its label says what to do, should a
 * browser ever show it.
 */
function Honeypot() {
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
      <label htmlFor="application-website">Leave this empty</label>
      <input id="application-website" type="text" name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}

function QuestionField({
  question,
  invalid,
  errorId,
  defaultValue,
}: {
  question: FormQuestion;
  invalid: boolean;
  errorId: string;
  defaultValue: string;
}) {
  const id = `question-${question.id}`;
  const common = {
    id,
    name: answerFieldName(question.id),
    "aria-required": question.required,
    "aria-invalid": invalid,
    "aria-describedby": invalid ? errorId : undefined,
    defaultValue,
    className: fieldClass,
  };
  return (
    <div className="space-y-2">
      <label htmlFor={id} className="block font-semibold text-mist-100">
        {question.question}
        {question.required ? (
          <>
            <span aria-hidden="true" className="ml-1 text-ember-400">*</span>
            <span className="sr-only"> (required)</span>
          </>
        ) : null}
      </label>
      {question.questionType === "textarea" ? (
        <textarea {...common} rows={5} maxLength={ANSWER_MAX_LENGTH.textarea} />
      ) : question.questionType === "select" ? (
        <select {...common}>
          <option value="">Choose an option</option>
          {(question.options ?? []).map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      ) : question.questionType === "vrchat_profile" ? (
        <>
          <input
            {...common}
            type="url"
            inputMode="url"
            maxLength={ANSWER_MAX_LENGTH.vrchat_profile}
            placeholder="https://vrchat.com/home/user/usr_…"
            autoComplete="off"
            aria-describedby={[invalid ? errorId : null, `${id}-hint`].filter(Boolean).join(" ")}
          />
          <p id={`${id}-hint`} className="text-sm text-mist-400">
            On vrchat.com, open your profile and copy its address from the address bar.
          </p>
        </>
      ) : (
        <input {...common} type="text" maxLength={ANSWER_MAX_LENGTH.text} autoComplete="off" />
      )}
    </div>
  );
}
