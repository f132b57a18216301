import { useId, useState } from "react";
import { Link, useFetcher } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { EmptyState } from "~/components/ui/empty-state";
import { fieldClass } from "~/components/ui/field";
import { VRCHAT_ACCOUNT_HINT } from "~/utils/account-hints";
import { bannedLine, dateText } from "./ban-texts";
import type { Ban } from "./bans.server";
import { useOutcomeToast } from "~/components/ui/use-outcome-toast";
import { personPath } from "~/utils/person-key";

export const BANS_INTRO =
  "The group's one ban list: the bans VRChat has (read about every ten minutes) and those made here, which Dwell sends to VRChat and, when their Discord account is known, to the Discord server. A ban also rejects the person's open applications.";

const count = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

export const BAN_TEXTS = {
  nobody: "Give their VRChat profile link or user id, their Discord user id, or both.",
  vrchatHint: VRCHAT_ACCOUNT_HINT,
  discordHint: "Paste their Discord user id (Discord: User Settings → Advanced → Developer Mode, then Copy User ID).",
  notInForce: "This ban is not in force: it was lifted already, or it is not in the list.",
  already: (ban: Pick<Ban, "displayName" | "bannedAt" | "bannedBy">) => `${ban.displayName} is already banned (on ${dateText(ban.bannedAt)} by ${ban.bannedBy ?? "VRChat"}). Nothing was changed.`,
  banned: (name: string, rejected: number) => `${name} is banned.${rejected > 0 ? ` ${count(rejected, "open application was", "open applications were")} rejected.` : ""}`,
  rejecting: "A banned person's new applications are now rejected as they arrive.",
  flagging: "A banned person's new applications now wait for staff, flagged.",
  waiting: (target: string) => (target === "vrchat_ban" ? "Waiting to be sent to VRChat" : "Waiting to be sent to Discord"),
};


type Result = { ok?: boolean; error?: string; message?: string };

/** The owner's choice: a banned person's new application rejected as it arrives, or flagged for staff. */
export function RejectBannedSetting({ rejectBanned, mayChoose }: { rejectBanned: boolean; mayChoose: boolean }) {
  const fetcher = useFetcher<Result>();
  useOutcomeToast(fetcher);
  const [checked, setChecked] = useState(rejectBanned);
  return (
    <Card className="p-5">
      <fetcher.Form method="post" className="flex flex-wrap items-center gap-4">
        <input type="hidden" name="intent" value="reject-banned" />
        <label className="flex flex-1 basis-72 items-center gap-3 text-sm text-mist-100">
          <input type="checkbox" name="rejectBanned" checked={checked} disabled={!mayChoose} onChange={(event) => setChecked(event.target.checked)} className="size-5 accent-ember-400" />
          Reject a banned person's new applications as they arrive (otherwise their card says who banned them, when and why)
        </label>
        {mayChoose ? (
          <Button type="submit" size="sm" disabled={fetcher.state !== "idle"}>
            Save
          </Button>
        ) : (
          <p className="text-xs text-mist-400">Only the owner chooses this.</p>
        )}
      </fetcher.Form>
    </Card>
  );
}

/** 'Ban someone': their VRChat account, their Discord account, and why. */
export function BanForm() {
  const fetcher = useFetcher<Result>();
  useOutcomeToast(fetcher);
  const id = useId();
  // A fresh form once a ban is saved.
  const [round, setRound] = useState(0);
  const [seen, setSeen] = useState<Result | undefined>(undefined);
  if (fetcher.state === "idle" && fetcher.data?.ok && fetcher.data !== seen) {
    setSeen(fetcher.data);
    setRound((n) => n + 1);
  }
  return (
    <Card className="p-5">
      <h2 className="font-display text-2xl text-mist-100">Ban someone</h2>
      {fetcher.data?.error ? (
        <p role="alert" className="mt-2 text-sm text-red-300">
          {fetcher.data.error}
        </p>
      ) : null}
      <fetcher.Form key={round} method="post" className="mt-3 grid gap-4 sm:grid-cols-2">
        <input type="hidden" name="intent" value="ban" />
        <div className="space-y-1">
          <label htmlFor={`${id}-account`} className="block text-sm font-semibold text-mist-100">
            VRChat profile link or user id
          </label>
          <input id={`${id}-account`} name="account" maxLength={500} placeholder="https://vrchat.com/home/user/usr_…" className={fieldClass} />
        </div>
        <div className="space-y-1">
          <label htmlFor={`${id}-discord`} className="block text-sm font-semibold text-mist-100">
            Discord user id (optional)
          </label>
          <input id={`${id}-discord`} name="discord" maxLength={100} inputMode="numeric" className={fieldClass} />
        </div>
        <div className="space-y-1 sm:col-span-2">
          <label htmlFor={`${id}-reason`} className="block text-sm font-semibold text-mist-100">
            Reason
          </label>
          <textarea id={`${id}-reason`} name="reason" rows={2} maxLength={1000} required className={fieldClass} />
          <p className="text-xs text-mist-400">Kept with the ban, shown on their future applications, and written in Discord's audit log.</p>
        </div>
        <div className="sm:col-span-2">
          <Button type="submit" variant="danger" disabled={fetcher.state !== "idle"}>
            Ban
          </Button>
        </div>
      </fetcher.Form>
    </Card>
  );
}

