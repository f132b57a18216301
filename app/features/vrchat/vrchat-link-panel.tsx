import { ExternalLink, UserRound } from "lucide";
import { Icon } from "~/components/ui/icon";
import { href } from "react-router";
import { AccountLinkPanel, type AccountLookup } from "~/components/ui/account-link-panel";
import { Badge } from "~/components/ui/badge";
import { m } from "~/paraglide/messages";
import type { MembershipStatus, VRChatCandidate } from "./vrchat-membership.server";

export type VRChatLookup = AccountLookup<VRChatCandidate & { sourceLabel?: string }>;

export const MEMBERSHIP_LABEL: Record<MembershipStatus, () => string> = {
  member: m.membership_member,
  requested: m.membership_requested,
  invited: m.membership_invited,
  banned: m.membership_banned,
  blocked: m.membership_blocked,
  none: m.membership_none,
};

const MEMBERSHIP_TONE = { member: "live", requested: "gold", invited: "aurora", banned: "danger", blocked: "danger", none: "muted" } as const;

export const SOURCE_LABEL = { request: m.source_request, search: m.source_search, linked: m.link_linked } as const;

const profileUrl = (userId: string) => `https://vrchat.com/home/user/${userId}`;

function Person({ candidate }: { candidate: VRChatCandidate }) {
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-2">
      {candidate.thumbnailUrl ? (
        <img src={candidate.thumbnailUrl} alt="" width={48} height={36} className="h-9 w-12 shrink-0 rounded object-cover" referrerPolicy="no-referrer" />
      ) : (
        <span className="grid h-9 w-12 shrink-0 place-items-center rounded bg-white/5">
          <Icon node={UserRound} className="size-5 text-mist-400" />
        </span>
      )}
      <div className="min-w-0 flex-1 basis-40">
        <p className="font-semibold break-words text-mist-100">{candidate.displayName}</p>
        <p className="text-xs break-all text-mist-400">
          {candidate.id} ·{" "}
          <a href={profileUrl(candidate.id)} target="_blank" rel="noreferrer noopener" className="inline-flex items-center gap-0.5 text-aurora-300 underline">
            {m.vrlink_profile()}
            <Icon node={ExternalLink} className="size-3" />
            <span className="sr-only">{m.vrlink_profile_of({ name: candidate.displayName })}</span>
          </a>
        </p>
      </div>
      <Badge tone={MEMBERSHIP_TONE[candidate.status]} className="shrink-0">
        {MEMBERSHIP_LABEL[candidate.status]()}
      </Badge>
    </div>
  );
}

/** The card's VRChat lookup: an application of the group's, or of an event's. */
export const vrchatLookupUrl = (applicationId: string, eventId?: string) =>
  eventId ? href("/admin/events/:eventId/applications/:applicationId/vrchat", { eventId, applicationId }) : href("/admin/applications/:applicationId/vrchat", { applicationId });

/** Who the applicant is in VRChat: see AccountLinkPanel. */
export function VRChatLinkPanel({ applicationId, eventId, configured }: { applicationId: string; eventId?: string; configured: boolean }) {
  if (!configured) {
    return <p className="text-sm text-mist-400">{m.vrlink_not_configured()}</p>;
  }
  return (
    <AccountLinkPanel<VRChatCandidate>
      lookupUrl={vrchatLookupUrl(applicationId, eventId)}
      applicationId={applicationId}
      intents={{ link: "link-vrchat", unlink: "unlink-vrchat" }}
      renderPerson={(candidate) => <Person candidate={candidate} />}
      texts={{
        candidates: m.vrlink_candidates(),
        none: m.vrlink_none(),
        noneElse: m.vrlink_none_else(),
        paste: m.vrlink_paste(),
        placeholder: "https://vrchat.com/home/user/usr_…",
        looking: m.vrlink_looking(),
      }}
    />
  );
}
