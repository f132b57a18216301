/** The sections of a person's file that only read: applications, join requests, bans, accounts. */
import { href, Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Card } from "~/components/ui/card";
import { linkedHowLabel } from "~/utils/vrchat-account";
import { dateText, historyLine, keyText, screeningLine, STATUS_LABEL, STATUS_TONE } from "./people-texts";
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
              "Group application"
            )}
          </p>
          <Badge tone={STATUS_TONE[application.status]}>{STATUS_LABEL[application.status]}</Badge>
          {application.spam ? <Badge tone="danger">Spam</Badge> : null}
          {application.attendance ? <Badge tone={application.attendance === "attended" ? "live" : "muted"}>{application.attendance === "attended" ? "Attended" : "No-show"}</Badge> : null}
          <Link to={listLink(application)} className={`ml-auto text-sm ${linkClass}`}>
            Open in the list
          </Link>
        </div>
        <p className="text-sm break-words text-mist-300">
          As {application.vrchatUsername || "—"}
          {application.discordId ? ` · Discord ${application.discordId}` : ""} · Submitted {dateText(application.submittedAt)}
          {application.reviewedAt ? ` · Reviewed ${dateText(application.reviewedAt)}` : ""}
        </p>
        {screening ? <p className="text-sm text-ember-300" data-testid="filed-screening">{screening}</p> : null}
        {application.notes ? <p className="text-sm whitespace-pre-wrap text-mist-300">Notes: {application.notes}</p> : null}
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
    <Section title="Applications" count={applications.length} testId="person-applications">
      {applications.length === 0 ? (
        <p className="text-sm text-mist-400">No applications on the site.</p>
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
  const asked = request.requestedAt ? `Asked ${dateText(request.requestedAt)}` : "Asked";
  const decided = request.decision ? ` · ${request.decision === "accept" ? "Accepted" : "Rejected"} by ${request.decidedBy ?? "staff"}${request.decidedAt ? ` on ${dateText(request.decidedAt)}` : ""}` : "";
  const standing = request.goneAt ? (request.decision ? "" : ` · Answered in VRChat or withdrawn by ${dateText(request.goneAt)}`) : " · Waiting";
  return `${asked}${decided}${standing}`;
}

export function JoinRequestsSection({ requests }: { requests: FiledJoinRequest[] }) {
  if (requests.length === 0) return null;
  return (
    <Section title="Join requests in VRChat" count={requests.length} testId="person-join-requests">
      <ul className="space-y-2">
        {requests.map((request) => (
          <li key={request.id} className="text-sm text-mist-300">
            <span className="font-semibold text-mist-100">{request.displayName}</span> · {joinRequestText(request)}
            {screeningLine(request.screening) ? <span className="block text-ember-300">{screeningLine(request.screening)}</span> : null}
          </li>
        ))}
      </ul>
      <Link to={href("/admin/join-requests")} className={`text-sm ${linkClass}`}>
        All join requests
      </Link>
    </Section>
  );
}

export function BansSection({ bans }: { bans: FiledBan[] }) {
  if (bans.length === 0) return null;
  return (
    <Section title="Bans" count={bans.length} testId="person-bans">
      <ul className="space-y-2">
        {bans.map((ban) => (
          <li key={ban.id} className="text-sm text-mist-300">
            <Badge tone={ban.liftedAt ? "muted" : "danger"}>{ban.liftedAt ? "Lifted" : "In force"}</Badge> Banned on {dateText(ban.bannedAt)} by {ban.bannedBy ?? "VRChat"}
            {ban.reason ? `: ${ban.reason}` : ""}
            {ban.liftedAt ? ` · Lifted on ${dateText(ban.liftedAt)} by ${ban.liftedBy ?? "VRChat"}` : ""}
          </li>
        ))}
      </ul>
    </Section>
  );
}

/** Each account the file holds, and how it came to be linked (as each application says). */
export function AccountsSection({ file }: { file: Pick<PersonFile, "keys" | "applications"> }) {
  return (
    <Section title="Linked accounts" testId="person-accounts">
      <ul className="space-y-2 text-sm text-mist-300">
        {file.keys.map((key) => {
          const ways = new Set<string>();
          for (const application of file.applications) {
            if (key.kind === "vrchat" && application.vrchatUserId === key.id && application.vrchatLinkedHow) ways.add(linkedHowLabel(application.vrchatLinkedHow, application.vrchatLinkedBy));
            if (key.kind === "discord" && application.discordUserId === key.id) ways.add("On an application");
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
                <Badge key={way} tone={way === "Proven by bio code" ? "live" : "muted"} className="ml-2">
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
