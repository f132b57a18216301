import { useId } from "react";
import { Form, href, Link, useNavigation } from "react-router";
import { fieldClass } from "~/components/ui/field";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { clsx } from "clsx";
import { deadlineDateOf, EVENT_TIMEZONES } from "./event-timing";
import type { AdminEventSummary } from "./events.server";

export interface EventFormFailure {
  error: string;
  fieldClass?: string;
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
export function AdminEventForm({ event, failure }: { event: AdminEventSummary | null; failure?: EventFormFailure }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const errorId = useId();
  const id = (name: string) => `event-${name}`;
  const invalid = (name: string) => (failure?.fieldClass === name ? { "aria-invalid": true, "aria-describedby": errorId } : {});
  const deadline = event?.applicationDeadline ? deadlineDateOf(new Date(event.applicationDeadline), event.timezone) : "";

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
          <Field id={id("title")} label="Title">
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
        <Field id={id("world")} label="World Name">
          <input id={id("world")} name="worldName" required defaultValue={event?.worldName} className={fieldClass} {...invalid("worldName")} />
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
            <div className="sm:col-span-2">
              <Field id={id("instructions")} label="Application Instructions">
                <textarea id={id("instructions")} name="applicationInstructions" rows={3} defaultValue={event?.applicationInstructions ?? ""} className={fieldClass} {...invalid("applicationInstructions")} />
              </Field>
            </div>
        </div>
        <label className="flex items-center gap-3 text-sm font-semibold text-mist-100 sm:col-span-2">
          <input type="checkbox" name="featured" defaultChecked={event?.featured} className="size-5 accent-ember-400" />
          Featured
        </label>
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
