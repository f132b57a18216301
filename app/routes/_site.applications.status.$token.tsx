import { CircleCheck, CircleX, Hourglass, ListOrdered, Pencil, Undo2 } from "lucide";
import { Icon } from "~/components/ui/icon";
import { data, Form, href, Link, redirect, useNavigation } from "react-router";
import { WITHDRAWABLE_STATUSES } from "~/db/enums";
import { decideServices } from "~/flows/decide.server";
import { withdrawApplication } from "~/flows/withdraw.server";
import { checkProof, proofView, startProof } from "~/flows/prove-account.server";
import { EDIT_TEXTS, editClosedReason } from "~/flows/edit-application.server";
import { ProofPanel } from "~/features/applications/proof-panel";
import { attendeeWayIn } from "~/flows/event-role.server";
import { hasEventStarted, formatLongDate, formatLongDateTime } from "~/features/events/event-timing";
import { getEvent } from "~/features/events/events.server";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { appContext, type AppContext } from "~/context";
import { waitlistPosition } from "~/features/applications/capacity.server";
import { STATUS_LINK_DAYS } from "~/features/decisions/decision-messages";
import { getApplicationStatus } from "~/features/decisions/decisions.server";
import { m } from "~/paraglide/messages";
import { currentLanguage, formatCount, LANGUAGE_NAMES } from "~/utils/language";
import { applicantPageAddress } from "~/utils/language.server";
import { log } from "~/utils/log.server";
import { useViewerTimeZone } from "~/utils/viewer-time-zone";
import type { Route } from "./+types/_site.applications.status.$token";

export const invalidStatusLink = () => m.status_invalid_link();

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const { db, vrchat, config, language } = context.get(appContext);
  try {
    const now = new Date();
    const status = await getApplicationStatus(db, params.token, now);
    if (!status) return data({ status: null, error: invalidStatusLink() }, { status: 404 });
    const theirs = applicantPageAddress(request, language, status.language);
    if (theirs) return redirect(theirs, { headers: { "Cache-Control": "no-store" } });
    const { id, eventId, ...shown } = status;
    const position = status.kind === "event" && status.status === "waitlist" ? await waitlistPosition(db, id) : null;
    // An event application may be withdrawn until its event starts.
    const event = eventId ? await getEvent(db, eventId) : null;
    const canWithdraw = event !== null && (WITHDRAWABLE_STATUSES as readonly string[]).includes(status.status) && !hasEventStarted(event, now);
    // An approved attendee's way in: the instance's link once it is open and they hold the event's role.
    const wayIn = event && status.status === "approved" ? await attendeeWayIn({ db, roles: vrchat.roles }, id, now) : null;
    const groupUrl = wayIn?.joinGroupFirst && config.VRCHAT_GROUP_ID ? `https://vrchat.com/home/group/${config.VRCHAT_GROUP_ID}` : null;
    // Proof is offered only where Dwell can read VRChat to check it.
    const proof = vrchat.membership ? await proofView(db, { kind: status.kind, id, status: status.status }, now) : { kind: "none" as const };
    // 'Edit my answers' while it waits and its form allows it; a decided one says why it cannot.
    const editClosed = await editClosedReason(db, status, event, now);
    const edited = new URL(request.url).searchParams.get("edited");
    const editNotice = edited === "yes" ? EDIT_TEXTS.saved() : edited === "none" ? EDIT_TEXTS.unchanged() : null;
    return {
      status: {
        ...shown,
        submittedAt: status.submittedAt.toISOString(),
        decidedAt: status.decidedAt?.toISOString() ?? null,
        waitlistPosition: position,
        canWithdraw,
        wayIn,
        groupUrl,
        proof,
        canEdit: editClosed === null,
        // Why a decided application cannot change (a form closed to edits, or a withdrawn one, says nothing).
        editClosed: editClosed === EDIT_TEXTS.off() || editClosed === EDIT_TEXTS.withdrawn() ? null : editClosed,
        editNotice,
      },
      error: null,
    };
  } catch (error) {
    log.error("failed to read an application's status", { error });
    return data({ status: null, error: m.status_read_failed() }, { status: 503 });
  }
}

