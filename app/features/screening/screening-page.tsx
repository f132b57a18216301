import { ArrowDown, ArrowUp, Trash2 } from "lucide-react";
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

type Result = { ok?: boolean; error?: string; message?: string | null; trial?: TrialResult };

function scopeText(rule: Rule, events: { id: string; title: string }[]) {
  if (rule.scope.kind === "group") return "The group's form";
  if (rule.scope.kind === "events") return "Every event";
  const { eventId } = rule.scope;
  return `Event: ${events.find((event) => event.id === eventId)?.title ?? "an event no longer open to applications"}`;
}

/** The rules in their order, each with its conditions and outcome, to move or delete. */
export function RuleList({ rules, events }: { rules: Rule[]; events: { id: string; title: string }[] }) {
  if (rules.length === 0) {
    return <EmptyState title="No rules yet" description="Every application waits for staff. Add a rule below to screen them as they arrive." />;
  }
  return (
    <section aria-labelledby="rules-heading" className="space-y-3">
      <h2 id="rules-heading" className="font-display text-2xl text-mist-100">
        Rules ({rules.length.toLocaleString("en-US")})
      </h2>
      <ol className="space-y-3" aria-label="Screening rules, first first">
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
      <Button type="submit" size="sm" variant="ghost" disabled={disabled || busy} aria-label={`${label}: ${rule.name}`}>
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
          {move("up", "Move up", <ArrowUp aria-hidden="true" className="size-4" />, first)}
          {move("down", "Move down", <ArrowDown aria-hidden="true" className="size-4" />, last)}
          <ConfirmDialog
            trigger={
              <Button type="button" size="sm" variant="ghost" aria-label={`Delete: ${rule.name}`}>
                <Trash2 aria-hidden="true" className="size-4" />
              </Button>
            }
            title="Delete this rule?"
            description={`"${rule.name}" stops screening applications. What it already decided stays decided.`}
            action={
              <fetcher.Form method="post">
                <input type="hidden" name="intent" value="delete" />
                <input type="hidden" name="id" value={rule.id} />
                <Button type="submit" variant="danger">
                  Delete
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
      <h2 className="font-display text-2xl text-mist-100">Add a rule</h2>
      {failure ? (
        <p role="alert" className="mt-3 text-sm text-red-300">
          {failure}
        </p>
      ) : null}
      <fetcher.Form key={round} method="post" className="mt-4 space-y-5">
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="space-y-1">
            <label htmlFor={`${id}-name`} className="block text-sm font-semibold text-mist-100">
              Name
            </label>
            <input id={`${id}-name`} name="name" required maxLength={100} placeholder="Known users over 30 days" className={fieldClass} />
          </div>
          <div className="space-y-1">
            <label htmlFor={`${id}-scope`} className="block text-sm font-semibold text-mist-100">
              Applies to
            </label>
            <select id={`${id}-scope`} name="scope" value={scope} onChange={(event) => setScope(event.target.value)} className={fieldClass}>
              <option value="group">The group's form</option>
              <option value="events">Every event</option>
              {events.length > 0 ? <option value="event">One event</option> : null}
            </select>
          </div>
          {scope === "event" ? (
            <div className="space-y-1 sm:col-span-2">
              <label htmlFor={`${id}-event`} className="block text-sm font-semibold text-mist-100">
                Event
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
          <legend className="text-sm font-semibold text-mist-100">When all of these hold</legend>
          <ConditionField name="trust" label="Trust rank at least">
            <select name="trustRank" aria-label="Trust rank" defaultValue="known_user" className={fieldClass}>
              {TRUST_RANKS.map((rank) => (
                <option key={rank} value={rank}>
                  {TRUST_RANK_LABEL[rank]}
                </option>
              ))}
            </select>
          </ConditionField>
          <ConditionField name="age" label="Account older than (days)">
            <input name="ageDays" type="number" min={0} step={1} defaultValue={30} aria-label="Days" className={fieldClass} />
          </ConditionField>
          <ConditionField name="adult" label="Shows 18+ in VRChat" />
          <ConditionField name="bioHas" label="Bio contains any of these words">
            <textarea name="bioHasWords" rows={2} aria-label="Words the bio contains, one per line or separated by commas" className={fieldClass} />
          </ConditionField>
          <ConditionField name="bioLacks" label="Bio contains none of these words">
            <textarea name="bioLacksWords" rows={2} aria-label="Words the bio does not contain, one per line or separated by commas" className={fieldClass} />
          </ConditionField>
          <ConditionField name="proven" label="Has a proven VRChat account" />
          <ConditionField name="banned" label="Is banned from the group in VRChat" />
          <ConditionField name="groups" label="Is a member of any of these groups">
            <textarea name="groupIds" rows={2} aria-label="Group ids (grp_…), one per line or separated by commas" placeholder="grp_…" className={fieldClass} />
          </ConditionField>
          <ConditionField name="noShows" label="No-shows at the group's events, at least">
            <input name="noShowCount" type="number" min={1} step={1} defaultValue={2} aria-label="No-shows" className={fieldClass} />
          </ConditionField>
          {questions.length > 0 ? (
            <ConditionField name="answer" label="The answer to a choice question">
              <>
                  <select name="answerQuestion" aria-label="Question" value={question} onChange={(event) => setQuestion(event.target.value)} className={fieldClass}>
                    {questions.map((q) => (
                      <option key={q.question} value={q.question}>
                        {q.question}
                      </option>
                    ))}
                  </select>
                  <select name="answerIs" aria-label="Is or is not" defaultValue="is" className={fieldClass}>
                    <option value="is">is one of</option>
                    <option value="not">is none of</option>
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
          <legend className="text-sm font-semibold text-mist-100">Then</legend>
          {[
            ["approve", "Approve automatically"],
            ["reject", "Reject automatically"],
            ["flag", "Send to review with a flag"],
          ].map(([value, label]) => (
            <label key={value} className="flex items-center gap-3 text-sm text-mist-100">
              <input type="radio" name="outcome" value={value} checked={outcome === value} onChange={() => setOutcome(value!)} className="size-4 accent-ember-400" />
              {label}
            </label>
          ))}
          {outcome === "reject" ? (
            <div className="space-y-1 pl-7">
              <label htmlFor={`${id}-message`} className="block text-sm font-semibold text-mist-100">
                Decision message
              </label>
              <textarea id={`${id}-message`} name="message" rows={3} maxLength={2000} className={fieldClass} />
              <p className="text-xs text-mist-400">Added to the rejection message the applicant reads.</p>
            </div>
          ) : null}
          {outcome === "flag" ? (
            <div className="space-y-1 pl-7">
              <label htmlFor={`${id}-flag`} className="block text-sm font-semibold text-mist-100">
                Flag
              </label>
              <input id={`${id}-flag`} name="flag" maxLength={200} placeholder="New account: look closely" className={fieldClass} />
              <p className="text-xs text-mist-400">Shown on the application's card and in the list.</p>
            </div>
          ) : null}
          {outcome === "approve" ? (
            <p className="pl-7 text-xs text-mist-400">Only an applicant whose VRChat account is proven or matched by name is approved automatically; the others are flagged for staff.</p>
          ) : null}
        </fieldset>
        <div className="flex flex-wrap gap-3">
          <Button type="submit" name="intent" value="add" disabled={fetcher.state !== "idle"}>
            Add Rule
          </Button>
          <Button type="submit" name="intent" value="try" variant="outline" formNoValidate disabled={fetcher.state !== "idle"}>
            Try these rules
          </Button>
        </div>
        <p className="text-xs text-mist-400">'Try these rules' shows what the saved rules, with this one after them, would have done with the last 200 decided applications.</p>
      </fetcher.Form>
      {fetcher.data?.trial ? (
        <div className="mt-6 border-t border-aurora-400/15 pt-6">
          <TrialView trial={fetcher.data.trial} />
        </div>
      ) : null}
    </Card>
  );
}
