import { ExternalLink, UserRound } from "lucide-react";
import { useEffect, useId } from "react";
import { href, useFetcher, useRevalidator } from "react-router";
import { toast } from "sonner";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { fieldClass } from "~/components/ui/field";
import type { MembershipStatus, VRChatCandidate } from "./vrchat-membership.server";

export interface VRChatLookup {
  linked: VRChatCandidate | null;
  candidates: VRChatCandidate[];
  /** The one join request with the applicant's name was linked just now (the history says so too). */
  autoLinked: boolean;
  error: string | null;
}

export const MEMBERSHIP_LABEL: Record<MembershipStatus, string> = {
  member: "Member",
  requested: "Requested to join",
  invited: "Invited",
  banned: "Banned",
  blocked: "Has blocked the group",
  none: "Not in the group",
};

const MEMBERSHIP_TONE = { member: "live", requested: "gold", invited: "aurora", banned: "danger", blocked: "danger", none: "muted" } as const;

const SOURCE_LABEL = { request: "Join request", search: "User search", linked: "Linked" } as const;

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

/**
 * Who the applicant is in VRChat: the account linked to the application, the candidates found for
 * their name, 'This is them', and a field for a pasted profile link or id. Loads when shown.
 */
export function VRChatLinkPanel({ applicationId, configured }: { applicationId: string; configured: boolean }) {
  const lookup = useFetcher<VRChatLookup>();
  const change = useFetcher<{ ok?: boolean; error?: string; message?: string }>();
  const revalidator = useRevalidator();
  const inputId = useId();
  const source = href("/admin/applications/:applicationId/vrchat", { applicationId });

  useEffect(() => {
    if (configured && lookup.state === "idle" && !lookup.data) lookup.load(source);
    // Once, when the panel is first shown.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    if (lookup.data?.autoLinked) revalidator.revalidate();
    // The page's header shows the link made by the lookup.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lookup.data]);
  useEffect(() => {
    if (change.state !== "idle" || !change.data) return;
    if (change.data.error) toast.error(change.data.error);
    else {
      if (change.data.message) toast.success(change.data.message);
      lookup.load(source);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [change.state, change.data]);

  if (!configured) {
    return <p className="text-sm text-mist-400">VRChat is not configured on this site: applicants cannot be looked up.</p>;
  }
  const result = lookup.data;
  const linkedId = result?.linked?.id ?? null;
  const others = result?.candidates.filter((candidate) => candidate.id !== linkedId) ?? [];
  return (
    <div className="space-y-4" aria-busy={lookup.state !== "idle"}>
      {result?.linked ? (
        <div className="space-y-2 rounded-lg border border-emerald-400/30 p-3" data-testid="vrchat-linked">
          <p className="text-xs font-semibold tracking-wide text-emerald-300 uppercase">Linked</p>
          <Person candidate={result.linked} />
          <change.Form method="post">
            <input type="hidden" name="intent" value="unlink-vrchat" />
            <input type="hidden" name="id" value={applicationId} />
            <Button type="submit" size="sm" variant="ghost">Unlink</Button>
          </change.Form>
        </div>
      ) : null}
      {lookup.state !== "idle" && !result ? <p className="text-sm text-mist-400">Looking in VRChat…</p> : null}
      {result?.error ? <p role="alert" className="text-sm text-red-300">{result.error}</p> : null}
      {result && !result.error ? (
        others.length === 0 ? (
          <p className="text-sm text-mist-400">
            {linkedId ? "No one else goes by this name in VRChat." : "No join request or VRChat user goes by this name. Paste their profile link below."}
          </p>
        ) : (
          <ul className="space-y-2" aria-label="Candidates in VRChat">
            {others.map((candidate) => (
              <li key={candidate.id} className="space-y-2 rounded-lg border border-aurora-400/15 p-3">
                <p className="text-xs text-mist-400">{SOURCE_LABEL[candidate.source]}</p>
                <Person candidate={candidate} />
                <change.Form method="post">
                  <input type="hidden" name="intent" value="link-vrchat" />
                  <input type="hidden" name="id" value={applicationId} />
                  <input type="hidden" name="account" value={candidate.id} />
                  <Button type="submit" size="sm" variant="outline">
                    This is them<span className="sr-only">: {candidate.displayName}</span>
                  </Button>
                </change.Form>
              </li>
            ))}
          </ul>
        )
      ) : null}
      <change.Form method="post" className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="intent" value="link-vrchat" />
        <input type="hidden" name="id" value={applicationId} />
        <div className="min-w-0 flex-1 basis-64 space-y-1">
          <label htmlFor={inputId} className="block text-sm font-semibold text-mist-100">VRChat profile link or user id</label>
          <input id={inputId} name="account" required placeholder="https://vrchat.com/home/user/usr_…" className={fieldClass} autoComplete="off" />
        </div>
        <Button type="submit" size="sm" variant="outline">Link</Button>
      </change.Form>
    </div>
  );
}
