/**
 * The moderation history's page: the filters (kept in the address), the list, a moderator's week by
 * week, how far each audit log has been read; and the tripwire (its trips, and the owner's limits).
 */
import { useId } from "react";
import { Form, Link, useFetcher } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { EmptyState } from "~/components/ui/empty-state";
import { fieldClass } from "~/components/ui/field";
import { useOutcomeToast } from "~/components/ui/use-outcome-toast";
import { MODERATION_KINDS, MODERATION_PLACES, type ModerationKind, type ModerationPlace } from "~/db/enums";
import { m } from "~/paraglide/messages";
import { dateFormat, formatCount } from "~/utils/language";
import { personPath } from "~/utils/person-key";
import type { ActFilters, ActView } from "./moderation.server";
import type { TripView, TripwireSettings } from "./tripwire.server";

const PLACE_NAME: Record<ModerationPlace, () => string> = { vrchat: m.mod_place_vrchat, discord: m.mod_place_discord, dwell: m.mod_place_dwell };
const KIND_NAME: Record<ModerationKind, () => string> = {
  ban: m.mod_kind_ban,
  unban: m.mod_kind_unban,
  kick: m.mod_kind_kick,
  timeout: m.mod_kind_timeout,
  role_add: m.mod_kind_role_add,
  role_remove: m.mod_kind_role_remove,
  approve: m.mod_kind_approve,
  reject: m.mod_kind_reject,
  instance_kick: m.mod_kind_instance_kick,
};
const KIND_TONE: Partial<Record<ModerationKind, "danger" | "gold" | "muted">> = { ban: "danger", kick: "danger", role_remove: "gold", timeout: "gold", reject: "muted" };

export const placeName = (place: ModerationPlace) => PLACE_NAME[place]();
export const kindName = (kind: ModerationKind) => KIND_NAME[kind]();

const when = (iso: string) => dateFormat({ dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(new Date(iso)) + " UTC";

/** The filters, as a GET form: the address carries them, so a filtered list can be shared and reloaded. */
export function ActFilterForm({ filters, moderators }: { filters: ActFilters; moderators: { key: string; name: string }[] }) {
  const id = useId();
  const field = (name: string, label: string, control: React.ReactNode) => (
    <div className="space-y-1">
      <label htmlFor={`${id}-${name}`} className="block text-sm font-semibold text-mist-100">
        {label}
      </label>
      {control}
    </div>
  );
  /** A filter chosen from a list, 'Any' first. */
  const choice = (name: string, label: string, chosen: string | undefined, options: { value: string; label: string }[]) =>
    field(
      name,
      label,
      <select id={`${id}-${name}`} name={name} defaultValue={chosen ?? ""} className={fieldClass}>
        <option value="">{m.mod_filter_any()}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>,
    );
  return (
    <Card className="p-4">
      {/* Keyed by the filters: a link that changes them (a moderator's name) shows them in the form too. */}
      <Form key={JSON.stringify({ ...filters, before: undefined })} method="get" className="grid gap-3 sm:grid-cols-3 lg:grid-cols-6" aria-label={m.mod_filter_apply()}>
        {choice("place", m.mod_filter_place(), filters.place, MODERATION_PLACES.map((place) => ({ value: place, label: placeName(place) })))}
        {choice("kind", m.mod_filter_kind(), filters.kind, MODERATION_KINDS.map((kind) => ({ value: kind, label: kindName(kind) })))}
        {choice("moderator", m.mod_filter_moderator(), filters.moderator, moderators.map((moderator) => ({ value: moderator.key, label: moderator.name })))}
        {field("person", m.mod_filter_person(), <input id={`${id}-person`} name="person" defaultValue={filters.person ?? ""} maxLength={200} className={fieldClass} />)}
        {field("from", m.mod_filter_from(), <input id={`${id}-from`} type="date" name="from" defaultValue={filters.from ?? ""} className={fieldClass} />)}
        {field("to", m.mod_filter_to(), <input id={`${id}-to`} type="date" name="to" defaultValue={filters.to ?? ""} className={fieldClass} />)}
        <div className="flex flex-wrap items-end gap-2 sm:col-span-3 lg:col-span-6">
          <Button type="submit" size="sm">
            {m.mod_filter_apply()}
          </Button>
          <Link to="/admin/moderation" className="text-sm text-aurora-300 underline-offset-2 hover:underline">
            {m.mod_filter_clear()}
          </Link>
        </div>
      </Form>
    </Card>
  );
}

/** The address of the list with these filters (and an extra change). */
export function actsHref(filters: ActFilters, change: Partial<ActFilters> = {}, path = "/admin/moderation") {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filters, ...change })) if (value) params.set(key, value);
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

