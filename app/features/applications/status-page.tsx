/**
 * The applicant's status page, as they read it: where their application stands, the decision's
 * message, their way into the event, and what they may still do (edit, prove their VRChat account,
 * link their Discord, withdraw). Plain forms posting to the page's own action: no script needed.
 */
import { CircleCheck, CircleX, Hourglass, ListOrdered, Pencil, Undo2 } from "lucide";
import type { ReactNode } from "react";
import { Form, href, Link, useNavigation } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Icon } from "~/components/ui/icon";
import type { ApplicationStatus } from "~/db/enums";
import { m } from "~/paraglide/messages";
import { currentLanguage, formatCount, LANGUAGE_NAMES } from "~/utils/language";
import { ProofPanel } from "./proof-panel";
import type { ProofView } from "./proof";

/** What the page shows of an application (see flows/application-status). */
export interface StatusView {
  kind: "group" | "event";
  eventTitle: string | null;
  status: ApplicationStatus;
  submittedAt: string;
  decidedAt: string | null;
  message: string | null;
  messageLanguage: string | null;
  waitlistPosition: number | null;
  canWithdraw: boolean;
  wayIn: { joinUrl: string | null; joinGroupFirst: boolean; noAccount: boolean } | null;
  /** "How was it?": the personal link, after the event (for the 7 days after it). */
  rating: { url: string; rated: boolean } | null;
  groupUrl: string | null;
  proof: ProofView;
  canEdit: boolean;
  /** Why a decided application cannot be edited (null: nothing to say). */
  editClosed: string | null;
  /** What the page says after an edit or a link: saved, unchanged, linked. */
  notice: string | null;
}

const LOOK = {
  pending: { label: m.status_pending, tone: "gold", icon: Hourglass },
  approved: { label: m.status_approved, tone: "live", icon: CircleCheck },
  rejected: { label: m.status_rejected, tone: "muted", icon: CircleX },
  waitlist: { label: m.status_waitlist, tone: "gold", icon: ListOrdered },
  withdrawn: { label: m.status_withdrawn, tone: "muted", icon: Undo2 },
} as const;

/** How the page writes an instant in the reader's zone: a day, and a day with its time. */
export interface StatusDates {
  date: (iso: string) => string;
  dateTime: (iso: string) => string;
}

/** A link that no longer leads to an application (`linkDays`: how long a decided one's link lasts). */
export function StatusMissing({ error, linkDays }: { error: string | null; linkDays: number }) {
  return (
    <StatusShell>
      <Card className="p-10 text-center">
        <h1 className="font-display text-3xl text-mist-100">{m.status_heading()}</h1>
        <p className="mt-4 text-mist-300">{error}</p>
        <p className="mt-2 text-sm text-mist-400">{m.status_link_expiry({ days: linkDays })}</p>
      </Card>
    </StatusShell>
  );
}

/** `discord`: the Discord panel the page composes (features never import each other). */
export function StatusPage({ status, token, notice, confirming, discord, dates }: { status: StatusView; token: string; notice: string | null; confirming: boolean; discord: ReactNode; dates: StatusDates }) {
  const look = LOOK[status.status];
  return (
    <StatusShell>
      <Card className="p-8 sm:p-10">
        <p className="text-xs font-semibold tracking-[0.3em] text-aurora-300 uppercase">{m.status_heading()}</p>
        <h1 className="mt-2 font-display text-3xl text-mist-100 sm:text-4xl">{status.kind === "event" ? (status.eventTitle ?? m.status_event_removed()) : m.status_joining()}</h1>
        <div className="mt-6 flex items-center gap-3">
          <Icon node={look.icon} className="size-8 text-ember-300" />
          <Badge tone={look.tone} className="px-3 py-1 text-base" data-testid="application-status">
            {look.label()}
          </Badge>
        </div>
        <dl className="mt-6 grid gap-1 text-sm text-mist-300 sm:grid-cols-[auto_1fr] sm:gap-x-4">
          <dt className="font-semibold text-mist-400">{m.status_submitted()}</dt>
          <dd>{dates.date(status.submittedAt)}</dd>
          {status.decidedAt ? (
            <>
              <dt className="font-semibold text-mist-400">{status.status === "withdrawn" ? m.status_withdrawn() : m.status_decided()}</dt>
              <dd>{dates.date(status.decidedAt)}</dd>
            </>
          ) : null}
        </dl>
        <Outcome status={status} />
        <WayIn status={status} />
        {status.rating ? (
          <p className="mt-6 rounded-lg border border-aurora-400/30 bg-aurora-500/10 px-3 py-2 text-mist-100" data-testid="rate-the-event">
            {status.rating.rated ? m.status_rated() : m.status_rate()}{" "}
            <a href={status.rating.url} className="text-aurora-300 underline hover:text-ember-300">
              {status.rating.rated ? m.status_rate_change() : m.status_rate_link()}
            </a>
          </p>
        ) : null}
        {status.notice ? (
          <p role="status" className="mt-6 rounded-lg border border-emerald-400/30 bg-emerald-400/10 px-3 py-2 text-sm text-emerald-200" data-testid="edit-notice">
            {status.notice}
          </p>
        ) : null}
        {status.canEdit ? (
          <div className="mt-6">
            <Button asChild variant="outline">
              <Link to={href("/applications/status/:token/edit", { token })}>
                <Icon node={Pencil} className="size-4" />
                {m.status_edit_answers()}
              </Link>
            </Button>
          </div>
        ) : status.editClosed ? (
          <p className="mt-6 text-sm text-mist-400" data-testid="edit-closed">
            {status.editClosed}
          </p>
        ) : null}
        <ProofPanel proof={status.proof} formatDate={dates.dateTime} />
        {discord}
        {notice ? <p role="status" className="mt-6 rounded-lg border border-ember-400/30 bg-ember-400/10 px-3 py-2 text-sm text-ember-200">{notice}</p> : null}
        {status.canWithdraw ? <Withdraw confirming={confirming} /> : null}
      </Card>
      <div className="mt-6 text-center">
        <Button asChild variant="ghost">
          <Link to={href("/")}>{m.return_home()}</Link>
        </Button>
      </div>
    </StatusShell>
  );
}

