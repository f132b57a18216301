/** The group's live instances, and the tabs of its VRChat events, posts and members, with the Activity Stats panel. */
import { CalendarDays, Crown, Globe2, MapPin, Megaphone, Sparkles, User, Users } from "lucide-react";
import { useState } from "react";
import { Badge } from "~/components/ui/badge";
import { Card } from "~/components/ui/card";
import { clsx } from "clsx";
import { EmptyState } from "~/components/ui/empty-state";
import { useViewerTimeZone } from "~/utils/viewer-time-zone";
import { initialMemberCount, isRecentEvent, isRecentPost, memberImageCandidates, memberName, orderMembers, platformEventStatus, plural, totalInVr, type GroupDataResponse, type Instance, type Member, type PlatformEvent, type Post } from "./group-data";
import { CoverImage, Feed, formatDay, formatLong, INSTANCE_TYPES, REGIONS, RemoteImage, ToggleButton } from "./group-stats-parts";

function InstanceCard({ instance, wide }: { instance: Instance; wide: boolean }) {
  const capacity = instance.capacity ?? instance.world.capacity;
  return (
    <Card className={clsx("p-5", wide && "sm:p-7")}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h4 className={clsx("truncate font-display text-mist-100", wide ? "text-3xl" : "text-xl")}>
            {instance.world.name ?? "Unknown World"}
          </h4>
          {instance.world.authorName ? <p className="text-sm text-mist-400">by {instance.world.authorName}</p> : null}
        </div>
        <Badge tone="live" className="shrink-0">
          <Users aria-hidden="true" className="size-3" />
          {plural(instance.userCount, "player")}
        </Badge>
      </div>
      <dl className={clsx("mt-4 grid gap-3 text-sm", wide ? "grid-cols-2 sm:grid-cols-4" : "grid-cols-2")}>
        <div>
          <dt className="text-mist-400">Players</dt>
          <dd className="font-semibold text-mist-100 tabular-nums">
            {instance.userCount} / {capacity ?? "?"}
          </dd>
        </div>
        <div>
          <dt className="text-mist-400">Recommended</dt>
          <dd className="font-semibold text-mist-100">{instance.world.recommendedCapacity ?? "?"}</dd>
        </div>
        <div>
          <dt className="text-mist-400">Region</dt>
          <dd className="font-semibold text-mist-100">
            {instance.region ? (REGIONS[instance.region] ?? instance.region.toUpperCase()) : "?"}
          </dd>
        </div>
        <div>
          <dt className="text-mist-400">Type</dt>
          <dd className="font-semibold text-mist-100">
            {instance.type ? (INSTANCE_TYPES[instance.type] ?? instance.type) : "?"}
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
        Live Now
      </p>
      <h3 id="live-now-heading" className="mt-2 font-display text-3xl text-mist-100">
        {inVr.toLocaleString("en-US")} {inVr === 1 ? "PLAYER" : "PLAYERS"} IN VR
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
  live: { label: "LIVE NOW", tone: "live" },
  upcoming: { label: "UPCOMING", tone: "aurora" },
  past: { label: "PAST EVENT", tone: "muted" },
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
          <Badge tone={status.tone} className="shrink-0">{status.label}</Badge>
        </div>
        {event.description ? <p className="line-clamp-4 text-sm whitespace-pre-line text-mist-300">{event.description}</p> : null}
        <dl className="space-y-1 text-sm">
          <div className="flex gap-2">
            <dt className="text-mist-400">Starts:</dt>
            <dd className="text-mist-100">{formatLong(event.startsAt, timeZone)}</dd>
          </div>
          {event.endsAt ? (
            <div className="flex gap-2">
              <dt className="text-mist-400">Ends:</dt>
              <dd className="text-mist-100">{formatLong(event.endsAt, timeZone)}</dd>
            </div>
          ) : null}
        </dl>
        <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-mist-300">
          {event.location ? (
            <span className="flex items-center gap-1.5">
              <MapPin aria-hidden="true" className="size-4 text-aurora-300" />
              {event.location}
            </span>
          ) : null}
          {event.attendeeCount !== null ? (
            <span className="flex items-center gap-1.5">
              <Users aria-hidden="true" className="size-4 text-aurora-300" />
              {event.attendeeCount === 1 ? "1 person interested" : `${event.attendeeCount.toLocaleString("en-US")} people interested`}
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
          icon={<CalendarDays className="size-8" />}
          title="No Recent Events"
          description="Check back later for scheduled VRChat community events!"
        />
      }
      moreLabel={(older) => `Load More Events (${older} older)`}
      lessLabel="Show Recent Only"
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
        <p className="text-xs text-mist-400">Posted {formatDay(post.createdAt, timeZone)}</p>
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
      empty={<EmptyState icon={<Megaphone className="size-8" />} title="No Recent Posts" description="Stay tuned for VRChat community updates!" />}
      moreLabel={(older) => `Load More Posts (${older} older)`}
      lessLabel="Show Recent Only"
    />
  );
}

function AvatarPlaceholder({ representing }: { representing: boolean }) {
  return (
    <span
      role="img"
      aria-label="No picture"
      className={clsx(
        "flex size-14 shrink-0 items-center justify-center rounded-full border",
        representing ? "border-ember-400/60 bg-ember-400/10 text-ember-300" : "border-aurora-400/30 bg-night-800 text-aurora-300",
      )}
    >
      <User aria-hidden="true" className="size-6" />
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
            <Crown aria-hidden="true" className="size-3" />
            REPRESENTING
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
        <p className="font-display text-4xl text-emerald-300 tabular-nums">{data.group.onlineMemberCount.toLocaleString("en-US")}</p>
        <p className="text-sm font-semibold text-mist-400">Members Online</p>
        <p className="mx-auto mt-4 max-w-md text-mist-300">
          Individual member profiles are not available through the public API.
        </p>
        {worlds > 0 ? (
          <p className="mt-3 flex items-center justify-center gap-2 text-mist-100">
            <Globe2 aria-hidden="true" className="size-4 text-aurora-300" />
            Active in {worlds} {worlds === 1 ? "World" : "Worlds"}
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
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label="Members">
        {shown.map((member) => (
          <MemberCard key={member.id} member={member} />
        ))}
      </ul>
      {more > 0 ? (
        <ToggleButton expanded={showAll} onToggle={setShowAll} label={showAll ? "Show Less" : `Load More Members (${more} more)`} />
      ) : null}
    </div>
  );
}

export function ActivityStats({ data, now }: { data: GroupDataResponse; now: Date }) {
  const past = data.events.filter((event) => platformEventStatus(event, now) === "past").length;
  const rows: [string, number][] = [
    ["Upcoming Events", data.events.length - past],
    ["Past Events", past],
    ["Posts Available", data.posts.length],
    ["Total Items", data.events.length + data.posts.length],
  ];
  return (
    <Card className="h-fit p-6">
      <h3 className="flex items-center gap-2 font-display text-xl text-mist-100">
        <Sparkles aria-hidden="true" className="size-5 text-ember-300" />
        Activity Stats
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

