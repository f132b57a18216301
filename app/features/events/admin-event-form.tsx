import { useId } from "react";
import { Form, href, Link, useNavigation } from "react-router";
import { fieldClass } from "~/components/ui/field";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { clsx } from "clsx";
import { deadlineDateOf, defaultEndFor } from "./event-editor-times";
import { EVENT_TIMEZONES } from "./event-timing";
import { INSTANCE_LEADS } from "./event-input";
import { repeatLabels, SERIES_MAX_COUNT } from "./event-series";
import { m } from "~/paraglide/messages";
import type { InstanceRegion } from "~/db/enums";
import type { AdminEventSummary } from "./events.server";
import {
  DEFAULT_PUBLICATION_CHOICE,
  PUBLICATION_FIELDS,
  VRCHAT_ACCESS,
  VRCHAT_CATEGORIES,
  VRCHAT_CREATIONS_PER_HOUR,
  VRCHAT_LANGUAGES,
  VRCHAT_LANGUAGES_MAX,
  VRCHAT_PLATFORMS,
  VRCHAT_TITLE_MAX,
  vrchatLanguageName,
  type PublicationSummary,
} from "./vrchat-publication";

export interface EventFormFailure {
  error: string;
  /** The field the error is about, marked invalid. */
  field?: string;
}

function Field({ id, label, error, children, hint }: { id: string; label: string; error?: boolean; children: React.ReactNode; hint?: string }) {
  return (
    <div className={clsx("space-y-2", error && "text-red-200")}>
      <label htmlFor={id} className="block text-sm font-semibold text-mist-100">{label}</label>
      {children}
      {hint ? <p className="text-xs text-mist-400">{hint}</p> : null}
    </div>
  );
}

