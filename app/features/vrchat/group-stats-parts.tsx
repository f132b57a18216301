/** The pieces the group's statistics are drawn with: pictures that may fail, feeds that grow, figures, dates. */
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Button } from "~/components/ui/button";
import { clsx } from "clsx";
import { m } from "~/paraglide/messages";
import { formatCount, intlLocale } from "~/utils/language";

/** A VRChat region's name in the page's language, or null for one it does not know. */
export function regionName(region: string): string | null {
  const names: Record<string, () => string> = {
    us: m.region_us_west,
    usw: m.region_us_west,
    use: m.region_us_east,
    eu: m.region_europe,
    jp: m.region_japan,
  };
  return names[region]?.() ?? null;
}

/** A VRChat instance type's name in the page's language, or null for one it does not know. */
export function instanceTypeName(type: string): string | null {
  const names: Record<string, () => string> = {
    public: m.instance_public,
    hidden: m.instance_friends_plus,
    friends: m.instance_friends,
    private: m.instance_invite,
    group: m.instance_group,
  };
  return names[type]?.() ?? null;
}

export function formatLong(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat(intlLocale(), { dateStyle: "long", timeStyle: "short", timeZone }).format(new Date(iso));
}

export function formatDay(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat(intlLocale(), { dateStyle: "long", timeZone }).format(new Date(iso));
}

/** A picture from VRChat: loaded lazily, sized, and replaced by `fallback` when it fails. */
export function RemoteImage({
  sources,
  alt,
  className,
  width,
  height,
  sizes,
  fallback,
}: {
  sources: string[];
  alt: string;
  className?: string;
  width: number;
  height: number;
  sizes: string;
  fallback: ReactNode;
}) {
  const [index, setIndex] = useState(0);
  const ref = useRef<HTMLImageElement>(null);
  const source = sources[index];
  // An image that failed before the page was interactive fired its error event unheard.
  useEffect(() => {
    const image = ref.current;
    if (image?.complete && image.naturalWidth === 0) setIndex((value) => value + 1);
  }, [index]);
  if (!source) return <>{fallback}</>;
  return (
    <img
      ref={ref}
      key={source}
      src={source}
      alt={alt}
      width={width}
      height={height}
      sizes={sizes}
      loading="lazy"
      decoding="async"
      referrerPolicy="no-referrer"
      className={className}
      onError={() => setIndex((value) => value + 1)}
    />
  );
}

/** A card's wide picture, when it has one. */
export function CoverImage({ url }: { url: string | null }) {
  if (!url) return null;
  return (
    <RemoteImage
      sources={[url]}
      alt=""
      width={640}
      height={360}
      sizes="(min-width: 1024px) 420px, 100vw"
      className="aspect-video w-full object-cover"
      fallback={null}
    />
  );
}

/** The 'Load More …' / 'Show …' button under a tab's list. */
export function ToggleButton({ expanded, onToggle, label }: { expanded: boolean; onToggle: (next: boolean) => void; label: string }) {
  return (
    <div className="flex justify-center">
      <Button variant="outline" onClick={() => onToggle(!expanded)}>
        {label}
      </Button>
    </div>
  );
}

/** A tab's limited list and its 'Load More …' / 'Show …' toggle, or the empty state. */
export function Feed<T extends { id: string }>({
  all,
  limited,
  render,
  empty,
  moreLabel,
  lessLabel,
}: {
  all: T[];
  limited: T[];
  render: (item: T) => ReactNode;
  empty: ReactNode;
  moreLabel: (hidden: number) => string;
  lessLabel: string;
}) {
  const [showAll, setShowAll] = useState(false);
  const hidden = all.length - limited.length;
  const shown = showAll ? all : limited;
  return (
    <div className="space-y-6">
      {shown.length === 0 ? empty : <div className="grid gap-5 md:grid-cols-2">{shown.map(render)}</div>}
      {hidden > 0 ? <ToggleButton expanded={showAll} onToggle={setShowAll} label={showAll ? lessLabel : moreLabel(hidden)} /> : null}
    </div>
  );
}

export function Figure({ value, label, tone = "text-mist-100" }: { value: number; label: string; tone?: string }) {
  return (
    <div className="flex flex-col-reverse items-center rounded-2xl border border-aurora-400/20 bg-night-900/60 px-6 py-5">
      <dt className="text-sm font-semibold tracking-wide text-mist-400">{label}</dt>
      <dd className={clsx("font-display text-4xl tabular-nums sm:text-5xl", tone)}>{formatCount(value)}</dd>
    </div>
  );
}

export function CountBadge({ count }: { count: number }) {
  return (
    <span className="rounded-full bg-night-700 px-2 py-0.5 text-xs text-mist-300 tabular-nums" aria-label={`(${count})`}>
      {count}
    </span>
  );
}

