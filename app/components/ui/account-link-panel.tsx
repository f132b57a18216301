import { useEffect, useId, type ReactNode } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { Button } from "./button";
import { m } from "~/paraglide/messages";
import { fieldClass } from "./field";

export interface LinkCandidate {
  id: string;
  displayName: string;
  /** Where it was found, shown above it. */
  sourceLabel?: string;
}

export interface AccountLookup<C extends LinkCandidate> {
  linked: C | null;
  candidates: C[];
  error: string | null;
  /** What the decision will link, or why a candidate that looks like the applicant will not be. */
  note?: string | null;
  /** The linked account was matched by name only: staff may confirm it is theirs ('Confirm: this is them'). */
  confirmable?: boolean;
}

/**
 * Who an applicant is in another service: the account linked to the application, the candidates a
 * lookup found, 'This is them', and a field for a pasted link or id. The lookup runs when the panel
 * is first shown; its forms post to the page's own action.
 */
export function AccountLinkPanel<C extends LinkCandidate>({
  lookupUrl,
  applicationId,
  intents,
  renderPerson,
  texts,
}: {
  lookupUrl: string;
  applicationId: string;
  intents: { link: string; unlink: string };
  renderPerson: (candidate: C) => ReactNode;
  texts: { candidates: string; none: string; noneElse: string; paste: string; placeholder: string; looking: string };
}) {
  const lookup = useFetcher<AccountLookup<C>>();
  const change = useFetcher<{ ok?: boolean; error?: string; message?: string }>();
  const inputId = useId();

  useEffect(() => {
    if (lookup.state === "idle" && !lookup.data) lookup.load(lookupUrl);
    // Once, when the panel is first shown.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    if (change.state !== "idle" || !change.data) return;
    if (change.data.error) toast.error(change.data.error);
    else {
      if (change.data.message) toast.success(change.data.message);
      lookup.load(lookupUrl);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [change.state, change.data]);

  const result = lookup.data;
  const linkedId = result?.linked?.id ?? null;
  const others = result?.candidates.filter((candidate) => candidate.id !== linkedId) ?? [];
  const hidden = (intent: string) => (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={applicationId} />
    </>
  );
  return (
    <div className="space-y-4" aria-busy={lookup.state !== "idle"}>
      {result?.linked ? (
        <div className="space-y-2 rounded-lg border border-emerald-400/30 p-3" data-testid={`${intents.link}-linked`}>
          <p className="text-xs font-semibold tracking-wide text-emerald-300 uppercase">{m.link_linked()}</p>
          {renderPerson(result.linked)}
          {result.confirmable ? (
            <p className="text-sm text-ember-300" data-testid={`${intents.link}-name-only`}>
              {m.link_name_only()}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            {result.confirmable ? (
              <change.Form method="post">
                {hidden(intents.link)}
                <input type="hidden" name="account" value={result.linked.id} />
                <Button type="submit" size="sm" variant="outline">
                  {m.link_confirm()}<span className="sr-only">: {result.linked.displayName}</span>
                </Button>
              </change.Form>
            ) : null}
            <change.Form method="post">
              {hidden(intents.unlink)}
              <Button type="submit" size="sm" variant="ghost">{m.link_unlink()}</Button>
            </change.Form>
          </div>
        </div>
      ) : null}
      {lookup.state !== "idle" && !result ? <p className="text-sm text-mist-400">{texts.looking}</p> : null}
      {result?.error ? <p role="alert" className="text-sm text-red-300">{result.error}</p> : null}
      {result?.note ? <p className="text-sm text-ember-300" data-testid="link-note">{result.note}</p> : null}
      {result && !result.error ? (
        others.length === 0 ? (
          <p className="text-sm text-mist-400">{linkedId ? texts.noneElse : texts.none}</p>
        ) : (
          <ul className="space-y-2" aria-label={texts.candidates}>
            {others.map((candidate) => (
              <li key={candidate.id} className="space-y-2 rounded-lg border border-aurora-400/15 p-3">
                {candidate.sourceLabel ? <p className="text-xs text-mist-400">{candidate.sourceLabel}</p> : null}
                {renderPerson(candidate)}
                <change.Form method="post">
                  {hidden(intents.link)}
                  <input type="hidden" name="account" value={candidate.id} />
                  <Button type="submit" size="sm" variant="outline">
                    {m.link_this_is_them()}<span className="sr-only">: {candidate.displayName}</span>
                  </Button>
                </change.Form>
              </li>
            ))}
          </ul>
        )
      ) : null}
      <change.Form method="post" className="flex flex-wrap items-end gap-2">
        {hidden(intents.link)}
        <div className="min-w-0 flex-1 basis-64 space-y-1">
          <label htmlFor={inputId} className="block text-sm font-semibold text-mist-100">{texts.paste}</label>
          <input id={inputId} name="account" required placeholder={texts.placeholder} className={fieldClass} autoComplete="off" />
        </div>
        <Button type="submit" size="sm" variant="outline">{m.link_link()}</Button>
      </change.Form>
    </div>
  );
}
