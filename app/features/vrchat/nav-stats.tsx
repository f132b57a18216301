import type { MouseEvent } from "react";
import { href, Link, useLocation, useNavigate } from "react-router";
import { m } from "~/paraglide/messages";
import { formatCount } from "~/utils/language";
import { useGroupSummary } from "./live-group";

/** The home page section the LIVE NOW button scrolls to. */
export const STATS_ANCHOR = "vrchat-stats";
/** The pause between arriving on the home page and scrolling (spec section 9). */
export const SCROLL_DELAY_MS = 100;

/** The navigation state that asks the home page to scroll to its statistics once shown. */
export interface StatsScrollState {
  scrollToStats?: boolean;
}

export function scrollToStats() {
  const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const section = document.getElementById(STATS_ANCHOR);
  // The keyboard goes on from the statistics, not from the button left behind in the navigation
  // bar. Focus first: focusing during a smooth scroll can stop it short.
  section?.focus({ preventScroll: true });
  section?.scrollIntoView({ behavior: reduceMotion ? "auto" : "smooth", block: "start" });
}

function LiveNowButton({ inVr }: { inVr: number }) {
  const navigate = useNavigate();
  const location = useLocation();
  // Without JavaScript the link itself goes to the section.
  const onClick = async (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    if (location.pathname === "/") {
      setTimeout(scrollToStats, SCROLL_DELAY_MS);
      return;
    }
    // The home page scrolls once it is on screen (see GroupStats): a navigation that renders late
    // (a slow phone) would otherwise reset the scroll after a timer started here.
    const state: StatsScrollState = { scrollToStats: true };
    await navigate(href("/"), { state });
  };
  return (
    <Link
      to={`${href("/")}#${STATS_ANCHOR}`}
      onClick={onClick}
      className="inline-flex shrink-0 items-center gap-2 rounded-full border border-emerald-400/50 bg-emerald-500/15 px-3 py-1 text-xs font-bold whitespace-nowrap text-emerald-200 shadow-lg shadow-emerald-500/10 hover:bg-emerald-500/25 sm:py-1.5"
    >
      <span aria-hidden="true" className="relative flex size-2.5 shrink-0">
        <span className="absolute inline-flex size-full animate-ping rounded-full bg-emerald-400 opacity-75 motion-reduce:animate-none" />
        <span className="relative inline-flex size-2.5 rounded-full bg-emerald-400" />
      </span>
      <span className="flex flex-col leading-tight sm:flex-row sm:gap-2">
        <span className="tracking-widest">{m.nav_live_now()}</span>
        <span className="text-[0.7rem] font-semibold text-emerald-100 sm:text-xs">{m.nav_in_vr({ count: formatCount(inVr) })}</span>
      </span>
    </Link>
  );
}

/** The navigation bar's compact figures, and the LIVE NOW button while anyone is in an instance. */
export function NavStats() {
  const summary = useGroupSummary();
  if (!summary) return null;
  return (
    <div className="flex items-center gap-2 sm:gap-3">
      {summary.live ? <LiveNowButton inVr={summary.inVr} /> : null}
      <dl className="flex items-center gap-2 text-center leading-tight sm:gap-3" aria-label={m.nav_group_figures()}>
        <div className="flex flex-col-reverse">
          <dt className="text-[0.65rem] font-semibold tracking-wider text-mist-400">{m.nav_members()}</dt>
          <dd className="text-sm font-bold text-mist-100 tabular-nums">{formatCount(summary.memberCount)}</dd>
        </div>
        <div className="flex flex-col-reverse">
          <dt className="text-[0.65rem] font-semibold tracking-wider text-mist-400">{m.nav_online()}</dt>
          <dd className="text-sm font-bold text-emerald-300 tabular-nums">{formatCount(summary.onlineMemberCount)}</dd>
        </div>
      </dl>
    </div>
  );
}
