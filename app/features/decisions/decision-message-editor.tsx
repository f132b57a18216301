import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { fieldClass } from "~/components/ui/field";
import { m } from "~/paraglide/messages";
import {
  DECISION_MESSAGE_MAX_LENGTH,
  exampleValues,
  OUTCOME_HEADING,
  renderDecisionMessage,
  type DecisionOutcome,
  type ExampleDates,
  type MessageKind,
} from "./decision-messages";

export interface MessageDraft {
  outcome: DecisionOutcome;
  body: string;
  own: boolean;
}

/**
 * One outcome's message: the text, a preview with example values (updated as the admin types), and
 * 'Save'; 'Use the default' drops this scope's own text. Posts without JavaScript too.
 */
export function DecisionMessageEditor({
  kind,
  language,
  message,
  fallbackLabel,
  discordInvite,
  exampleDates,
}: {
  kind: MessageKind;
  /** The language this text is written in. */
  language: string;
  message: MessageDraft;
  /** What an empty message falls back to, in words. */
  fallbackLabel: string;
  discordInvite: string | null;
  /** The example day the preview shows, in the page's language. */
  exampleDates: ExampleDates;
}) {
  const fetcher = useFetcher<{ ok?: boolean; error?: string; message?: string }>();
  const [body, setBody] = useState(message.body);
  // A saved or reset text from the server replaces what is in the box (React's way of following a prop).
  const [served, setServed] = useState(message.body);
  if (served !== message.body) {
    setServed(message.body);
    setBody(message.body);
  }
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.error) toast.error(fetcher.data.error);
    else if (fetcher.data.message) toast.success(fetcher.data.message);
  }, [fetcher.state, fetcher.data]);
  const id = `message-${kind}-${message.outcome}-${language}`;
  const preview = renderDecisionMessage(body, exampleValues(kind, discordInvite, exampleDates));

  return (
    <Card className="p-5">
      <fetcher.Form method="post" className="space-y-3">
        <input type="hidden" name="kind" value={kind} />
        <input type="hidden" name="outcome" value={message.outcome} />
        <input type="hidden" name="language" value={language} />
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <label htmlFor={id} className="font-display text-xl text-mist-100">
            {OUTCOME_HEADING[message.outcome]()}
          </label>
          <span className="text-xs text-mist-400">{message.own ? m.dm_written_here() : m.dm_using({ fallback: fallbackLabel })}</span>
        </div>
        <textarea
          id={id}
          name="body"
          rows={4}
          maxLength={DECISION_MESSAGE_MAX_LENGTH}
          lang={language}
          value={body}
          onChange={(event) => setBody(event.target.value)}
          className={fieldClass}
          aria-describedby={`${id}-preview`}
        />
        <div id={`${id}-preview`} className="rounded-lg border border-aurora-400/15 bg-white/5 p-3">
          <p className="text-xs font-semibold tracking-wide text-mist-400 uppercase">{m.dm_preview()}</p>
          <p className="mt-1 text-sm whitespace-pre-line text-mist-100" lang={language} data-testid={`preview-${message.outcome}`}>
            {preview}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" size="sm" name="intent" value="save" aria-disabled={fetcher.state !== "idle" || undefined}>
            {m.dm_save()}
          </Button>
          {message.own ? (
            <Button type="submit" size="sm" variant="ghost" name="intent" value="reset">
              {m.dm_use({ fallback: fallbackLabel })}
            </Button>
          ) : null}
        </div>
      </fetcher.Form>
    </Card>
  );
}
