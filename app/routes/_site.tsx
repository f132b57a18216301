import { Loader2 } from "lucide";
import { Icon } from "~/components/ui/icon";
import { useEffect, useState, type ReactNode } from "react";
import { matchPath, Outlet, useLocation, useNavigation, useRouteLoaderData } from "react-router";
import { appContext } from "~/context";
import { EventDetailSkeleton } from "~/features/events/event-detail-skeleton";
import { LanguageMenu } from "~/features/site/language-menu";
import { SiteFooter } from "~/features/site/site-footer";
import { SiteNav } from "~/features/site/site-nav";
import { GROUP_DATA_FETCH_FAILED } from "~/features/vrchat/group-data";
import { LiveGroupProvider, summarize } from "~/features/vrchat/live-group";
import { NavStats } from "~/features/vrchat/nav-stats";
import { m } from "~/paraglide/messages";
import { log } from "~/utils/log.server";
import type { loader as rootLoader } from "../root";
import type { Route } from "./+types/_site";

/** The navigation bar's live figures, rendered with every page; the browser keeps them current. */
export async function loader({ context }: Route.LoaderArgs) {
  const { vrchat } = context.get(appContext);
  const state = await vrchat.groupData.peek().catch((error: unknown) => {
    log.error("reading the group data failed", { error });
    return { status: "error" as const, message: GROUP_DATA_FETCH_FAILED };
  });
  return { groupStatus: state.status, groupSummary: state.status === "ready" ? summarize(state.data) : null };
}

/** The figures are polled by the browser; navigating between pages need not read them again. */
export function shouldRevalidate() {
  return false;
}

function PendingText({ text }: { text: string }) {
  return (
    <p role="status" className="flex items-center justify-center gap-3 px-6 py-32 text-lg text-mist-300">
      <Icon node={Loader2} className="size-5 animate-spin text-aurora-300" />
      {text}
    </p>
  );
}

/** What a page shows while it loads during client navigation (spec loading states). */
const PENDING_VIEWS: { path: string; view: () => ReactNode }[] = [
  { path: "/admin/events/:eventId/questions", view: () => <PendingText text={m.site_loading_questions()} /> },
  { path: "/admin/questions", view: () => <PendingText text={m.site_loading_questions()} /> },
  { path: "/admin/events/:eventId/applications", view: () => <PendingText text={m.site_loading_applications()} /> },
  { path: "/events/:id/apply", view: () => <PendingText text={m.site_loading_form()} /> },
  { path: "/apply", view: () => <PendingText text={m.site_loading_form()} /> },
  { path: "/events/:id", view: () => <EventDetailSkeleton /> },
  { path: "/events", view: () => <PendingText text={m.site_loading_events()} /> },
  { path: "/", view: () => <PendingText text={m.site_loading_events()} /> },
];

/** Only loads that take a moment show a loading state; quick ones just swap the page. */
const PENDING_DELAY_MS = 300;

function usePendingView(): ReactNode {
  const navigation = useNavigation();
  const location = useLocation();
  const target =
    navigation.state === "loading" && !navigation.formMethod && navigation.location.pathname !== location.pathname
      ? navigation.location.pathname
      : null;
  const [slowTarget, setSlowTarget] = useState<string | null>(null);
  useEffect(() => {
    if (!target) return;
    const timer = setTimeout(() => setSlowTarget(target), PENDING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [target]);
  if (!target || slowTarget !== target) return null;
  return PENDING_VIEWS.find((entry) => matchPath({ path: entry.path, end: true }, target))?.view() ?? null;
}

export default function SiteLayout({ loaderData }: Route.ComponentProps) {
  const pending = usePendingView();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const language = root?.language ?? "en";
  const languages = root?.languages ?? [language];
  return (
    <LiveGroupProvider status={loaderData.groupStatus} summary={loaderData.groupSummary}>
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-lg focus:bg-night-800 focus:px-4 focus:py-2"
      >
        {m.site_skip_to_content()}
      </a>
      <SiteNav
        stats={<NavStats />}
        languageMenu={<LanguageMenu id="menu-language" language={language} languages={languages} />}
      />
      <main id="main" className="flex-1">
        {pending ?? <Outlet />}
      </main>
      <SiteFooter language={language} languages={languages} />
    </div>
    </LiveGroupProvider>
  );
}
