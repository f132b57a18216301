/** The team's messages, read on the server and in the pages alike (in the reader's language). */
import { m } from "~/paraglide/messages";

export const invitationInvalid = () => m.guard_invitation_invalid();
export const lastOwnerMessage = () => m.guard_last_owner();
