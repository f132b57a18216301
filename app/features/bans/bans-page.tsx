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
import { m } from "~/paraglide/messages";
import { formatCount } from "~/utils/language";
import { personPath } from "~/utils/person-key";

export const BANS_INTRO = m.bans_intro;

/** What the Bans page says, in the page's language (read when said). */
export const BAN_TEXTS = {
  get nobody() {
    return m.bans_nobody();
  },
  vrchatHint: VRCHAT_ACCOUNT_HINT,
  get discordHint() {
    return m.bans_discord_hint();
  },
  get notInForce() {
    return m.bans_not_in_force();
  },
  already: (ban: Pick<Ban, "displayName" | "bannedAt" | "bannedBy">) => m.bans_already({ name: ban.displayName, date: dateText(ban.bannedAt), by: ban.bannedBy ?? m.bans_vrchat() }),
  banned: (name: string, rejected: number) =>
    m.bans_banned({ name }) + (rejected === 0 ? "" : rejected === 1 ? m.bans_rejected_one() : m.bans_rejected({ count: formatCount(rejected) })),
  get rejecting() {
    return m.bans_rejecting();
  },
  get flagging() {
    return m.bans_flagging();
  },
  waiting: (target: string) => (target === "vrchat_ban" ? m.bans_waiting_vrchat() : m.bans_waiting_discord()),
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
          {m.bans_reject_label()}
        </label>
        {mayChoose ? (
          <Button type="submit" size="sm" disabled={fetcher.state !== "idle"}>
            {m.bans_save()}
          </Button>
        ) : (
          <p className="text-xs text-mist-400">{m.bans_owner_only()}</p>
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
      <h2 className="font-display text-2xl text-mist-100">{m.bans_ban_someone()}</h2>
      {fetcher.data?.error ? (
        <p role="alert" className="mt-2 text-sm text-red-300">
          {fetcher.data.error}
        </p>
      ) : null}
      <fetcher.Form key={round} method="post" className="mt-3 grid gap-4 sm:grid-cols-2">
        <input type="hidden" name="intent" value="ban" />
        <div className="space-y-1">
          <label htmlFor={`${id}-account`} className="block text-sm font-semibold text-mist-100">
            {m.bans_vrchat_account()}
          </label>
          <input id={`${id}-account`} name="account" maxLength={500} placeholder="https://vrchat.com/home/user/usr_…" className={fieldClass} />
        </div>
        <div className="space-y-1">
          <label htmlFor={`${id}-discord`} className="block text-sm font-semibold text-mist-100">
            {m.bans_discord_optional()}
          </label>
          <input id={`${id}-discord`} name="discord" maxLength={100} inputMode="numeric" className={fieldClass} />
        </div>
        <div className="space-y-1 sm:col-span-2">
          <label htmlFor={`${id}-reason`} className="block text-sm font-semibold text-mist-100">
            {m.bans_reason()}
          </label>
          <textarea id={`${id}-reason`} name="reason" rows={2} maxLength={1000} required className={fieldClass} />
          <p className="text-xs text-mist-400">{m.bans_reason_hint()}</p>
        </div>
        <div className="sm:col-span-2">
          <Button type="submit" variant="danger" disabled={fetcher.state !== "idle"}>
            {m.bans_ban()}
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
          {m.bans_unban()}
        </Button>
      }
      title={m.bans_unban_title({ name: ban.displayName })}
      description={m.bans_unban_text()}
      action={
        <Button type="button" variant="danger" onClick={() => unban(ban.id)}>
          {m.bans_unban()}
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
  if (bans.length === 0) return <EmptyState title={m.bans_nobody_banned()} description={m.bans_nobody_banned_hint()} />;
  const inForce = bans.filter((ban) => !ban.liftedAt).length;
  return (
    <section aria-labelledby="bans-heading" className="space-y-3">
      <h2 id="bans-heading" className="font-display text-2xl text-mist-100">
        {m.bans_in_force({ count: formatCount(inForce) })}
      </h2>
      <ul className="space-y-3" aria-label={m.bans_list()}>
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
                  {ban.liftedAt ? <Badge tone="muted">{m.bans_lifted()}</Badge> : <Badge tone="danger">{m.bans_banned_badge()}</Badge>}
                  {ban.reach === "site" ? (
                    <Badge tone="gold" className="ml-2" data-testid="ban-site-only">
                      {m.bans_site_only()}
                    </Badge>
                  ) : null}
                  {files ? (
                    <Link to={personPath(ban)!} className="ml-2 text-sm font-normal text-aurora-300 underline-offset-2 hover:underline">
                      {m.review_person_file()}
                    </Link>
                  ) : null}
                </h3>
                <p className="text-sm break-words text-mist-200" data-testid="ban-line">
                  {bannedLine(ban)}
                </p>
                {ban.reach === "site" ? <p className="text-sm text-ember-200">{m.bans_site_only_text()}</p> : null}
                <p className="text-xs text-mist-400">
                  {[ban.vrchatUserId ? `VRChat ${ban.vrchatUserId}` : null, ban.discordUserId ? `Discord ${ban.discordUserId}` : null, ban.source === "vrchat" ? m.bans_found_on_vrchat() : null]
                    .filter(Boolean)
                    .join(" · ")}
                </p>
                {ban.liftedAt ? <p className="text-sm text-mist-300">{m.bans_lifted_on({ date: dateText(ban.liftedAt), by: ban.liftedBy ?? m.bans_staff() })}</p> : null}
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
