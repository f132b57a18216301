import { m } from "~/paraglide/messages";
import { formatCount } from "~/utils/language";

/** What the last read of a VRChat list could not read (see vrchat-list-reads.server): nothing when all was read. */
export function UnreadableEntries({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <p className="text-sm text-ember-300" data-testid="list-unreadable">
      {count === 1 ? m.vr_list_unreadable_one() : m.vr_list_unreadable({ count: formatCount(count) })}
    </p>
  );
}
