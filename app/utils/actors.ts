/**
 * Who did something, as the records keep it: a staff member's name, a system's ('Dwell (reminder)'),
 * or the applicant themselves, kept as one fixed name and read in the reader's language.
 */
import { m } from "~/paraglide/messages";

/** The name the records keep for the applicant's own doing (a withdrawal, an edit of their answers). */
export const APPLICANT_ACTOR = "the applicant";

/** A recorded actor as a reader reads it: the applicant in the reader's language, anyone else by name. */
export const actorLabel = (name: string) => (name === APPLICANT_ACTOR ? m.actor_applicant() : name);
