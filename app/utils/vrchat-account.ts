/**
 * What VRChat says of an account that screening reads, in VRChat's own terms (the community's OpenAPI
 * description): the trust rank from its `system_trust_*` tags, its age from `date_joined`, 18+ from
 * `ageVerificationStatus`, and its bio.
 */
import { z } from "zod";
import { m } from "~/paraglide/messages";
import type { VRChatLinkWay } from "~/db/enums";

export const TRUST_RANKS = ["visitor", "new_user", "user", "known_user", "trusted_user"] as const;
export type TrustRank = (typeof TRUST_RANKS)[number];

export const TRUST_RANK_LABEL: Record<TrustRank, string> = {
  visitor: "Visitor",
  new_user: "New User",
  user: "User",
  known_user: "Known User",
  trusted_user: "Trusted User",
};

/** VRChat's tag for each rank above Visitor (an account without any of them is a Visitor). */
const TRUST_TAGS: [string, TrustRank][] = [
  ["system_trust_veteran", "trusted_user"],
  ["system_trust_trusted", "known_user"],
  ["system_trust_known", "user"],
  ["system_trust_basic", "new_user"],
];

/** The highest trust rank an account's tags give. */
export function trustRankOf(tags: readonly string[]): TrustRank {
  return TRUST_TAGS.find(([tag]) => tags.includes(tag))?.[1] ?? "visitor";
}

export interface AccountFacts {
  trustRank: TrustRank;
  /** `date_joined` (a date), when VRChat gives it. */
  joinedOn: string | null;
  shows18: boolean;
  /** Null when VRChat did not send one: unread, not empty (a rule on the bio waits). */
  bio: string | null;
}

/** An account as `GET /users/{userId}` answers it, the fields screening reads. */
export const ScreenedUserSchema = z.object({
  id: z.string(),
  tags: z.array(z.string()).nullish(),
  date_joined: z.string().nullish(),
  ageVerificationStatus: z.string().nullish(),
  bio: z.string().nullish(),
});

export function accountFactsOf(user: z.infer<typeof ScreenedUserSchema>): AccountFacts {
  return {
    trustRank: trustRankOf(user.tags ?? []),
    joinedOn: user.date_joined && /^\d{4}-\d{2}-\d{2}/.test(user.date_joined) ? user.date_joined.slice(0, 10) : null,
    // `18+` only: `verified` is obsolete, and `hidden` says nothing.
    shows18: user.ageVerificationStatus === "18+",
    bio: typeof user.bio === "string" ? user.bio : null,
  };
}

/** How an applicant's VRChat account was linked, as the card and the person's file say it. */
export function linkedHowLabel(how: VRChatLinkWay, by: string | null): string {
  if (how === "proven") return m.linked_proven();
  if (how === "name") return m.linked_name();
  return by ? m.linked_chosen_by({ who: by }) : m.linked_chosen_staff();
}
