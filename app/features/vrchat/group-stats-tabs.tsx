/** The group's live instances, and the tabs of its VRChat events, posts and members, with the Activity Stats panel. */
import { CalendarDays, Crown, Globe2, MapPin, Megaphone, Sparkles, User, Users } from "lucide";
import { Icon } from "~/components/ui/icon";
import { useState } from "react";
import { Badge } from "~/components/ui/badge";
import { Card } from "~/components/ui/card";
import { clsx } from "clsx";
import { EmptyState } from "~/components/ui/empty-state";
import { m } from "~/paraglide/messages";
import { formatCount } from "~/utils/language";
import { useViewerTimeZone } from "~/utils/viewer-time-zone";
import { initialMemberCount, isRecentEvent, isRecentPost, memberImageCandidates, memberName, orderMembers, platformEventStatus, totalInVr, type GroupDataResponse, type Instance, type Member, type PlatformEvent, type Post } from "./group-data";
import { CoverImage, Feed, formatDay, formatLong, instanceTypeName, regionName, RemoteImage, ToggleButton } from "./group-stats-parts";

function InstanceCard({ instance, wide }: { instance: Instance; wide: boolean }) {
  const capacity = instance.capacity ?? instance.world.capacity;
  return (
    <Card className={clsx("p-5", wide && "sm:p-7")}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h4 className={clsx("truncate font-display text-mist-100", wide ? "text-3xl" : "text-xl")}>
            {instance.world.name ?? m.stats_unknown_world()}
          </h4>
          {instance.world.authorName ? <p className="text-sm text-mist-400">{m.stats_world_by({ author: instance.world.authorName })}</p> : null}
        </div>
        <Badge tone="live" className="shrink-0">
          <Icon node={Users} className="size-3" />
          {m.stats_players({ count: instance.userCount, shown: formatCount(instance.userCount) })}
        </Badge>
      </div>
      <dl className={clsx("mt-4 grid gap-3 text-sm", wide ? "grid-cols-2 sm:grid-cols-4" : "grid-cols-2")}>
        <div>
          <dt className="text-mist-400">{m.stats_players_label()}</dt>
          <dd className="font-semibold text-mist-100 tabular-nums">
            {instance.userCount} / {capacity ?? "?"}
          </dd>
        </div>
        <div>
          <dt className="text-mist-400">{m.stats_recommended()}</dt>
          <dd className="font-semibold text-mist-100">{instance.world.recommendedCapacity ?? "?"}</dd>
        </div>
        <div>
          <dt className="text-mist-400">{m.stats_region()}</dt>
          <dd className="font-semibold text-mist-100">
            {instance.region ? (regionName(instance.region) ?? instance.region.toUpperCase()) : "?"}
          </dd>
        </div>
        <div>
          <dt className="text-mist-400">{m.stats_type()}</dt>
          <dd className="font-semibold text-mist-100">
            {instance.type ? (instanceTypeName(instance.type) ?? instance.type) : "?"}
          </dd>
        </div>
      </dl>
    </Card>
  );
}

export function LiveNow({ instances }: { instances: Instance[] }) {
  const inVr = totalInVr(instances);
  return (
    <section aria-labelledby="live-now-heading" className="mt-10">
      <p className="flex items-center gap-2 text-sm font-bold tracking-[0.25em] text-emerald-300 uppercase">
        <span aria-hidden="true" className="relative flex size-2.5">
          <span className="absolute inline-flex size-full animate-ping rounded-full bg-emerald-400 opacity-75 motion-reduce:animate-none" />
          <span className="relative inline-flex size-2.5 rounded-full bg-emerald-400" />
        </span>
        {m.stats_live_now()}
      </p>
      <h3 id="live-now-heading" className="mt-2 font-display text-3xl text-mist-100">
        {m.stats_in_vr({ count: inVr, shown: formatCount(inVr) })}
      </h3>
      {instances.length === 1 ? (
        <div className="mt-5">
          <InstanceCard instance={instances[0]!} wide />
        </div>
      ) : (
        <div className="mt-5 grid gap-4 md:grid-cols-2 lg:grid-cols-3">
          {instances.map((instance) => (
            <InstanceCard key={instance.id} instance={instance} wide={false} />
          ))}
        </div>
      )}
    </section>
  );
}

