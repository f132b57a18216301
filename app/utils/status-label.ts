/** An application's status as every page names it, in the page's language. */
import type { ApplicationStatus } from "~/db/enums";
import { m } from "~/paraglide/messages";

const LABEL: Record<ApplicationStatus, () => string> = {
  pending: m.status_label_pending,
  approved: m.status_label_approved,
  rejected: m.status_label_rejected,
  waitlist: m.status_label_waitlist,
  withdrawn: m.status_label_withdrawn,
};

/** The status's name; a status this version does not know is shown as it is. */
export const statusLabel = (status: string) => (Object.hasOwn(LABEL, status) ? LABEL[status as ApplicationStatus]() : status);
