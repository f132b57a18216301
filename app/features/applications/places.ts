import { m } from "~/paraglide/messages";
import { formatCount } from "~/utils/language";

/** An event's places, as counted by capacity.server (approved applications against max_attendees). */
export interface Places {
  max: number;
  taken: number;
  left: number;
}

export const FULL = m.places_full;

/** What a visitor reads: '7 of 20 places left', or 'Full'. */
export function placesLeftText(places: Places): string {
  if (places.left === 0) return FULL();
  const figures = { left: formatCount(places.left), max: formatCount(places.max) };
  return places.max === 1 ? m.places_left_one(figures) : m.places_left(figures);
}

/** What an admin reads on the event's card and its review page. */
export function placesTakenText(places: Places): string {
  const figures = { taken: formatCount(places.taken), max: formatCount(places.max) };
  return places.max === 1 ? m.places_taken_one(figures) : m.places_taken(figures);
}

/** The refusal of an approval past the last place, which the admin may confirm. */
export function fullMessage(places: Places, approving: number): string {
  const over = places.taken + approving - places.max;
  const figures = { taken: placesTakenText(places), over: formatCount(over) };
  return approving === 1 ? m.places_full_one(figures) : m.places_full_many({ ...figures, count: formatCount(approving) });
}
