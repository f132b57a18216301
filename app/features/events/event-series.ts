/**
 * 'Repeats' (issue: event night, series): the rule that dates a series' occurrences, the form's
 * repeat fields, and how a series is described. Plain dates ("2026-12-01", the event zone's
 * calendar): a weekly event stays at its time on its zone's clocks across a change of season.
 */
import { z } from "zod";
import { SERIES_FREQUENCIES, type SeriesFrequency } from "~/db/enums";
import { m } from "~/paraglide/messages";
import { dateFormat } from "~/utils/language";

/** Occurrences are made this far ahead of today, and kept that far ahead. */
export const SERIES_AHEAD_DAYS = 56;
/** The most events one series makes, and how far its last date may be from its first. */
export const SERIES_MAX_COUNT = 100;
export const SERIES_MAX_DAYS = 731;

/** 'Repeats' choices, in the reader's language. */
export const repeatLabels = (): Record<SeriesFrequency | "never", string> => ({
  never: m.aev_repeat_never(),
  weekly: m.aev_repeat_weekly(),
  biweekly: m.aev_repeat_biweekly(),
  monthly: m.aev_repeat_monthly(),
});

export const SERIES_TEXTS = {
  get neverEnds() {
    return m.aev_series_never_ends();
  },
  get bothEnds() {
    return m.aev_series_both_ends();
  },
  get untilBeforeStart() {
    return m.aev_series_until_before_start();
  },
  get tooLong() {
    return m.aev_series_too_long({ max: SERIES_MAX_COUNT });
  },
  get repeatsNeedFollowing() {
    return m.aev_series_needs_following();
  },
  get applicationsBeyondEnd() {
    return m.aev_series_applications_beyond();
  },
};

const DAY_MS = 86_400_000;
const MONTHLY = [m.aev_repeat_monthly_1, m.aev_repeat_monthly_2, m.aev_repeat_monthly_3, m.aev_repeat_monthly_4, m.aev_repeat_monthly_last];

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const fromDayNumber = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** `date` moved by whole days. */
export function addDays(date: string, days: number): string {
  return fromDayNumber(dayNumber(date) + days);
}

/** Whole days from `from` to `to`. */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** The weekday of a date and which of the month's it is (1–4; 5 is the month's last). */
function weekdayInMonth(date: string): { weekday: number; nth: number } {
  const day = new Date(`${date}T00:00:00Z`);
  return { weekday: day.getUTCDay(), nth: Math.min(5, Math.ceil(day.getUTCDate() / 7)) };
}

/** The nth weekday of a month (5: the last one). */
function nthWeekday(year: number, month: number, weekday: number, nth: number): string {
  if (nth === 5) {
    const last = new Date(Date.UTC(year, month + 1, 0));
    const back = (last.getUTCDay() - weekday + 7) % 7;
    return fromDayNumber(last.getTime() / DAY_MS - back);
  }
  const first = new Date(Date.UTC(year, month, 1));
  const ahead = (weekday - first.getUTCDay() + 7) % 7;
  return fromDayNumber(first.getTime() / DAY_MS + ahead + (nth - 1) * 7);
}

/**
 * The date of the occurrence `steps` after the anchor: a week or two weeks on, or the same weekday
 * of a later month (the second Tuesday stays the second Tuesday; the fifth is the month's last).
 */
export function occurrenceDate(anchorDate: string, frequency: SeriesFrequency, steps: number): string {
  if (frequency === "weekly") return addDays(anchorDate, 7 * steps);
  if (frequency === "biweekly") return addDays(anchorDate, 14 * steps);
  const anchor = new Date(`${anchorDate}T00:00:00Z`);
  const { weekday, nth } = weekdayInMonth(anchorDate);
  const month = anchor.getUTCMonth() + steps;
  return nthWeekday(anchor.getUTCFullYear() + Math.floor(month / 12), ((month % 12) + 12) % 12, weekday, nth);
}

/** How a series ends: after its last date, or after a number of events (counted from the first). */
export type SeriesEnd = { untilDate: string; occurrenceCount: null } | { untilDate: null; occurrenceCount: number };

export interface SeriesRule {
  frequency: SeriesFrequency;
  anchorIndex: number;
  anchorDate: string;
  untilDate: string | null;
  occurrenceCount: number | null;
}

/** Whether the series has an occurrence at `index` (its date within the end, its number within the count). */
export function occurrenceAt(rule: SeriesRule, index: number): string | null {
  if (rule.occurrenceCount !== null && index >= rule.occurrenceCount) return null;
  if (index < rule.anchorIndex) return null;
  const date = occurrenceDate(rule.anchorDate, rule.frequency, index - rule.anchorIndex);
  if (rule.untilDate !== null && date > rule.untilDate) return null;
  return date;
}

