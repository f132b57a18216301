import { href, isRouteErrorResponse, Outlet, redirect } from "react-router";
import { appContext } from "~/context";
import { firstOwnerNeeded } from "~/features/accounts/first-owner.server";
import { LazyToaster } from "~/components/ui/lazy-toast";
import { AdminShell, ANNOUNCEMENTS_LINK, APPLICATIONS_LINK, BANS_LINK, CONNECTIONS_LINK, DASHBOARD_LINK, MODERATION_LINK, ROLES_LINK, EVENTS_LINK, JOIN_REQUESTS_LINK, MESSAGES_LINK, QUESTIONS_LINK, SCREENING_LINK, SECURITY_LINK, TEAM_LINK } from "~/features/sanctum/admin-shell";
import { PeopleSearchBox } from "~/features/people/person-file-page";
import { AccessDeniedScreen, GuardCard, NotForRoleScreen, SignInScreen } from "~/features/sanctum/admin-screens";
import type { GuardFailure } from "~/utils/admin-guard.server";
import { requireStaff, sanctumLanguage, startViewerLookup } from "~/routes/staff-guard.server";
import { inLanguage } from "~/utils/language.server";
import { m } from "~/paraglide/messages";
import { allows, roleName, type Permission } from "~/utils/roles";
import sanctumStylesheet from "~/sanctum.css?url";
import type { Route } from "./+types/_site.admin";

export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context }, next) => {
    // A fresh install has no one to sign in: the first owner is made on the setup page.
    if (await firstOwnerNeeded(context.get(appContext).db)) throw redirect(href("/admin/setup"));
    startViewerLookup(request, context);
    // Every loader, action and the page itself in the staff member's own language.
    return inLanguage(await sanctumLanguage(context), next);
  },
];

/** The sidebar, each link shown to the roles that may open it. */
const LINKS: { link: typeof DASHBOARD_LINK; permission: Permission }[] = [
  { link: DASHBOARD_LINK, permission: "sanctum" },
  { link: EVENTS_LINK, permission: "sanctum" },
  { link: ANNOUNCEMENTS_LINK, permission: "announcements" },
  { link: APPLICATIONS_LINK, permission: "group.review" },
  { link: JOIN_REQUESTS_LINK, permission: "group.review" },
  { link: BANS_LINK, permission: "sanctum" },
  { link: MODERATION_LINK, permission: "moderation" },
  { link: ROLES_LINK, permission: "roles" },
  { link: QUESTIONS_LINK, permission: "group.questions" },
  { link: SCREENING_LINK, permission: "screening" },
  { link: MESSAGES_LINK, permission: "messages" },
  { link: TEAM_LINK, permission: "team" },
  { link: CONNECTIONS_LINK, permission: "connections" },
  { link: SECURITY_LINK, permission: "sanctum" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { username, role } = await requireStaff(request, context);
  return { username, role: roleName(role), links: LINKS.filter((entry) => allows(role, entry.permission)).map((entry) => entry.link.to), search: allows(role, "people") };
}

/** The Sanctum's own classes, beside the site's stylesheet: visitors never download them. */
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: sanctumStylesheet, precedence: "high" }];

export function meta() {
  return [{ title: m.sanctum_title() }, { name: "robots", content: "noindex" }];
}

export default function SanctumLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AdminShell
      username={loaderData.username}
      role={loaderData.role}
      links={LINKS.map((entry) => entry.link).filter((link) => loaderData.links.includes(link.to))}
      search={loaderData.search ? <PeopleSearchBox /> : null}
    >
      <Outlet />
      <LazyToaster eager />
    </AdminShell>
  );
}

/** The guard's screens: the sign-in form for visitors, 'Access Denied' for accounts that are not admins. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error)) {
    const failure = error.data as GuardFailure | undefined;
    if (error.status === 401) return <SignInScreen />;
    if (failure?.guard === "denied") return <AccessDeniedScreen />;
    if (failure?.guard === "not-for-role") return <NotForRoleScreen role={roleName(failure.role)} />;
    if (failure?.guard === "cross-site") {
      return (
        <GuardCard icon={null} title={m.guard_refused()}>
          <p role="alert" className="text-mist-300">{m.guard_cross_site()}</p>
        </GuardCard>
      );
    }
  }
  throw error;
}