const STATUS_BADGES = {
  live: { label: m.event_live_now, tone: "live" },
  upcoming: { label: m.stats_upcoming, tone: "aurora" },
  past: { label: m.stats_past_event, tone: "muted" },
} as const;

function EventCardItem({ event, now }: { event: PlatformEvent; now: Date }) {
  const timeZone = useViewerTimeZone();
  const status = STATUS_BADGES[platformEventStatus(event, now)];
  return (
    <Card className="overflow-hidden">
      <CoverImage url={event.imageUrl} />
      <div className="space-y-3 p-5">
        <div className="flex items-start justify-between gap-3">
          <h4 className="font-display text-xl text-mist-100">{event.title}</h4>
          <Badge tone={status.tone} className="shrink-0">{status.label()}</Badge>
        </div>
        {event.description ? <p className="line-clamp-4 text-sm whitespace-pre-line text-mist-300">{event.description}</p> : null}
        <dl className="space-y-1 text-sm">
          <div className="flex gap-2">
            <dt className="text-mist-400">{m.stats_starts()}</dt>
            <dd className="text-mist-100">{formatLong(event.startsAt, timeZone)}</dd>
          </div>
          {event.endsAt ? (
            <div className="flex gap-2">
              <dt className="text-mist-400">{m.stats_ends()}</dt>
              <dd className="text-mist-100">{formatLong(event.endsAt, timeZone)}</dd>
            </div>
          ) : null}
        </dl>
        <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-mist-300">
          {event.location ? (
            <span className="flex items-center gap-1.5">
              <Icon node={MapPin} className="size-4 text-aurora-300" />
              {event.location}
            </span>
          ) : null}
          {event.attendeeCount !== null ? (
            <span className="flex items-center gap-1.5">
              <Icon node={Users} className="size-4 text-aurora-300" />
              {m.stats_interested({ count: event.attendeeCount, shown: formatCount(event.attendeeCount) })}
            </span>
          ) : null}
        </div>
      </div>
    </Card>
  );
}

/** Live first, then upcoming (soonest first), then past (latest first). */
function orderEvents(events: readonly PlatformEvent[], now: Date): PlatformEvent[] {
  const rank = { live: 0, upcoming: 1, past: 2 } as const;
  return [...events].sort((a, b) => {
    const ra = rank[platformEventStatus(a, now)];
    const rb = rank[platformEventStatus(b, now)];
    if (ra !== rb) return ra - rb;
    const diff = Date.parse(a.startsAt) - Date.parse(b.startsAt);
    return ra === 2 ? -diff : diff;
  });
}

export function EventsTab({ events, now }: { events: PlatformEvent[]; now: Date }) {
  const ordered = orderEvents(events, now);
  return (
    <Feed
      all={ordered}
      limited={ordered.filter((event) => isRecentEvent(event, now))}
      render={(event) => <EventCardItem key={event.id} event={event} now={now} />}
      empty={
        <EmptyState
          icon={<Icon node={CalendarDays} className="size-8" />}
          title={m.stats_no_events_title()}
          description={m.stats_no_events_text()}
        />
      }
      moreLabel={(older) => m.stats_more_events({ older })}
      lessLabel={m.stats_recent_only()}
    />
  );
}

function PostCard({ post }: { post: Post }) {
  const timeZone = useViewerTimeZone();
  return (
    <Card className="overflow-hidden">
      <CoverImage url={post.imageUrl} />
      <div className="space-y-2 p-5">
        <h4 className="font-display text-xl text-mist-100">{post.title}</h4>
        {post.text ? <p className="text-sm whitespace-pre-line text-mist-300">{post.text}</p> : null}
        <p className="text-xs text-mist-400">{m.stats_posted({ day: formatDay(post.createdAt, timeZone) })}</p>
      </div>
    </Card>
  );
}

export function PostsTab({ posts, now }: { posts: Post[]; now: Date }) {
  const ordered = [...posts].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  const recent = ordered.filter((post) => isRecentPost(post, now));
  return (
    <Feed
      all={ordered}
      // With nothing recent, every post is shown (spec section 5).
      limited={recent.length > 0 ? recent : ordered}
      render={(post) => <PostCard key={post.id} post={post} />}
      empty={<EmptyState icon={<Icon node={Megaphone} className="size-8" />} title={m.stats_no_posts_title()} description={m.stats_no_posts_text()} />}
      moreLabel={(older) => m.stats_more_posts({ older })}
      lessLabel={m.stats_recent_only()}
    />
  );
}

