import { useId } from "react";
import { Form, href, Link, useNavigation } from "react-router";
import { fieldClass } from "~/components/ui/field";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { clsx } from "clsx";
import { deadlineDateOf, defaultEndFor, EVENT_TIMEZONES } from "./event-timing";
import { INSTANCE_LEADS } from "./event-input";
import { REPEAT_LABELS, SERIES_MAX_COUNT } from "./event-series";
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
}: {
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
      <h2 className="font-display text-2xl text-mist-100">{event ? `Edit ${event.title}` : "Create New Prophecy"}</h2>
      {/* The application fields hide with CSS while "Requires Application" is off: no script needed. */}
      <Form method="post" className="dwell-event-form mt-6 grid gap-5 sm:grid-cols-2" noValidate>
        <input type="hidden" name="intent" value={event ? "update" : "create"} />
        {event ? <input type="hidden" name="id" value={event.id} /> : null}
        <div id={errorId} role="alert" className="sm:col-span-2">
          {failure ? <p className="rounded-lg border border-red-400/40 bg-red-500/10 px-3 py-2 text-sm text-red-200">{failure.error}</p> : null}
        </div>
        <div className="sm:col-span-2">
          <Field id={id("title")} label="Title" hint={publishing ? `VRChat's calendar takes at most ${VRCHAT_TITLE_MAX} characters.` : undefined}>
            <input id={id("title")} name="title" required defaultValue={event?.title} className={fieldClass} {...invalid("title")} />
          </Field>
        </div>
        <div className="sm:col-span-2">
          <Field id={id("description")} label="Description">
            <textarea id={id("description")} name="description" rows={4} defaultValue={event?.description} className={fieldClass} {...invalid("description")} />
          </Field>
        </div>
        <Field id={id("date")} label="Event Date">
          <input id={id("date")} name="eventDate" type="date" required defaultValue={event?.eventDate} className={fieldClass} {...invalid("eventDate")} />
        </Field>
        <Field id={id("time")} label="Event Time">
          <input id={id("time")} name="eventTime" type="time" required defaultValue={event?.eventTime.slice(0, 5)} className={fieldClass} {...invalid("eventTime")} />
        </Field>
        <Field id={id("timezone")} label="Timezone">
          <select id={id("timezone")} name="timezone" defaultValue={event?.timezone ?? "UTC"} className={fieldClass} {...invalid("timezone")}>
            {EVENT_TIMEZONES.map((zone) => <option key={zone}>{zone}</option>)}
          </select>
        </Field>
        <Field id={id("ends")} label="Ends" hint="On the timezone's clocks. Leave empty for two hours after the start.">
          <input id={id("ends")} name="ends" type="datetime-local" defaultValue={end ? `${end.endDate}T${end.endTime.slice(0, 5)}` : ""} className={fieldClass} {...invalid("ends")} />
        </Field>
        <RepeatFields event={event} invalid={invalid} />
        <Field id={id("world-link")} label="VRChat World" hint="The world's link on vrchat.com (https://vrchat.com/home/world/wrld_…) or its id. Dwell reads its name and picture from VRChat.">
          <input id={id("world-link")} name="worldLink" inputMode="url" defaultValue={event?.worldId ?? ""} placeholder="https://vrchat.com/home/world/wrld_…" className={fieldClass} {...invalid("worldLink")} />
        </Field>
        <Field id={id("world")} label="World Name" hint="Filled from VRChat when you give the world's link.">
          <input id={id("world")} name="worldName" defaultValue={event?.worldName} className={fieldClass} {...invalid("worldName")} />
        </Field>
        <label className="flex items-center gap-3 text-sm font-semibold text-mist-100 sm:col-span-2">
          <input type="checkbox" name="applicationRequired" defaultChecked={event?.applicationRequired} className="size-5 accent-ember-400" />
          Requires Application
        </label>
        <div className="dwell-application-fields grid gap-5 sm:col-span-2 sm:grid-cols-2">
            <Field id={id("deadline")} label="Application Deadline" hint="Applications close at 23:59:59 of this day, in the event's timezone.">
              <input id={id("deadline")} name="applicationDeadline" type="date" defaultValue={deadline} className={fieldClass} {...invalid("applicationDeadline")} />
            </Field>
            <Field id={id("max")} label="Max Attendees" hint="Leave empty for unlimited.">
              <input id={id("max")} name="maxAttendees" type="number" min={1} step={1} defaultValue={event?.maxAttendees ?? ""} className={fieldClass} {...invalid("maxAttendees")} />
            </Field>
            <label className="flex items-start gap-3 text-sm text-mist-100 sm:col-span-2">
              <input type="checkbox" name="requiresProof" defaultChecked={event?.requiresProof} className="mt-0.5 size-5 shrink-0 accent-ember-400" />
              <span>
                <span className="font-semibold">Require a proven VRChat account</span>
                <span className="block text-mist-400">Applicants prove their account with a code in their VRChat bio; until they do, their application can only be rejected. Ask for their VRChat profile link in the questions (or choose the account on their card) so there is an account to prove.</span>
              </span>
            </label>
            <div className="sm:col-span-2">
              <Field id={id("promotion")} label="When a place frees" hint="A place frees when an attendee withdraws or is rejected, or when you raise Max Attendees.">
                <select id={id("promotion")} name="waitlistPromotion" defaultValue={event?.waitlistPromotion ?? "pending"} className={fieldClass} {...invalid("waitlistPromotion")}>
                  <option value="pending">Move the first on the waitlist to Pending (staff are told)</option>
                  <option value="automatic">Approve the first on the waitlist automatically</option>
                </select>
              </Field>
            </div>
            <div className="sm:col-span-2">
              <Field id={id("instructions")} label="Application Instructions">
                <textarea id={id("instructions")} name="applicationInstructions" rows={3} defaultValue={event?.applicationInstructions ?? ""} className={fieldClass} {...invalid("applicationInstructions")} />
              </Field>
            </div>
        </div>
        {hosts.length > 0 ? (
          <Field id={id("host")} label="Host" hint="The staff member who runs it: a host manages the events they host.">
            <select id={id("host")} name="hostId" defaultValue={event?.hostId ?? ""} className={fieldClass} {...invalid("hostId")}>
              {event?.hostId ? null : <option value="">{event ? "No host" : "You"}</option>}
              {hosts.map((host) => (
                <option key={host.id} value={host.id}>{host.username}</option>
              ))}
            </select>
          </Field>
        ) : null}
        <label className="flex items-center gap-3 text-sm font-semibold text-mist-100 sm:col-span-2">
          <input type="checkbox" name="featured" defaultChecked={event?.featured} className="size-5 accent-ember-400" />
          Featured
        </label>
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
          <Button type="submit" disabled={busy} aria-busy={busy}>{event ? "Save Changes" : "Create Prophecy"}</Button>
          <Button asChild variant="ghost">
            <Link to={href("/admin/events")}>Cancel</Link>
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
      <legend id={headingId} className="px-1 text-sm font-semibold text-mist-100">Series</legend>
      <Field id="event-repeats" label="Repeats" hint={series ? `This is event ${series.index + 1} of the series.` : "Each event of a series is its own: its applications, places, instance and reminders."}>
        <select id="event-repeats" name="repeats" defaultValue={series?.frequency ?? "never"} className={fieldClass} {...invalid("repeats")}>
          {Object.entries(REPEAT_LABELS).map(([value, label]) => (
            <option key={value} value={value}>{label}</option>
          ))}
        </select>
      </Field>
      <div className="dwell-repeat-fields contents">
        <Field id="event-repeat-until" label="Last event on" hint="Give this, or the number of events.">
          <input id="event-repeat-until" name="repeatUntil" type="date" defaultValue={series?.untilDate ?? ""} className={fieldClass} {...invalid("repeatUntil")} />
        </Field>
        <Field id="event-repeat-count" label="Number of events" hint={`The series' events in all, the first included (at most ${SERIES_MAX_COUNT}).`}>
          <input id="event-repeat-count" name="repeatCount" type="number" min={2} max={SERIES_MAX_COUNT} step={1} defaultValue={series?.occurrenceCount ?? ""} className={fieldClass} {...invalid("repeatCount")} />
        </Field>
        <p className="text-xs text-mist-400 sm:col-span-3">Dwell makes the series&apos; events eight weeks ahead and keeps making them, with this event&apos;s settings, questions and messages.</p>
      </div>
    </fieldset>
  );
}

