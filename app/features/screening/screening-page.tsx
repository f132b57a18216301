import { ArrowDown, ArrowUp, Trash2 } from "lucide";
import { Icon } from "~/components/ui/icon";
import { useId, useState, type ReactNode } from "react";
import { useFetcher } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { EmptyState } from "~/components/ui/empty-state";
import { fieldClass } from "~/components/ui/field";
import { TRUST_RANKS, TRUST_RANK_LABEL } from "~/utils/vrchat-account";
import { conditionText, outcomeText, type ChoiceQuestion } from "./rule-form";
import type { Rule } from "./screening-rules";
import type { TrialResult } from "./screening-trial";
import { TrialView } from "./screening-trial-view";
import { useOutcomeToast } from "~/components/ui/use-outcome-toast";
import { m } from "~/paraglide/messages";
import { formatCount } from "~/utils/language";

type Result = { ok?: boolean; error?: string; message?: string | null; trial?: TrialResult };

function scopeText(rule: Rule, events: { id: string; title: string }[]) {
  if (rule.scope.kind === "group") return m.scr_group_form();
  if (rule.scope.kind === "events") return m.scr_every_event();
  const { eventId } = rule.scope;
  return m.scr_event({ title: events.find((event) => event.id === eventId)?.title ?? m.scr_event_gone() });
}

/** The rules in their order, each with its conditions and outcome, to move or delete. */
export function RuleList({ rules, events }: { rules: Rule[]; events: { id: string; title: string }[] }) {
  if (rules.length === 0) {
    return <EmptyState title={m.scr_no_rules()} description={m.scr_no_rules_hint()} />;
  }
  return (
    <section aria-labelledby="rules-heading" className="space-y-3">
      <h2 id="rules-heading" className="font-display text-2xl text-mist-100">
        {m.scr_rules({ count: formatCount(rules.length) })}
      </h2>
      <ol className="space-y-3" aria-label={m.scr_rules_label()}>
        {rules.map((rule, index) => (
          <li key={rule.id}>
            <RuleCard rule={rule} place={index + 1} first={index === 0} last={index === rules.length - 1} scope={scopeText(rule, events)} />
          </li>
        ))}
      </ol>
    </section>
  );
}

function RuleCard({ rule, place, first, last, scope }: { rule: Rule; place: number; first: boolean; last: boolean; scope: string }) {
  const fetcher = useFetcher<Result>();
  useOutcomeToast(fetcher);
  const busy = fetcher.state !== "idle";
  const move = (direction: "up" | "down", label: string, icon: ReactNode, disabled: boolean) => (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="move" />
      <input type="hidden" name="id" value={rule.id} />
      <input type="hidden" name="direction" value={direction} />
      <Button type="submit" size="sm" variant="ghost" disabled={disabled || busy} aria-label={m.scr_action_on({ action: label, name: rule.name })}>
        {icon}
      </Button>
    </fetcher.Form>
  );
  const tone = rule.outcome.kind === "approve" ? "live" : rule.outcome.kind === "reject" ? "danger" : "gold";
  return (
    <Card className="p-5" aria-busy={busy}>
      <div className="flex flex-wrap items-start gap-3">
        <span className="font-display text-2xl text-aurora-300" aria-hidden="true">
          {place}.
        </span>
        <div className="min-w-0 flex-1 basis-64">
          <h3 className="font-semibold break-words text-mist-100">{rule.name}</h3>
          <p className="text-sm text-mist-400">{scope}</p>
          <ul className="mt-2 list-disc space-y-0.5 pl-5 text-sm text-mist-200">
            {rule.conditions.map((condition, i) => (
              <li key={i} className="break-words">
                {conditionText(condition)}
              </li>
            ))}
          </ul>
          <p className="mt-2">
            <Badge tone={tone}>{outcomeText(rule.outcome)}</Badge>
          </p>
          {rule.outcome.kind === "reject" ? <p className="mt-1 text-sm whitespace-pre-line text-mist-300">{rule.outcome.message}</p> : null}
        </div>
        <div className="flex items-center gap-1">
          {move("up", m.scr_move_up(), <Icon node={ArrowUp} className="size-4" />, first)}
          {move("down", m.scr_move_down(), <Icon node={ArrowDown} className="size-4" />, last)}
          <ConfirmDialog
            trigger={
              <Button type="button" size="sm" variant="ghost" aria-label={m.scr_action_on({ action: m.scr_delete(), name: rule.name })}>
                <Icon node={Trash2} className="size-4" />
              </Button>
            }
            title={m.scr_delete_title()}
            description={m.scr_delete_text({ name: rule.name })}
            action={
              <fetcher.Form method="post">
                <input type="hidden" name="intent" value="delete" />
                <input type="hidden" name="id" value={rule.id} />
                <Button type="submit" variant="danger">
                  {m.scr_delete()}
                </Button>
              </fetcher.Form>
            }
          />
        </div>
      </div>
    </Card>
  );
}

