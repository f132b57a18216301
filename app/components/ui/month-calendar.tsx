/**
 * A month grid for choosing one day. Days are plain dates (yyyy-MM-dd), so the server and the
 * browser draw the same grid whatever their own zones; the caller decides which day is today.
 * Days before today cannot be chosen, and the grid never shows a month before today's.
 *
 * The keyboard follows the WAI-ARIA date grid: one day is in the tab order; the arrows move a
 * day or a week, Home and End to the start and end of the week, Page Up and Page Down a month
 * (with Shift a year), and the grid turns to the month the focus lands in.
 */
import { clsx } from "clsx";
import { ChevronLeft, ChevronRight } from "lucide";
import { Icon } from "~/components/ui/icon";
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from "react";

export interface DayState {
  today: boolean;
  selected: boolean;
  marked: boolean;
}

interface MonthCalendarProps {
  today: string;
  selected: string | null;
  onSelect: (day: string) => void;
  /** Days drawn as having something on them. */
  isMarked: (day: string) => boolean;
  /** The accessible name of a day's button; it should contain the number the button shows. */
  dayLabel: (day: string, state: DayState) => string;
  /** The `Intl` locale the month and weekdays are written in (default en-US). */
  locale?: string;
  /** The month buttons' names, in the page's language. */
  labels: { previousMonth: string; nextMonth: string };
  className?: string;
}

const DAY_MS = 86_400_000;

/** The weekdays from Sunday, named in full (for screen readers) and shortly (the column heads). */
function weekdaysOf(locale: string): { name: string; short: string }[] {
  const long = new Intl.DateTimeFormat(locale, { weekday: "long", timeZone: "UTC" });
  const narrow = new Intl.DateTimeFormat(locale, { weekday: "narrow", timeZone: "UTC" });
  // 2026-11-01 is a Sunday.
  return Array.from({ length: 7 }, (_, i) => {
    const day = Date.UTC(2026, 10, 1 + i);
    const name = long.format(day);
    return { name, short: locale.startsWith("en") ? name.slice(0, 2) : narrow.format(day) };
  });
}

const utcOf = (day: string) => Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
const dayOf = (utc: number) => new Date(utc).toISOString().slice(0, 10);
const weekdayOf = (day: string) => new Date(utcOf(day)).getUTCDay();
const monthOf = (day: string) => day.slice(0, 7);
const addDays = (day: string, days: number) => dayOf(utcOf(day) + days * DAY_MS);

/** The same day of another month, or that month's last day when it is shorter. */
function addMonths(day: string, months: number): string {
  const date = new Date(utcOf(day));
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return dayOf(Date.UTC(year, month, Math.min(date.getUTCDate(), lastDay)));
}

/** The month's days in weeks from Sunday, with null where a week runs into another month. */
function weeksOf(month: string): (string | null)[][] {
  const first = `${month}-01`;
  const length = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate();
  const cells: (string | null)[] = Array.from({ length: weekdayOf(first) }, () => null);
  for (let i = 0; i < length; i++) cells.push(addDays(first, i));
  while (cells.length % 7 !== 0) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, week) => cells.slice(week * 7, week * 7 + 7));
}

const KEY_MOVES: Record<string, (day: string, shift: boolean) => string> = {
  ArrowLeft: (day) => addDays(day, -1),
  ArrowRight: (day) => addDays(day, 1),
  ArrowUp: (day) => addDays(day, -7),
  ArrowDown: (day) => addDays(day, 7),
  Home: (day) => addDays(day, -weekdayOf(day)),
  End: (day) => addDays(day, 6 - weekdayOf(day)),
  PageUp: (day, shift) => addMonths(day, shift ? -12 : -1),
  PageDown: (day, shift) => addMonths(day, shift ? 12 : 1),
};

