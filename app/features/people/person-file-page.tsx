/** A person's file: who they are in VRChat now, what Dwell knows of them, the staff's notes, and their merges. */
import { Suspense, use, useId } from "react";
import { Form, useFetcher } from "react-router";
import { BanDialog } from "~/components/ui/ban-dialog";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { fieldClass } from "~/components/ui/field";
import { useOutcomeToast, type ActionOutcome } from "~/components/ui/use-outcome-toast";
import { TRUST_RANK_LABEL, type TrustRank } from "~/utils/vrchat-account";
import { ageText, dateText, keyText, NOTE_LIMIT, PEOPLE_TEXTS, STANDING_TEXT } from "./people-texts";
import { parsePersonKey, type PersonKey } from "~/utils/person-key";
import { Section } from "./person-file-parts";
import { m } from "~/paraglide/messages";
import { formatCount } from "~/utils/language";
import type { MergeRecord, PersonNote } from "./people.server";

/** What VRChat says of them now (see the route), or why it cannot be said. */
export type LiveFacts =
  | {
      kind: "facts";
      displayName: string;
      thumbnailUrl: string | null;
      trustRank: TrustRank;
      joinedOn: string | null;
      shows18: boolean;
      standing: keyof typeof STANDING_TEXT;
    }
  | { kind: "none" | "not-linked" | "unavailable"; text: string };

/** `facts` may still be on its way (the route sends what VRChat says once it has answered): the line waits for it. */
function LiveLine({ facts: sent }: { facts: LiveFacts | Promise<LiveFacts> }) {
  const facts = sent instanceof Promise ? use(sent) : sent;
  if (facts.kind !== "facts") return <p className="text-sm text-mist-400" data-testid="live-facts">{facts.text}</p>;
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="live-facts">
      {facts.thumbnailUrl ? <img src={facts.thumbnailUrl} alt="" className="size-14 rounded-xl object-cover" loading="lazy" /> : null}
      <span className="font-semibold text-mist-100">{facts.displayName}</span>
      <Badge tone="aurora">{TRUST_RANK_LABEL[facts.trustRank]}</Badge>
      {facts.joinedOn ? <Badge tone="muted">{m.people_account_age({ age: ageText(facts.joinedOn, new Date()) })}</Badge> : null}
      <Badge tone={facts.shows18 ? "live" : "muted"}>{facts.shows18 ? "18+" : m.people_not_18()}</Badge>
      <Badge tone={facts.standing === "member" ? "live" : facts.standing === "banned" ? "danger" : "muted"}>{STANDING_TEXT[facts.standing]()}</Badge>
    </div>
  );
}

export function PersonHeader({
  name,
  live,
  summary,
  ban,
}: {
  name: string;
  /** VRChat's answer, or the promise of it while it is still out. */
  live: LiveFacts | Promise<LiveFacts>;
  summary: { applications: number; attended: number; noShows: number; banned: boolean };
  ban: { name: string } | null;
}) {
  const fetcher = useFetcher<ActionOutcome>();
  useOutcomeToast(fetcher);
  return (
    <Card className="space-y-4 p-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="text-xs font-semibold tracking-[0.3em] text-aurora-300 uppercase">{m.people_file()}</p>
          <h1 className="font-display text-4xl break-words text-mist-100">{name}</h1>
        </div>
        {ban && !summary.banned ? <BanDialog name={ban.name} busy={fetcher.state !== "idle"} onBan={(reason) => void fetcher.submit({ intent: "ban", reason }, { method: "post" })} /> : null}
      </div>
      <Suspense fallback={<p className="text-sm text-mist-400">{PEOPLE_TEXTS.liveLoading}</p>}>
        <LiveLine facts={live} />
      </Suspense>
      <p className="flex flex-wrap gap-2 text-sm" data-testid="person-summary">
        <Badge tone="muted">
          {summary.applications === 1 ? m.people_applications_one() : m.people_applications({ count: formatCount(summary.applications) })}
        </Badge>
        <Badge tone="live">{m.people_attended({ count: formatCount(summary.attended) })}</Badge>
        <Badge tone={summary.noShows > 0 ? "gold" : "muted"}>
          {summary.noShows === 1 ? m.people_no_shows_one() : m.people_no_shows({ count: formatCount(summary.noShows) })}
        </Badge>
        {summary.banned ? <Badge tone="danger">{m.bans_banned_badge()}</Badge> : null}
      </p>
    </Card>
  );
}

