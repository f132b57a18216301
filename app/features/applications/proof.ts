/** What an applicant reads about proving their VRChat account (see flows/prove-account.server). */
import { m } from "~/paraglide/messages";
import { formatCount } from "~/utils/language";

export const PROOF_HOURS = 24;
export const PROOF_CHECKS_PER_HOUR = 5;

export const PROOF_TEXTS = {
  checksSpent: () => m.proof_checks_spent({ count: PROOF_CHECKS_PER_HOUR }),
  notFound: m.proof_not_found,
  expired: m.proof_code_expired,
  noCode: m.proof_no_code,
  unknownAccount: m.proof_unknown_account,
  busy: m.proof_busy,
  unreachable: m.proof_unreachable,
  notOpen: m.proof_not_open,
  nothingToProve: m.proof_nothing_to_prove,
  proven: m.proof_proven,
} as const;

/** A decision refused while the applicant's account is not proven, where proof is required. */
export const NEEDS_PROOF_MESSAGE = m.proof_needed_one;
/** A bulk approval refused because some of the chosen have not proven their VRChat account. */
export function needsProofMessage(count: number) {
  return count === 1 ? m.proof_needed_bulk_one() : m.proof_needed_bulk({ count: formatCount(count) });
}

/** The card's line under 'Needs a proven VRChat account'. */
export const NEEDS_PROOF_TEXT = m.review_needs_proof_text;

export interface ProofAccount {
  userId: string;
  displayName: string | null;
  profileUrl: string;
}

/** Whose is the application's account, and what the applicant reads about it on their status page. */
export type ProofView =
  | { kind: "none" }
  | { kind: "proven"; displayName: string | null }
  | { kind: "offer"; account: ProofAccount; expired: boolean }
  | { kind: "code"; account: ProofAccount; code: string; expiresAt: string };
