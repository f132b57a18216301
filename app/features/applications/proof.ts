/** What an applicant reads about proving their VRChat account (see flows/prove-account.server). */

export const PROOF_HOURS = 24;
export const PROOF_CHECKS_PER_HOUR = 5;

export const PROOF_TEXTS = {
  checksSpent: `You have checked ${PROOF_CHECKS_PER_HOUR} times in the last hour. Please wait a while before you check again.`,
  notFound:
    "The code is not in that account's bio or status yet. Save your bio in VRChat, wait a minute for VRChat to show the change, and check again.",
  expired: "This code has expired. Ask for a new one below.",
  noCode: "Ask for a code first.",
  unknownAccount: "VRChat has no user at the profile link this application gives, so it cannot be proven.",
  busy: "The site's VRChat lookups are spent for this minute. Please try again in a minute.",
  unreachable: "VRChat could not be asked just now. Please try again in a moment.",
  notOpen: "This application is no longer open, so there is nothing to prove.",
  nothingToProve: "This application names no VRChat account to prove.",
  proven: "Your VRChat account is proven. You may remove the code from your bio now.",
} as const;

/** A decision refused while the applicant's account is not proven, where proof is required. */
export const NEEDS_PROOF_MESSAGE = "This application can be approved only once the applicant has proven their VRChat account.";
/** A bulk approval refused because some of the chosen have not proven their VRChat account. */
export function needsProofMessage(count: number) {
  const whom = count === 1 ? "1 of them has" : `${count.toLocaleString("en-US")} of them have`;
  return `Nothing was changed: ${whom} not proven their VRChat account, and this form approves only proven accounts. Leave them out, or reject them.`;
}

/** The card's line under 'Needs a proven VRChat account'. */
export const NEEDS_PROOF_TEXT = "They can prove it on their status page with a code in their VRChat bio; until then it can only be rejected.";

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