/** 'Unban', asked again in a dialog; the list's one fetcher sends it (the button goes once the ban is lifted). */
function UnbanButton({ ban, unban, busy }: { ban: Ban; unban: (id: string) => void; busy: boolean }) {
  return (
    <ConfirmDialog
      trigger={
        <Button type="button" size="sm" variant="outline" disabled={busy}>
          Unban
        </Button>
      }
      title={`Unban ${ban.displayName}?`}
      description="The ban is lifted in VRChat and, when it was made there, in Discord. They may ask to join again."
      action={
        <Button type="button" variant="danger" onClick={() => unban(ban.id)}>
          Unban
        </Button>
      }
    />
  );
}

/** The bans in force, then those lifted in the last 30 days, each with where it was carried out. */
export function BanList({ bans, jobs, mayBan, files = false }: { bans: Ban[]; jobs: Record<string, { target: string; status: string; text: string }[]>; mayBan: boolean; files?: boolean }) {
  const fetcher = useFetcher<Result>();
  useOutcomeToast(fetcher);
  const unban = (id: string) => void fetcher.submit({ intent: "unban", id }, { method: "post" });
  if (bans.length === 0) return <EmptyState title="Nobody is banned" description="Bans made here or in VRChat show in this list." />;
  const inForce = bans.filter((ban) => !ban.liftedAt).length;
  return (
    <section aria-labelledby="bans-heading" className="space-y-3">
      <h2 id="bans-heading" className="font-display text-2xl text-mist-100">
        In force ({inForce.toLocaleString("en-US")})
      </h2>
      <ul className="space-y-3" aria-label="Bans">
        {bans.map((ban) => (
          <li key={ban.id}>
            <Card className="flex flex-wrap items-start gap-3 p-4">
              <div className="min-w-0 flex-1 basis-64 space-y-1">
                <h3 className="font-semibold break-words text-mist-100">
                  {ban.vrchatUserId ? (
                    <a href={`https://vrchat.com/home/user/${ban.vrchatUserId}`} target="_blank" rel="noopener noreferrer" className="hover:underline">
                      {ban.displayName}
                    </a>
                  ) : (
                    ban.displayName
                  )}{" "}
                  {ban.liftedAt ? <Badge tone="muted">Lifted</Badge> : <Badge tone="danger">Banned</Badge>}
                  {files ? (
                    <Link to={personPath(ban)!} className="ml-2 text-sm font-normal text-aurora-300 underline-offset-2 hover:underline">
                      Person's file
                    </Link>
                  ) : null}
                </h3>
                <p className="text-sm break-words text-mist-200" data-testid="ban-line">
                  {bannedLine(ban)}
                </p>
                <p className="text-xs text-mist-400">
                  {[ban.vrchatUserId ? `VRChat ${ban.vrchatUserId}` : null, ban.discordUserId ? `Discord ${ban.discordUserId}` : null, ban.source === "vrchat" ? "Found on VRChat's ban list" : null]
                    .filter(Boolean)
                    .join(" · ")}
                </p>
                {ban.liftedAt ? <p className="text-sm text-mist-300">{`Lifted on ${dateText(ban.liftedAt)} by ${ban.liftedBy ?? "staff"}`}</p> : null}
                {(jobs[ban.id] ?? []).map((job, i) => (
                  <p key={i} data-testid="ban-action" className={job.status === "failed" ? "text-sm text-red-300" : "text-sm text-mist-300"}>
                    {job.text}
                  </p>
                ))}
              </div>
              {mayBan && !ban.liftedAt ? <UnbanButton ban={ban} unban={unban} busy={fetcher.state !== "idle"} /> : null}
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}
