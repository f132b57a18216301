/** An event's places, as counted by capacity.server (approved applications against max_attendees). */
export interface Places {
  max: number;
  taken: number;
  left: number;
}

export const FULL = "Full";

/** What a visitor reads: '7 of 20 places left', or 'Full'. */
export function placesLeftText(places: Places): string {
  if (places.left === 0) return FULL;
  return `${places.left.toLocaleString("en-US")} of ${places.max.toLocaleString("en-US")} ${places.max === 1 ? "place" : "places"} left`;
}

/** What an admin reads on the event's card and its review page. */
export function placesTakenText(places: Places): string {
  return `${places.taken.toLocaleString("en-US")} of ${places.max.toLocaleString("en-US")} ${places.max === 1 ? "place" : "places"} taken`;
}

/** The refusal of an approval past the last place, which the admin may confirm. */
export function fullMessage(places: Places, approving: number): string {
  const over = places.taken + approving - places.max;
  return `The event is full: ${placesTakenText(places)}. Approving ${approving === 1 ? "this application" : `these ${approving} applications`} goes ${over} over its places.`;
}
