import { m } from "~/paraglide/messages";
import type { ApplicationState } from "./event-timing";

/** "Event not found or could not be loaded", in the page's language. */
export const eventNotFoundMessage = () => m.event_not_found();

/** Why an event that takes applications is not taking them now (spec, event detail). */
export function applicationClosedNotice(state: ApplicationState): string | null {
  switch (state) {
    case "open":
    case "not-required":
      return null;
    case "event-past":
      return m.event_already_occurred();
    case "deadline-passed":
      return m.event_deadline_passed();
    default:
      return m.event_applications_unavailable();
  }
}
