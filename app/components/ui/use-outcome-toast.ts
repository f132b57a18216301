import { useEffect } from "react";
import { toast } from "sonner";

/** What an action answers a fetcher with: an error to show, or a message of what was done. */
export interface ActionOutcome {
  ok?: boolean;
  error?: string;
  message?: string | null;
}

/** Tells a fetcher's outcome once it is back: its error, or its message. */
export function useOutcomeToast(fetcher: { state: string; data?: ActionOutcome }) {
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.error) toast.error(fetcher.data.error);
    else if (fetcher.data.message) toast.success(fetcher.data.message);
  }, [fetcher.state, fetcher.data]);
}
