import { ScrollText, Users } from "lucide-react";
import { Badge } from "~/components/ui/badge";
import { m } from "~/paraglide/messages";

export function ApplicationRequiredBadge() {
  return (
    <Badge tone="gold">
      <ScrollText aria-hidden="true" className="size-3" />
      {m.event_application_required()}
    </Badge>
  );
}

export function MaxAttendeesBadge({ label }: { label: string }) {
  return (
    <Badge tone="muted">
      <Users aria-hidden="true" className="size-3" />
      {label}
    </Badge>
  );
}
