import { Ban, Check, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { useHydrated } from "~/utils/use-hydrated";
import { OverCapacityDialog } from "./over-capacity-dialog";
import type { BulkOutcome, BulkStatus, SpamOutcome } from "./review-changes.server";


/** The bulk decision form: each card's selection box belongs to it through its `form` attribute. */
export const BULK_FORM_ID = "bulk-decisions";

/** What the bulk bar can do: decide, or mark as spam. */
export type BulkAction = BulkStatus | "spam";

const VERB = { approved: "Approve", rejected: "Reject", spam: "Mark" } as const;
/** "Approve 3 applications", "Mark 3 applications as spam". */
const phrase = (status: BulkAction, what: string) => `${VERB[status]} ${what}${status === "spam" ? " as spam" : ""}`;

const applications = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "application" : "applications"}`;

/** What a bulk decision did, in a sentence an admin can check against the list. */
export function bulkOutcomeMessage(mode: "event" | "group", status: BulkAction, outcome: BulkOutcome | SpamOutcome | (BulkOutcome & { notLinked: number })): string {
  if (status === "spam") {
    const removed = "jobsRemoved" in outcome ? outcome.jobsRemoved : 0;
    const parts = [`${applications(outcome.changed)} marked as spam.`];
    if (removed > 0) parts.push(`${removed.toLocaleString("en-US")} ${removed === 1 ? "notification" : "notifications"} not yet sent removed.`);
    if (outcome.missing > 0) parts.push(`${outcome.missing.toLocaleString("en-US")} could not be found.`);
    return parts.join(" ");
  }
  const parts = [`${applications(outcome.changed)} ${status}.`];
  if (outcome.unchanged > 0) {
    const was = outcome.unchanged === 1 ? "was" : "were";
    parts.push(`${outcome.unchanged.toLocaleString("en-US")} ${was} already ${mode === "group" ? "decided" : status} and left as ${outcome.unchanged === 1 ? "it was" : "they were"}.`);
  }
  if (outcome.missing > 0) parts.push(`${outcome.missing.toLocaleString("en-US")} could not be found.`);
  const notLinked = "notLinked" in outcome ? outcome.notLinked : 0;
  if (notLinked > 0) parts.push(`${notLinked.toLocaleString("en-US")} not linked in VRChat: choose ${notLinked === 1 ? "its" : "each one's"} account on ${notLinked === 1 ? "its" : "the"} card.`);
  return parts.join(" ");
}

/** What approving the selection would do in VRChat (see flows/decide.server's previewApproval). */
export type ApprovalPreviewAnswer = {
  preview: { inVRChat: number; needAccount: number; unchecked: boolean } | null;
  error: string | null;
};

/** The confirmation's sentence on what an approval does in VRChat. */
export function inVRChatText(answer: ApprovalPreviewAnswer | undefined): string {
  if (!answer) return "Asking VRChat who they are…";
  if (!answer.preview) return answer.error ?? "";
  const { inVRChat, needAccount, unchecked } = answer.preview;
  const accepted = `${inVRChat.toLocaleString("en-US")} will be accepted in VRChat`;
  const need = `${needAccount.toLocaleString("en-US")} ${needAccount === 1 ? "needs" : "need"} an account first (choose it on the card)`;
  return `${accepted}; ${need}.${unchecked ? " VRChat could not be asked just now: those not linked yet are counted as needing an account." : ""}`;
}

export type BulkResult = { ok: true; bulk: { status: BulkAction; outcome: BulkOutcome | SpamOutcome | (BulkOutcome & { notLinked: number }) } } | { ok?: false; error: string; full?: boolean };

/** Which applications of the page are selected; ids no longer selectable drop out by themselves. */
export function useSelection(selectable: string[]) {
  const [picked, setPicked] = useState<ReadonlySet<string>>(() => new Set());
  const selected = selectable.filter((id) => picked.has(id));
  return {
    selected,
    isSelected: (id: string) => picked.has(id),
    set(id: string, on: boolean) {
      setPicked((current) => {
        const next = new Set(current);
        if (on) next.add(id);
        else next.delete(id);
        return next;
      });
    },
    setAll(on: boolean) {
      setPicked(on ? new Set(selectable) : new Set());
    },
    clear: () => setPicked(new Set()),
  };
}
type Selection = ReturnType<typeof useSelection>;

/**
 * Approve or reject the selected applications of this page in one action, after one confirmation
 * naming how many. Without JavaScript the selection boxes and the two buttons post as a plain form.
 */
export function BulkDecisions({
  mode,
  selectable,
  selection,
  previewUrl = null,
  attendance = false,
}: {
  mode: "event" | "group";
  selectable: number;
  selection: Selection;
  /** The event has ended: the selected attendees can be marked as come or not. */
  attendance?: boolean;
  /** Where the confirmation of an approval learns what it will do in VRChat (decisions acting there). */
  previewUrl?: string | null;
}) {
  const fetcher = useFetcher<BulkResult>();
  const marking = useFetcher<{ ok: true; message: string } | { error: string }>();
  const preview = useFetcher<ApprovalPreviewAnswer>();
  const hydrated = useHydrated();
  const [asking, setAsking] = useState<BulkAction | null>(null);
  // Approvals the server refused because they take more places than the event has left: the admin
  // is asked whether to go over, once per refusal.
  const [answered, setAnswered] = useState<BulkResult | undefined>(undefined);
  const refusal = fetcher.data && !fetcher.data.ok && fetcher.data.full && answered !== fetcher.data ? fetcher.data.error : null;
  const count = selection.selected.length;
  const busy = fetcher.state !== "idle";

  const reported = useRef<BulkResult | undefined>(undefined);
  useEffect(() => {
    const result = fetcher.data;
    if (!result || reported.current === result || fetcher.state !== "idle") return;
    reported.current = result;
    if (result.ok) {
      selection.clear();
      toast.success(bulkOutcomeMessage(mode, result.bulk.status, result.bulk.outcome));
    } else if (!result.full) {
      toast.error(result.error);
    }
  }, [fetcher.data, fetcher.state, mode, selection]);

  const markedReported = useRef<typeof marking.data>(undefined);
  useEffect(() => {
    const result = marking.data;
    if (!result || markedReported.current === result || marking.state !== "idle") return;
    markedReported.current = result;
    if ("ok" in result) {
      selection.clear();
      toast.success(result.message);
    } else {
      toast.error(result.error);
    }
  }, [marking.data, marking.state, selection]);

  /** After the event: the selected approved attendees came, or did not. */
  function mark(value: "attended" | "no_show") {
    const form = new FormData();
    form.set("intent", "attendance");
    form.set("attendance", value);
    for (const id of selection.selected) form.append("ids", id);
    void marking.submit(form, { method: "post" });
  }

  function decide(status: BulkAction, { overCapacity = false } = {}) {
    setAsking(null);
    setAnswered(fetcher.data);
    const form = new FormData();
    form.set("intent", "bulk");
    form.set("status", status);
    if (overCapacity) form.set("overCapacity", "yes");
    for (const id of selection.selected) form.append("ids", id);
    void fetcher.submit(form, { method: "post" });
  }

  function ask(status: BulkAction | null) {
    setAsking(status);
    if (status === "approved" && previewUrl) {
      const query = new URLSearchParams(selection.selected.map((id) => ["ids", id]));
      void preview.load(`${previewUrl}?${query}`);
    }
  }

  const allChecked = count > 0 && count === selectable;
  const description =
    mode === "group"
      ? "Each will be marked as decided by you. Group applications are decided once: this cannot be undone."
      : "Each will be marked as decided by you; any of them can be changed again later.";

  return (
    <fetcher.Form
      id={BULK_FORM_ID}
      method="post"
      aria-label="Bulk decisions"
      aria-busy={busy}
      // Nothing left to select: out of sight, but kept to tell the outcome of the decision just made.
      hidden={selectable === 0 && !busy}
      className="flex flex-wrap items-center gap-3 rounded-xl border border-aurora-400/20 bg-night-900/60 px-4 py-3"
    >
      <input type="hidden" name="intent" value="bulk" />
      <OverCapacityDialog refusal={refusal} onDismiss={() => setAnswered(fetcher.data)} onConfirm={() => decide("approved", { overCapacity: true })} />
      {hydrated ? (
        <label className="inline-flex cursor-pointer items-center gap-2 text-sm font-semibold text-mist-100">
          <input
            type="checkbox"
            checked={allChecked}
            ref={(box) => {
              if (box) box.indeterminate = count > 0 && !allChecked;
            }}
            onChange={(event) => selection.setAll(event.target.checked)}
            className="size-5 cursor-pointer accent-ember-400"
          />
          Select all on this page
        </label>
      ) : null}
      <span className="text-sm text-mist-400" aria-live="polite">
        {hydrated ? `${count.toLocaleString("en-US")} selected` : "Tick applications, then:"}
      </span>
      <div className="ml-auto flex flex-wrap gap-2">
        {attendance && hydrated ? (
          <>
            <Button type="button" size="sm" variant="outline" disabled={count === 0 || marking.state !== "idle"} onClick={() => mark("attended")}>
              Mark attended
            </Button>
            <Button type="button" size="sm" variant="outline" disabled={count === 0 || marking.state !== "idle"} onClick={() => mark("no_show")}>
              Mark no-show
            </Button>
          </>
        ) : null}
        {(["approved", "rejected", "spam"] as const).map((status) => {
          const icon =
            status === "approved" ? <Check aria-hidden="true" className="size-4" /> : status === "rejected" ? <X aria-hidden="true" className="size-4" /> : <Ban aria-hidden="true" className="size-4" />;
          if (!hydrated) {
            return (
              <Button key={status} type="submit" name="status" value={status} size="sm" variant="outline">
                {icon}
                {phrase(status, "selected")}
              </Button>
            );
          }
          return (
            <ConfirmDialog
              key={status}
              open={asking === status}
              onOpenChange={(open) => ask(open ? status : null)}
              trigger={
                <Button type="button" size="sm" variant="outline" disabled={count === 0 || busy}>
                  {icon}
                  {phrase(status, "selected")}
                </Button>
              }
              title={`${phrase(status, applications(count))}?`}
              description={
                status === "spam"
                  ? "They leave the lists and counts (the 'Marked as Spam' filter still shows them), and their notifications not yet sent are deleted."
                  : status === "approved" && previewUrl
                    ? `${description} ${inVRChatText(preview.state === "idle" ? preview.data : undefined)}`
                    : description
              }
              action={
                <Button type="button" variant={status === "approved" ? "primary" : "danger"} onClick={() => decide(status)}>
                  {phrase(status, applications(count))}
                </Button>
              }
            />
          );
        })}
      </div>
    </fetcher.Form>
  );
}
