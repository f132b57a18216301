import type { ApplicationState } from "./event-timing";

export const EVENT_NOT_FOUND_MESSAGE = "Event not found or could not be loaded";

/** Why an event that takes applications is not taking them now (spec, event detail). */
export function applicationClosedNotice(state: ApplicationState): string | null {
  switch (state) {
    case "open":
    case "not-required":
      return null;
    case "event-past":
      return "This event has already occurred";
    case "deadline-passed":
      return "Application deadline has passed";
    default:
      return "Applications are not currently available";
  }
}
