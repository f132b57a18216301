import { useId, useState } from "react";
import { isConfirmedLink } from "~/db/enums";
import { flagText } from "~/utils/screening-flags";
import { href, Link, useFetcher } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { BanDialog } from "~/components/ui/ban-dialog";
import { EmptyState } from "~/components/ui/empty-state";
import { TRUST_RANK_LABEL } from "~/utils/vrchat-account";
import type { JoinRequestView } from "./join-requests.server";
import { useOutcomeToast } from "~/components/ui/use-outcome-toast";
import { m } from "~/paraglide/messages";
import { formatCount, formatShortDayUTC } from "~/utils/language";
import { statusLabel } from "~/utils/status-label";
import { personPath } from "~/utils/person-key";

export const JOIN_REQUESTS_INTRO = m.jr_intro;

type Result = { ok?: boolean; error?: string; message?: string };

const dateText = formatShortDayUTC;

/** 'Leave it for staff' or 'Apply the screening rules': the owner's choice, shown to everyone. */
export function JoinRequestSettings({ byRules, mayChoose }: { byRules: boolean; mayChoose: boolean }) {
  const fetcher = useFetcher<Result>();
  useOutcomeToast(fetcher);
  const [choice, setChoice] = useState(byRules ? "rules" : "staff");
  return (
    <Card className="p-5">
      <fetcher.Form method="post" className="space-y-3">
        <input type="hidden" name="intent" value="rules" />
        <fieldset className="space-y-2" disabled={!mayChoose}>
          <legend className="text-sm font-semibold text-mist-100">{m.jr_no_application()}</legend>
          {[
            ["staff", m.jr_for_staff()],
            ["rules", m.jr_apply_rules()],
          ].map(([value, label]) => (
            <label key={value} className="flex items-center gap-3 text-sm text-mist-100">
              <input type="radio" name="handling" value={value} checked={choice === value} onChange={() => setChoice(value!)} className="size-4 accent-ember-400" />
              {label}
            </label>
          ))}
          <p className="text-xs text-mist-400">
            {m.jr_rules_hint()}
          </p>
        </fieldset>
        {mayChoose ? (
          <Button type="submit" size="sm" disabled={fetcher.state !== "idle"}>
            {m.bans_save()}
          </Button>
        ) : (
          <p className="text-xs text-mist-400">{m.bans_owner_only()}</p>
        )}
      </fetcher.Form>
    </Card>
  );
}

/** What the rules say of a request, or what became of it. */
function stateOf(request: JoinRequestView): { tone: "live" | "danger" | "gold" | "muted"; text: string } | null {
  const who = request.decidedBy ?? "";
  if (request.decision === "accept") return { tone: "live", text: m.jr_accepted_by({ who }) };
  if (request.decision === "reject") return { tone: "danger", text: request.block ? m.jr_rejected_blocked_by({ who }) : m.jr_rejected_by({ who }) };
  if (request.gone) return { tone: "muted", text: m.jr_gone() };
  const screening = request.screening;
  if (!screening) return null;
  if (screening.state === "waiting") return { tone: "gold", text: m.card_screening_waits() };
  if (screening.state !== "done") return { tone: "muted", text: m.jr_being_screened() };
  if (screening.flag) return { tone: "gold", text: flagText(screening.flag) };
  if (screening.ruleName && screening.outcome === "approve") return { tone: "muted", text: m.jr_rule_accept({ rule: screening.ruleName }) };
  if (screening.ruleName && screening.outcome === "reject") return { tone: "muted", text: m.jr_rule_reject({ rule: screening.ruleName }) };
  return { tone: "muted", text: m.jr_no_rule() };
}

function Facts({ request }: { request: JoinRequestView }) {
  const facts = request.facts;
  if (!facts) return <p className="text-sm text-mist-400">{m.jr_not_read()}</p>;
  const age = request.accountAgeDays;
  return (
    <p className="flex flex-wrap gap-x-3 gap-y-1 text-sm text-mist-300">
      <span>{TRUST_RANK_LABEL[facts.trustRank]}</span>
      <span>{age === null ? m.jr_age_unknown() : m.jr_age({ days: formatCount(age) })}</span>
      <span>{facts.shows18 ? m.jr_shows_18() : m.jr_no_18()}</span>
    </p>
  );
}

const DECISIONS = [
  ["accept", m.jr_accept, "primary"],
  ["reject", m.jr_reject, "outline"],
  ["block", m.jr_block, "danger"],
] as const;

