import { ChevronRight } from "lucide-react";
import { useMemo, useState } from "react";
import { DayPicker, type Modifiers } from "react-day-picker";
import "react-day-picker/style.css";
import { href, Link } from "react-router";
import { Card } from "~/components/ui/card";
import { useViewerTimeZone } from "~/utils/viewer-time-zone";
import { formatEventDate, localDayKey } from "./event-timing";
import type { EventSummary } from "./events.server";

/**
 * The calendar's days are plain dates: midnight of a yyyy-MM-dd in the runtime's own zone, so the
 * server and the browser draw the same grid. The viewer's zone is applied once, when an instant
 * becomes a day key. (Handing DayPicker the zone instead converts every date it touches through
 * Intl, which made one server render of the home page about eight times slower; see
 * docs/benchmarks.md.)
 */
function dayOf(key: string): Date {
  const [year, month, day] = key.split("-").map(Number);
  return new Date(year!, month! - 1, day!);
}

function keyOf(day: Date): string {
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, "0")}-${String(day.getDate()).padStart(2, "0")}`;
}

/**
 * A day button's name: DayPicker's own says "November 1st", which does not contain the "1" the
 * button shows (WCAG 2.5.3, label in name), and it cannot tell which days have events.
 */
function dayLabel(day: Date, modifiers: Modifiers): string {
  const parts = [formatEventDate(keyOf(day))];
  if (modifiers.today) parts.unshift("Today");
  if (modifiers.hasEvent) parts.push("events scheduled");
  if (modifiers.selected) parts.push("selected");
  return parts.join(", ");
}

/**
 * A single-date calendar of event days, in the viewer's zone: an event sits on the viewer's day
 * of its start; days before the viewer's today cannot be chosen. `now` comes from the loader so
 * the server and the browser draw the same month.
 */
export function EventCalendar({ events, now }: { events: EventSummary[]; now: string }) {
  const timeZone = useViewerTimeZone();
  const [selected, setSelected] = useState<Date | undefined>();

  const eventsByDay = useMemo(() => {
    const byDay = new Map<string, EventSummary[]>();
    for (const event of events) {
      const key = localDayKey(new Date(event.startsAt), timeZone);
      byDay.set(key, [...(byDay.get(key) ?? []), event]);
    }
    return byDay;
  }, [events, timeZone]);

  const today = dayOf(localDayKey(new Date(now), timeZone));
  const selectedKey = selected ? keyOf(selected) : null;
  const selectedEvents = selectedKey ? (eventsByDay.get(selectedKey) ?? []) : [];

  return (
    <div className="grid gap-6 lg:grid-cols-[auto_1fr]">
      <Card className="dwell-calendar mx-auto w-fit p-4">
        <DayPicker
          mode="single"
          today={today}
          defaultMonth={today}
          selected={selected}
          onSelect={setSelected}
          disabled={{ before: today }}
          modifiers={{ hasEvent: (day: Date) => eventsByDay.has(keyOf(day)) }}
          modifiersClassNames={{ hasEvent: "dwell-has-event" }}
          labels={{ labelDayButton: dayLabel }}
        />
      </Card>
      <Card className="p-6" aria-live="polite">
        {selectedKey === null ? (
          <PanelMessage title="Select a Date" text="Click on the calendar to view events" />
        ) : selectedEvents.length === 0 ? (
          <PanelMessage title="No Events Scheduled" text="Check another date on the calendar" />
        ) : (
          <div>
            <h3 className="font-display text-xl text-ember-300">
              {formatEventDate(selectedKey)}
            </h3>
            <ul className="mt-4 space-y-3">
              {selectedEvents.map((event) => (
                <li key={event.id}>
                  <Link
                    to={href("/events/:id", { id: event.id })}
                    className="flex items-center justify-between gap-4 rounded-xl border border-aurora-400/20 bg-night-800/60 px-4 py-3 hover:border-aurora-300/60"
                  >
                    <span>
                      <span className="block font-semibold text-mist-100">{event.title}</span>
                      <span className="block text-sm text-mist-400">{event.worldName}</span>
                    </span>
                    <ChevronRight aria-hidden="true" className="size-5 text-aurora-300" />
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        )}
      </Card>
    </div>
  );
}

function PanelMessage({ title, text }: { title: string; text: string }) {
  return (
    <div className="flex h-full flex-col items-center justify-center gap-2 py-10 text-center">
      <p className="font-display text-xl text-mist-100">{title}</p>
      <p className="text-sm text-mist-400">{text}</p>
    </div>
  );
}
