import { UserRound } from "lucide";
import { Icon } from "~/components/ui/icon";
import { AccountLinkPanel, type AccountLookup } from "~/components/ui/account-link-panel";
import { Badge } from "~/components/ui/badge";
import { m } from "~/paraglide/messages";
import type { DiscordCandidate } from "./discord-bot.server";

export type DiscordLookup = AccountLookup<DiscordCandidate>;

function Person({ candidate }: { candidate: DiscordCandidate }) {
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-2">
      {candidate.avatarUrl ? (
        <img src={candidate.avatarUrl} alt="" width={36} height={36} className="size-9 shrink-0 rounded-full" referrerPolicy="no-referrer" />
      ) : (
        <span className="grid size-9 shrink-0 place-items-center rounded-full bg-white/5">
          <Icon node={UserRound} className="size-5 text-mist-400" />
        </span>
      )}
      <div className="min-w-0 flex-1 basis-40">
        <p className="font-semibold break-words text-mist-100">{candidate.displayName}</p>
        <p className="text-xs break-all text-mist-400">
          @{candidate.username} · {candidate.id}
        </p>
      </div>
      {candidate.hasRole === null ? (
        <Badge tone="muted" className="shrink-0">{m.dlink_in_server()}</Badge>
      ) : (
        <Badge tone={candidate.hasRole ? "live" : "muted"} className="shrink-0">
          {candidate.hasRole ? m.dlink_has_role() : m.dlink_no_role()}
        </Badge>
      )}
    </div>
  );
}

/** Who the applicant is in the group's Discord server: see AccountLinkPanel. */
export function DiscordLinkPanel({ applicationId, lookupUrl }: { applicationId: string; lookupUrl: string }) {
  return (
    <AccountLinkPanel<DiscordCandidate>
      lookupUrl={lookupUrl}
      applicationId={applicationId}
      intents={{ link: "link-discord", unlink: "unlink-discord" }}
      renderPerson={(candidate) => <Person candidate={candidate} />}
      texts={{
        candidates: m.dlink_candidates(),
        none: m.dlink_none(),
        noneElse: m.dlink_none_else(),
        paste: m.dlink_paste(),
        placeholder: m.dlink_placeholder(),
        looking: m.dlink_looking(),
      }}
    />
  );
}
