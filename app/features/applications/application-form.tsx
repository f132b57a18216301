import { Loader2 } from "lucide";
import { Icon } from "~/components/ui/icon";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { Form, useNavigation } from "react-router";
import { showToast } from "~/components/ui/lazy-toast";
import { Button } from "~/components/ui/button";
import { clsx } from "clsx";
import { useHydrated } from "~/utils/use-hydrated";
import { askedIn, fieldOf, NO, shownQuestionIds, YES, type AnswerValue, type ShowIf } from "~/utils/form-questions";
import { currentLanguage } from "~/utils/language";
import { answerFieldName, checkAnswers, type FormQuestion } from "./answers";
import { m } from "~/paraglide/messages";
import { QuestionField } from "./question-field";

/** The forms' send buttons (spec). */
export const SUBMIT_LABEL = { group: m.form_submit_group, event: m.form_submit_event } as const;

/** What the editor's preview says of answers the form would take. */
export const previewAccepted = () => m.form_preview_accepted();

/** The server refuses bodies over this size (413); the form says so before sending. */
export const MAX_FORM_BYTES = 256 * 1024;

export interface FormFailure {
  ok: false;
  error: string;
  questionId?: string;
  values?: Record<string, AnswerValue>;
}

/** The answers in the form now, by question id, as the conditions read them. */
function answersIn(form: FormData, questions: readonly FormQuestion[]): Record<string, AnswerValue> {
  return Object.fromEntries(
    questions.map((question) => {
      const all = form.getAll(answerFieldName(question.id)).filter((value): value is string => typeof value === "string").map((value) => value.trim());
      return [question.id, question.questionType === "checkboxes" ? all : (all[0] ?? "")];
    }),
  );
}

