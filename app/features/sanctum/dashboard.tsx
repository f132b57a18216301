import { ArrowRight, CalendarClock, CalendarDays, Inbox, RefreshCw, ScrollText } from "lucide";
import { Icon } from "~/components/ui/icon";
import type { ReactNode } from "react";
import { Link, useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { clsx } from "clsx";
import { m } from "~/paraglide/messages";
import { formatCount } from "~/utils/language";

export interface DashboardFigures {
  totalEvents: number;
  upcomingEvents: number;
  totalApplications: number;
  pendingEventApplications: number;
  pendingGroupApplications: number;
  eventApplications: number;
  eventsWithApplications: number;
}

export interface SystemCheck {
  name: string;
  ok: boolean;
  detail: string;
  /** A notification channel's target, when failed jobs can be retried from here. */
  target?: string;
  failed?: number;
  /** The VRChat check offers 'Sync now' (import the calendar into the events). */
  canSync?: boolean;
}

function StatCard({ icon, label, value, note }: { icon: ReactNode; label: string; value: number; note?: string }) {
  return (
    <Card className="p-5">
      <p className="flex items-center gap-2 text-sm font-semibold text-mist-400">
        <span aria-hidden="true" className="text-aurora-300">{icon}</span>
        {label}
      </p>
      <p className="mt-2 font-display text-4xl text-mist-100">{formatCount(value)}</p>
      {note ? <p className="mt-1 text-xs text-mist-400">{note}</p> : null}
    </Card>
  );
}

export function StatCards({ figures }: { figures: DashboardFigures }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <StatCard icon={<Icon node={CalendarDays} className="size-4" />} label={m.dash_total_events()} value={figures.totalEvents} />
      <StatCard icon={<Icon node={CalendarClock} className="size-4" />} label={m.dash_upcoming_events()} value={figures.upcomingEvents} />
      <StatCard icon={<Icon node={Inbox} className="size-4" />} label={m.dash_total_applications()} value={figures.totalApplications} note={m.dash_total_applications_note()} />
      <StatCard icon={<Icon node={ScrollText} className="size-4" />} label={m.dash_event_applications()} value={figures.pendingEventApplications} note={m.dash_pending_review()} />
    </div>
  );
}

/** 'Cosmic Status': the figures, and the real state of the database and each configured channel. */
export function CosmicStatus({ figures, checks }: { figures: DashboardFigures; checks: SystemCheck[] }) {
  const harmonious = checks.every((check) => check.ok);
  const rows: [string, ReactNode][] = [
    [m.dash_active_events(), formatCount(figures.upcomingEvents)],
    [m.dash_legacy_applications(), m.dash_pending({ count: formatCount(figures.pendingGroupApplications) })],
    [m.dash_event_applications(), formatCount(figures.eventApplications)],
    [m.dash_events_with_applications(), formatCount(figures.eventsWithApplications)],
  ];
  return (
    <Card className="p-6">
      <h2 className="font-display text-2xl text-mist-100">{m.dash_cosmic_status()}</h2>
      <dl className="mt-4 divide-y divide-aurora-400/10">
        {rows.map(([term, value]) => (
          <div key={term} className="flex justify-between gap-4 py-2">
            <dt className="text-mist-400">{term}</dt>
            <dd className="font-semibold text-mist-100">{value}</dd>
          </div>
        ))}
        <div className="flex justify-between gap-4 py-2">
          <dt className="text-mist-400">{m.dash_system_status()}</dt>
          <dd className={clsx("font-semibold", harmonious ? "text-emerald-300" : "text-ember-300")}>
            {harmonious ? m.dash_harmonious() : m.dash_disturbed()}
          </dd>
        </div>
      </dl>
      <ul className="mt-4 space-y-2 text-sm" aria-label={m.dash_system_checks()}>
        {checks.map((check) => (
          <li key={check.name} className="flex items-start gap-2">
            <span aria-hidden="true" className={clsx("mt-1.5 size-2 shrink-0 rounded-full", check.ok ? "bg-emerald-400" : "bg-ember-400")} />
            <span>
              <span className="font-semibold text-mist-100">{check.name}:</span>{" "}
              <span className="text-mist-300">{check.detail}</span>
              {check.target && check.failed ? <RetryButton target={check.target} name={check.name} /> : null}
              {check.canSync ? <SyncNowButton /> : null}
            </span>
          </li>
        ))}
      </ul>
    </Card>
  );
}

export function QuickActions({ pendingGroupApplications }: { pendingGroupApplications: number }) {
  const actions = [
    { to: "/admin/events", label: m.dash_manage_events(), note: m.dash_manage_events_note() },
    { to: "/admin/applications", label: m.dash_review_applications(), note: m.dash_pending({ count: formatCount(pendingGroupApplications) }) },
  ];
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {actions.map((action) => (
        <Link key={action.to} to={action.to} className="group rounded-2xl border border-aurora-400/20 bg-night-900/70 p-5 hover:border-aurora-300/60">
          <span className="flex items-center justify-between font-semibold text-mist-100 group-hover:text-ember-300">
            {action.label}
            <Icon node={ArrowRight} className="size-4" />
          </span>
          <span className="mt-1 block text-sm text-mist-400">{action.note}</span>
        </Link>
      ))}
    </div>
  );
}

function RetryButton({ target, name }: { target: string; name: string }) {
  const fetcher = useFetcher<{ message?: string; error?: string }>();
  return (
    <fetcher.Form method="post" className="mt-1">
      <input type="hidden" name="intent" value="retry-notifications" />
      <input type="hidden" name="target" value={target} />
      <button type="submit" className="text-xs font-semibold text-aurora-300 hover:text-ember-300" disabled={fetcher.state !== "idle"}>
        {m.dash_retry_failed({ name })}
      </button>
      {fetcher.data?.message ? <span role="status" className="ml-2 text-xs text-mist-400">{fetcher.data.message}</span> : null}
    </fetcher.Form>
  );
}

/** Imports the group's VRChat calendar into the events now, and says what it did. */
function SyncNowButton() {
  const fetcher = useFetcher<{ message?: string; error?: string; details?: string[] }>();
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" className="mt-2">
      <input type="hidden" name="intent" value="sync-events" />
      <Button type="submit" size="sm" variant="outline" disabled={busy}>
        <Icon node={RefreshCw} className={clsx("size-4", busy && "animate-spin")} />
        {busy ? m.dash_syncing() : m.dash_sync_now()}
      </Button>
      {fetcher.data?.message ? (
        <span role="status" className="mt-2 block text-sm text-mist-300">
          {fetcher.data.message}
        </span>
      ) : null}
      {fetcher.data?.error ? (
        <span role="alert" className="mt-2 block text-sm text-red-300">
          {fetcher.data.error}
        </span>
      ) : null}
      {fetcher.data?.details?.length ? (
        <ul className="mt-1 list-disc pl-5 text-xs text-ember-300">
          {fetcher.data.details.map((detail) => (
            <li key={detail}>{detail}</li>
          ))}
        </ul>
      ) : null}
    </fetcher.Form>
  );
}