export function NotesSection({ notes }: { notes: PersonNote[] }) {
  const fetcher = useFetcher<ActionOutcome>();
  useOutcomeToast(fetcher);
  const id = useId();
  const busy = fetcher.state !== "idle";
  return (
    <Section title={m.people_notes()} count={notes.length} testId="person-notes">
      {/* Drawn afresh (empty) once a note is added; a refusal keeps what was written. */}
      <fetcher.Form key={notes.length} method="post" className="space-y-2">
        <input type="hidden" name="intent" value="note" />
        <label htmlFor={id} className="text-sm font-semibold text-mist-100">
          {m.people_add_a_note()}
        </label>
        <textarea id={id} name="body" rows={3} maxLength={NOTE_LIMIT} required className={fieldClass} />
        <Button type="submit" size="sm" disabled={busy}>
          {m.people_add_note()}
        </Button>
      </fetcher.Form>
      <ul className="space-y-2">
        {notes.map((note) => (
          <li key={note.id} className="rounded-xl border border-white/5 bg-white/5 p-3 text-sm" data-testid="person-note">
            <p className="whitespace-pre-wrap text-mist-100">{note.body}</p>
            <p className="mt-1 text-xs text-mist-400">
              {note.authorName} · {dateText(note.createdAt)}
            </p>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function mergeText(merge: MergeRecord): string {
  const from = parsePersonKey(merge.personKey);
  const into = parsePersonKey(merge.intoKey);
  const name = (key: PersonKey | null, raw: string) => (key ? keyText(key) : raw);
  const joined = m.people_joined({ from: name(from, merge.personKey), into: name(into, merge.intoKey), by: merge.mergedBy, date: dateText(merge.mergedAt) });
  return merge.splitAt ? m.people_split_by({ joined, by: merge.splitBy ?? m.bans_staff(), date: dateText(merge.splitAt) }) : joined;
}

/** The merges this file holds (each can be split off), the history of past ones, and the form that merges another file in. */
export function MergesSection({ merges, heldKeys, mayMerge }: { merges: MergeRecord[]; heldKeys: string[]; mayMerge: boolean }) {
  const fetcher = useFetcher<ActionOutcome>();
  useOutcomeToast(fetcher);
  const id = useId();
  const busy = fetcher.state !== "idle";
  return (
    <Section title={m.people_merged_files()} testId="person-merges">
      {merges.length === 0 ? <p className="text-sm text-mist-400">{m.people_no_merge()}</p> : null}
      <ul className="space-y-2 text-sm text-mist-300">
        {merges.map((merge) => (
          <li key={merge.id} className="flex flex-wrap items-center gap-2">
            <span data-testid="merge-line">{mergeText(merge)}</span>
            {mayMerge && !merge.splitAt && heldKeys.includes(merge.intoKey) ? (
              <fetcher.Form method="post">
                <input type="hidden" name="intent" value="split" />
                <input type="hidden" name="key" value={merge.personKey} />
                <Button type="submit" size="sm" variant="outline" disabled={busy}>
                  {m.people_split_off()}
                </Button>
              </fetcher.Form>
            ) : null}
          </li>
        ))}
      </ul>
      {mayMerge ? (
        <fetcher.Form method="post" className="flex flex-wrap items-end gap-2">
          <input type="hidden" name="intent" value="merge" />
          <div className="min-w-0 flex-1 basis-72 space-y-1">
            <label htmlFor={id} className="text-sm font-semibold text-mist-100">
              {m.people_bring()}
            </label>
            <input id={id} name="other" required maxLength={500} className={fieldClass} aria-describedby={`${id}-hint`} />
            <p id={`${id}-hint`} className="text-xs text-mist-400">
              {PEOPLE_TEXTS.mergeHint}
            </p>
          </div>
          <Button type="submit" size="sm" disabled={busy}>
            {m.people_merge()}
          </Button>
        </fetcher.Form>
      ) : null}
    </Section>
  );
}

/** The search in the Sanctum's header: a plain form, so it works before the page's script runs. */
export function PeopleSearchBox({ query = "" }: { query?: string }) {
  const id = useId();
  return (
    <Form method="get" action="/admin/people" role="search" aria-label={PEOPLE_TEXTS.searchLabel} className="flex items-center gap-2">
      <label htmlFor={id} className="sr-only">
        {PEOPLE_TEXTS.searchLabel}
      </label>
      <input id={id} name="q" type="search" defaultValue={query} maxLength={200} placeholder={PEOPLE_TEXTS.searchHint} className={`${fieldClass} w-64 max-w-full`} />
      <Button type="submit" size="sm" variant="outline" className="shrink-0 whitespace-nowrap">
        {m.people_find()}
      </Button>
    </Form>
  );
}
