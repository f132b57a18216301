import { useEffect } from "react";
import { Link, useRevalidator, useSearchParams } from "react-router";
import { Card } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";
import { m } from "~/paraglide/messages";
import { formatCount } from "~/utils/language";


export function SummaryTiles({
  counts,
  mode,
}: {
  counts: { total: number; pending: number; approved: number; rejected: number; waitlist: number; withdrawn: number; attended: number };
  mode: "event" | "group";
}) {
  // The waitlist tile only where there can be one (an event), and then always, at 0 too.
  const tiles = [
    [m.tiles_total(), counts.total],
    [m.status_label_pending(), counts.pending],
    [m.status_label_approved(), counts.approved],
    [m.status_label_rejected(), counts.rejected],
    ...(mode === "event" ? ([[m.status_label_waitlist(), counts.waitlist], [m.status_label_withdrawn(), counts.withdrawn], [m.tiles_attended(), counts.attended]] as const) : []),
  ] as const;
  return (
    <div className={mode === "event" ? "grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7" : "grid grid-cols-2 gap-3 lg:grid-cols-4"}>
      {tiles.map(([label, value]) => (
        <Card key={label} className="p-4">
          <p className="text-sm font-semibold text-mist-400">{label}</p>
          <p className="mt-1 font-display text-3xl text-mist-100">{formatCount(value)}</p>
        </Card>
      ))}
    </div>
  );
}

export function ReviewEmpty({ mode, filtered }: { mode: "event" | "group"; filtered: boolean }) {
  if (mode === "group") return <EmptyState title={m.review_none_found()} />;
  return filtered ? (
    <EmptyState title={m.review_none_match()} description={m.review_none_match_hint()} />
  ) : (
    <EmptyState title={m.review_none_yet()} description={m.review_none_yet_hint()} />
  );
}

export function Pagination({ page, pageCount }: { page: number; pageCount: number }) {
  const [params] = useSearchParams();
  if (pageCount <= 1) return null;
  const link = (to: number) => {
    const next = new URLSearchParams(params);
    next.set("page", String(to));
    return `?${next}`;
  };
  return (
    <nav aria-label={m.pages_label()} className="flex items-center justify-between gap-3 text-sm">
      {page > 1 ? <Link to={link(page - 1)} className="text-aurora-300 hover:text-ember-300">{m.pages_previous()}</Link> : <span />}
      <span className="text-mist-400">{m.pages_of({ page: formatCount(page), count: formatCount(pageCount) })}</span>
      {page < pageCount ? <Link to={link(page + 1)} className="text-aurora-300 hover:text-ember-300">{m.pages_next()}</Link> : <span />}
    </nav>
  );
}

/** While an action in VRChat is under way, the page reads its state again every few seconds. */
export function useActionsProgress(underWay: boolean) {
  const { revalidate } = useRevalidator();
  useEffect(() => {
    if (!underWay) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") void revalidate();
    }, 2_000);
    return () => clearInterval(timer);
  }, [underWay, revalidate]);
}
