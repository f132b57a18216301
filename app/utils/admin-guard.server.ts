/**
 * The check every Sanctum loader and action makes first: `await requireStaff(request, context,
 * permission)`. It throws 401 (not signed in), 403 (not staff, a role without the permission, or a
 * request from another site), which the admin layout's error boundary turns into the sign-in,
 * 'Access Denied' or 'Not for your role' screen. The layout's middleware starts the session lookup
 * once per request; the checks share it. (Throwing from the middleware itself would skip the root
 * loader and lose the page frame.)
 */
import { eq } from "drizzle-orm";
import { createContext, data, href, redirect, type RouterContextProvider } from "react-router";
import { appContext } from "~/context";
import type { Database } from "~/db/db.server";
import type { StaffRole } from "~/db/enums";
import { rolePolicies } from "~/db/schema";
import { getViewer, type Viewer } from "./auth.server";
import { allows, allowsOnEvent, isStaff, type EventPermission, type Permission } from "./roles";
import { m } from "~/paraglide/messages";

const viewerLookup = createContext<Promise<Viewer | null> | null>(null);

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

/** For the admin layout's middleware: look the session up once for all of the request's checks. */
export function startViewerLookup(request: Request, context: Readonly<RouterContextProvider>) {
  const { auth } = context.get(appContext);
  const lookup = getViewer(auth, request);
  // Awaited by the checks; a rejection there is the request's error, not an unhandled one.
  lookup.catch(() => undefined);
  context.set(viewerLookup, lookup);
}

/**
 * The language the Sanctum speaks to whoever asks: a signed-in member's choice (the Security page)
 * if the site still offers it, else the site's default; before signing in, the visitor's own (the
 * sign-in screen).
 */
export async function sanctumLanguage(context: Readonly<RouterContextProvider>): Promise<string> {
  const { config, language } = context.get(appContext);
  const viewer = await (context.get(viewerLookup) ?? Promise.resolve(null)).catch(() => null);
  if (!viewer) return language;
  const chosen = viewer.language;
  return chosen && config.SITE_LANGUAGES.includes(chosen) ? chosen : config.SITE_LANGUAGES[0]!;
}

const isSecurityPage = (path: string) => path === "/admin/security" || path === "/admin/security.data";

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

/**
 * The signed-in staff member, when their role has `permission` (by default: entering the Sanctum).
 * A member whose role requires two-factor sign-in (REQUIRE_ADMIN_2FA, or the Team page's setting
 * for the role) and has none reaches only the page that turns it on.
 */
export async function requireStaff(request: Request, context: Readonly<RouterContextProvider>, permission: Permission = "sanctum"): Promise<StaffViewer> {
  const { auth, config, db } = context.get(appContext);
  if (!["GET", "HEAD"].includes(request.method) && !isSameOrigin(request)) {
    throw data<GuardFailure>({ guard: "cross-site" }, { status: 403 });
  }
  const viewer = await (context.get(viewerLookup) ?? getViewer(auth, request));
  if (!viewer) throw data<GuardFailure>({ guard: "signed-out" }, { status: 401 });
  const { role } = viewer;
  if (!isStaff(role)) throw data<GuardFailure>({ guard: "denied", username: viewer.username }, { status: 403 });
  if (!isSecurityPage(new URL(request.url).pathname) && (await heldForTwoFactor(db, config.REQUIRE_ADMIN_2FA, { role, twoFactorEnabled: viewer.twoFactorEnabled }))) {
    throw redirect(`${href("/admin/security")}?required`);
  }
  if (!allows(role, permission)) throw notForRole({ ...viewer, role });
  return { ...viewer, role };
}

const notForRole = (viewer: StaffViewer) => data<GuardFailure>({ guard: "not-for-role", username: viewer.username, role: viewer.role }, { status: 403 });

/** Throws 'Not for your role' unless the viewer may do this with this event (a host, their own events). */
export function requireOnEvent(viewer: StaffViewer, permission: EventPermission, event: { hostId: string | null }) {
  if (!allowsOnEvent(viewer, permission, event)) throw notForRole(viewer);
}
