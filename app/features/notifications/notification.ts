/**
 * What the admins' channels receive for each application (spec section 7): the application's type,
 * the event's title for an event application, the applicant's VRChat username and Discord ID, when
 * it was submitted, and every question with its answer, in the form's order.
 */
export const NOTIFICATION_TARGETS = ["telegram", "google_sheets", "discord"] as const;
export type NotificationTarget = (typeof NOTIFICATION_TARGETS)[number];

export const APPLICATION_TYPES = ["group_application", "event_application"] as const;
export type ApplicationType = (typeof APPLICATION_TYPES)[number];

export interface ApplicationNotification {
  type: ApplicationType;
  /** Set for event applications only. */
  event_title: string | null;
  /** The event's page, for event applications (absent in jobs queued before it was added). */
  event_url?: string | null;
  vrchat_username: string;
  discord_id: string;
  /** ISO 8601 instant. */
  submitted_at: string;
  answers: { question: string; answer: string }[];
  /** Every place of the event was taken: the application went on its waitlist. */
  waitlist?: boolean;
  /** A place freed: the application moved from the waitlist to Pending, for staff to decide. */
  moved_up?: boolean;
  /** The applicant edited their answers (these are the new ones). */
  edited?: boolean;
  /** How many edits this notice covers (staff hear of one application's edits at most every 10 minutes). */
  edits?: number;
}

/**
 * The result of one delivery attempt. `retry` is for failures that may pass (network, timeout,
 * 5xx, 429 with the wait it asked for); `failed` is for those that will not (a 4xx such as a wrong
 * token or chat): the job stops at once instead of using up its attempts.
 */
export type DeliveryOutcome =
  /** `result`: what an action did, in words for the review card ("Invite sent"). */
  | { kind: "delivered"; result?: string }
  /** `slowDown`: the service asked us to slow down (429): its other jobs wait as long too. */
  | { kind: "retry"; error: string; retryAfterMs?: number; slowDown?: boolean }
  | { kind: "failed"; error: string };

export interface NotificationChannel {
  target: NotificationTarget;
  /**
   * The longest one delivery can take, its timeouts included: a job's lease must outlast it, or
   * another worker could take the job while it is still being sent.
   */
  maxDeliveryMs?: number;
  deliver(notification: ApplicationNotification): Promise<DeliveryOutcome>;
}