/** An occurrence's edit: this event alone, or this and the following events of its series. */
function ApplyToFields({ invalid }: { invalid: Invalid }) {
  const headingId = useId();
  return (
    <fieldset aria-labelledby={headingId} className="space-y-2 rounded-xl border border-ember-400/30 p-4 sm:col-span-2" {...invalid("applyTo")}>
      <legend id={headingId} className="px-1 text-sm font-semibold text-mist-100">Save changes to</legend>
      <label className="flex items-center gap-2 text-sm text-mist-200">
        <input type="radio" name="applyTo" value="this" defaultChecked className="size-4 accent-ember-400" />
        This event
      </label>
      <label className="flex items-center gap-2 text-sm text-mist-200">
        <input type="radio" name="applyTo" value="following" className="size-4 accent-ember-400" />
        This and the following events
      </label>
      <p className="text-xs text-mist-400">The following events move to the series&apos; dates from this one and take its settings; their applications stay theirs.</p>
    </fieldset>
  );
}

const REGION_LABELS: Record<InstanceRegion, string> = { us: "US West", use: "US East", eu: "Europe", jp: "Japan" };

/** 'Open the instance': when Dwell opens the event's group instance in its world, where, and for whom. */
function InstanceFields({ event, invalid }: { event: AdminEventSummary | null; invalid: Invalid }) {
  const headingId = useId();
  const lead = event ? (event.instanceLeadMinutes === null ? "never" : String(event.instanceLeadMinutes)) : "15";
  return (
    <fieldset aria-labelledby={headingId} className="grid gap-4 rounded-xl border border-mist-400/20 p-4 sm:col-span-2 sm:grid-cols-2">
      <legend id={headingId} className="px-1 text-sm font-semibold text-mist-100">VRChat instance</legend>
      <Field id="instance-lead" label="Open the instance" hint="Dwell opens the group instance in the event's world at this time, and closes it to newcomers at the end.">
        <select id="instance-lead" name="instanceLead" defaultValue={lead} className={fieldClass} {...invalid("instanceLead")}>
          <option value="never">Never (open it by hand)</option>
          {INSTANCE_LEADS.map((minutes) => (
            <option key={minutes} value={String(minutes)}>{minutes === 0 ? "At the start" : `${minutes} minutes before the start`}</option>
          ))}
        </select>
      </Field>
      <Field id="instance-region" label="Region">
        <select id="instance-region" name="instanceRegion" defaultValue={event?.instanceRegion ?? "us"} className={fieldClass} {...invalid("instanceRegion")}>
          {Object.entries(REGION_LABELS).map(([value, label]) => (
            <option key={value} value={value}>{label}</option>
          ))}
        </select>
      </Field>
      <fieldset className="space-y-2 sm:col-span-2">
        <legend className="text-sm font-semibold text-mist-100">Who may enter</legend>
        <label className="flex items-center gap-2 text-sm text-mist-200">
          <input type="radio" name="instanceAccess" value="members" defaultChecked={(event?.instanceAccess ?? "members") === "members"} className="size-4 accent-ember-400" />
          Group: the group&apos;s members
        </label>
        <label className="flex items-center gap-2 text-sm text-mist-200">
          <input type="radio" name="instanceAccess" value="public" defaultChecked={event?.instanceAccess === "public"} className="size-4 accent-ember-400" />
          Group Public: anyone
        </label>
        <p className="text-xs text-mist-400">An event with applications opens to its approved attendees only (their own VRChat role), whatever is chosen here.</p>
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
      <legend id={headingId} className="sr-only">VRChat calendar</legend>
      <label className="flex items-center gap-3 text-sm font-semibold text-mist-100">
        <input
          type="checkbox"
          name={PUBLICATION_FIELDS.publish}
          defaultChecked={publication?.wanted ?? false}
          className="size-5 accent-ember-400"
          {...invalid(PUBLICATION_FIELDS.publish)}
        />
        Publish to VRChat
      </label>
      <p className="-mt-2 text-xs text-mist-400">
        Adds the event to the group&apos;s calendar in VRChat, updates it when you save changes here, and removes it when you untick this or delete the event.
      </p>
      <div className="dwell-vrchat-fields grid gap-4 sm:grid-cols-2">
        <Field id="vrchat-category" label="Category">
          <select id="vrchat-category" name={PUBLICATION_FIELDS.category} defaultValue={choice.category} className={fieldClass} {...invalid(PUBLICATION_FIELDS.category)}>
            {Object.entries(VRCHAT_CATEGORIES).map(([value, label]) => (
              <option key={value} value={value}>{label}</option>
            ))}
          </select>
        </Field>
        <fieldset className="space-y-2">
          <legend className="text-sm font-semibold text-mist-100">Who can see it on VRChat</legend>
          {Object.entries(VRCHAT_ACCESS).map(([value, label]) => (
            <label key={value} className="flex items-center gap-2 text-sm text-mist-200">
              <input type="radio" name={PUBLICATION_FIELDS.accessType} value={value} defaultChecked={choice.accessType === value} className="size-4 accent-ember-400" />
              {label}
            </label>
          ))}
          <p className="text-xs text-mist-400" data-testid="access-note">
            This is who sees the entry on VRChat&apos;s calendar. The event&apos;s page on this site stays public either way.
          </p>
        </fieldset>
        <fieldset className="space-y-2">
          <legend className="text-sm font-semibold text-mist-100">Languages (up to {VRCHAT_LANGUAGES_MAX})</legend>
          {languages.map((language, index) => (
            <select
              key={index}
              name={PUBLICATION_FIELDS.languages}
              aria-label={`Language ${index + 1}`}
              defaultValue={language}
              className={fieldClass}
              {...invalid(PUBLICATION_FIELDS.languages)}
            >
              <option value="">{index === 0 ? "No spoken language" : "None"}</option>
              {Object.entries(VRCHAT_LANGUAGES).map(([value, label]) => (
                <option key={value} value={value}>{label}</option>
              ))}
            </select>
          ))}
        </fieldset>
        <fieldset className="space-y-2" {...invalid(PUBLICATION_FIELDS.platforms)}>
          <legend className="text-sm font-semibold text-mist-100">Platforms</legend>
          {Object.entries(VRCHAT_PLATFORMS).map(([value, label]) => (
            <label key={value} className="flex items-center gap-2 text-sm text-mist-200">
              <input type="checkbox" name={PUBLICATION_FIELDS.platforms} value={value} defaultChecked={choice.platforms.includes(value)} className="size-4 accent-ember-400" />
              {label}
            </label>
          ))}
        </fieldset>
        <label className="flex items-center gap-3 text-sm text-mist-200 sm:col-span-2">
          <input type="checkbox" name={PUBLICATION_FIELDS.notify} defaultChecked={choice.notify} className="size-4 accent-ember-400" />
          Notify the group&apos;s members in VRChat when it is first published
        </label>
        <p className="text-xs text-mist-400 sm:col-span-2">
          VRChat lets a group create about {VRCHAT_CREATIONS_PER_HOUR} calendar events an hour. Changing who can see it makes a new entry on VRChat.
        </p>
      </div>
    </fieldset>
  );
}
