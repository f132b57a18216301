import { ScrollText, Users } from "lucide-react";
import { Badge } from "~/components/ui/badge";

export function ApplicationRequiredBadge() {
  return (
    <Badge tone="gold">
      <ScrollText aria-hidden="true" className="size-3" />
      Application Required
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
