/**
 * The group data in the browser: the server renders the first value; afterwards one poll per page
 * (every 2 minutes while the tab is visible) keeps the navigation bar and the dashboard current.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import {
  GROUP_DATA_FAILED,
  GROUP_DATA_FETCH_FAILED,
  GROUP_DATA_PATH,
  GROUP_DATA_REFRESH_MS,
  totalInVr,
  type GroupDataResponse,
  type GroupDataSource,
  type GroupDataState,
} from "./group-data";

/** What the navigation bar needs: small enough to render with every page. */
export interface GroupSummary {
  memberCount: number;
  onlineMemberCount: number;
  inVr: number;
  live: boolean;
  source: GroupDataSource;
}

export function summarize(data: GroupDataResponse): GroupSummary {
  return {
    memberCount: data.group.memberCount,
    onlineMemberCount: data.group.onlineMemberCount,
    inVr: totalInVr(data.instances),
    live: data.instances.length > 0,
    source: data.source,
  };
}

/**
 * The newer of a page's state and the last poll's: the ready one, the later fetched if both are;
 * otherwise the poll, which came after the page.
 */
export function newest(page: GroupDataState | null, polled: GroupDataState | null): GroupDataState | null {
  if (page?.status === "ready" && polled?.status === "ready") {
    return Date.parse(page.data.fetchedAt) >= Date.parse(polled.data.fetchedAt) ? page : polled;
  }
  if (page?.status === "ready") return page;
  if (polled?.status === "ready") return polled;
  return polled ?? page;
}

interface LiveGroup {
  /** The last poll's answer, once there has been one. */
  polled: GroupDataState | null;
  /** The summary the page was rendered with. */
  summary: GroupSummary | null;
  /** Polls now, unless a poll is under way. */
  refresh(): void;
}

const LiveGroupContext = createContext<LiveGroup>({ polled: null, summary: null, refresh: () => {} });

async function fetchGroupData(): Promise<GroupDataState> {
  try {
    const response = await fetch(GROUP_DATA_PATH, { headers: { Accept: "application/json" } });
    const body = (await response.json().catch(() => ({}))) as Partial<GroupDataResponse> & { message?: string };
    if (response.ok) return { status: "ready", data: body as GroupDataResponse };
    const message = typeof body.message === "string" && body.message ? body.message : GROUP_DATA_FETCH_FAILED;
    console.error("group data:", message);
    return { status: "error", message };
  } catch (error) {
    console.error("group data:", error);
    return { status: "error", message: GROUP_DATA_FAILED };
  }
}

export function LiveGroupProvider({
  status,
  summary,
  children,
}: {
  /** The group data's state when the page was rendered. */
  status: GroupDataState["status"];
  summary: GroupSummary | null;
  children: ReactNode;
}) {
  const enabled = status !== "off";
  const [polled, setPolled] = useState<GroupDataState | null>(null);
  const lastFetch = useRef(0);
  const inFlight = useRef<Promise<void> | null>(null);

  const load = useCallback(() => {
    lastFetch.current = Date.now();
    inFlight.current ??= fetchGroupData()
      .then((next) => {
        // A failed poll keeps the last good value: the error is only logged (spec section 4).
        setPolled((previous) => (next.status === "ready" || previous?.status !== "ready" ? next : previous));
      })
      .finally(() => {
        inFlight.current = null;
      });
    return inFlight.current;
  }, []);

  useEffect(() => {
    if (!enabled) return;
    lastFetch.current = Date.now();
    // Nothing was cached when the page was rendered: ask now (the server waits for VRChat).
    if (status !== "ready") void load();
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") void load();
    }, GROUP_DATA_REFRESH_MS);
    const onVisibility = () => {
      if (document.visibilityState === "visible" && Date.now() - lastFetch.current >= GROUP_DATA_REFRESH_MS) void load();
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [enabled, status, load]);

  const value = useMemo(
    () => ({ polled, summary, refresh: () => void (enabled ? load() : undefined) }),
    [polled, summary, enabled, load],
  );
  return <LiveGroupContext value={value}>{children}</LiveGroupContext>;
}

/** The navigation bar's figures: the last poll's, or the page's. */
export function useGroupSummary(): GroupSummary | null {
  const { polled, summary } = useContext(LiveGroupContext);
  return polled?.status === "ready" ? summarize(polled.data) : summary;
}

/** The dashboard's data: the newer of the page's own and the last poll's. */
export function useGroupData(fromPage: GroupDataState): GroupDataState {
  const { polled, refresh } = useContext(LiveGroupContext);
  const waiting = fromPage.status === "loading" && polled === null;
  useEffect(() => {
    if (waiting) refresh();
  }, [waiting, refresh]);
  return newest(fromPage, polled) ?? fromPage;
}
