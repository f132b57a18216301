/** Where an announcement went, place by place: published (with a link), waiting, failed with why and 'Try again'. */
import { Form } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { m } from "~/paraglide/messages";
import { dateFormat } from "~/utils/language";
import { readProblem } from "~/utils/problem-text";
import { placeName } from "./announcement-editor";
import type { PlaceView } from "./announcement-input";

/** Why a place waits or failed, in plain words: a code the worker kept, and the service's own words. */
export function placeProblem(problem: string | null): string | null {
  if (!problem) return null;
  const { code, words } = readProblem(problem);
  const texts: Record<string, () => string> = {
    vrchat_forbidden: () => m.ann_problem_vrchat_forbidden({ words }),
    vrchat_refused: () => m.ann_problem_vrchat_refused({ words }),
    vrchat_gone: () => m.ann_problem_vrchat_gone(),
    vrchat_down: () => m.ann_problem_vrchat_down(),
    vrchat_slow_down: () => m.ann_problem_vrchat_slow_down(),
    discord_forbidden: () => m.ann_problem_discord_forbidden(),
    discord_channel_gone: () => m.ann_problem_discord_channel_gone(),
    discord_gone: () => m.ann_problem_discord_gone(),
    discord_token: () => m.ann_problem_discord_token(),
    discord_refused: () => m.ann_problem_discord_refused({ words }),
    discord_down: () => m.ann_problem_discord_down(),
    discord_slow_down: () => m.ann_problem_discord_slow_down(),
  };
  return texts[code]?.() ?? m.ann_problem_unexpected({ words: words || code });
}

const STATE_TONE = { published: "live", waiting: "gold", scheduled: "aurora", draft: "muted", failed: "danger", removed: "muted", gone: "danger" } as const;

export function stateName(state: PlaceView["state"]): string {
  switch (state) {
    case "published":
      return m.ann_state_published();
    case "waiting":
      return m.ann_state_waiting();
    case "scheduled":
      return m.ann_state_scheduled();
    case "draft":
      return m.ann_state_draft();
    case "failed":
      return m.ann_state_failed();
    case "removed":
      return m.ann_state_removed();
    case "gone":
      return m.ann_state_gone();
  }
}

/** The places in a line of small badges (the list). */
export function PlaceBadges({ places }: { places: PlaceView[] }) {
  return (
    <ul className="flex flex-wrap gap-2">
      {places.map((view) => (
        <li key={view.place}>
          <Badge tone={STATE_TONE[view.state]}>
            {placeName(view.place)}: {stateName(view.state)}
          </Badge>
        </li>
      ))}
    </ul>
  );
}

/** The card's places, each with what happened and, when it failed, 'Try again'. */
export function PlaceStates({ places, mayRetry }: { places: PlaceView[]; mayRetry: boolean }) {
  return (
    <ul className="divide-y divide-aurora-400/10">
      {places.map((view) => {
        const why = placeProblem(view.problem);
        return (
          <li key={view.place} className="flex flex-wrap items-center gap-3 py-3">
            <span className="w-24 text-sm font-medium text-mist-100">{placeName(view.place)}</span>
            <Badge tone={STATE_TONE[view.state]}>{stateName(view.state)}</Badge>
            {view.url ? (
              <a href={view.url} className="text-sm text-aurora-300 underline underline-offset-2" rel="noopener noreferrer" target={view.place === "site" ? undefined : "_blank"}>
                {m.ann_open_there()}
              </a>
            ) : null}
            {why && (view.state === "failed" || view.state === "waiting" || view.state === "gone") ? <p className="basis-full text-sm text-mist-300 sm:basis-auto">{why}</p> : null}
            {view.state === "failed" && mayRetry ? (
              <Form method="post" className="ml-auto">
                <input type="hidden" name="intent" value="retry" />
                <input type="hidden" name="place" value={view.place} />
                <Button type="submit" size="sm" variant="outline">
                  {m.ann_try_again()}
                </Button>
              </Form>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/** When it was or will be published, in the reader's zone. */
export function publishedWhen(publishAt: string | null, now: string, timeZone: string): string {
  if (!publishAt) return m.ann_when_draft();
  const when = dateFormat({ dateStyle: "medium", timeStyle: "short", timeZone }).format(new Date(publishAt));
  return Date.parse(publishAt) > Date.parse(now) ? m.ann_when_scheduled({ when }) : m.ann_when_published({ when });
}
