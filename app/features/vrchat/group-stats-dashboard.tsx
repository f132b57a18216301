/**
 * What the group's statistics section shows once its data is there: the counts, the live instances,
 * the tabs of VRChat events, posts and members, and the Activity Stats panel. The section itself
 * (group-stats.tsx) brings this in as the visitor nears it (decision 046).
 */
import { Wifi } from "lucide";
import { useEffect } from "react";
import { Icon } from "~/components/ui/icon";
import { Badge } from "~/components/ui/badge";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { m } from "~/paraglide/messages";
import { GROUP_PARTS, type GroupDataResponse, type GroupPart } from "./group-data";
import { CountBadge, Figure } from "./group-stats-parts";
import { ActivityStats, EventsTab, LiveNow, MembersTab, PostsTab } from "./group-stats-tabs";

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

/** `onTaken` is called once the browser has taken the section over (group-stats.tsx). */
export function Dashboard({ data, now, onTaken }: { data: GroupDataResponse; now: Date; onTaken?: () => void }) {
  useEffect(() => onTaken?.(), [onTaken]);
  const stale = staleParts(data, now);
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
      ) : stale ? (
        <p role="status" className="mt-4 flex items-center justify-center gap-2 text-center text-sm text-ember-300">
          <Icon node={Wifi} className="size-4 shrink-0" />
          {m.stats_stale_parts({ parts: stale })}
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
