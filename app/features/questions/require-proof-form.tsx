import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";

/** 'Require a proven VRChat account' for the group's form (an event's is in its editor). */
export function RequireProofForm({ required }: { required: boolean }) {
  const fetcher = useFetcher<{ ok?: boolean; error?: string }>();
  const busy = fetcher.state !== "idle";
  return (
    <Card className="p-5">
      <fetcher.Form method="post" className="flex flex-wrap items-end justify-between gap-4">
        <input type="hidden" name="intent" value="require-proof" />
        <label className="flex max-w-xl items-start gap-3 text-sm text-mist-100">
          <input type="checkbox" name="requiresProof" defaultChecked={required} className="mt-0.5 size-5 shrink-0 accent-ember-400" />
          <span>
            <span className="font-semibold">Require a proven VRChat account</span>
            <span className="block text-mist-400">
              Applicants prove their account with a code in their VRChat bio; until they do, their application can only be rejected. Ask for their VRChat profile link in the questions (or choose the account on their card) so there is an account to prove.
            </span>
          </span>
        </label>
        <Button type="submit" size="sm" variant="outline" disabled={busy} aria-busy={busy}>
          Save
        </Button>
      </fetcher.Form>
      {fetcher.state === "idle" && fetcher.data?.error ? (
        <p role="alert" className="mt-3 text-sm text-red-300">
          {fetcher.data.error}
        </p>
      ) : fetcher.state === "idle" && fetcher.data?.ok ? (
        <p role="status" className="mt-3 text-sm text-emerald-300">
          Saved.
        </p>
      ) : null}
    </Card>
  );
}
