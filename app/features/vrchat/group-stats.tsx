/**
 * The group's live statistics (spec section 2, "Group statistics / dashboard"): the counts, the
 * live instances, and tabs of VRChat events, posts and members, with the Activity Stats panel.
 *
 * The section sits below the home page's fold, so its dashboard's code (group-stats-dashboard) is
 * not part of the page's first load (decision 046). The server renders it whole, as ever; in the
 * browser the page's HTML stays as the server drew it until the section comes within a screen of
 * being seen, or is pointed at or focused, and the code arrives and takes it over. Until then
 * the dashboard is given the values it was drawn with, so that nothing asks React to redraw HTML
 * it has not taken over yet; once it has, the live values follow.
 */
import { AlertTriangle } from "lucide";
import { Icon } from "~/components/ui/icon";
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type RefObject } from "react";
import { useLocation } from "react-router";
import { Card } from "~/components/ui/card";
import { Skeleton } from "~/components/ui/skeleton";
import { m } from "~/paraglide/messages";
import { GROUP_DATA_FAILED, type GroupDataState } from "./group-data";
import { useGroupData } from "./live-group";
import { SCROLL_DELAY_MS, scrollToStats, STATS_ANCHOR, type StatsScrollState } from "./nav-stats";

/** Resolved once the browser should fetch the dashboard's code. */
let askForDashboard = () => {};
const dashboardAsked = new Promise<void>((resolve) => {
  askForDashboard = resolve;
});
const DashboardInBrowser = lazy(() => dashboardAsked.then(() => import("./group-stats-dashboard")).then((module) => ({ default: module.Dashboard })));
/** The server renders the dashboard at once; the browser's copy waits for its code. */
const Dashboard = import.meta.env.SSR ? (await import("./group-stats-dashboard")).Dashboard : DashboardInBrowser;

/** Asks for the dashboard's code when `section` comes within a screen's height of the viewport. */
function useAskWhenNear(section: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const element = section.current;
    if (!element || typeof IntersectionObserver === "undefined") return askForDashboard();
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        askForDashboard();
      },
      { rootMargin: "100% 0px" },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [section]);
}

/** The moment the badges are worked out from: the page's, then the browser's clock once running. */
function useNow(pageNow: string): Date {
  const [now, setNow] = useState(() => new Date(pageNow));
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function LoadingCards() {
  return (
    <div role="status" aria-label={m.stats_loading()} className="mt-8 grid gap-5 md:grid-cols-2">
      {[0, 1].map((key) => (
        <Card key={key} className="space-y-4 p-6">
          <Skeleton className="aspect-video w-full" />
          <Skeleton className="h-6 w-2/3" />
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-4 w-5/6" />
        </Card>
      ))}
    </div>
  );
}

/** The home page's statistics section; `state` is what the page was rendered with. */
export function GroupStats({ state: pageState, now: pageNow }: { state: GroupDataState; now: string }) {
  const state = useGroupData(pageState);
  const now = useNow(pageNow);
  const location = useLocation();
  // Arrived from the LIVE NOW button: scroll here about 100 ms after the page is shown.
  const scrollRequested = (location.state as StatsScrollState | null)?.scrollToStats === true;
  useEffect(() => {
    if (!scrollRequested) return;
    const timer = setTimeout(scrollToStats, SCROLL_DELAY_MS);
    return () => clearTimeout(timer);
  }, [scrollRequested, location.key]);
  const section = useRef<HTMLElement>(null);
  useAskWhenNear(section);
  // What the dashboard is drawn with: the first values until its code has taken the server's HTML over.
  const [taken, setTaken] = useState(false);
  const onTaken = useCallback(() => setTaken(true), []);
  const data = state.status === "ready" ? state.data : null;
  // Drawn by the server with these (none while it had no data: then nothing is kept back).
  const [first] = useState(() => (data ? { data, now } : null));
  const live = taken || first === null;
  const shownData = live ? data : first.data;
  const shownNow = live ? now : first.now;
  const dashboard = useMemo(
    () =>
      shownData ? (
        <Suspense fallback={<LoadingCards />}>
          <Dashboard data={shownData} now={shownNow} onTaken={onTaken} />
        </Suspense>
      ) : null,
    [shownData, shownNow, onTaken],
  );
  if (state.status === "off") return null;
  return (
    <section
      ref={section}
      id={STATS_ANCHOR}
      tabIndex={-1}
      aria-labelledby="stats-heading"
      data-taken={taken ? "" : undefined}
      onPointerEnter={askForDashboard}
      onFocus={askForDashboard}
      className="mx-auto max-w-6xl scroll-mt-24 px-4 py-16 outline-none sm:px-6"
    >
      <div className="text-center">
        <p className="text-sm font-semibold tracking-[0.3em] text-aurora-300 uppercase">{m.stats_kicker()}</p>
        <h2 id="stats-heading" className="mt-2 font-display text-4xl text-mist-100">
          {m.stats_heading()}
        </h2>
      </div>
      {state.status === "ready" ? (
        dashboard
      ) : state.status === "loading" ? (
        <LoadingCards />
      ) : (
        <Card role="alert" tone="danger" className="mx-auto mt-8 max-w-xl p-6 text-center">
          <Icon node={AlertTriangle} className="mx-auto size-8 text-red-300" />
          <h3 className="mt-3 font-display text-2xl text-mist-100">{m.stats_error()}</h3>
          <p className="mt-2 text-mist-300">{state.message || GROUP_DATA_FAILED}</p>
        </Card>
      )}
    </section>
  );
}