/** A condition's checkbox, and its own fields under it once ticked. */
function ConditionField({ name, label, children }: { name: string; label: string; children?: ReactNode }) {
  const [ticked, setTicked] = useState(false);
  return (
    <div className="rounded-lg border border-aurora-400/15 p-3">
      <label className="flex items-center gap-3 text-sm font-semibold text-mist-100">
        <input type="checkbox" name={name} checked={ticked} onChange={(event) => setTicked(event.target.checked)} className="size-5 accent-ember-400" />
        {label}
      </label>
      {children && ticked ? <div className="mt-3 space-y-2 pl-8">{children}</div> : null}
    </div>
  );
}

/** 'Add a rule': its name, where it applies, its conditions and its outcome. */
export function AddRuleForm({ events, questions, failure }: { events: { id: string; title: string }[]; questions: ChoiceQuestion[]; failure: string | null }) {
  const fetcher = useFetcher<Result>();
  useOutcomeToast(fetcher);
  // A new, empty form once a rule is added (its conditions' own state with it).
  const [round, setRound] = useState(0);
  const [scope, setScope] = useState("group");
  const [outcome, setOutcome] = useState("flag");
  const [question, setQuestion] = useState(questions[0]?.question ?? "");
  const id = useId();
  // Once a rule is added: a fresh form (set while rendering, from the answer not yet seen).
  const [seen, setSeen] = useState<Result | undefined>(undefined);
  if (fetcher.state === "idle" && fetcher.data?.ok && fetcher.data !== seen) {
    setSeen(fetcher.data);
    setRound((n) => n + 1);
    setScope("group");
    setOutcome("flag");
  }
  const options = questions.find((q) => q.question === question)?.options ?? [];
  return (
    <Card className="p-6">
      <h2 className="font-display text-2xl text-mist-100">{m.scr_add_rule()}</h2>
      {failure ? (
        <p role="alert" className="mt-3 text-sm text-red-300">
          {failure}
        </p>
      ) : null}
      <fetcher.Form key={round} method="post" className="mt-4 space-y-5">
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="space-y-1">
            <label htmlFor={`${id}-name`} className="block text-sm font-semibold text-mist-100">
              {m.scr_name()}
            </label>
            <input id={`${id}-name`} name="name" required maxLength={100} placeholder={m.scr_name_example()} className={fieldClass} />
          </div>
          <div className="space-y-1">
            <label htmlFor={`${id}-scope`} className="block text-sm font-semibold text-mist-100">
              {m.scr_applies_to()}
            </label>
            <select id={`${id}-scope`} name="scope" value={scope} onChange={(event) => setScope(event.target.value)} className={fieldClass}>
              <option value="group">{m.scr_group_form()}</option>
              <option value="events">{m.scr_every_event()}</option>
              {events.length > 0 ? <option value="event">{m.scr_one_event()}</option> : null}
            </select>
          </div>
          {scope === "event" ? (
            <div className="space-y-1 sm:col-span-2">
              <label htmlFor={`${id}-event`} className="block text-sm font-semibold text-mist-100">
                {m.scr_event_label()}
              </label>
              <select id={`${id}-event`} name="eventId" className={fieldClass}>
                {events.map((event) => (
                  <option key={event.id} value={event.id}>
                    {event.title}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
        </div>
        <fieldset className="space-y-2">
          <legend className="text-sm font-semibold text-mist-100">{m.scr_when_all()}</legend>
          <ConditionField name="trust" label={m.scr_trust()}>
            <select name="trustRank" aria-label={m.scr_trust_label()} defaultValue="known_user" className={fieldClass}>
              {TRUST_RANKS.map((rank) => (
                <option key={rank} value={rank}>
                  {TRUST_RANK_LABEL[rank]}
                </option>
              ))}
            </select>
          </ConditionField>
          <ConditionField name="age" label={m.scr_age()}>
            <input name="ageDays" type="number" min={0} step={1} defaultValue={30} aria-label={m.scr_days()} className={fieldClass} />
          </ConditionField>
          <ConditionField name="adult" label={m.scr_adult()} />
          <ConditionField name="bioHas" label={m.scr_bio_has()}>
            <textarea name="bioHasWords" rows={2} aria-label={m.scr_bio_has_label()} className={fieldClass} />
          </ConditionField>
          <ConditionField name="bioLacks" label={m.scr_bio_lacks()}>
            <textarea name="bioLacksWords" rows={2} aria-label={m.scr_bio_lacks_label()} className={fieldClass} />
          </ConditionField>
          <ConditionField name="proven" label={m.scr_proven()} />
          <ConditionField name="banned" label={m.scr_banned()} />
          <ConditionField name="groups" label={m.scr_groups()}>
            <textarea name="groupIds" rows={2} aria-label={m.scr_groups_label()} placeholder="grp_…" className={fieldClass} />
          </ConditionField>
          <ConditionField name="noShows" label={m.scr_no_shows()}>
            <input name="noShowCount" type="number" min={1} step={1} defaultValue={2} aria-label={m.scr_no_shows_label()} className={fieldClass} />
          </ConditionField>
          {questions.length > 0 ? (
            <ConditionField name="answer" label={m.scr_answer()}>
              <>
                  <select name="answerQuestion" aria-label={m.scr_question()} value={question} onChange={(event) => setQuestion(event.target.value)} className={fieldClass}>
                    {questions.map((q) => (
                      <option key={q.question} value={q.question}>
                        {q.question}
                      </option>
                    ))}
                  </select>
                  <select name="answerIs" aria-label={m.scr_is_or_not()} defaultValue="is" className={fieldClass}>
                    <option value="is">{m.scr_is_one_of()}</option>
                    <option value="not">{m.scr_is_none_of()}</option>
                  </select>
                  <div className="flex flex-wrap gap-3">
                    {options.map((option) => (
                      <label key={option} className="flex items-center gap-2 text-sm text-mist-200">
                        <input type="checkbox" name="answerOptions" value={option} className="size-4 accent-ember-400" />
                        {option}
                      </label>
                    ))}
                  </div>
              </>
            </ConditionField>
          ) : null}
        </fieldset>
        <fieldset className="space-y-2">
          <legend className="text-sm font-semibold text-mist-100">{m.scr_then()}</legend>
          {[
            ["approve", m.scr_approve()],
            ["reject", m.scr_reject()],
            ["flag", m.scr_flag_review()],
          ].map(([value, label]) => (
            <label key={value} className="flex items-center gap-3 text-sm text-mist-100">
              <input type="radio" name="outcome" value={value} checked={outcome === value} onChange={() => setOutcome(value!)} className="size-4 accent-ember-400" />
              {label}
            </label>
          ))}
          {outcome === "reject" ? (
            <div className="space-y-1 pl-7">
              <label htmlFor={`${id}-message`} className="block text-sm font-semibold text-mist-100">
                {m.scr_message()}
              </label>
              <textarea id={`${id}-message`} name="message" rows={3} maxLength={2000} className={fieldClass} />
              <p className="text-xs text-mist-400">{m.scr_message_hint()}</p>
            </div>
          ) : null}
          {outcome === "flag" ? (
            <div className="space-y-1 pl-7">
              <label htmlFor={`${id}-flag`} className="block text-sm font-semibold text-mist-100">
                {m.scr_flag()}
              </label>
              <input id={`${id}-flag`} name="flag" maxLength={200} placeholder={m.scr_flag_example()} className={fieldClass} />
              <p className="text-xs text-mist-400">{m.scr_flag_hint()}</p>
            </div>
          ) : null}
          {outcome === "approve" ? (
            <p className="pl-7 text-xs text-mist-400">{m.scr_approve_hint()}</p>
          ) : null}
        </fieldset>
        <div className="flex flex-wrap gap-3">
          <Button type="submit" name="intent" value="add" disabled={fetcher.state !== "idle"}>
            {m.scr_add()}
          </Button>
          <Button type="submit" name="intent" value="try" variant="outline" formNoValidate disabled={fetcher.state !== "idle"}>
            {m.scr_try()}
          </Button>
        </div>
        <p className="text-xs text-mist-400">{m.scr_try_hint()}</p>
      </fetcher.Form>
      {fetcher.data?.trial ? (
        <div className="mt-6 border-t border-aurora-400/15 pt-6">
          <TrialView trial={fetcher.data.trial} />
        </div>
      ) : null}
    </Card>
  );
}
