// Its own module: the site layout shows it, and must not bring the event page's tabs to every page.
import { Skeleton } from "~/components/ui/skeleton";
import { m } from "~/paraglide/messages";

/** Shown while an event's page loads during client navigation. */
export function EventDetailSkeleton() {
  return (
    <div className="mx-auto max-w-4xl px-4 py-12 sm:px-6" aria-busy="true" aria-label={m.event_loading()}>
      <Skeleton className="h-8 w-48" />
      <Skeleton className="mt-8 h-12 w-3/4" />
      <Skeleton className="mt-4 h-6 w-64" />
      <div className="mt-8 grid gap-4 sm:grid-cols-2">
        <Skeleton className="h-28" />
        <Skeleton className="h-28" />
      </div>
      <Skeleton className="mt-10 h-48" />
    </div>
  );
}
