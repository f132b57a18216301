import { Form, useNavigation } from "react-router";
import { Repeat } from "lucide";
import { Icon } from "~/components/ui/icon";
import { m } from "~/paraglide/messages";
import { formatCount } from "~/utils/language";
import { Button } from "~/components/ui/button";

/** The answer to 'Use for the following events', in words. */
export function usedForFollowingText(what: "questions" | "messages", result: { copied: number; kept: number }): string {
  const thing = what === "questions" ? m.follow_questions() : m.follow_messages();
  const copied = result.copied === 0 ? m.follow_none() : result.copied === 1 ? m.follow_copied_one() : m.follow_copied({ count: formatCount(result.copied) });
  const kept = result.kept === 0 ? "" : result.kept === 1 ? m.follow_kept_one({ what: thing }) : m.follow_kept({ count: formatCount(result.kept), what: thing });
  return copied + kept;
}

/**
 * On an occurrence of a repeating event: its questions (or messages) become those of the series'
 * following events, and of the events the series makes from now on.
 */
export function UseForFollowing({ what }: { what: "questions" | "messages" }) {
  const busy = useNavigation().state === "submitting";
  return (
    <Form method="post" className="flex flex-wrap items-center gap-3 rounded-xl border border-aurora-400/25 px-4 py-3 text-sm text-mist-300">
      <Icon node={Repeat} className="size-4 text-aurora-300" />
      <span className="flex-1">{m.follow_repeats({ what: what === "questions" ? m.follow_questions() : m.follow_messages() })}</span>
      <input type="hidden" name="intent" value="use-for-following" />
      <Button type="submit" variant="outline" size="sm" disabled={busy}>
        {m.follow_use()}
      </Button>
    </Form>
  );
}