function AvatarPlaceholder({ representing }: { representing: boolean }) {
  return (
    <span
      role="img"
      aria-label={m.stats_no_picture()}
      className={clsx(
        "flex size-14 shrink-0 items-center justify-center rounded-full border",
        representing ? "border-ember-400/60 bg-ember-400/10 text-ember-300" : "border-aurora-400/30 bg-night-800 text-aurora-300",
      )}
    >
      <Icon node={User} className="size-6" />
    </span>
  );
}

function MemberCard({ member }: { member: Member }) {
  const name = memberName(member);
  const representing = member.isRepresenting;
  return (
    <li
      className={clsx(
        "flex items-center gap-4 rounded-2xl border p-4",
        representing
          ? "border-ember-400/50 bg-gradient-to-br from-ember-400/15 to-night-900/70 shadow-lg shadow-ember-500/10"
          : "border-aurora-400/20 bg-night-900/70",
      )}
    >
      <RemoteImage
        sources={memberImageCandidates(member)}
        alt=""
        width={56}
        height={56}
        sizes="56px"
        className={clsx("size-14 shrink-0 rounded-full border object-cover", representing ? "border-ember-400/60" : "border-aurora-400/30")}
        fallback={<AvatarPlaceholder representing={representing} />}
      />
      <div className="min-w-0">
        <p className={clsx("truncate font-semibold", representing ? "text-ember-300" : "text-mist-100")}>{name}</p>
        {member.username && member.username !== name ? <p className="truncate text-sm text-mist-400">@{member.username}</p> : null}
        {representing ? (
          <Badge tone="gold" className="mt-1">
            <Icon node={Crown} className="size-3" />
            {m.stats_representing()}
          </Badge>
        ) : null}
      </div>
    </li>
  );
}

export function MembersTab({ data }: { data: GroupDataResponse }) {
  const [showAll, setShowAll] = useState(false);
  const members = orderMembers(data.members);
  if (members.length === 0) {
    const worlds = data.instances.length;
    return (
      <Card className="p-8 text-center">
        <p className="font-display text-4xl text-emerald-300 tabular-nums">{formatCount(data.group.onlineMemberCount)}</p>
        <p className="text-sm font-semibold text-mist-400">{m.stats_members_online()}</p>
        <p className="mx-auto mt-4 max-w-md text-mist-300">
          {m.stats_members_private()}
        </p>
        {worlds > 0 ? (
          <p className="mt-3 flex items-center justify-center gap-2 text-mist-100">
            <Icon node={Globe2} className="size-4 text-aurora-300" />
            {m.stats_active_worlds({ count: worlds })}
          </p>
        ) : null}
      </Card>
    );
  }
  const initial = initialMemberCount(members);
  const shown = showAll ? members : members.slice(0, initial);
  const more = members.length - initial;
  return (
    <div className="space-y-6">
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label={m.stats_members()}>
        {shown.map((member) => (
          <MemberCard key={member.id} member={member} />
        ))}
      </ul>
      {more > 0 ? (
        <ToggleButton expanded={showAll} onToggle={setShowAll} label={showAll ? m.stats_show_less() : m.stats_more_members({ more })} />
      ) : null}
    </div>
  );
}

export function ActivityStats({ data, now }: { data: GroupDataResponse; now: Date }) {
  const past = data.events.filter((event) => platformEventStatus(event, now) === "past").length;
  const rows: [string, number][] = [
    [m.stats_upcoming_events(), data.events.length - past],
    [m.stats_past_events(), past],
    [m.stats_posts_available(), data.posts.length],
    [m.stats_total_items(), data.events.length + data.posts.length],
  ];
  return (
    <Card className="h-fit p-6">
      <h3 className="flex items-center gap-2 font-display text-xl text-mist-100">
        <Icon node={Sparkles} className="size-5 text-ember-300" />
        {m.stats_activity()}
      </h3>
      <dl className="mt-4 divide-y divide-aurora-400/10">
        {rows.map(([label, value]) => (
          <div key={label} className="flex justify-between gap-4 py-2">
            <dt className="text-mist-400">{label}</dt>
            <dd className="font-semibold text-mist-100 tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

