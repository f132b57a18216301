import { clsx } from "clsx";
import { Download, Search } from "lucide";
import { Icon } from "~/components/ui/icon";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Form, useLocation, useNavigation, useSearchParams } from "react-router";
import { Button } from "~/components/ui/button";
import { fieldClass, fieldLook } from "~/components/ui/field";
import { m } from "~/paraglide/messages";
import { formatCount } from "~/utils/language";
import { useHydrated } from "~/utils/use-hydrated";
import type { StatusFilter } from "./review.server";

/** How long typing may pause before the list follows it. */
export const SEARCH_DEBOUNCE_MS = 250;

const FILTER_LABEL: Record<StatusFilter, () => string> = {
  all: m.filter_all,
  pending: m.status_label_pending,
  approved: m.status_label_approved,
  rejected: m.status_label_rejected,
  waitlist: m.status_label_waitlist,
  withdrawn: m.status_label_withdrawn,
  spam: m.filter_spam,
};

/**
 * Search and status filter. The list follows as the admin types (after a short pause) and as soon
 * as the status changes; the URL keeps the state (replaced, so Back leaves the screen rather than
 * stepping through keystrokes). Without JavaScript it is a plain GET form with an 'Apply' button.
 */
/** A question whose answers the list may be filtered by (Multiple Choice, Checkboxes, Yes / No). */
export interface AnswerChoice {
  questionId: string;
  question: string;
  values: string[];
}

export function ReviewFilters({
  mode,
  exportHref,
  canExport,
  matching,
  answerChoices = [],
}: {
  /** The group has no places, so its applications have no waitlist to filter on. */
  mode: "event" | "group";
  exportHref: string | null;
  canExport: boolean;
  /** How many applications match the search and filter, announced to screen readers. */
  matching: number;
  answerChoices?: readonly AnswerChoice[];
}) {
  const [params, setParams] = useSearchParams();
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const location = useLocation();
  const q = params.get("q") ?? "";
  const status = params.get("status") ?? "all";
  const answer = params.get("answer") ?? "";
  // Shown at once, while the list loads (the URL changes only when it has).
  const [text, setText] = useState(q);
  const [chosen, setChosen] = useState(status);
  const [shownStatus, setShownStatus] = useState(status);
  if (shownStatus !== status) {
    setShownStatus(status);
    setChosen(status);
  }
  const input = useRef<HTMLInputElement>(null);
  const typing = useRef<ReturnType<typeof setTimeout>>(undefined);

  // The URL also changes without typing (Back, a link): the box follows unless it is being typed in.
  useEffect(() => {
    if (document.activeElement !== input.current) setText(q);
  }, [q]);
  useEffect(() => () => clearTimeout(typing.current), []);
  // Leaving the page cancels a search still being typed: its timer must not bring the list back over the page asked for.
  const leaving = navigation.state !== "idle" && navigation.location.pathname !== location.pathname;
  useEffect(() => {
    if (leaving) clearTimeout(typing.current);
  }, [leaving]);

  function show(changes: { q?: string; status?: string; answer?: string }) {
    clearTimeout(typing.current);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [name, value] of Object.entries(changes)) {
          if (value && value !== "all") next.set(name, value);
          else next.delete(name);
        }
        // Another search is another list: back to its first page.
        next.delete("page");
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    show({ q: text.trim(), status: chosen, answer });
  }

  const searching = navigation.state === "loading" && navigation.location.pathname === location.pathname;

  return (
    <Form method="get" className="flex flex-wrap items-end gap-3" role="search" onSubmit={hydrated ? onSubmit : undefined}>
      <div className="min-w-56 flex-1 space-y-1">
        <label htmlFor="review-search" className="sr-only">{m.filter_search()}</label>
        <div className="relative">
          <Icon node={Search} className="absolute top-3 left-3 size-4 text-mist-400" />
          <input
            ref={input}
            id="review-search"
            name="q"
            type="search"
            value={text}
            onChange={(event) => {
              const value = event.target.value;
              setText(value);
              clearTimeout(typing.current);
              typing.current = setTimeout(() => show({ q: value.trim() }), SEARCH_DEBOUNCE_MS);
            }}
            placeholder={m.filter_search_hint()}
            autoComplete="off"
            className={clsx(fieldLook, "pr-3 pl-9")}
          />
        </div>
      </div>
      <div className="space-y-1">
        <label htmlFor="review-status" className="block text-sm font-semibold text-mist-100">{m.filter_status()}</label>
        <select
          id="review-status"
          name="status"
          value={chosen}
          onChange={(event) => {
            setChosen(event.target.value);
            show({ q: text.trim(), status: event.target.value });
          }}
          className={fieldClass}
        >
          {(Object.keys(FILTER_LABEL) as StatusFilter[]).filter((value) => mode === "event" || (value !== "waitlist" && value !== "withdrawn")).map((value) => (
            <option key={value} value={value}>{FILTER_LABEL[value]()}</option>
          ))}
        </select>
      </div>
      {answerChoices.length > 0 ? (
        <div className="space-y-1">
          <label htmlFor="review-answer" className="block text-sm font-semibold text-mist-100">{m.filter_answer()}</label>
          <select
            id="review-answer"
            name="answer"
            // Keyed by the URL's answer: Back or a link sets the select again.
            key={answer}
            defaultValue={answer}
            onChange={(event) => show({ q: text.trim(), status: chosen, answer: event.target.value })}
            className={clsx(fieldClass, "max-w-xs")}
          >
            <option value="">{m.filter_any_answer()}</option>
            {answerChoices.map((choice) => (
              <optgroup key={choice.questionId} label={choice.question}>
                {choice.values.map((value) => (
                  <option key={value} value={`${choice.questionId}:${value}`}>
                    {m.filter_answer_is({ question: choice.question, value })}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </div>
      ) : null}
      {hydrated ? null : <Button type="submit" variant="outline">{m.filter_apply()}</Button>}
      {exportHref ? (
        canExport ? (
          <Button asChild variant="gold">
            <a href={exportHref} download>
              <Icon node={Download} className="size-4" />
              {m.filter_export()}
            </a>
          </Button>
        ) : (
          <Button variant="gold" disabled>
            <Icon node={Download} className="size-4" />
            {m.filter_export()}
          </Button>
        )
      ) : null}
      <p className="w-full text-sm text-mist-400" role="status">
        {searching ? m.filter_searching() : matching === 1 ? m.filter_matches_one() : m.filter_matches({ count: formatCount(matching) })}
      </p>
    </Form>
  );
}
