/**
 * 'Ban' on an application's card. An account linked by a name match (or a pasted link) may be someone
 * else's: the dialog shows it (picture, name, id, 'matched by name only') and the staff member confirms
 * it before the ban reaches VRChat or Discord; otherwise it holds on the site only (flows/bans).
 */
import { UserRound } from "lucide";
import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { BanDialog } from "~/components/ui/ban-dialog";
import { Icon } from "~/components/ui/icon";
import { isConfirmedLink } from "~/db/enums";
import { m } from "~/paraglide/messages";
import type { ReviewedApplication } from "./review.server";

type Applicant = Pick<ReviewedApplication, "id" | "vrchatUsername" | "vrchatUserId" | "vrchatDisplayName" | "vrchatLinkedHow" | "discordUserId" | "discordDisplayName" | "discordLinkedHow">;

/** What a ban from a card says: banned, or (its accounts matched by name, unconfirmed) banned on this site only. */
export const bannedText = (ban: { displayName: string; reach: "everywhere" | "site" }) =>
  ban.reach === "site" ? m.apps_banned_site_only({ name: ban.displayName }) : m.apps_banned({ name: ban.displayName });

/** The fields a confirmed claim adds to the ban's post. */
export const BAN_CONFIRM_FIELDS = { vrchat: "confirmVRChat", discord: "confirmDiscord" } as const;

export function BanApplicantDialog({ application, busy, lookupUrl, onBan }: { application: Applicant; busy: boolean; lookupUrl: string | null; onBan: (fields: Record<string, string>) => void }) {
  const claims = [
    ...(application.vrchatUserId && !isConfirmedLink(application.vrchatLinkedHow)
      ? [{ service: "vrchat" as const, id: application.vrchatUserId, name: application.vrchatDisplayName ?? application.vrchatUsername }]
      : []),
    ...(application.discordUserId && !isConfirmedLink(application.discordLinkedHow)
      ? [{ service: "discord" as const, id: application.discordUserId, name: application.discordDisplayName ?? application.discordUserId }]
      : []),
  ];
  const [confirmed, setConfirmed] = useState<Record<string, boolean>>({});
  return (
    <BanDialog
      name={application.vrchatUsername}
      busy={busy}
      onBan={(reason) =>
        onBan({
          reason,
          ...Object.fromEntries(claims.filter((claim) => confirmed[claim.service]).map((claim) => [BAN_CONFIRM_FIELDS[claim.service], claim.id])),
        })
      }
    >
      {claims.length > 0 ? (
        <section className="space-y-2 rounded-lg border border-ember-400/40 bg-ember-400/10 p-3 text-sm" data-testid="ban-claims">
          <h3 className="font-semibold text-ember-200">{m.ban_name_only_title()}</h3>
          <p className="text-mist-300">{m.ban_name_only_text()}</p>
          {claims.map((claim) => (
            <div key={claim.service} className="space-y-1">
              <div className="flex items-center gap-3">
                {claim.service === "vrchat" ? <Picture lookupUrl={lookupUrl} /> : null}
                <p className="min-w-0 break-words text-mist-100">
                  {(claim.service === "vrchat" ? m.ban_vrchat_account : m.ban_discord_account)({ name: claim.name })}{" "}
                  <span className="text-xs break-all text-mist-400">({claim.id})</span> · <span className="whitespace-nowrap text-ember-200">{m.card_unconfirmed()}</span>
                </p>
              </div>
              <label className="flex items-start gap-2 text-mist-100">
                <input
                  type="checkbox"
                  className="mt-1"
                  checked={confirmed[claim.service] ?? false}
                  onChange={(event) => setConfirmed((before) => ({ ...before, [claim.service]: event.target.checked }))}
                />
                {m.ban_confirm_account({ service: claim.service === "vrchat" ? "VRChat" : "Discord" })}
              </label>
            </div>
          ))}
        </section>
      ) : null}
    </BanDialog>
  );
}

/** The account's picture, from the card's VRChat lookup (read when the dialog opens). */
function Picture({ lookupUrl }: { lookupUrl: string | null }) {
  const lookup = useFetcher<{ linked: { thumbnailUrl: string | null } | null }>();
  useEffect(() => {
    if (lookupUrl && lookup.state === "idle" && !lookup.data) lookup.load(lookupUrl);
    // Once, when the dialog opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const src = lookup.data?.linked?.thumbnailUrl;
  if (src) return <img src={src} alt="" width={48} height={36} className="h-9 w-12 shrink-0 rounded object-cover" referrerPolicy="no-referrer" data-testid="ban-picture" />;
  return (
    <span className="grid h-9 w-12 shrink-0 place-items-center rounded bg-white/5" title={lookup.state !== "idle" ? m.ban_picture_loading() : undefined}>
      <Icon node={UserRound} className="size-5 text-mist-400" />
    </span>
  );
}
