/**
 * Limits VRChat sets that more than one part of Dwell keeps to (the form that warns, the worker that
 * never sends past them). Not in the API's description: seen from VRChat's answers and its docs.
 */

/** Calendar events a group may create an hour (about ten: VRChat refuses the next ones). */
export const VRCHAT_CREATIONS_PER_HOUR = 10;
