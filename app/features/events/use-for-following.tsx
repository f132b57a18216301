import { Form, useNavigation } from "react-router";
import { Repeat } from "lucide-react";
import { Button } from "~/components/ui/button";

/** The answer to 'Use for the following events', in words. */
export function usedForFollowingText(what: "questions" | "messages", result: { copied: number; kept: number }): string {
  const events = (count: number) => `${count.toLocaleString("en-US")} ${count === 1 ? "event" : "events"}`;
  const copied = result.copied === 0 ? "No following event to copy to." : `Copied to the following ${events(result.copied)}.`;
  const kept = result.kept > 0 ? ` ${events(result.kept)} already ${result.kept === 1 ? "has" : "have"} applications and ${result.kept === 1 ? "keeps its" : "keep their"} ${what}.` : "";
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
      <Repeat aria-hidden="true" className="size-4 text-aurora-300" />
      <span className="flex-1">This event repeats. Its following events keep their own {what} until you copy these to them.</span>
      <input type="hidden" name="intent" value="use-for-following" />
      <Button type="submit" variant="outline" size="sm" disabled={busy}>Use for the following events</Button>
    </Form>
  );
}