/** 'Weekly', 'Every two weeks on Tuesday', 'Monthly on the second Tuesday', for a series whose occurrence falls on `date`. */
export function describeRepeat(frequency: SeriesFrequency, date: string): string {
  const { nth } = weekdayInMonth(date);
  const weekday = dateFormat({ weekday: "long", timeZone: "UTC" }).format(new Date(`${date}T00:00:00Z`));
  if (frequency === "monthly") return MONTHLY[nth - 1]!({ weekday });
  return frequency === "weekly" ? m.aev_repeat_weekly_on({ weekday }) : m.aev_repeat_biweekly_on({ weekday });
}

const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === "string" && value.trim() === "" ? undefined : value), schema.optional());

/** The form's repeat fields: 'Repeats', and its end ('Last event on' or 'Number of events'). */
export const RepeatInputSchema = z.object({
  repeats: z.enum(["never", ...SERIES_FREQUENCIES], { error: () => m.aev_choose_repeat() }).default("never"),
  repeatUntil: optional(z.iso.date({ error: () => m.aev_until_format() })),
  repeatCount: optional(
    z.coerce
      .number({ error: () => m.aev_count_number() })
      .int({ error: () => m.aev_count_whole() })
      .min(2, { error: () => m.aev_count_min() })
      .max(SERIES_MAX_COUNT, { error: () => SERIES_TEXTS.tooLong }),
  ),
  /** An occurrence's edit: this event only, or this and the following. */
  applyTo: z.enum(["this", "following"], { error: () => m.aev_choose_apply_to() }).default("this"),
});

export type RepeatInput = z.output<typeof RepeatInputSchema>;

/**
 * A series' rule from the form (null: it does not repeat), for its event at `index` on `date` (a new
 * event is the first, 0); or the problem, and the field it concerns.
 */
export function repeatRuleOf(input: RepeatInput, date: string, index = 0): { ok: true; rule: { frequency: SeriesFrequency; end: SeriesEnd } | null } | { ok: false; field: string; error: string } {
  if (input.repeats === "never") return { ok: true, rule: null };
  if (input.repeatUntil && input.repeatCount) return { ok: false, field: "repeatUntil", error: SERIES_TEXTS.bothEnds };
  if (input.repeatUntil) {
    if (input.repeatUntil < date || (index === 0 && input.repeatUntil === date)) return { ok: false, field: "repeatUntil", error: SERIES_TEXTS.untilBeforeStart };
    if (daysBetween(date, input.repeatUntil) > SERIES_MAX_DAYS) return { ok: false, field: "repeatUntil", error: SERIES_TEXTS.tooLong };
    return { ok: true, rule: { frequency: input.repeats, end: { untilDate: input.repeatUntil, occurrenceCount: null } } };
  }
  if (input.repeatCount) {
    if (input.repeatCount <= index) return { ok: false, field: "repeatCount", error: m.aev_count_below_index({ number: index + 1 }) };
    const last = occurrenceDate(date, input.repeats, input.repeatCount - 1 - index);
    if (daysBetween(date, last) > SERIES_MAX_DAYS) return { ok: false, field: "repeatCount", error: SERIES_TEXTS.tooLong };
    return { ok: true, rule: { frequency: input.repeats, end: { untilDate: null, occurrenceCount: input.repeatCount } } };
  }
  return { ok: false, field: "repeatUntil", error: SERIES_TEXTS.neverEnds };
}

/** How the Sanctum shows an occurrence's series. */
export interface SeriesSummary {
  id: string;
  index: number;
  frequency: SeriesFrequency;
  untilDate: string | null;
  occurrenceCount: number | null;
}

/** The occurrences due by `horizon` (a date), from index `from` on: the rule's dates, in order. */
export function occurrencesDue(rule: SeriesRule, from: number, horizon: string): { index: number; date: string }[] {
  const due: { index: number; date: string }[] = [];
  for (let index = Math.max(from, rule.anchorIndex); due.length <= SERIES_MAX_COUNT; index++) {
    const date = occurrenceAt(rule, index);
    if (!date || date > horizon) break;
    due.push({ index, date });
  }
  return due;
}

/** What an event's page says of its series: how it repeats, and its next events after this one. */
export interface SeriesOnPage {
  repeat: string;
  next: { id: string; eventDate: string }[];
}

/** The form's 'Repeats' fields say what the series says (an edit of one occurrence leaves the series alone). */
export function sameRepeat(input: RepeatInput, series: SeriesSummary): boolean {
  return input.repeats === series.frequency && (input.repeatUntil ?? null) === series.untilDate && (input.repeatCount ?? null) === series.occurrenceCount;
}
