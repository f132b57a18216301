import { CalendarDays, Clock } from "lucide";
import { Icon } from "~/components/ui/icon";
import { m } from "~/paraglide/messages";
import { useViewerTimeZone } from "~/utils/viewer-time-zone";
import { eventEndLabel, eventTimeLabels, formatEventDate, type EventSchedule } from "./event-timing";

/** The event's date and time where it happens, and the same moment on the viewer's clock. */
export function EventWhen({ event, compact = false }: { event: EventSchedule; compact?: boolean }) {
  const viewerTimeZone = useViewerTimeZone();
  const { eventTime, viewerTime } = eventTimeLabels(event, viewerTimeZone);
  return (
    <div className={compact ? "space-y-1 text-sm" : "space-y-2"}>
      <p className="flex items-center gap-2 text-mist-100">
        <Icon node={CalendarDays} className="size-4 shrink-0 text-aurora-300" />
        <span>{formatEventDate(event.eventDate)}</span>
      </p>
      <p className="flex flex-wrap items-center gap-x-2 text-mist-100">
        <Icon node={Clock} className="size-4 shrink-0 text-aurora-300" />
        <span>{eventTime}</span>
        <span className="text-mist-300">{eventEndLabel(event)}</span>
        {viewerTime ? (
          <span className="text-mist-400">{m.event_your_time({ time: viewerTime })}</span>
        ) : null}
      </p>
    </div>
  );
}
