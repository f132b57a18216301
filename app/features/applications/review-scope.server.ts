/**
 * What the review's queries share: a review's scope (the group's applications, or one event's),
 * its table and columns, which of them lists and counts show (not spam), and what a change carries.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "~/db/db.server";
import type { ApplicationKind, ApplicationStatus, Attendance, AttendeeRole } from "~/db/enums";
import { applications, eventApplications } from "~/db/schema";

export type ReviewScope = { kind: "group" } | { kind: "event"; eventId: string };

export function columnsOf(scope: ReviewScope) {
  return scope.kind === "event"
    ? {
        table: eventApplications,
        scopeWhere: eq(eventApplications.eventId, scope.eventId),
        notes: eventApplications.notes,
        vrchatUserId: eventApplications.vrchatUserId,
        vrchatDisplayName: eventApplications.vrchatDisplayName,
        vrchatProfileCheck: eventApplications.vrchatProfileCheck,
        eventRole: eventApplications.eventRole,
        attendance: eventApplications.attendance,
        attended: sql<number>`count(*) filter (where ${eventApplications.attendance} = 'attended' and ${eventApplications.spamAt} is null)::int`,
      }
    : {
        table: applications,
        scopeWhere: sql`true`,
        notes: sql<string | null>`null`,
        vrchatUserId: applications.vrchatUserId,
        vrchatDisplayName: applications.vrchatDisplayName,
        vrchatProfileCheck: applications.vrchatProfileCheck,
        eventRole: sql<AttendeeRole | null>`null`,
        attendance: sql<Attendance | null>`null`,
        attended: sql<number>`0`,
      };
}

/** Applications of a scope that are not marked as spam: what lists, counts and exports show. */
export function liveOf(scope: ReviewScope) {
  const { table, scopeWhere } = columnsOf(scope);
  return and(scopeWhere, isNull(table.spamAt))!;
}

export interface Reviewer {
  /** Null for the site's own hand (a screening rule). */
  id: string | null;
  username: string;
}

export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * What else a status change does, in its transaction (the route composes it: the applicant's
 * message, actions in VRChat). `index` counts the changes of one bulk decision, from 0.
 */
export type OnDecided = (tx: Transaction, decided: { kind: ApplicationKind; id: string; status: ApplicationStatus }, index: number) => Promise<void>;

export interface ReviewOptions {
  /** The decider confirmed approving past the event's last place. */
  overCapacity?: boolean;
  /**
   * For an event that has not ended: its free places are filled from the waitlist after the change
   * (see `promoteFromWaitlist`), each moved application acted on by this.
   */
  refill?: OnDecided;
  /**
   * A group application decided by a screening rule goes back to Pending for staff: allowed only
   * while it still has the status the rule gave it.
   */
  reopenFrom?: ApplicationStatus;
  /**
   * A screening's verdict: decided only while the application still links the VRChat account it was
   * read for (null: none). Otherwise nothing changes ("moved"), and it is screened again.
   */
  screenedAccount?: string | null;
}
