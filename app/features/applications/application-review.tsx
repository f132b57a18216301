import { useEffect } from "react";
import { Link, useRevalidator, useSearchParams } from "react-router";
import { Card } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";
import type { ApplicationStatus } from "~/db/enums";

export const STATUS_LABEL: Record<ApplicationStatus, string> = { pending: "Pending", approved: "Approved", rejected: "Rejected", waitlist: "Waitlist", withdrawn: "Withdrawn" };

export function SummaryTiles({
  counts,
  mode,
}: {
  counts: { total: number; pending: number; approved: number; rejected: number; waitlist: number; withdrawn: number; attended: number };
  mode: "event" | "group";
}) {
  // The waitlist tile only where there can be one (an event), and then always, at 0 too.
  const tiles = [
    ["Total Applications", counts.total],
    ["Pending", counts.pending],
    ["Approved", counts.approved],
    ["Rejected", counts.rejected],
    ...(mode === "event" ? ([["Waitlist", counts.waitlist], ["Withdrawn", counts.withdrawn], ["Attended", counts.attended]] as const) : []),
  ] as const;
  return (
    <div className={mode === "event" ? "grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7" : "grid grid-cols-2 gap-3 lg:grid-cols-4"}>
      {tiles.map(([label, value]) => (
        <Card key={label} className="p-4">
          <p className="text-sm font-semibold text-mist-400">{label}</p>
          <p className="mt-1 font-display text-3xl text-mist-100">{value.toLocaleString("en-US")}</p>
        </Card>
      ))}
    </div>
  );
}

export function ReviewEmpty({ mode, filtered }: { mode: "event" | "group"; filtered: boolean }) {
  if (mode === "group") return <EmptyState title="No applications found" />;
  return filtered ? (
    <EmptyState title="No applications match your filters" description="Try adjusting your search or filter criteria" />
  ) : (
    <EmptyState title="No applications yet" description="Applications will appear here when users apply for this event" />
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
    <nav aria-label="Pages" className="flex items-center justify-between gap-3 text-sm">
      {page > 1 ? <Link to={link(page - 1)} className="text-aurora-300 hover:text-ember-300">Previous</Link> : <span />}
      <span className="text-mist-400">Page {page} of {pageCount}</span>
      {page < pageCount ? <Link to={link(page + 1)} className="text-aurora-300 hover:text-ember-300">Next</Link> : <span />}
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