/** A condition as the form says it where it cannot hide the question (no JavaScript). */
function onlyIfText(showIf: ShowIf | null | undefined, questions: readonly FormQuestion[]): string | null {
  if (!showIf) return null;
  const found = questions.find((question) => question.id === showIf.questionId);
  if (!found) return null;
  const earlier = askedIn(found, currentLanguage());
  const label = (value: string) => (found.questionType === "yes_no" ? (value === YES ? m.form_yes() : value === NO ? m.form_no() : value) : earlier.option(value));
  const values = showIf.values.map((value) => m.form_quoted({ value: label(value) })).join(m.form_or());
  if (showIf.when === "answered") return m.form_only_if_answered({ question: earlier.question });
  return showIf.when === "is"
    ? m.form_only_if_is({ question: earlier.question, values })
    : m.form_only_if_is_not({ question: earlier.question, values });
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
  values,
  formStarted,
  crowdChallenge,
  preview = false,
}: {
  questions: FormQuestion[];
  submitLabel: string;
  failure: FormFailure | undefined;
  /** The answers the form opens with (an applicant editing theirs). */
  values?: Record<string, AnswerValue>;
  /** When the form was served, signed by the server (its fill-time check); none for an edit. */
  formStarted?: string;
  /** The crowd challenge (JSON) the script solves while the person fills the form in; null: none. */
  crowdChallenge?: string | null;
  /** The question editor's preview: the answers are checked as the server would, and never sent. */
  preview?: boolean;
}) {
  // The solver is fetched once the person starts on the form: a visit that only looks costs nothing.
  const [engaged, setEngaged] = useState(false);
  const proof = useCrowdProof(engaged ? (crowdChallenge ?? null) : null);
  const pendingProof = Boolean(crowdChallenge) && (!engaged || proof.state === "solving");
  const [waitingForProof, setWaitingForProof] = useState(false);
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  const [clientError, setClientError] = useState<{ message: string; questionId?: string } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const errorId = useId();
  // Which questions their conditions show: from the answers sent before until the script reads the
  // form itself; a form without JavaScript shows every question, each condition said in words.
  const [shown, setShown] = useState(() => shownQuestionIds(questions, failure?.values ?? values ?? {}));
  const conditional = questions.some((question) => question.showIf);
  // Fields are disabled (not sent) only once the script can show them again.
  const scripted = useHydrated();
  function readConditions() {
    if (conditional && formRef.current) setShown(shownQuestionIds(questions, answersIn(new FormData(formRef.current), questions)));
  }

  // A new answer from the server replaces whatever the browser found before it.
  const [seenFailure, setSeenFailure] = useState(failure);
  if (failure !== seenFailure) {
    setSeenFailure(failure);
    setClientError(null);
    if (failure?.values) setShown(shownQuestionIds(questions, failure.values));
  }
  const error = clientError ?? (failure ? { message: failure.error, questionId: failure.questionId } : null);

  useEffect(() => {
    if (!failure) return;
    showToast("error", failure.error);
    if (failure.questionId) {
      formRef.current?.querySelector<HTMLElement>(`[name="${answerFieldName(failure.questionId)}"]`)?.focus();
    }
  }, [failure]);

  // Sent as soon as the check is done (onSubmit then lets it go).
  useEffect(() => {
    if (waitingForProof && !pendingProof) formRef.current?.requestSubmit();
  }, [waitingForProof, pendingProof]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (!pendingProof) setWaitingForProof(false);
    const form = new FormData(event.currentTarget);
    const checked = checkAnswers(questions, (name) => fieldOf(form, name));
    const problem = !checked.ok
      ? { message: checked.message, questionId: checked.questionId }
      : formBytes(form) > MAX_FORM_BYTES
        ? { message: m.form_too_long() }
        : null;
    if (!problem && preview) {
      event.preventDefault();
      setClientError(null);
      showToast("success", previewAccepted());
      return;
    }
    if (!problem) {
      setClientError(null);
      // The check for busy times is not done yet (sent within a second of opening): sent once it is.
      if (pendingProof) {
        setEngaged(true);
        event.preventDefault();
        setWaitingForProof(true);
      }
      return;
    }
    event.preventDefault();
    setClientError(problem);
    showToast("error", problem.message);
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
      onChange={readConditions}
      onFocus={() => setEngaged(true)}
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
      {formStarted === undefined ? null : <input type="hidden" name="form_started" value={formStarted} />}
      {proof.state === "solved" ? <input type="hidden" name="crowd_proof" value={proof.value} /> : null}
      {formStarted === undefined ? null : <Honeypot />}
      {conditional ? (
        <noscript>
          <style>{".conditional-question{display:block!important}.conditional-note{display:block!important}"}</style>
        </noscript>
      ) : null}
      {questions.map((question) => {
        const hidden = !shown.has(question.id);
        const field = (
          <QuestionField
            question={question}
            invalid={error?.questionId === question.id}
            errorId={errorId}
            value={failure?.values ? failure.values[question.id] : values?.[question.id]}
            onlyIf={onlyIfText(question.showIf, questions)}
          />
        );
        if (!question.showIf) return <div key={question.id}>{field}</div>;
        // A hidden question's fields are disabled: they are not sent, and the server ignores them anyway.
        return (
          <fieldset key={question.id} className={clsx("conditional-question", hidden && "hidden")} disabled={scripted && hidden} data-testid="conditional-question">
            {field}
          </fieldset>
        );
      })}
      <Button type="submit" size="lg" disabled={submitting || waitingForProof} aria-busy={submitting || waitingForProof} className="w-full sm:w-auto">
        {submitting || waitingForProof ? <Icon node={Loader2} className="size-4 animate-spin" /> : null}
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
      <label htmlFor="application-website">{m.form_honeypot()}</label>
      <input id="application-website" type="text" name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}

type CrowdProof = { state: "none" } | { state: "solving" } | { state: "solved"; value: string } | { state: "failed" };

/**
 * Solves the site's crowd challenge (a proof of work, ALTCHA's protocol) in the background: the
 * site asks for it only when many applications arrive at once, and a person never waits for it.
 * The solver is loaded only when there is a challenge and the person has started on the form. A
 * failure (an old browser) leaves the form as it is without JavaScript: at busy times, the site
 * then asks to try again in a minute.
 */
function useCrowdProof(challengeText: string | null): CrowdProof {
  const [result, setResult] = useState<{ challenge: string; value: string | null } | null>(null);
  useEffect(() => {
    if (!challengeText) return;
    const controller = new AbortController();
    (async () => {
      const [{ solveChallenge }, { deriveKey }] = await Promise.all([import("altcha-lib"), import("altcha-lib/algorithms/web/pbkdf2")]);
      // The site sends it as base64url JSON.
      const challenge = JSON.parse(atob(challengeText.replaceAll("-", "+").replaceAll("_", "/")));
      const solution = await solveChallenge({ challenge, deriveKey, controller });
      if (!solution) throw new Error("no solution found");
      const json = JSON.stringify({ challenge, solution: { counter: solution.counter, derivedKey: solution.derivedKey } });
      if (!controller.signal.aborted) {
        setResult({ challenge: challengeText, value: btoa(json).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "") });
      }
    })().catch(() => {
      if (!controller.signal.aborted) setResult({ challenge: challengeText, value: null });
    });
    return () => controller.abort();
  }, [challengeText]);
  if (!challengeText) return { state: "none" };
  if (result?.challenge !== challengeText) return { state: "solving" };
  return result.value === null ? { state: "failed" } : { state: "solved", value: result.value };
}
