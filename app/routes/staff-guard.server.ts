/**
 * The check every Sanctum loader and action makes first: `await requireStaff(request, context,
 * permission)`. It throws 401 (not signed in), 403 (not staff, a role without the permission, or a
 * request from another site), which the admin layout's error boundary turns into the sign-in,
 * 'Access Denied' or 'Not for your role' screen. The layout's middleware starts the session lookup
 * once per request; the checks share it. (Throwing from the middleware itself would skip the root
 * loader and lose the page frame.)
 */
import { createContext, data, href, redirect, type RouterContextProvider } from "react-router";
import { appContext } from "~/context";
import { heldForTwoFactor, isSameOrigin, notForRole, type GuardFailure, type StaffViewer } from "~/utils/admin-guard.server";
import { getViewer, type Viewer } from "~/utils/auth.server";
import { allows, isStaff, type Permission } from "~/utils/roles";

const viewerLookup = createContext<Promise<Viewer | null> | null>(null);

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

