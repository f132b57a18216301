/**
 * The times the event editor fills in for an admin: an end two hours after the start, and the
 * date a deadline falls on. The rules themselves are event-timing.ts's; these live apart so that
 * the public pages, which share that file's code, do not carry the editor's.
 */
import { DEFAULT_EVENT_HOURS, HOUR_MS, localDayKey, wallClock, wallTimeToInstant, zoneOf } from "./event-timing";

/** The default end for a start: DEFAULT_EVENT_HOURS later, on the same zone's clocks. */
export function defaultEndFor(date: string, time: string, timezone: string | null | undefined): { endDate: string; endTime: string } {
  const zone = zoneOf(timezone);
  const end = new Date(wallTimeToInstant(date, time, zone).getTime() + DEFAULT_EVENT_HOURS * HOUR_MS);
  const clock = wallClock(end.getTime(), zone);
  const pad = (n: number) => String(n).padStart(2, "0");
  return { endDate: localDayKey(end, zone), endTime: `${pad(clock.hour)}:${pad(clock.minute)}` };
}

/** The calendar date (yyyy-MM-dd) of a deadline instant, as seen in the event's zone. */
export function deadlineDateOf(deadline: Date, timezone: string | null | undefined): string {
  return localDayKey(deadline, zoneOf(timezone));
}
