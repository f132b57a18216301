/** The team's messages, read on the server and in the pages alike. */
export const INVITATION_INVALID = "This invitation is not valid: it was used, withdrawn, or it has expired. Ask an owner for a new one.";
export const LAST_OWNER_MESSAGE = "The team's last owner cannot be removed or given another role: make someone else an owner first.";
