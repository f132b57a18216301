/** The sections of a person's file that only read: applications, join requests, bans, accounts. */
import { href, Link, useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { useOutcomeToast } from "~/components/ui/use-outcome-toast";
import { Badge } from "~/components/ui/badge";
import { Card } from "~/components/ui/card";
import { m } from "~/paraglide/messages";
import { linkedHowLabel } from "~/utils/vrchat-account";
import { dateText, historyLine, keyText, screeningLine, STATUS_TONE } from "./people-texts";
import { statusLabel } from "~/utils/status-label";
import type { FiledApplication, FiledBan, FiledJoinRequest, PersonFile } from "./person-file.server";

const linkClass = "text-aurora-300 underline-offset-2 hover:underline";

export function Section({ title, count, children, testId }: { title: string; count?: number; children: React.ReactNode; testId: string }) {
  return (
    <section aria-labelledby={`${testId}-heading`} className="space-y-3" data-testid={testId}>
      <h2 id={`${testId}-heading`} className="font-display text-2xl text-mist-100">
        {title}
        {count !== undefined ? <span className="ml-2 text-base text-mist-400">({count.toLocaleString("en-US")})</span> : null}
      </h2>
      {children}
    </section>
  );
}

/** Where the application is in its list: the list searched by the name it was made under. */
function listLink(application: FiledApplication): string {
  const search = `?${new URLSearchParams({ q: application.vrchatUsername || application.discordId, status: application.spam ? "spam" : "all" })}`;
  return application.event ? `${href("/admin/events/:eventId/applications", { eventId: application.event.id })}${search}` : `${href("/admin/applications")}${search}`;
}

function ApplicationItem({ application }: { application: FiledApplication }) {
  const screening = screeningLine(application.screening);
  const decisions = application.history.filter((entry) => entry.field !== "notes");
  return (
    <li>
      <Card className="space-y-2 p-4" data-testid="filed-application">
        <div className="flex flex-wrap items-center gap-2">
          <p className="font-semibold text-mist-100">
            {application.event ? (
              <>
                {application.event.title} <span className="text-sm font-normal text-mist-400">· {dateText(`${application.event.date}T12:00:00Z`)}</span>
              </>
            ) : (
              m.people_group_application()
            )}
          </p>
          <Badge tone={STATUS_TONE[application.status]}>{statusLabel(application.status)}</Badge>
          {application.spam ? <Badge tone="danger">{m.review_spam()}</Badge> : null}
          {application.attendance ? <Badge tone={application.attendance === "attended" ? "live" : "muted"}>{application.attendance === "attended" ? m.attendance_attended() : m.attendance_no_show()}</Badge> : null}
          <Link to={listLink(application)} className={`ml-auto text-sm ${linkClass}`}>
            {m.people_open_in_list()}
          </Link>
        </div>
        <p className="text-sm break-words text-mist-300">
          {m.people_as({ name: application.vrchatUsername || "—" })}
          {application.discordId ? m.people_discord({ id: application.discordId }) : ""}
          {m.people_submitted({ date: dateText(application.submittedAt) })}
          {application.reviewedAt ? m.people_reviewed({ date: dateText(application.reviewedAt) }) : ""}
        </p>
        {screening ? <p className="text-sm text-ember-300" data-testid="filed-screening">{screening}</p> : null}
        {application.notes ? <p className="text-sm whitespace-pre-wrap text-mist-300">{m.people_notes_line({ notes: application.notes })}</p> : null}
        {decisions.length > 0 ? (
          <ul className="space-y-0.5 text-xs text-mist-400">
            {decisions.map((entry, index) => (
              <li key={index}>
                {dateText(entry.at)} · {historyLine(entry)}
              </li>
            ))}
          </ul>
        ) : null}
      </Card>
    </li>
  );
}

export function ApplicationsSection({ applications }: { applications: FiledApplication[] }) {
  return (
    <Section title={m.people_applications_title()} count={applications.length} testId="person-applications">
      {applications.length === 0 ? (
        <p className="text-sm text-mist-400">{m.people_no_applications()}</p>
      ) : (
        <ul className="space-y-3">
          {applications.map((application) => (
            <ApplicationItem key={application.id} application={application} />
          ))}
        </ul>
      )}
    </Section>
  );
}

function joinRequestText(request: FiledJoinRequest): string {
  const asked = request.requestedAt ? m.people_asked_on({ date: dateText(request.requestedAt) }) : m.people_asked();
  const who = request.decidedBy ?? m.bans_staff();
  const on = request.decidedAt ? m.people_on_date({ date: dateText(request.decidedAt) }) : "";
  const decided = request.decision ? (request.decision === "accept" ? m.people_accepted_by({ who }) : m.people_rejected_by({ who })) + on : "";
  const standing = request.goneAt ? (request.decision ? "" : m.people_gone({ date: dateText(request.goneAt) })) : m.people_waiting();
  return `${asked}${decided}${standing}`;
}

export function JoinRequestsSection({ requests }: { requests: FiledJoinRequest[] }) {
  if (requests.length === 0) return null;
  return (
    <Section title={m.people_join_requests()} count={requests.length} testId="person-join-requests">
      <ul className="space-y-2">
        {requests.map((request) => (
          <li key={request.id} className="text-sm text-mist-300">
            <span className="font-semibold text-mist-100">{request.displayName}</span> · {joinRequestText(request)}
            {screeningLine(request.screening) ? <span className="block text-ember-300">{screeningLine(request.screening)}</span> : null}
          </li>
        ))}
      </ul>
      <Link to={href("/admin/join-requests")} className={`text-sm ${linkClass}`}>
        {m.people_all_join_requests()}
      </Link>
    </Section>
  );
}

export function BansSection({ bans }: { bans: FiledBan[] }) {
  if (bans.length === 0) return null;
  return (
    <Section title={m.people_bans()} count={bans.length} testId="person-bans">
      <ul className="space-y-2">
        {bans.map((ban) => (
          <li key={ban.id} className="text-sm text-mist-300">
            <Badge tone={ban.liftedAt ? "muted" : "danger"}>{ban.liftedAt ? m.bans_lifted() : m.people_in_force()}</Badge>
            {m.people_banned_on({ date: dateText(ban.bannedAt), by: ban.bannedBy ?? m.bans_vrchat() })}
            {ban.reason ? m.bans_reason_suffix({ reason: ban.reason }) : ""}
            {ban.liftedAt ? m.people_lifted_on({ date: dateText(ban.liftedAt), by: ban.liftedBy ?? m.bans_vrchat() }) : ""}
          </li>
        ))}
      </ul>
    </Section>
  );
}

/** Each account the file holds, and how it came to be linked (as each application says). */
export function AccountsSection({ file }: { file: Pick<PersonFile, "keys" | "applications"> }) {
  return (
    <Section title={m.people_linked_accounts()} testId="person-accounts">
      <ul className="space-y-2 text-sm text-mist-300">
        {file.keys.map((key) => {
          const ways = new Set<string>();
          for (const application of file.applications) {
            if (key.kind === "vrchat" && application.vrchatUserId === key.id && application.vrchatLinkedHow) ways.add(linkedHowLabel(application.vrchatLinkedHow, application.vrchatLinkedBy));
            if (key.kind === "discord" && application.discordUserId === key.id) ways.add(m.people_on_application());
          }
          return (
            <li key={`${key.kind}-${key.id}`} className="break-all">
              {key.kind === "vrchat" ? (
                <a href={`https://vrchat.com/home/user/${key.id}`} target="_blank" rel="noreferrer noopener" className={linkClass}>
                  {keyText(key)}
                </a>
              ) : (
                keyText(key)
              )}
              {[...ways].map((way) => (
                <Badge key={way} tone={way === m.linked_proven() ? "live" : "muted"} className="ml-2">
                  {way}
                </Badge>
              ))}
            </li>
          );
        })}
      </ul>
    </Section>
  );
}

/**
 * The staff's word that this file's VRChat and Discord accounts are the same person (the role bridge
 * acts on it as on a proof), or its withdrawal.
 */
export function PairSection({ pair }: { pair: { vrchatUserId: string; discordUserId: string; confirmed: boolean; byStaffWord: boolean; mayChange: boolean } }) {
  const fetcher = useFetcher<{ ok?: boolean; error?: string; message?: string }>();
  useOutcomeToast(fetcher);
  return (
    <Section title={m.pair_confirm()} testId="person-pair">
      <p className="text-sm text-mist-300">{pair.confirmed ? m.pair_state() : m.pair_confirm_text({ vrchat: pair.vrchatUserId, discord: pair.discordUserId })}</p>
      {/* A proof (a bio code and a Discord sign-in, or both accounts confirmed on an application) is not withdrawn here. */}
      {pair.mayChange && (!pair.confirmed || pair.byStaffWord) ? (
        <fetcher.Form method="post" className="mt-2">
          <input type="hidden" name="intent" value={pair.confirmed ? "unpair" : "pair"} />
          <input type="hidden" name="vrchatUserId" value={pair.vrchatUserId} />
          <input type="hidden" name="discordUserId" value={pair.discordUserId} />
          <Button type="submit" size="sm" variant={pair.confirmed ? "outline" : "primary"} disabled={fetcher.state !== "idle"}>
            {pair.confirmed ? m.pair_withdraw() : m.pair_confirm()}
          </Button>
        </fetcher.Form>
      ) : null}
    </Section>
  );
}
