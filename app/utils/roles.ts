/**
 * What each staff role may do in the Sanctum: the one table every loader and action asks (through
 * requireStaff), and the sidebar reads to show only what a member may open.
 *
 * - owner: everything, plus the team and its security settings;
 * - admin: events, questions, decision messages, every application, exports;
 * - reviewer: reads and decides group and event applications, writes notes;
 * - host: the events they host (create, edit, their questions, decide and export their
 *   applications); no group applications.
 */
import { STAFF_ROLES, type StaffRole, type UserRole } from "~/db/enums";
import { m } from "~/paraglide/messages";

/** A role's name as kept in the team's history (written once, in English). */
export const ROLE_LABEL: Record<StaffRole, string> = { owner: "Owner", admin: "Admin", reviewer: "Reviewer", host: "Host" };

const ROLE_NAME = { owner: m.role_owner, admin: m.role_admin, reviewer: m.role_reviewer, host: m.role_host } as const;
/** A role's name as a page shows it, in its language. */
export const roleName = (role: StaffRole) => ROLE_NAME[role]();

/** What a role may do everywhere (an event's own permissions are below). */
const GRANTS = {
  /** The dashboard, one's own security page. */
  sanctum: STAFF_ROLES,
  team: ["owner"],
  /** Create an event (a host's becomes theirs). */
  "events.create": ["owner", "admin", "host"],
  /** Every event: edit, delete, publish, import from VRChat's calendar, sync. */
  "events.all": ["owner", "admin"],
  "group.questions": ["owner", "admin"],
  /** Whether applicants may edit their answers while they wait, form by form. */
  "forms.edits": ["owner"],
  /** The screening rules that decide applications by themselves. */
  screening: ["owner", "admin"],
  /** What happens to join requests that come without an application: left for staff, or the rules'. */
  "join-requests.rules": ["owner"],
  /** Ban and unban, in VRChat and Discord (everyone on the team sees the list). */
  bans: ["owner", "admin"],
  /** The role bridge's page: VRChat's and Discord's roles and their links (read). */
  roles: ["owner", "admin"],
  /** The connections (VRChat, Discord, Telegram, Google Sheets, e-mail) and what works with them. */
  connections: ["owner"],
  /** Link, fill and remove role links. */
  "roles.links": ["owner"],
  /** Confirm on a person's file that a VRChat and a Discord account are the same person. */
  "people.pair": ["owner", "admin"],
  /** The moderation history (VRChat's, Discord's and Dwell's acts) and its CSV. */
  moderation: ["owner", "admin"],
  /** The tripwire's limits, the history's retention, and the answer to a trip (Undo, lifting a suspension). */
  "moderation.tripwire": ["owner"],
  /** Whether a banned person's new application is rejected as it arrives. */
  "bans.settings": ["owner"],
  /** A person's file (everything Dwell knows of them) and its notes; the search in the header. */
  people: ["owner", "admin", "reviewer"],
  /** Merge two files into one, and split them again. */
  "people.merge": ["owner", "admin"],
  messages: ["owner", "admin"],
  /** Write, publish, edit and delete announcements (the site, VRChat, Discord). */
  announcements: ["owner", "admin"],
  /** Which Discord roles an announcement may mention. */
  "announcements.settings": ["owner"],
  /** Read, decide and annotate group applications (spam marks included). */
  "group.review": ["owner", "admin", "reviewer"],
  "group.export": ["owner", "admin"],
  /** Every event's applications. */
  "events.review": ["owner", "admin", "reviewer"],
  "events.export": ["owner", "admin"],
  /** The notifications' retries and the dashboard's operations. */
  operations: ["owner", "admin"],
  /**
   * What VRChat shows only to the group's members (members-only calendar events and posts), as the
   * bot account reads it: those who may make such an event public (events.all) see it, no one else.
   */
  "group.private": ["owner", "admin"],
} as const satisfies Record<string, readonly StaffRole[]>;

export type Permission = keyof typeof GRANTS;

export const isStaff = (role: UserRole): role is StaffRole => (STAFF_ROLES as readonly string[]).includes(role);

export function allows(role: UserRole, permission: Permission): boolean {
  return isStaff(role) && (GRANTS[permission] as readonly StaffRole[]).includes(role);
}

/** What one may do with one event: `hostId` is the event's host. */
export type EventPermission = "edit" | "questions" | "review" | "export" | "announce";

export function allowsOnEvent(viewer: { id: string; role: UserRole }, permission: EventPermission, event: { hostId: string | null }): boolean {
  const everywhere = { edit: "events.all", questions: "events.all", review: "events.review", export: "events.export", announce: "announcements" } as const;
  if (allows(viewer.role, everywhere[permission])) return true;
  return viewer.role === "host" && event.hostId === viewer.id;
}