/** The inline create/edit form that replaces the list (spec, admin events). */
export function AdminEventForm({
  event,
  failure,
  publishing,
  publication,
  hosts = [],
  instances = false,
  discordEvents = null,
}: {
  /** The Discord server's event list can be kept (the bot is set up): whether a new event goes there by default. */
  discordEvents?: { byDefault: boolean } | null;
  /** Dwell opens events' instances (VRCHAT_OPEN_INSTANCES): the form asks when and how. */
  instances?: boolean;
  event: AdminEventSummary | null;
  /** The team, for 'Host' (shown to those who manage every event; a host's own events stay theirs). */
  hosts?: { id: string; username: string }[];
  failure?: EventFormFailure;
  /** Publishing to VRChat's calendar is configured. */
  publishing: boolean;
  /** How the event stands on VRChat's calendar, if it was ever published. */
  publication: PublicationSummary | null;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const errorId = useId();
  const id = (name: string) => `event-${name}`;
  const invalid = (name: string) => (failure?.field === name ? { "aria-invalid": true, "aria-describedby": errorId } : {});
  const deadline = event?.applicationDeadline ? deadlineDateOf(new Date(event.applicationDeadline), event.timezone) : "";
  const end = event ? (event.endDate && event.endTime ? { endDate: event.endDate, endTime: event.endTime } : defaultEndFor(event.eventDate, event.eventTime, event.timezone)) : null;

  return (
    <Card className="p-6">
      <h2 className="font-display text-2xl text-mist-100">{event ? m.aev_form_edit_title({ title: event.title }) : m.aev_create()}</h2>
      {/* The application fields hide with CSS while "Requires Application" is off: no script needed. */}
      <Form method="post" className="dwell-event-form mt-6 grid gap-5 sm:grid-cols-2" noValidate>
        <input type="hidden" name="intent" value={event ? "update" : "create"} />
        {event ? <input type="hidden" name="id" value={event.id} /> : null}
        <div id={errorId} role="alert" className="sm:col-span-2">
          {failure ? <p className="rounded-lg border border-red-400/40 bg-red-500/10 px-3 py-2 text-sm text-red-200">{failure.error}</p> : null}
        </div>
        <div className="sm:col-span-2">
          <Field id={id("title")} label={m.aev_field_title()} hint={publishing ? m.aev_title_hint({ max: VRCHAT_TITLE_MAX }) : undefined}>
            <input id={id("title")} name="title" required defaultValue={event?.title} className={fieldClass} {...invalid("title")} />
          </Field>
        </div>
        <div className="sm:col-span-2">
          <Field id={id("description")} label={m.aev_field_description()}>
            <textarea id={id("description")} name="description" rows={4} defaultValue={event?.description} className={fieldClass} {...invalid("description")} />
          </Field>
        </div>
        <Field id={id("date")} label={m.aev_field_date()}>
          <input id={id("date")} name="eventDate" type="date" required defaultValue={event?.eventDate} className={fieldClass} {...invalid("eventDate")} />
        </Field>
        <Field id={id("time")} label={m.aev_field_time()}>
          <input id={id("time")} name="eventTime" type="time" required defaultValue={event?.eventTime.slice(0, 5)} className={fieldClass} {...invalid("eventTime")} />
        </Field>
        <Field id={id("timezone")} label={m.aev_field_timezone()}>
          <select id={id("timezone")} name="timezone" defaultValue={event?.timezone ?? "UTC"} className={fieldClass} {...invalid("timezone")}>
            {EVENT_TIMEZONES.map((zone) => <option key={zone}>{zone}</option>)}
          </select>
        </Field>
        <Field id={id("ends")} label={m.aev_field_ends()} hint={m.aev_ends_hint()}>
          <input id={id("ends")} name="ends" type="datetime-local" defaultValue={end ? `${end.endDate}T${end.endTime.slice(0, 5)}` : ""} className={fieldClass} {...invalid("ends")} />
        </Field>
        <RepeatFields event={event} invalid={invalid} />
        <Field id={id("world-link")} label={m.aev_field_world_link()} hint={m.aev_world_link_hint()}>
          <input id={id("world-link")} name="worldLink" inputMode="url" defaultValue={event?.worldId ?? ""} placeholder="https://vrchat.com/home/world/wrld_…" className={fieldClass} {...invalid("worldLink")} />
        </Field>
        <Field id={id("world")} label={m.aev_field_world_name()} hint={m.aev_world_name_hint()}>
          <input id={id("world")} name="worldName" defaultValue={event?.worldName} className={fieldClass} {...invalid("worldName")} />
        </Field>
        <label className="flex items-center gap-3 text-sm font-semibold text-mist-100 sm:col-span-2">
          <input type="checkbox" name="applicationRequired" defaultChecked={event?.applicationRequired} className="size-5 accent-ember-400" />
          {m.aev_field_application_required()}
        </label>
        <div className="dwell-application-fields grid gap-5 sm:col-span-2 sm:grid-cols-2">
            <Field id={id("deadline")} label={m.aev_field_deadline()} hint={m.aev_deadline_hint()}>
              <input id={id("deadline")} name="applicationDeadline" type="date" defaultValue={deadline} className={fieldClass} {...invalid("applicationDeadline")} />
            </Field>
            <Field id={id("max")} label={m.aev_field_max()} hint={m.aev_max_hint()}>
              <input id={id("max")} name="maxAttendees" type="number" min={1} step={1} defaultValue={event?.maxAttendees ?? ""} className={fieldClass} {...invalid("maxAttendees")} />
            </Field>
            <label className="flex items-start gap-3 text-sm text-mist-100 sm:col-span-2">
              <input type="checkbox" name="requiresProof" defaultChecked={event?.requiresProof} className="mt-0.5 size-5 shrink-0 accent-ember-400" />
              <span>
                <span className="font-semibold">{m.aev_field_proof()}</span>
                <span className="block text-mist-400">{m.aev_proof_hint()}</span>
              </span>
            </label>
            <div className="sm:col-span-2">
              <Field id={id("promotion")} label={m.aev_field_promotion()} hint={m.aev_promotion_hint()}>
                <select id={id("promotion")} name="waitlistPromotion" defaultValue={event?.waitlistPromotion ?? "pending"} className={fieldClass} {...invalid("waitlistPromotion")}>
                  <option value="pending">{m.aev_promotion_pending()}</option>
                  <option value="automatic">{m.aev_promotion_automatic()}</option>
                </select>
              </Field>
            </div>
            <div className="sm:col-span-2">
              <Field id={id("instructions")} label={m.aev_field_instructions()}>
                <textarea id={id("instructions")} name="applicationInstructions" rows={3} defaultValue={event?.applicationInstructions ?? ""} className={fieldClass} {...invalid("applicationInstructions")} />
              </Field>
            </div>
        </div>
        {hosts.length > 0 ? (
          <Field id={id("host")} label={m.aev_field_host()} hint={m.aev_host_hint()}>
            <select id={id("host")} name="hostId" defaultValue={event?.hostId ?? ""} className={fieldClass} {...invalid("hostId")}>
              {event?.hostId ? null : <option value="">{event ? m.aev_no_host() : m.aev_host_you()}</option>}
              {hosts.map((host) => (
                <option key={host.id} value={host.id}>{host.username}</option>
              ))}
            </select>
          </Field>
        ) : null}
        <label className="flex items-center gap-3 text-sm font-semibold text-mist-100 sm:col-span-2">
          <input type="checkbox" name="featured" defaultChecked={event?.featured} className="size-5 accent-ember-400" />
          {m.aev_field_featured()}
        </label>
        {discordEvents ? (
          <label className="flex items-start gap-3 text-sm text-mist-100 sm:col-span-2">
            <input type="checkbox" name="discordEvent" defaultChecked={event ? event.discordEvent : discordEvents.byDefault} className="mt-0.5 size-5 shrink-0 accent-ember-400" />
            <span>
              <span className="font-semibold">{m.aev_field_discord_event()}</span>
              <span className="block text-xs text-mist-400">{m.aev_discord_event_hint()}</span>
            </span>
          </label>
        ) : event?.discordEvent ? (
          // Kept as it is while the site has no Discord bot.
          <input type="hidden" name="discordEvent" value="on" />
        ) : null}
        {instances ? (
          <InstanceFields event={event} invalid={invalid} />
        ) : (
          // Kept as they are while the site does not open instances.
          <>
            <input type="hidden" name="instanceLead" value={event ? (event.instanceLeadMinutes === null ? "never" : String(event.instanceLeadMinutes)) : "15"} />
            <input type="hidden" name="instanceRegion" value={event?.instanceRegion ?? "us"} />
            <input type="hidden" name="instanceAccess" value={event?.instanceAccess ?? "members"} />
          </>
        )}
        {publishing ? <PublishFields publication={publication} invalid={invalid} /> : null}
        {event?.series ? <ApplyToFields invalid={invalid} /> : null}
        <div className="flex flex-wrap gap-3 sm:col-span-2">
          <Button type="submit" disabled={busy} aria-busy={busy}>{event ? m.aev_save() : m.aev_create_submit()}</Button>
          <Button asChild variant="ghost">
            <Link to={href("/admin/events")}>{m.aev_cancel()}</Link>
          </Button>
        </div>
      </Form>
    </Card>
  );
}

type Invalid = (name: string) => { "aria-invalid"?: boolean; "aria-describedby"?: string };

/**
 * 'Repeats': never, or a series of events (each its own, made eight weeks ahead) that ends on a
 * date or after a number of events. Its end fields hide with CSS while it does not repeat.
 */
function RepeatFields({ event, invalid }: { event: AdminEventSummary | null; invalid: Invalid }) {
  const headingId = useId();
  const series = event?.series ?? null;
  return (
    <fieldset aria-labelledby={headingId} className="grid gap-4 rounded-xl border border-mist-400/20 p-4 sm:col-span-2 sm:grid-cols-3">
      <legend id={headingId} className="px-1 text-sm font-semibold text-mist-100">{m.aev_series()}</legend>
      <Field id="event-repeats" label={m.aev_field_repeats()} hint={series ? m.aev_repeats_hint_in({ number: series.index + 1 }) : m.aev_repeats_hint()}>
        <select id="event-repeats" name="repeats" defaultValue={series?.frequency ?? "never"} className={fieldClass} {...invalid("repeats")}>
          {Object.entries(repeatLabels()).map(([value, label]) => (
            <option key={value} value={value}>{label}</option>
          ))}
        </select>
      </Field>
      <div className="dwell-repeat-fields contents">
        <Field id="event-repeat-until" label={m.aev_field_repeat_until()} hint={m.aev_repeat_until_hint()}>
          <input id="event-repeat-until" name="repeatUntil" type="date" defaultValue={series?.untilDate ?? ""} className={fieldClass} {...invalid("repeatUntil")} />
        </Field>
        <Field id="event-repeat-count" label={m.aev_field_repeat_count()} hint={m.aev_repeat_count_hint({ max: SERIES_MAX_COUNT })}>
          <input id="event-repeat-count" name="repeatCount" type="number" min={2} max={SERIES_MAX_COUNT} step={1} defaultValue={series?.occurrenceCount ?? ""} className={fieldClass} {...invalid("repeatCount")} />
        </Field>
        <p className="text-xs text-mist-400 sm:col-span-3">{m.aev_series_note()}</p>
      </div>
    </fieldset>
  );
}

/** An occurrence's edit: this event alone, or this and the following events of its series. */
function ApplyToFields({ invalid }: { invalid: Invalid }) {
  const headingId = useId();
  return (
    <fieldset aria-labelledby={headingId} className="space-y-2 rounded-xl border border-ember-400/30 p-4 sm:col-span-2" {...invalid("applyTo")}>
      <legend id={headingId} className="px-1 text-sm font-semibold text-mist-100">{m.aev_apply_to()}</legend>
      <label className="flex items-center gap-2 text-sm text-mist-200">
        <input type="radio" name="applyTo" value="this" defaultChecked className="size-4 accent-ember-400" />
        {m.aev_apply_this()}
      </label>
      <label className="flex items-center gap-2 text-sm text-mist-200">
        <input type="radio" name="applyTo" value="following" className="size-4 accent-ember-400" />
        {m.aev_apply_following()}
      </label>
      <p className="text-xs text-mist-400">{m.aev_apply_note()}</p>
    </fieldset>
  );
}

const REGION_LABELS: Record<InstanceRegion, () => string> = { us: m.aev_region_us, use: m.aev_region_use, eu: m.aev_region_eu, jp: m.aev_region_jp };

/** 'Open the instance': when Dwell opens the event's group instance in its world, where, and for whom. */
function InstanceFields({ event, invalid }: { event: AdminEventSummary | null; invalid: Invalid }) {
  const headingId = useId();
  const lead = event ? (event.instanceLeadMinutes === null ? "never" : String(event.instanceLeadMinutes)) : "15";
  return (
    <fieldset aria-labelledby={headingId} className="grid gap-4 rounded-xl border border-mist-400/20 p-4 sm:col-span-2 sm:grid-cols-2">
      <legend id={headingId} className="px-1 text-sm font-semibold text-mist-100">{m.aev_instance()}</legend>
      <Field id="instance-lead" label={m.aev_field_lead()} hint={m.aev_lead_hint()}>
        <select id="instance-lead" name="instanceLead" defaultValue={lead} className={fieldClass} {...invalid("instanceLead")}>
          <option value="never">{m.aev_lead_never()}</option>
          {INSTANCE_LEADS.map((minutes) => (
            <option key={minutes} value={String(minutes)}>{minutes === 0 ? m.aev_lead_start() : m.aev_lead_minutes({ minutes })}</option>
          ))}
        </select>
      </Field>
      <Field id="instance-region" label={m.aev_field_region()}>
        <select id="instance-region" name="instanceRegion" defaultValue={event?.instanceRegion ?? "us"} className={fieldClass} {...invalid("instanceRegion")}>
          {Object.entries(REGION_LABELS).map(([value, label]) => (
            <option key={value} value={value}>{label()}</option>
          ))}
        </select>
      </Field>
      <fieldset className="space-y-2 sm:col-span-2">
        <legend className="text-sm font-semibold text-mist-100">{m.aev_who_enters()}</legend>
        <label className="flex items-center gap-2 text-sm text-mist-200">
          <input type="radio" name="instanceAccess" value="members" defaultChecked={(event?.instanceAccess ?? "members") === "members"} className="size-4 accent-ember-400" />
          {m.aev_access_members()}
        </label>
        <label className="flex items-center gap-2 text-sm text-mist-200">
          <input type="radio" name="instanceAccess" value="public" defaultChecked={event?.instanceAccess === "public"} className="size-4 accent-ember-400" />
          {m.aev_access_public()}
        </label>
        <p className="text-xs text-mist-400">{m.aev_access_note()}</p>
      </fieldset>
    </fieldset>
  );
}

/**
 * 'Publish to VRChat': the entry on the group's VRChat calendar, kept up to date by the site. The
 * choices hide with CSS while the box is unticked, like the application fields.
 */
function PublishFields({ publication, invalid }: { publication: PublicationSummary | null; invalid: Invalid }) {
  const choice = publication?.choice ?? DEFAULT_PUBLICATION_CHOICE;
  const languages = Array.from({ length: VRCHAT_LANGUAGES_MAX }, (_, index) => choice.languages[index] ?? "");
  const headingId = useId();
  return (
    <fieldset aria-labelledby={headingId} className="grid gap-4 rounded-xl border border-mist-400/20 p-4 sm:col-span-2">
      <legend id={headingId} className="sr-only">{m.aev_calendar()}</legend>
      <label className="flex items-center gap-3 text-sm font-semibold text-mist-100">
        <input
          type="checkbox"
          name={PUBLICATION_FIELDS.publish}
          defaultChecked={publication?.wanted ?? false}
          className="size-5 accent-ember-400"
          {...invalid(PUBLICATION_FIELDS.publish)}
        />
        {m.aev_publish()}
      </label>
      <p className="-mt-2 text-xs text-mist-400">
        {m.aev_publish_hint()}
      </p>
      <div className="dwell-vrchat-fields grid gap-4 sm:grid-cols-2">
        <Field id="vrchat-category" label={m.aev_field_category()}>
          <select id="vrchat-category" name={PUBLICATION_FIELDS.category} defaultValue={choice.category} className={fieldClass} {...invalid(PUBLICATION_FIELDS.category)}>
            {Object.entries(VRCHAT_CATEGORIES).map(([value, label]) => (
              <option key={value} value={value}>{label}</option>
            ))}
          </select>
        </Field>
        <fieldset className="space-y-2">
          <legend className="text-sm font-semibold text-mist-100">{m.aev_who_sees()}</legend>
          {Object.entries(VRCHAT_ACCESS).map(([value, label]) => (
            <label key={value} className="flex items-center gap-2 text-sm text-mist-200">
              <input type="radio" name={PUBLICATION_FIELDS.accessType} value={value} defaultChecked={choice.accessType === value} className="size-4 accent-ember-400" />
              {label}
            </label>
          ))}
          <p className="text-xs text-mist-400" data-testid="access-note">
            {m.aev_access_note_calendar()}
          </p>
        </fieldset>
        <fieldset className="space-y-2">
          <legend className="text-sm font-semibold text-mist-100">{m.aev_languages({ max: VRCHAT_LANGUAGES_MAX })}</legend>
          {languages.map((language, index) => (
            <select
              key={index}
              name={PUBLICATION_FIELDS.languages}
              aria-label={m.aev_language_n({ number: index + 1 })}
              defaultValue={language}
              className={fieldClass}
              {...invalid(PUBLICATION_FIELDS.languages)}
            >
              <option value="">{index === 0 ? m.aev_no_spoken_language() : m.aev_language_none()}</option>
              {Object.keys(VRCHAT_LANGUAGES).map((value) => (
                <option key={value} value={value}>{vrchatLanguageName(value as keyof typeof VRCHAT_LANGUAGES)}</option>
              ))}
            </select>
          ))}
        </fieldset>
        <fieldset className="space-y-2" {...invalid(PUBLICATION_FIELDS.platforms)}>
          <legend className="text-sm font-semibold text-mist-100">{m.aev_platforms()}</legend>
          {Object.entries(VRCHAT_PLATFORMS).map(([value, label]) => (
            <label key={value} className="flex items-center gap-2 text-sm text-mist-200">
              <input type="checkbox" name={PUBLICATION_FIELDS.platforms} value={value} defaultChecked={choice.platforms.includes(value)} className="size-4 accent-ember-400" />
              {label}
            </label>
          ))}
        </fieldset>
        <label className="flex items-center gap-3 text-sm text-mist-200 sm:col-span-2">
          <input type="checkbox" name={PUBLICATION_FIELDS.notify} defaultChecked={choice.notify} className="size-4 accent-ember-400" />
          {m.aev_notify()}
        </label>
        <p className="text-xs text-mist-400 sm:col-span-2">
          {m.aev_allowance_note({ limit: VRCHAT_CREATIONS_PER_HOUR })}
        </p>
      </div>
    </fieldset>
  );
}