/**
 * 'Withdraw my application': asked first (the page shows what it means), then done; a second send
 * (another tab, a double click) only says it is done already.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const ctx = context.get(appContext);
  const form = await request.formData().catch(() => null);
  const intent = form?.get("intent");
  if (intent === "withdraw-ask") return { confirming: true, notice: null };
  if (intent === "prove-start" || intent === "prove-check") return prove(ctx, params.token, intent);
  if (intent !== "withdraw") return data({ confirming: false, notice: m.unknown_action() }, { status: 400 });
  try {
    const outcome = await withdrawApplication(decideServices(ctx), params.token, new Date());
    if (outcome.kind === "missing") return data({ confirming: false, notice: invalidStatusLink() }, { status: 404 });
    if (outcome.kind === "not-withdrawable") return data({ confirming: false, notice: outcome.reason }, { status: 409 });
    if (outcome.kind === "already") return { confirming: false, notice: m.withdraw_already() };
    return redirect(href("/applications/status/:token", { token: params.token }));
  } catch (error) {
    log.error("failed to withdraw an application", { error });
    return data({ confirming: false, notice: m.withdraw_failed() }, { status: 503 });
  }
}

/** 'Prove this account is yours' and 'Check' (see flows/prove-account). */
async function prove(ctx: AppContext, token: string, intent: "prove-start" | "prove-check") {
  try {
    const outcome = intent === "prove-start" ? await startProof(ctx.db, token, new Date()) : await checkProof(decideServices(ctx), token, new Date());
    if (outcome.kind === "refused") return data({ confirming: false, notice: outcome.message || invalidStatusLink() }, { status: outcome.status });
    return { confirming: false, notice: null };
  } catch (error) {
    log.error("failed to prove an applicant's VRChat account", { error });
    return data({ confirming: false, notice: m.proof_unreachable() }, { status: 503 });
  }
}

/** The link is the applicant's key: no cache keeps the page. */
export function headers() {
  return { "Cache-Control": "no-store" };
}

/** Nor does a link or an image on it pass the address on (the site's header policy sends the origin). */
export function meta() {
  return [{ title: m.status_title() }, { name: "robots", content: "noindex" }, { name: "referrer", content: "no-referrer" }];
}

const LOOK = {
  pending: { label: m.status_pending, tone: "gold", icon: Hourglass },
  approved: { label: m.status_approved, tone: "live", icon: CircleCheck },
  rejected: { label: m.status_rejected, tone: "muted", icon: CircleX },
  waitlist: { label: m.status_waitlist, tone: "gold", icon: ListOrdered },
  withdrawn: { label: m.status_withdrawn, tone: "muted", icon: Undo2 },
} as const;

