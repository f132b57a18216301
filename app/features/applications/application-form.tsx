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
  crowdChallenge,
}: {
  questions: FormQuestion[];
  submitLabel: string;
  failure: FormFailure | undefined;
  /** When the form was served, signed by the server (its fill-time check). */
  formStarted: string;
  /** The crowd challenge (JSON) the script solves while the person fills the form in; null: none. */
  crowdChallenge?: string | null;
}) {
  const proof = useCrowdProof(crowdChallenge ?? null);
  const [waitingForProof, setWaitingForProof] = useState(false);
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

  // Sent as soon as the check is done (onSubmit then lets it go).
  useEffect(() => {
    if (waitingForProof && proof.state !== "solving") formRef.current?.requestSubmit();
  }, [waitingForProof, proof.state]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (proof.state !== "solving") setWaitingForProof(false);
    const form = new FormData(event.currentTarget);
    const checked = checkAnswers(questions, (name) => form.get(name) ?? undefined);
    const problem = !checked.ok
      ? { message: checked.message, questionId: checked.questionId }
      : formBytes(form) > MAX_FORM_BYTES
        ? { message: "Your answers are too long to send: 256 KB at most in all." }
        : null;
    if (!problem) {
      setClientError(null);
      // The check for busy times is not done yet (sent within a second of opening): sent once it is.
      if (proof.state === "solving") {
        event.preventDefault();
        setWaitingForProof(true);
      }
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
    <Form
      method="post"
      noValidate
      ref={formRef}
      onSubmit={onSubmit}
      className="space-y-6"
      aria-describedby={error ? errorId : undefined}
      // The challenge is also in the page for any client that solves it itself.
      data-crowd-challenge={crowdChallenge ?? undefined}
    >
      <div id={errorId} role="alert" className={clsx(!error && "sr-only")}>
        {error ? (
          <p className="rounded-xl border border-red-400/40 bg-red-500/10 px-4 py-3 text-red-200">
            {error.message}
          </p>
        ) : null}
      </div>
      <input type="hidden" name="form_started" value={formStarted} />
      {proof.state === "solved" ? <input type="hidden" name="crowd_proof" value={proof.value} /> : null}
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
      <Button type="submit" size="lg" disabled={submitting || waitingForProof} aria-busy={submitting || waitingForProof} className="w-full sm:w-auto">
        {submitting || waitingForProof ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : null}
        {submitLabel}
      </Button>
      <p aria-live="polite" className="text-sm text-mist-400">
        {waitingForProof ? "A moment: your browser is doing the short check this site asks for at busy times." : ""}
      </p>
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

type CrowdProof = { state: "none" } | { state: "solving" } | { state: "solved"; value: string } | { state: "failed" };

/**
 * Solves the site's crowd challenge (a proof of work, ALTCHA's protocol) in the background: the
 * site asks for it only when many applications arrive at once, and a person never waits for it.
 * The solver is loaded only when there is a challenge. A failure (an old browser) leaves the form
 * as it is without JavaScript: at busy times, the site then asks to try again in a minute.
 */
function useCrowdProof(challengeJson: string | null): CrowdProof {
  const [result, setResult] = useState<{ challenge: string; value: string | null } | null>(null);
  useEffect(() => {
    if (!challengeJson) return;
    const controller = new AbortController();
    (async () => {
      const [{ solveChallenge }, { deriveKey }] = await Promise.all([import("altcha-lib"), import("altcha-lib/algorithms/web/pbkdf2")]);
      const challenge = JSON.parse(challengeJson);
      const solution = await solveChallenge({ challenge, deriveKey, controller });
      if (!solution) throw new Error("no solution found");
      const json = JSON.stringify({ challenge, solution: { counter: solution.counter, derivedKey: solution.derivedKey } });
      if (!controller.signal.aborted) {
        setResult({ challenge: challengeJson, value: btoa(json).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "") });
      }
    })().catch(() => {
      if (!controller.signal.aborted) setResult({ challenge: challengeJson, value: null });
    });
    return () => controller.abort();
  }, [challengeJson]);
  if (!challengeJson) return { state: "none" };
  if (result?.challenge !== challengeJson) return { state: "solving" };
  return result.value === null ? { state: "failed" } : { state: "solved", value: result.value };
}
