import { href, Link } from "react-router";
import type { ApplicationStatus } from "~/db/enums";
import { DRAFT_RULE_ID, type Disagreement, type TrialResult } from "./screening-trial";

const DECIDED: Partial<Record<ApplicationStatus, string>> = { approved: "approved", rejected: "rejected", waitlist: "waitlisted" };
const count = (n: number) => n.toLocaleString("en-US");

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
        What these rules would have done
      </h3>
      {trial.looked === 0 ? (
        <p className="text-sm text-mist-300">No application has been decided yet: there is nothing to try the rules on.</p>
      ) : (
        <>
          <p className="text-sm text-mist-300">
            Tried on the last {count(trial.looked)} decided applications, with what VRChat said of each when it arrived. Nothing was saved and VRChat was not asked.
          </p>
          <div className="overflow-x-auto">
            <table className="w-full min-w-[32rem] text-left text-sm">
              <thead className="text-mist-400">
                <tr>
                  <th scope="col" className="py-1 pr-3 font-semibold">Rule</th>
                  <th scope="col" className="px-2 py-1 text-right font-semibold">Approve</th>
                  <th scope="col" className="px-2 py-1 text-right font-semibold">Reject</th>
                  <th scope="col" className="px-2 py-1 text-right font-semibold">Flag</th>
                  <th scope="col" className="px-2 py-1 text-right font-semibold">Cannot tell</th>
                </tr>
              </thead>
              <tbody className="text-mist-100">
                {trial.rules.map((rule) => (
                  <tr key={rule.id} className="border-t border-aurora-400/15">
                    <th scope="row" className="py-1 pr-3 font-normal break-words">
                      {rule.name}
                      {rule.id === DRAFT_RULE_ID ? <span className="text-mist-400"> (not saved yet)</span> : null}
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
            No rule holds for {count(trial.untouched)}: they would have waited for staff. 'Cannot tell' counts applications that arrived before a rule needed
            their VRChat facts, so none were read.
          </p>
          {trial.disagreements.length === 0 ? (
            <p className="text-sm text-mist-200">Where a rule would have approved or rejected, staff decided the same.</p>
          ) : (
            <div>
              <h4 className="text-sm font-semibold text-mist-100">Where a rule goes against what was decided ({count(trial.disagreements.length)})</h4>
              <ul className="mt-2 space-y-1 text-sm text-mist-200">
                {trial.disagreements.map((disagreement) => (
                  <li key={`${disagreement.kind}:${disagreement.id}`} className="break-words">
                    <Link to={listOf(disagreement)} className="font-semibold text-aurora-300 underline-offset-2 hover:underline">
                      {disagreement.name}
                    </Link>
                    : {DECIDED[disagreement.status] ?? disagreement.status}; rule "{disagreement.rule}" would {disagreement.outcome}.
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