/** The requests waiting (oldest first), then those answered in the last week; each decided alone or with others. */
export function JoinRequestList({
  requests,
  acts,
  actions,
  mayBan,
  files = false,
}: {
  requests: JoinRequestView[];
  acts: boolean;
  actions: Record<string, { status: string; text: string }>;
  /** Owners and admins may ban from here. */
  mayBan: boolean;
  /** The viewer may open each person's file. */
  files?: boolean;
}) {
  const fetcher = useFetcher<Result>();
  useOutcomeToast(fetcher);
  const [selected, setSelected] = useState<string[]>([]);
  const id = useId();
  const open = requests.filter((request) => !request.gone && !request.decision);
  const busy = fetcher.state !== "idle";
  if (requests.length === 0) return <EmptyState title={m.jr_none()} description={m.jr_none_hint()} />;
  const decide = (decision: string, ids: string[]) => {
    const form = new FormData();
    form.set("intent", "decide");
    form.set("decision", decision);
    for (const one of ids) form.append("ids", one);
    void fetcher.submit(form, { method: "post" });
    setSelected((now) => now.filter((one) => !ids.includes(one)));
  };
  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id={`${id}-heading`} className="font-display text-2xl text-mist-100">
          {m.jr_waiting({ count: formatCount(open.length) })}
        </h2>
        {acts && open.length > 0 ? (
          <div className="flex flex-wrap items-center gap-2" role="group" aria-label={m.jr_selected_group()}>
            <label className="flex items-center gap-2 text-sm text-mist-200">
              <input
                type="checkbox"
                checked={selected.length === open.length}
                onChange={(event) => setSelected(event.target.checked ? open.map((request) => request.id) : [])}
                className="size-4 accent-ember-400"
              />
              {m.jr_select_all()}
            </label>
            {DECISIONS.map(([decision, label, variant]) => (
              <Button key={decision} type="button" size="sm" variant={variant} disabled={busy || selected.length === 0} onClick={() => decide(decision, selected)}>
                {m.jr_selected_button({ label: label(), count: formatCount(selected.length) })}
              </Button>
            ))}
          </div>
        ) : null}
      </div>
      <ul className="space-y-3" aria-label={m.jr_list()}>
        {requests.map((request) => {
          const state = stateOf(request);
          const waiting = !request.gone && !request.decision;
          return (
            <li key={request.id}>
              <Card className="flex flex-wrap items-start gap-4 p-4" aria-busy={busy}>
                {acts && waiting ? (
                  <input
                    type="checkbox"
                    aria-label={m.jr_select({ name: request.displayName })}
                    checked={selected.includes(request.id)}
                    onChange={(event) => setSelected((now) => (event.target.checked ? [...now, request.id] : now.filter((one) => one !== request.id)))}
                    className="mt-1 size-4 accent-ember-400"
                  />
                ) : null}
                {request.thumbnailUrl ? (
                  <img src={request.thumbnailUrl} alt="" width={64} height={48} className="h-12 w-16 rounded-md object-cover" loading="lazy" referrerPolicy="no-referrer" />
                ) : (
                  <div className="h-12 w-16 rounded-md bg-white/5" aria-hidden="true" />
                )}
                <div className="min-w-0 flex-1 basis-56 space-y-1">
                  <h3 className="font-semibold break-words text-mist-100">
                    <a href={`https://vrchat.com/home/user/${request.userId}`} target="_blank" rel="noopener noreferrer" className="hover:underline">
                      {request.displayName}
                    </a>
                    {files ? (
                      <Link to={personPath({ vrchatUserId: request.userId })!} className="ml-2 text-sm font-normal text-aurora-300 underline-offset-2 hover:underline">
                        {m.review_person_file()}
                      </Link>
                    ) : null}
                  </h3>
                  <Facts request={request} />
                  <p className="text-xs text-mist-400">{request.requestedAt ? m.jr_asked_on({ date: dateText(request.requestedAt) }) : m.jr_asked_unknown()}</p>
                  {request.application && !isConfirmedLink(request.application.linkedHow) ? (
                    <p className="text-sm text-ember-200" data-testid="join-request-claim">
                      {m.jr_application_names_them({ name: request.application.name })}
                      <Link to={`${href("/admin/applications")}?${new URLSearchParams({ q: request.application.name, status: "all" })}`} className="text-aurora-300 underline-offset-2 hover:underline">
                        {statusLabel(request.application.status)}
                      </Link>
                      {m.jr_application_names_them_end()}
                    </p>
                  ) : request.application ? (
                    <p className="text-sm text-mist-200">
                      {m.jr_applied()}
                      <Link to={`${href("/admin/applications")}?${new URLSearchParams({ q: request.application.name, status: "all" })}`} className="text-aurora-300 underline-offset-2 hover:underline">
                        {statusLabel(request.application.status)}
                      </Link>
                    </p>
                  ) : (
                    <p className="text-sm text-mist-400">{m.jr_no_site_application()}</p>
                  )}
                  {state ? (
                    <p data-testid="join-request-state">
                      <Badge tone={state.tone}>{state.text}</Badge>
                    </p>
                  ) : null}
                  {actions[request.id] ? (
                    <p data-testid="join-request-action" className={actions[request.id]!.status === "failed" ? "text-sm text-red-300" : "text-sm text-mist-300"}>
                      {m.jr_in_vrchat({ text: actions[request.id]!.text })}
                    </p>
                  ) : null}
                </div>
                {acts && waiting ? (
                  <div className="flex flex-wrap gap-2" role="group" aria-label={m.jr_answer({ name: request.displayName })}>
                    {DECISIONS.map(([decision, label, variant]) => (
                      <Button key={decision} type="button" size="sm" variant={variant} disabled={busy} onClick={() => decide(decision, [request.id])}>
                        {label()}
                      </Button>
                    ))}
                  </div>
                ) : null}
                {mayBan && acts ? <BanDialog name={request.displayName} busy={busy} onBan={(reason) => void fetcher.submit({ intent: "ban", id: request.id, reason }, { method: "post" })} /> : null}
              </Card>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