/** Where it stands in words: waiting, its place in line, withdrawn, or the decision's message. */
function Outcome({ status }: { status: StatusView }) {
  if (status.status === "pending") return <p className="mt-6 text-mist-300">{m.status_waiting()}</p>;
  if (status.status === "waitlist") {
    return (
      <p className="mt-6 text-mist-300" data-testid="waitlist-position">
        {status.waitlistPosition ? m.status_waitlist_position({ position: formatCount(status.waitlistPosition) }) : null}
        {m.status_waitlist_text()}
      </p>
    );
  }
  if (status.status === "withdrawn") {
    return (
      <p className="mt-6 text-mist-300" data-testid="withdrawn-note">
        {m.status_withdrawn_text()}
      </p>
    );
  }
  if (!status.message) return null;
  return (
    <>
      {status.messageLanguage && status.messageLanguage !== currentLanguage() ? (
        <p className="mt-6 text-sm text-mist-400" data-testid="message-language">
          {m.status_message_language({ language: LANGUAGE_NAMES[status.messageLanguage] ?? status.messageLanguage })}
        </p>
      ) : null}
      <blockquote className="mt-6 border-l-2 border-ember-400/60 pl-4 whitespace-pre-line text-mist-100" lang={status.messageLanguage ?? undefined} data-testid="decision-message">
        <WithLinks text={status.message} />
      </blockquote>
    </>
  );
}

/** An approved attendee's way into the event: the instance's link, or what is missing first. */
function WayIn({ status }: { status: StatusView }) {
  const { wayIn } = status;
  if (!wayIn) return null;
  return (
    <>
      {wayIn.joinUrl ? (
        <div className="mt-6 rounded-lg border border-emerald-400/30 bg-emerald-400/10 p-4" data-testid="join-in-vrchat">
          <p className="text-mist-100">{m.status_instance_open()}</p>
          <Button asChild className="mt-3">
            <a href={wayIn.joinUrl} target="_blank" rel="noopener noreferrer">
              {m.event_join_in_vrchat()}
            </a>
          </Button>
        </div>
      ) : null}
      {wayIn.joinGroupFirst ? (
        <p className="mt-6 rounded-lg border border-ember-400/30 bg-ember-400/10 px-3 py-2 text-sm text-ember-200" data-testid="join-group-first">
          {m.status_join_group_first()}
          {status.groupUrl ? (
            <>
              {" "}
              (<a href={status.groupUrl} target="_blank" rel="noopener noreferrer" className="underline">
                {m.status_group_on_vrchat()}
              </a>
              )
            </>
          ) : null}
          {m.status_join_group_then()}
        </p>
      ) : null}
      {wayIn.noAccount ? (
        <p className="mt-6 text-sm text-mist-300" data-testid="account-not-linked">
          {m.status_not_linked()}
        </p>
      ) : null}
    </>
  );
}

/** 'Withdraw my application', then what it means and 'Yes, withdraw' (a form each: no script needed). */
function Withdraw({ confirming }: { confirming: boolean }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  if (!confirming) {
    return (
      <Form method="post" className="mt-8 border-t border-mist-400/15 pt-6">
        <input type="hidden" name="intent" value="withdraw-ask" />
        <Button type="submit" variant="outline">{m.status_withdraw()}</Button>
      </Form>
    );
  }
  return (
    <section aria-labelledby="withdraw-heading" className="mt-8 rounded-xl border border-red-400/40 bg-red-500/10 p-5">
      <h2 id="withdraw-heading" className="font-display text-xl text-mist-100">{m.status_withdraw_ask()}</h2>
      <p className="mt-2 text-sm text-mist-200">{m.status_withdraw_means()}</p>
      <div className="mt-4 flex flex-wrap gap-3">
        <Form method="post">
          <input type="hidden" name="intent" value="withdraw" />
          <Button type="submit" variant="danger" disabled={busy} aria-busy={busy}>{m.status_withdraw_yes()}</Button>
        </Form>
        <Button asChild variant="ghost">
          <Link to=".">{m.status_withdraw_keep()}</Link>
        </Button>
      </div>
    </section>
  );
}

/** The message as text, its web addresses (the Discord invite) as links. */
function WithLinks({ text }: { text: string }) {
  return text.split(/(https?:\/\/[^\s<>"]+[^\s<>".,;:!?)])/).map((part, i) =>
    i % 2 === 1 ? (
      <a key={i} href={part} rel="noreferrer noopener" className="break-all text-aurora-300 underline hover:text-ember-300">
        {part}
      </a>
    ) : (
      part
    ),
  );
}

function StatusShell({ children }: { children: ReactNode }) {
  return <div className="mx-auto max-w-2xl px-4 py-12 sm:px-6">{children}</div>;
}
