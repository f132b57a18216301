import { ExternalLink, UserRound } from "lucide-react";
import { href } from "react-router";
import { AccountLinkPanel, type AccountLookup } from "~/components/ui/account-link-panel";
import { Badge } from "~/components/ui/badge";
import type { MembershipStatus, VRChatCandidate } from "./vrchat-membership.server";

export type VRChatLookup = AccountLookup<VRChatCandidate & { sourceLabel?: string }>;

export const MEMBERSHIP_LABEL: Record<MembershipStatus, string> = {
  member: "Member",
  requested: "Requested to join",
  invited: "Invited",
  banned: "Banned",
  blocked: "Has blocked the group",
  none: "Not in the group",
};

const MEMBERSHIP_TONE = { member: "live", requested: "gold", invited: "aurora", banned: "danger", blocked: "danger", none: "muted" } as const;

export const SOURCE_LABEL = { request: "Join request", search: "User search", linked: "Linked" } as const;

const profileUrl = (userId: string) => `https://vrchat.com/home/user/${userId}`;

function Person({ candidate }: { candidate: VRChatCandidate }) {
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-2">
      {candidate.thumbnailUrl ? (
        <img src={candidate.thumbnailUrl} alt="" width={48} height={36} className="h-9 w-12 shrink-0 rounded object-cover" referrerPolicy="no-referrer" />
      ) : (
        <span className="grid h-9 w-12 shrink-0 place-items-center rounded bg-white/5">
          <UserRound aria-hidden="true" className="size-5 text-mist-400" />
        </span>
      )}
      <div className="min-w-0 flex-1 basis-40">
        <p className="font-semibold break-words text-mist-100">{candidate.displayName}</p>
        <p className="text-xs break-all text-mist-400">
          {candidate.id} ·{" "}
          <a href={profileUrl(candidate.id)} target="_blank" rel="noreferrer noopener" className="inline-flex items-center gap-0.5 text-aurora-300 underline">
            Profile
            <ExternalLink aria-hidden="true" className="size-3" />
            <span className="sr-only"> of {candidate.displayName} on VRChat (opens in a new tab)</span>
          </a>
        </p>
      </div>
      <Badge tone={MEMBERSHIP_TONE[candidate.status]} className="shrink-0">
        {MEMBERSHIP_LABEL[candidate.status]}
      </Badge>
    </div>
  );
}

/** Who the applicant is in VRChat: see AccountLinkPanel. */
export function VRChatLinkPanel({ applicationId, eventId, configured }: { applicationId: string; eventId?: string; configured: boolean }) {
  if (!configured) {
    return <p className="text-sm text-mist-400">VRChat is not configured on this site: applicants cannot be looked up.</p>;
  }
  return (
    <AccountLinkPanel<VRChatCandidate>
      lookupUrl={
        eventId ? href("/admin/events/:eventId/applications/:applicationId/vrchat", { eventId, applicationId }) : href("/admin/applications/:applicationId/vrchat", { applicationId })
      }
      applicationId={applicationId}
      intents={{ link: "link-vrchat", unlink: "unlink-vrchat" }}
      renderPerson={(candidate) => <Person candidate={candidate} />}
      texts={{
        candidates: "Candidates in VRChat",
        none: "No join request or VRChat user goes by this name. Paste their profile link below.",
        noneElse: "No one else goes by this name in VRChat.",
        paste: "VRChat profile link or user id",
        placeholder: "https://vrchat.com/home/user/usr_…",
        looking: "Looking in VRChat…",
      }}
    />
  );
}
