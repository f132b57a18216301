/**
 * The Sanctum's checks that need no request context: whether a form came from this site's own pages,
 * whether a member is held at the two-factor set-up, and whether a role may act on one event. The
 * check every Sanctum loader and action makes first, `requireStaff`, is in routes/staff-guard.server.ts.
 */
import { eq } from "drizzle-orm";
import { data } from "react-router";
import type { Database } from "~/db/db.server";
import type { StaffRole } from "~/db/enums";
import { rolePolicies } from "~/db/schema";
import type { Viewer } from "./auth.server";
import { allowsOnEvent, type EventPermission } from "./roles";
import { m } from "~/paraglide/messages";

export type GuardFailure =
  | { guard: "signed-out" }
  | { guard: "denied"; username: string }
  | { guard: "not-for-role"; username: string; role: StaffRole }
  | { guard: "cross-site" };

/** A signed-in member of the staff. */
export type StaffViewer = Viewer & { role: StaffRole };

export const crossSiteMessage = () => m.guard_cross_site_form();

/**
 * A state-changing request must come from this site's own pages. SameSite cookies already keep
 * other sites' forms from carrying the session; this also refuses any request whose Origin (or
 * Fetch Metadata) says it came from elsewhere.
 */
export function isSameOrigin(request: Request): boolean {
  const origin = request.headers.get("Origin");
  // The server hands requests on under the site's public origin (server/public-origin.ts).
  if (origin) return origin === new URL(request.url).origin;
  const site = request.headers.get("Sec-Fetch-Site");
  return !site || site === "same-origin" || site === "none";
}

/**
 * Whether a staff member is held at the two-factor set-up: their role requires two-factor sign-in
 * (REQUIRE_ADMIN_2FA, or the Team page's setting for the role) and they have none. Such a member
 * reaches only the Security page in the Sanctum, and nothing in Discord.
 */
export async function heldForTwoFactor(db: Pick<Database, "select">, requireAll: boolean, member: { role: StaffRole; twoFactorEnabled: boolean }): Promise<boolean> {
  if (member.twoFactorEnabled) return false;
  if (requireAll) return true;
  const [policy] = await db.select({ requireTwoFactor: rolePolicies.requireTwoFactor }).from(rolePolicies).where(eq(rolePolicies.role, member.role));
  return policy?.requireTwoFactor ?? false;
}

export const notForRole = (viewer: StaffViewer) => data<GuardFailure>({ guard: "not-for-role", username: viewer.username, role: viewer.role }, { status: 403 });

/** Throws 'Not for your role' unless the viewer may do this with this event (a host, their own events). */
export function requireOnEvent(viewer: StaffViewer, permission: EventPermission, event: { hostId: string | null }) {
  if (!allowsOnEvent(viewer, permission, event)) throw notForRole(viewer);
}
