import { isRouteErrorResponse, Outlet } from "react-router";
import { Toaster } from "~/components/ui/toaster";
import { AdminShell, APPLICATIONS_LINK, DASHBOARD_LINK, EVENTS_LINK, MESSAGES_LINK, QUESTIONS_LINK, SECURITY_LINK } from "~/features/sanctum/admin-shell";
import { AccessDeniedScreen, GuardCard, SignInScreen } from "~/features/sanctum/admin-screens";
import { requireAdmin, startViewerLookup, type GuardFailure } from "~/utils/admin-guard.server";
import type { Route } from "./+types/_site.admin";

export const middleware: Route.MiddlewareFunction[] = [
  ({ request, context }, next) => {
    startViewerLookup(request, context);
    return next();
  },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { username } = await requireAdmin(request, context);
  return { username };
}

export function meta() {
  return [{ title: "The Sanctum · Dwell" }, { name: "robots", content: "noindex" }];
}

export default function SanctumLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AdminShell username={loaderData.username} links={[DASHBOARD_LINK, EVENTS_LINK, APPLICATIONS_LINK, QUESTIONS_LINK, MESSAGES_LINK, SECURITY_LINK]}>
      <Outlet />
      <Toaster />
    </AdminShell>
  );
}

/** The guard's screens: the sign-in form for visitors, 'Access Denied' for accounts that are not admins. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error)) {
    const failure = error.data as GuardFailure | undefined;
    if (error.status === 401) return <SignInScreen />;
    if (failure?.guard === "denied") return <AccessDeniedScreen />;
    if (failure?.guard === "cross-site") {
      return (
        <GuardCard icon={null} title="Refused">
          <p role="alert" className="text-mist-300">This request did not come from the Sanctum's own pages.</p>
        </GuardCard>
      );
    }
  }
  throw error;
}
