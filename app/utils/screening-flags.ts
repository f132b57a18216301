/**
 * The flags screening sets by itself (a rule's own flag is the text its author wrote): stored by key,
 * so that each staff member reads them in their own language.
 */
import { m } from "~/paraglide/messages";

export const SYSTEM_FLAGS = {
  /** A rule would approve, but the account is not proven (see mayApproveAutomatically). */
  needsProven: "dwell:needs-proven",
  /** SCREENING_AUTO_APPROVALS_PER_HOUR reached. */
  paused: "dwell:paused",
  /** A rule would approve, but every place of the event is taken. */
  full: "dwell:full",
  /** A rule would approve, but the form requires a proven account and this one is not. */
  needsProof: "dwell:needs-proof",
} as const;

const TEXTS: Record<string, () => string> = {
  [SYSTEM_FLAGS.needsProven]: m.scr_flag_needs_proven,
  [SYSTEM_FLAGS.paused]: m.scr_flag_paused,
  [SYSTEM_FLAGS.full]: m.scr_flag_full,
  [SYSTEM_FLAGS.needsProof]: m.scr_flag_needs_proof,
};

/** A flag as a person reads it: screening's own in their language, a rule's as written. */
export const flagText = (flag: string) => TEXTS[flag]?.() ?? flag;
