import { Ban, CalendarDays, DoorOpen, Filter, History, Inbox, Link2, PlugZap, LayoutDashboard, ListChecks, Megaphone, MessageSquareText, ShieldCheck, Users } from "lucide";
import { Icon } from "~/components/ui/icon";
import type { ReactNode } from "react";
import { href, Link, NavLink } from "react-router";
import { Button } from "~/components/ui/button";
import { clsx } from "clsx";
import { m } from "~/paraglide/messages";

export interface SanctumLink {
  to: string;
  /** Its name, in the page's language. */
  label: () => string;
  icon: ReactNode;
  end?: boolean;
}

export const DASHBOARD_LINK: SanctumLink = {
  to: "/admin",
  label: m.sanctum_nav_dashboard,
  icon: <Icon node={LayoutDashboard} className="size-4 shrink-0" />,
  end: true,
};

export const EVENTS_LINK: SanctumLink = {
  to: "/admin/events",
  label: m.sanctum_nav_events,
  icon: <Icon node={CalendarDays} className="size-4 shrink-0" />,
};

export const ANNOUNCEMENTS_LINK: SanctumLink = {
  to: "/admin/announcements",
  label: m.sanctum_nav_announcements,
  icon: <Icon node={Megaphone} className="size-4 shrink-0" />,
};

export const APPLICATIONS_LINK: SanctumLink = {
  to: "/admin/applications",
  label: m.sanctum_nav_applications,
  icon: <Icon node={Inbox} className="size-4 shrink-0" />,
};

export const JOIN_REQUESTS_LINK: SanctumLink = {
  to: "/admin/join-requests",
  label: m.sanctum_nav_join_requests,
  icon: <Icon node={DoorOpen} className="size-4 shrink-0" />,
};

export const BANS_LINK: SanctumLink = {
  to: "/admin/bans",
  label: m.sanctum_nav_bans,
  icon: <Icon node={Ban} className="size-4 shrink-0" />,
};

export const MODERATION_LINK: SanctumLink = {
  to: "/admin/moderation",
  label: m.mod_nav,
  icon: <Icon node={History} className="size-4 shrink-0" />,
};

export const ROLES_LINK: SanctumLink = {
  to: "/admin/roles",
  label: m.rb_nav,
  icon: <Icon node={Link2} className="size-4 shrink-0" />,
};

export const CONNECTIONS_LINK: SanctumLink = {
  to: "/admin/connections",
  label: m.conn_nav,
  icon: <Icon node={PlugZap} className="size-4 shrink-0" />,
};

export const QUESTIONS_LINK: SanctumLink = {
  to: "/admin/questions",
  label: m.sanctum_nav_questions,
  icon: <Icon node={ListChecks} className="size-4 shrink-0" />,
};

export const SCREENING_LINK: SanctumLink = {
  to: "/admin/screening",
  label: m.sanctum_nav_screening,
  icon: <Icon node={Filter} className="size-4 shrink-0" />,
};

export const MESSAGES_LINK: SanctumLink = {
  to: "/admin/messages",
  label: m.sanctum_nav_messages,
  icon: <Icon node={MessageSquareText} className="size-4 shrink-0" />,
};

export const TEAM_LINK: SanctumLink = {
  to: "/admin/team",
  label: m.sanctum_nav_team,
  icon: <Icon node={Users} className="size-4 shrink-0" />,
};

export const SECURITY_LINK: SanctumLink = {
  to: "/admin/security",
  label: m.sanctum_nav_security,
  icon: <Icon node={ShieldCheck} className="size-4 shrink-0" />,
};

/** The Sanctum's frame: greeting, the search for people, 'Leave Sanctum', and the sidebar of its sections. */
export function AdminShell({ username, role, links, search, children }: { username: string; role: string; links: SanctumLink[]; search?: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-4 border-b border-aurora-400/15 pb-6">
        <div>
          <p className="text-xs font-semibold tracking-[0.3em] text-aurora-300 uppercase">{m.sanctum_kicker()}</p>
          <p className="mt-1 font-display text-2xl text-mist-100">{m.sanctum_welcome({ username })}</p>
          <p className="text-sm text-mist-400" data-testid="viewer-role">{role}</p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          {search}
          <Button asChild variant="outline" size="sm">
            <Link to={href("/")}>{m.sanctum_leave()}</Link>
          </Button>
        </div>
      </div>
      <div className="mt-8 grid gap-8 md:grid-cols-[13rem_1fr]">
        <nav aria-label={m.sanctum_nav_label()} className="min-w-0">
          <ul className="flex gap-1 overflow-x-auto md:flex-col">
            {links.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  end={link.end}
                  className={({ isActive }) =>
                    clsx(
                      "flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-semibold whitespace-nowrap",
                      isActive ? "bg-aurora-500/20 text-ember-300" : "text-mist-300 hover:bg-white/5 hover:text-mist-100",
                    )
                  }
                >
                  {link.icon}
                  {link.label()}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="min-w-0">{children}</div>
      </div>
    </div>
  );
}
