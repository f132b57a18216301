import { href, Link } from "react-router";
import type { ApplicationStatus } from "~/db/enums";
import { m } from "~/paraglide/messages";
import { formatCount } from "~/utils/language";
import { DRAFT_RULE_ID, type Disagreement, type TrialResult } from "./screening-trial";

const DECIDED: Partial<Record<ApplicationStatus, () => string>> = { approved: m.trial_decided_approved, rejected: m.trial_decided_rejected, waitlist: m.trial_decided_waitlist };
const WOULD = { approve: m.trial_would_approve, reject: m.trial_would_reject, flag: m.trial_would_flag } as const;
const count = (n: number) => formatCount(n);

/** Where staff find the application: its list, searched by the applicant's name. */
function listOf(disagreement: Disagreement) {
  const search = `?${new URLSearchParams({ q: disagreement.name })}`;
  return disagreement.eventId ? `${href("/admin/events/:eventId/applications", { eventId: disagreement.eventId })}${search}` : `${href("/admin/applications")}${search}`;
}

/** 'Try these rules': per rule what it would have done, and each time it would have gone against staff. */
export function TrialView({ trial }: { trial: TrialResult }) {
  return (
    <section aria-labelledby="trial-heading" className="space-y-4" data-testid="trial">
      <h3 id="trial-heading" className="font-display text-xl text-mist-100">
        {m.trial_heading()}
      </h3>
      {trial.looked === 0 ? (
        <p className="text-sm text-mist-300">{m.trial_none()}</p>
      ) : (
        <>
          <p className="text-sm text-mist-300">
            {m.trial_intro({ count: count(trial.looked) })}
          </p>
          <div className="overflow-x-auto">
            <table className="w-full min-w-[32rem] text-left text-sm">
              <thead className="text-mist-400">
                <tr>
                  <th scope="col" className="py-1 pr-3 font-semibold">{m.trial_rule()}</th>
                  <th scope="col" className="px-2 py-1 text-right font-semibold">{m.trial_approve()}</th>
                  <th scope="col" className="px-2 py-1 text-right font-semibold">{m.trial_reject()}</th>
                  <th scope="col" className="px-2 py-1 text-right font-semibold">{m.trial_flag()}</th>
                  <th scope="col" className="px-2 py-1 text-right font-semibold">{m.trial_cannot_tell()}</th>
                </tr>
              </thead>
              <tbody className="text-mist-100">
                {trial.rules.map((rule) => (
                  <tr key={rule.id} className="border-t border-aurora-400/15">
                    <th scope="row" className="py-1 pr-3 font-normal break-words">
                      {rule.name}
                      {rule.id === DRAFT_RULE_ID ? <span className="text-mist-400">{m.trial_not_saved()}</span> : null}
                    </th>
                    <td className="px-2 py-1 text-right tabular-nums">{count(rule.approve)}</td>
                    <td className="px-2 py-1 text-right tabular-nums">{count(rule.reject)}</td>
                    <td className="px-2 py-1 text-right tabular-nums">{count(rule.flag)}</td>
                    <td className="px-2 py-1 text-right tabular-nums">{count(rule.unknown)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="text-sm text-mist-300">
            {m.trial_untouched({ count: count(trial.untouched) })}
          </p>
          {trial.disagreements.length === 0 ? (
            <p className="text-sm text-mist-200">{m.trial_agree()}</p>
          ) : (
            <div>
              <h4 className="text-sm font-semibold text-mist-100">{m.trial_disagreements({ count: count(trial.disagreements.length) })}</h4>
              <ul className="mt-2 space-y-1 text-sm text-mist-200">
                {trial.disagreements.map((disagreement) => (
                  <li key={`${disagreement.kind}:${disagreement.id}`} className="break-words">
                    <Link to={listOf(disagreement)} className="font-semibold text-aurora-300 underline-offset-2 hover:underline">
                      {disagreement.name}
                    </Link>
                    {m.trial_disagreement({
                      decided: DECIDED[disagreement.status]?.() ?? disagreement.status,
                      rule: disagreement.rule,
                      outcome: WOULD[disagreement.outcome as keyof typeof WOULD]?.() ?? disagreement.outcome,
                    })}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </>
      )}
    </section>
  );
}
