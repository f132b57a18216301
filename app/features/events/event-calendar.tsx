import { ChevronRight } from "lucide";
import { Icon } from "~/components/ui/icon";
import { useMemo, useState } from "react";
import { href, Link } from "react-router";
import { Card } from "~/components/ui/card";
import { MonthCalendar, type DayState } from "~/components/ui/month-calendar";
import { m } from "~/paraglide/messages";
import { intlLocale } from "~/utils/language";
import { useViewerTimeZone } from "~/utils/viewer-time-zone";
import { formatEventDate, localDayKey } from "./event-timing";
import type { EventSummary } from "./events.server";

/** A day button's name: "Tuesday, November 24, 2026, events scheduled"; it contains the day's number. */
function dayLabel(day: string, state: DayState): string {
  const parts = [formatEventDate(day)];
  if (state.today) parts.unshift(m.calendar_today());
  if (state.marked) parts.push(m.calendar_events_scheduled());
  if (state.selected) parts.push(m.calendar_selected());
  return parts.join(m.calendar_list_separator());
}

/**
 * A single-date calendar of event days, in the viewer's zone: an event sits on the viewer's day
 * of its start; days before the viewer's today cannot be chosen. `now` comes from the loader so
 * the server and the browser draw the same month.
 */
export function EventCalendar({ events, now }: { events: EventSummary[]; now: string }) {
  const timeZone = useViewerTimeZone();
  const [selected, setSelected] = useState<string | null>(null);

  const eventsByDay = useMemo(() => {
    const byDay = new Map<string, EventSummary[]>();
    for (const event of events) {
      const key = localDayKey(new Date(event.startsAt), timeZone);
      byDay.set(key, [...(byDay.get(key) ?? []), event]);
    }
    return byDay;
  }, [events, timeZone]);

  const selectedEvents = selected ? (eventsByDay.get(selected) ?? []) : [];

  return (
    <div className="grid gap-6 lg:grid-cols-[auto_1fr]">
      <Card className="dwell-calendar mx-auto w-fit p-4">
        <MonthCalendar
          today={localDayKey(new Date(now), timeZone)}
          selected={selected}
          onSelect={setSelected}
          isMarked={(day) => eventsByDay.has(day)}
          dayLabel={dayLabel}
          locale={intlLocale()}
          labels={{ previousMonth: m.calendar_previous_month(), nextMonth: m.calendar_next_month() }}
        />
      </Card>
      <Card className="p-6" aria-live="polite">
        {selected === null ? (
          <PanelMessage title={m.calendar_select_title()} text={m.calendar_select_text()} />
        ) : selectedEvents.length === 0 ? (
          <PanelMessage title={m.calendar_none_title()} text={m.calendar_none_text()} />
        ) : (
          <div>
            <h3 className="font-display text-xl text-ember-300">
              {formatEventDate(selected)}
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
                    <Icon node={ChevronRight} className="size-5 text-aurora-300" />
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
