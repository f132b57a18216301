/** What staff read of their decisions on join requests, in the Sanctum and from its flows. */
import { m } from "~/paraglide/messages";
import { counted as said, sentenceGap } from "~/utils/language";

export interface JoinRequestOutcome {
  /** Decided now: answered in VRChat (or through their application). */
  decided: number;
  /** Of those, decided through the person's open application. */
  throughApplication: number;
  /** Decided already, or no longer waiting in VRChat: left as they were. */
  unchanged: number;
  /** Their application needs a proven VRChat account before it is approved: left waiting. */
  needsProof: number;
}


/** In the page's language (read when said). */
export const JOIN_REQUEST_TEXTS = {
  get notRead() {
    return m.jr_not_read_setting();
  },
  get noActions() {
    return m.jr_no_actions();
  },
  get nothing() {
    return m.jr_nothing();
  },
  get needsProof() {
    return m.jr_needs_proof();
  },
  done: (outcome: JoinRequestOutcome) =>
    [
      said(outcome.decided, m.jr_done_one, m.jr_done),
      outcome.throughApplication > 0 ? said(outcome.throughApplication, m.jr_through_one, m.jr_through) : "",
      outcome.unchanged > 0 ? said(outcome.unchanged, m.jr_unchanged_one, m.jr_unchanged) : "",
      outcome.needsProof > 0 ? said(outcome.needsProof, m.jr_proof_waits_one, m.jr_proof_waits) : "",
    ]
      .filter(Boolean)
      .join(sentenceGap()),
};

