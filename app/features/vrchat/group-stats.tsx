/**
 * The group's live statistics (spec section 2, "Group statistics / dashboard"): the counts, the
 * live instances, and tabs of VRChat events, posts and members, with the Activity Stats panel.
 */
import { AlertTriangle, Wifi } from "lucide";
import { Icon } from "~/components/ui/icon";
import { useEffect, useState } from "react";
import { useLocation } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Card } from "~/components/ui/card";
import { Skeleton } from "~/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { m } from "~/paraglide/messages";
import { GROUP_DATA_FAILED, GROUP_PARTS, type GroupDataResponse, type GroupDataState, type GroupPart } from "./group-data";
import { useGroupData } from "./live-group";
import { SCROLL_DELAY_MS, scrollToStats, STATS_ANCHOR, type StatsScrollState } from "./nav-stats";
import { CountBadge, Figure } from "./group-stats-parts";
import { ActivityStats, EventsTab, LiveNow, MembersTab, PostsTab } from "./group-stats-tabs";

/** The moment the badges are worked out from: the page's, then the browser's clock once running. */
function useNow(pageNow: string): Date {
  const [now, setNow] = useState(() => new Date(pageNow));
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function minutesAgo(iso: string, now: Date): number {
  return Math.max(1, Math.round((now.getTime() - Date.parse(iso)) / 60_000));
}

const PART_LABEL: Record<GroupPart, () => string> = {
  group: m.stats_part_group,
  instances: m.stats_part_instances,
  posts: m.stats_part_posts,
  events: m.stats_part_events,
  members: m.stats_part_members,
};

/** The parts whose last read failed, each with its own age ("posts from 12 min ago"), or null. */
function staleParts(data: GroupDataResponse, now: Date): string | null {
  const failing = GROUP_PARTS.filter((part) => data.parts?.[part]?.failing);
  if (failing.length === 0) return null;
  return failing
    .map((part) => {
      const fetchedAt = data.parts?.[part]?.fetchedAt;
      return fetchedAt
        ? m.stats_part_from({ part: PART_LABEL[part](), minutes: minutesAgo(fetchedAt, now) })
        : m.stats_part_missing({ part: PART_LABEL[part]() });
    })
    .join(m.calendar_list_separator());
}

function Dashboard({ data, now }: { data: GroupDataResponse; now: Date }) {
  return (
    <>
      {data.source === "demo" ? (
        <p className="mt-4 flex flex-wrap items-center justify-center gap-2 text-sm text-mist-300">
          <Badge tone="gold">{m.stats_demo_badge()}</Badge>
          {m.stats_demo_text()}
        </p>
      ) : data.stale ? (
        <p role="status" className="mt-4 flex items-center justify-center gap-2 text-sm text-ember-300">
          <Icon node={Wifi} className="size-4" />
          {m.stats_stale({ minutes: minutesAgo(data.fetchedAt, now) })}
        </p>
      ) : staleParts(data, now) ? (
        <p role="status" className="mt-4 flex items-center justify-center gap-2 text-center text-sm text-ember-300">
          <Icon node={Wifi} className="size-4 shrink-0" />
          {m.stats_stale_parts({ parts: staleParts(data, now) ?? "" })}
        </p>
      ) : null}

      <dl className="mx-auto mt-8 grid max-w-2xl grid-cols-2 gap-4">
        <Figure value={data.group.memberCount} label={m.stats_total_members()} />
        <Figure value={data.group.onlineMemberCount} label={m.stats_online_now()} tone="text-emerald-300" />
      </dl>

      {data.instances.length > 0 ? <LiveNow instances={data.instances} /> : null}

      <div className="mt-12 grid gap-8 lg:grid-cols-[1fr_18rem]">
        <Tabs defaultValue="events">
          <TabsList aria-label={m.stats_community_activity()} fill>
            <TabsTrigger value="events" compact>
              {m.stats_tab_events()} <CountBadge count={data.events.length} />
            </TabsTrigger>
            <TabsTrigger value="posts" compact>
              {m.stats_tab_posts()} <CountBadge count={data.posts.length} />
            </TabsTrigger>
            <TabsTrigger value="members" compact>
              {m.stats_members()} <CountBadge count={data.members.length} />
            </TabsTrigger>
          </TabsList>
          <TabsContent value="events">
            <EventsTab events={data.events} now={now} />
          </TabsContent>
          <TabsContent value="posts">
            <PostsTab posts={data.posts} now={now} />
          </TabsContent>
          <TabsContent value="members">
            <MembersTab data={data} />
          </TabsContent>
        </Tabs>
        <ActivityStats data={data} now={now} />
      </div>
    </>
  );
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
  if (state.status === "off") return null;
  return (
    <section id={STATS_ANCHOR} tabIndex={-1} aria-labelledby="stats-heading" className="mx-auto max-w-6xl scroll-mt-24 px-4 py-16 outline-none sm:px-6">
      <div className="text-center">
        <p className="text-sm font-semibold tracking-[0.3em] text-aurora-300 uppercase">{m.stats_kicker()}</p>
        <h2 id="stats-heading" className="mt-2 font-display text-4xl text-mist-100">
          {m.stats_heading()}
        </h2>
      </div>
      {state.status === "ready" ? (
        <Dashboard data={state.data} now={now} />
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