function Person({ act, files }: { act: ActView; files: boolean }) {
  const name = act.targetName ?? act.targetVrchatId ?? act.targetDiscordId ?? "—";
  const path = files ? personPath({ vrchatUserId: act.targetVrchatId, discordUserId: act.targetDiscordId }) : null;
  return path ? (
    <Link to={path} className="text-aurora-300 underline-offset-2 hover:underline">
      {name}
    </Link>
  ) : (
    <span>{name}</span>
  );
}

/** The acts, newest first, as a table on a wide screen and as lines on a narrow one. */
export function ActList({ acts, filters, files, showModerator = true }: { acts: ActView[]; filters: ActFilters; files: boolean; showModerator?: boolean }) {
  return (
    <ul className="divide-y divide-aurora-400/15 rounded-xl border border-aurora-400/20" aria-label={m.mod_title()}>
      {acts.map((act) => (
        <li key={act.id} data-testid="moderation-act" className="grid gap-1 p-3 text-sm sm:grid-cols-[11rem_6rem_minmax(0,1fr)_minmax(0,1fr)] sm:gap-3">
          <span className="text-mist-400">{when(act.at)}</span>
          <span className="text-mist-300">{placeName(act.place)}</span>
          <span className="text-mist-100">
            <Badge tone={KIND_TONE[act.kind] ?? "muted"}>{kindName(act.kind)}</Badge> {act.roleName ?? act.roleId ?? ""} · <Person act={act} files={files} />
          </span>
          <span className="min-w-0 break-words text-mist-300">
            {showModerator ? (
              <Link to={actsHref(filters, { moderator: act.actorKey, before: undefined })} className="text-mist-100 underline-offset-2 hover:underline">
                {act.actorName}
              </Link>
            ) : null}
            {act.reason ? <span className="block text-xs text-mist-400">{act.reason}</span> : null}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** A moderator's acts per kind, week by week. */
export function ActivityTable({ name, weeks }: { name: string; weeks: { week: string; counts: Partial<Record<ModerationKind, number>> }[] }) {
  const kinds = MODERATION_KINDS.filter((kind) => weeks.some((week) => week.counts[kind]));
  return (
    <Card className="p-4">
      <h2 className="font-display text-2xl text-mist-100">{m.mod_activity_title({ name })}</h2>
      {weeks.length === 0 ? (
        <p className="mt-2 text-sm text-mist-300">{m.mod_activity_none()}</p>
      ) : (
        <div className="mt-3 overflow-x-auto">
          <table className="w-full text-sm" data-testid="moderator-activity">
            <thead>
              <tr className="text-left text-mist-300">
                <th scope="col" className="py-1 pr-3">
                  {m.mod_activity_week()}
                </th>
                {kinds.map((kind) => (
                  <th key={kind} scope="col" className="py-1 pr-3">
                    {kindName(kind)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {weeks.map((week) => (
                <tr key={week.week} className="border-t border-aurora-400/15 text-mist-100">
                  <th scope="row" className="py-1 pr-3 text-left font-normal text-mist-300">
                    {week.week}
                  </th>
                  {kinds.map((kind) => (
                    <td key={kind} className="py-1 pr-3 tabular-nums">
                      {formatCount(week.counts[kind] ?? 0)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

/** How far each audit log has been read (only what needs saying: a failure, a catch-up, never read). */
export function LogReads({ reads, places }: { reads: { place: "vrchat" | "discord"; lastReadAt: string | null; lastError: string | null; catchingUp: boolean }[]; places: ("vrchat" | "discord")[] }) {
  return (
    <ul className="space-y-1 text-sm text-mist-300" aria-label={m.mod_title()}>
      {places.map((place) => {
        const read = reads.find((row) => row.place === place);
        const name = placeName(place);
        if (!read?.lastReadAt && !read?.lastError) return <li key={place}>{m.mod_read_never({ place: name })}</li>;
        return (
          <li key={place} className={read.lastError ? "text-red-300" : undefined} data-testid={`log-read-${place}`}>
            {read.lastError ? m.mod_read_failed({ place: name, error: read.lastError }) : m.mod_read_ok({ place: name, when: when(read.lastReadAt!) })}
            {read.catchingUp ? ` ${m.mod_read_catching()}` : ""}
          </li>
        );
      })}
    </ul>
  );
}

type Result = { ok?: boolean; error?: string; message?: string };

/** The trips: open ones first, each with 'Undo' and 'Close' for an owner. */
export function TripList({ trips, mayAnswer }: { trips: TripView[]; mayAnswer: boolean }) {
  const fetcher = useFetcher<Result>();
  useOutcomeToast(fetcher);
  const send = (intent: string, id: string) => void fetcher.submit({ intent, id }, { method: "post" });
  const busy = fetcher.state !== "idle";
  return (
    <section aria-labelledby="trips-heading" className="space-y-3">
      <h2 id="trips-heading" className="font-display text-2xl text-mist-100">
        {m.trip_list()}
      </h2>
      {trips.length === 0 ? <p className="text-sm text-mist-300">{m.trip_none()}</p> : null}
      <ul className="space-y-3">
        {trips.map((trip) => (
          <li key={trip.id}>
            <Card tone={trip.closedAt ? "plain" : "danger"} className={`space-y-2 p-4 ${trip.closedAt ? "opacity-75" : ""}`} data-testid="trip" data-trip-id={trip.id}>
              <p className="font-semibold text-mist-100">
                {m.trip_card({ name: trip.actorName, removals: formatCount(trip.counts.removals), roles: formatCount(trip.counts.roleRemovals) })}{" "}
                <span className="text-sm font-normal text-mist-400">{when(trip.trippedAt)}</span>
              </p>
              {trip.suspended ? <p className="text-sm text-ember-200">{m.trip_suspended()}</p> : null}
              {trip.rolesTaken.length > 0 && !trip.closedAt ? (
                <p className="text-sm text-ember-200">{m.trip_roles_taken({ roles: trip.rolesTaken.map((role) => `${role.roleName} (${placeName(role.place)})`).join(", ") })}</p>
              ) : null}
              {trip.undoneAt ? <p className="text-sm text-mist-200">{m.trip_undone({ name: trip.undoneBy ?? "—", result: trip.undoResult ?? "" })}</p> : null}
              {trip.closedAt ? <p className="text-sm text-mist-400">{m.trip_closed({ name: trip.closedBy ?? "—" })}</p> : null}
              <p className="text-sm">
                <Link to={actsHref({}, { moderator: trip.actorKey })} className="text-aurora-300 underline-offset-2 hover:underline">
                  {m.mod_activity_link()}
                </Link>
              </p>
              {mayAnswer && !trip.closedAt ? (
                <div className="flex flex-wrap gap-2">
                  {trip.undoneAt ? null : (
                    <ConfirmDialog
                      trigger={
                        <Button type="button" size="sm" variant="danger" disabled={busy}>
                          {m.trip_undo()}
                        </Button>
                      }
                      title={m.trip_undo()}
                      description={m.trip_card({ name: trip.actorName, removals: formatCount(trip.counts.removals), roles: formatCount(trip.counts.roleRemovals) })}
                      action={
                        <Button type="button" variant="danger" onClick={() => send("undo", trip.id)}>
                          {m.trip_undo()}
                        </Button>
                      }
                    />
                  )}
                  <Button type="button" size="sm" variant="outline" disabled={busy} onClick={() => send(trip.suspended ? "close-lift" : "close", trip.id)}>
                    {trip.suspended ? m.trip_close_lift() : m.trip_close()}
                  </Button>
                  {trip.suspended ? (
                    <Button type="button" size="sm" variant="outline" disabled={busy} onClick={() => send("close", trip.id)}>
                      {m.trip_close()}
                    </Button>
                  ) : null}
                </div>
              ) : null}
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The owner's limits (and the history's retention). */
export function TripwireForm({ settings }: { settings: TripwireSettings }) {
  const fetcher = useFetcher<Result>();
  useOutcomeToast(fetcher);
  const id = useId();
  const number = (name: keyof TripwireSettings, label: string, hint: string, max: number) => (
    <div className="space-y-1">
      <label htmlFor={`${id}-${name}`} className="block text-sm font-semibold text-mist-100">
        {label}
      </label>
      <input id={`${id}-${name}`} name={name} type="number" min={1} max={max} inputMode="numeric" defaultValue={(settings[name] as number | null) ?? ""} className={fieldClass} />
      <p className="text-xs text-mist-400">{hint}</p>
    </div>
  );
  return (
    <Card className="p-5">
      <h2 className="font-display text-2xl text-mist-100">{m.trip_title()}</h2>
      <p className="mt-1 max-w-2xl text-sm text-mist-300">{m.trip_intro()}</p>
      {fetcher.data?.error ? (
        <p role="alert" className="mt-2 text-sm text-red-300">
          {fetcher.data.error}
        </p>
      ) : null}
      <fetcher.Form method="post" className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <input type="hidden" name="intent" value="tripwire" />
        {number("removalLimit", m.trip_removals(), m.trip_off_hint(), 10_000)}
        {number("roleRemovalLimit", m.trip_roles(), m.trip_off_hint(), 10_000)}
        <div className="space-y-1">
          <label htmlFor={`${id}-windowMinutes`} className="block text-sm font-semibold text-mist-100">
            {m.trip_window()}
          </label>
          <input id={`${id}-windowMinutes`} name="windowMinutes" type="number" min={1} max={1440} required defaultValue={settings.windowMinutes} className={fieldClass} />
        </div>
        {number("retentionDays", m.trip_retention(), m.trip_retention_hint(), 36_500)}
        <label className="flex items-center gap-3 text-sm text-mist-100 sm:col-span-2 lg:col-span-4">
          <input type="checkbox" name="suspend" defaultChecked={settings.suspend} className="size-5 accent-ember-400" />
          {m.trip_suspend()}
        </label>
        <div className="sm:col-span-2 lg:col-span-4">
          <Button type="submit" size="sm" disabled={fetcher.state !== "idle"}>
            {m.trip_save()}
          </Button>
        </div>
      </fetcher.Form>
    </Card>
  );
}

export function NoActs({ filtered }: { filtered: boolean }) {
  return filtered ? <EmptyState title={m.mod_none()} /> : <EmptyState title={m.mod_title()} description={m.mod_empty()} />;
}

/** 'Read the logs now': at most once a minute, whoever asks. */
export function ReadNowButton() {
  const fetcher = useFetcher<Result>();
  useOutcomeToast(fetcher);
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="read-now" />
      <Button type="submit" size="sm" variant="outline" disabled={fetcher.state !== "idle"}>
        {m.mod_read_now()}
      </Button>
    </fetcher.Form>
  );
}
