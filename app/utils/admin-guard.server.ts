/**
 * The check every Sanctum loader and action makes first: `await requireAdmin(request, context)`.
 * It throws 401 (not signed in), 403 (not an admin, or a request from another site), which the
 * admin layout's error boundary turns into the sign-in or 'Access Denied' screen. The layout's
 * middleware starts the session lookup once per request; the checks share it. (Throwing from the
 * middleware itself would skip the root loader and lose the page frame.)
 */
import { createContext, data, href, redirect, type RouterContextProvider } from "react-router";
import { appContext } from "~/context";
import { getViewer, type Viewer } from "./auth.server";

const viewerLookup = createContext<Promise<Viewer | null> | null>(null);

export type GuardFailure = { guard: "signed-out" } | { guard: "denied"; username: string } | { guard: "cross-site" };

export const CROSS_SITE_MESSAGE = "This form must be sent from the site itself.";

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

const isSecurityPage = (path: string) => path === "/admin/security" || path === "/admin/security.data";

export async function requireAdmin(request: Request, context: Readonly<RouterContextProvider>): Promise<Viewer> {
  const { auth, config } = context.get(appContext);
  if (!["GET", "HEAD"].includes(request.method) && !isSameOrigin(request)) {
    throw data<GuardFailure>({ guard: "cross-site" }, { status: 403 });
  }
  const viewer = await (context.get(viewerLookup) ?? getViewer(auth, request));
  if (!viewer) throw data<GuardFailure>({ guard: "signed-out" }, { status: 401 });
  if (viewer.role !== "admin") throw data<GuardFailure>({ guard: "denied", username: viewer.username }, { status: 403 });
  // With REQUIRE_ADMIN_2FA, an admin without it reaches only the page that turns it on.
  if (config.REQUIRE_ADMIN_2FA && !viewer.twoFactorEnabled && !isSecurityPage(new URL(request.url).pathname)) {
    throw redirect(`${href("/admin/security")}?required`);
  }
  return viewer;
}
