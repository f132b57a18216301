import { ScrollText, Users } from "lucide";
import { Icon } from "~/components/ui/icon";
import { Badge } from "~/components/ui/badge";
import { m } from "~/paraglide/messages";

export function ApplicationRequiredBadge() {
  return (
    <Badge tone="gold">
      <Icon node={ScrollText} className="size-3" />
      {m.event_application_required()}
    </Badge>
  );
}

export function MaxAttendeesBadge({ label }: { label: string }) {
  return (
    <Badge tone="muted">
      <Icon node={Users} className="size-3" />
      {label}
    </Badge>
  );
}