export function MonthCalendar({
  today,
  selected,
  onSelect,
  isMarked,
  dayLabel,
  className,
  locale = "en-US",
  labels,
}: MonthCalendarProps) {
  const weekdays = useMemo(() => weekdaysOf(locale), [locale]);
  const monthCaption = useMemo(() => new Intl.DateTimeFormat(locale, { month: "long", year: "numeric", timeZone: "UTC" }), [locale]);
  const [month, setMonth] = useState(() => monthOf(today));
  const [focusDay, setFocusDay] = useState<string | null>(null);
  const moveFocus = useRef(false);
  const grid = useRef<HTMLTableElement>(null);
  const captionId = useId();

  useEffect(() => {
    if (!moveFocus.current || !focusDay) return;
    moveFocus.current = false;
    grid.current?.querySelector<HTMLButtonElement>(`[data-day="${focusDay}"] button`)?.focus();
  }, [focusDay, month]);

  const weeks = weeksOf(month);
  const choosable = (day: string | null): day is string => day !== null && monthOf(day) === month && day >= today;
  const tabbable = [focusDay, selected, today, ...weeks.flat()].find(choosable) ?? null;

  function turnTo(day: string) {
    setMonth(monthOf(day));
    setFocusDay(day);
  }

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, day: string) {
    const move = KEY_MOVES[event.key];
    if (!move || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    const target = move(day, event.shiftKey);
    moveFocus.current = true;
    turnTo(target < today ? today : target);
  }

  return (
    <div className={className}>
      <div className="mb-3 flex items-center justify-between gap-4 px-1">
        <p id={captionId} aria-live="polite" className="font-semibold text-mist-100">
          {monthCaption.format(utcOf(`${month}-01`))}
        </p>
        <div className="flex gap-1">
          <MonthButton
            label={labels.previousMonth}
            disabled={month <= monthOf(today)}
            onClick={() => turnTo(addMonths(`${month}-01`, -1))}
          >
            <Icon node={ChevronLeft} className="size-5" />
          </MonthButton>
          <MonthButton label={labels.nextMonth} onClick={() => turnTo(addMonths(`${month}-01`, 1))}>
            <Icon node={ChevronRight} className="size-5" />
          </MonthButton>
        </div>
      </div>
      <table ref={grid} role="grid" aria-labelledby={captionId} className="border-separate border-spacing-0.5">
        <thead>
          <tr>
            {weekdays.map(({ name, short }) => (
              <th key={name} scope="col" aria-label={name} className="h-8 text-xs font-normal text-mist-400">
                {short}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week.find(Boolean)}>
              {week.map((day, i) => {
                if (!day) return <td key={i} />;
                const state = { today: day === today, selected: day === selected, marked: isMarked(day) };
                const disabled = day < today;
                return (
                  <td
                    key={day}
                    data-day={day}
                    data-disabled={disabled || undefined}
                    aria-selected={state.selected || undefined}
                    className={clsx(state.marked && "dwell-has-event")}
                  >
                    <button
                      type="button"
                      disabled={disabled}
                      tabIndex={day === tabbable ? 0 : -1}
                      aria-label={dayLabel(day, state)}
                      onClick={() => {
                        setFocusDay(day);
                        onSelect(day);
                      }}
                      onKeyDown={(event) => onKeyDown(event, day)}
                      className={clsx(
                        "size-10 rounded-full text-sm transition-colors",
                        disabled
                          ? clsx("text-mist-400/60", state.marked && "underline decoration-aurora-400")
                          : state.selected
                            ? "bg-ember-400 font-bold text-night-950"
                            : state.marked
                              ? "bg-aurora-500/35 font-bold text-white hover:bg-aurora-500/55"
                              : clsx("hover:bg-aurora-500/15", state.today ? "font-bold text-ember-300" : "text-mist-100"),
                      )}
                    >
                      {Number(day.slice(8))}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function MonthButton({
  label,
  disabled,
  onClick,
  children,
}: {
  label: string;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      disabled={disabled}
      onClick={onClick}
      className="grid size-9 place-items-center rounded-lg text-aurora-300 transition-colors hover:bg-aurora-500/15 disabled:opacity-40 disabled:hover:bg-transparent"
    >
      {children}
    </button>
  );
}