export default function ApplicationStatusPage({ loaderData, actionData, params }: Route.ComponentProps) {
  const timeZone = useViewerTimeZone();
  const { status, error } = loaderData;
  if (!status) {
    return (
      <Shell>
        <Card className="p-10 text-center">
          <h1 className="font-display text-3xl text-mist-100">{m.status_heading()}</h1>
          <p className="mt-4 text-mist-300">{error}</p>
          <p className="mt-2 text-sm text-mist-400">{m.status_link_expiry({ days: STATUS_LINK_DAYS })}</p>
        </Card>
      </Shell>
    );
  }
  const look = LOOK[status.status];
  return (
    <Shell>
      <Card className="p-8 sm:p-10">
        <p className="text-xs font-semibold tracking-[0.3em] text-aurora-300 uppercase">{m.status_heading()}</p>
        <h1 className="mt-2 font-display text-3xl text-mist-100 sm:text-4xl">
          {status.kind === "event" ? (status.eventTitle ?? m.status_event_removed()) : m.status_joining()}
        </h1>
        <div className="mt-6 flex items-center gap-3">
          <Icon node={look.icon} className="size-8 text-ember-300" />
          <Badge tone={look.tone} className="px-3 py-1 text-base" data-testid="application-status">
            {look.label()}
          </Badge>
        </div>
        <dl className="mt-6 grid gap-1 text-sm text-mist-300 sm:grid-cols-[auto_1fr] sm:gap-x-4">
          <dt className="font-semibold text-mist-400">{m.status_submitted()}</dt>
          <dd>{formatLongDate(new Date(status.submittedAt), timeZone)}</dd>
          {status.decidedAt ? (
            <>
              <dt className="font-semibold text-mist-400">{status.status === "withdrawn" ? m.status_withdrawn() : m.status_decided()}</dt>
              <dd>{formatLongDate(new Date(status.decidedAt), timeZone)}</dd>
            </>
          ) : null}
        </dl>
        {status.status === "pending" ? (
          <p className="mt-6 text-mist-300">{m.status_waiting()}</p>
        ) : status.status === "waitlist" ? (
          <p className="mt-6 text-mist-300" data-testid="waitlist-position">
            {status.waitlistPosition ? m.status_waitlist_position({ position: formatCount(status.waitlistPosition) }) : null}
            {m.status_waitlist_text()}
          </p>
        ) : status.status === "withdrawn" ? (
          <p className="mt-6 text-mist-300" data-testid="withdrawn-note">
            {m.status_withdrawn_text()}
          </p>
        ) : status.message ? (
          <>
            {status.messageLanguage && status.messageLanguage !== currentLanguage() ? (
              <p className="mt-6 text-sm text-mist-400" data-testid="message-language">
                {m.status_message_language({ language: LANGUAGE_NAMES[status.messageLanguage] ?? status.messageLanguage })}
              </p>
            ) : null}
            <blockquote
              className="mt-6 border-l-2 border-ember-400/60 pl-4 whitespace-pre-line text-mist-100"
              lang={status.messageLanguage ?? undefined}
              data-testid="decision-message"
            >
              <WithLinks text={status.message} />
            </blockquote>
          </>
        ) : null}
        {status.wayIn?.joinUrl ? (
          <div className="mt-6 rounded-lg border border-emerald-400/30 bg-emerald-400/10 p-4" data-testid="join-in-vrchat">
            <p className="text-mist-100">{m.status_instance_open()}</p>
            <Button asChild className="mt-3">
              <a href={status.wayIn.joinUrl} target="_blank" rel="noopener noreferrer">
                {m.event_join_in_vrchat()}
              </a>
            </Button>
          </div>
        ) : null}
        {status.wayIn?.joinGroupFirst ? (
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
        {status.wayIn?.noAccount ? (
          <p className="mt-6 text-sm text-mist-300" data-testid="account-not-linked">
            {m.status_not_linked()}
          </p>
        ) : null}
        {status.editNotice ? (
          <p role="status" className="mt-6 rounded-lg border border-emerald-400/30 bg-emerald-400/10 px-3 py-2 text-sm text-emerald-200" data-testid="edit-notice">
            {status.editNotice}
          </p>
        ) : null}
        {status.canEdit ? (
          <div className="mt-6">
            <Button asChild variant="outline">
              <Link to={href("/applications/status/:token/edit", { token: params.token })}>
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
        <ProofPanel proof={status.proof} formatDate={(iso) => formatLongDateTime(new Date(iso), timeZone)} />
        {actionData?.notice ? <p role="status" className="mt-6 rounded-lg border border-ember-400/30 bg-ember-400/10 px-3 py-2 text-sm text-ember-200">{actionData.notice}</p> : null}
        {status.canWithdraw ? <Withdraw confirming={actionData?.confirming === true} /> : null}
      </Card>
      <div className="mt-6 text-center">
        <Button asChild variant="ghost">
          <Link to={href("/")}>{m.return_home()}</Link>
        </Button>
      </div>
    </Shell>
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
      <p className="mt-2 text-sm text-mist-200">
        {m.status_withdraw_means()}
      </p>
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

function Shell({ children }: { children: React.ReactNode }) {
  return <div className="mx-auto max-w-2xl px-4 py-12 sm:px-6">{children}</div>;
}
