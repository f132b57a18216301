import { Ban, Check, X } from "lucide";
import { Icon } from "~/components/ui/icon";
import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { m } from "~/paraglide/messages";
import { formatCount, sentenceGap } from "~/utils/language";
import { useHydrated } from "~/utils/use-hydrated";
import { OverCapacityDialog } from "./over-capacity-dialog";
import type { BulkOutcome, BulkStatus, SpamOutcome } from "./review-changes.server";


/** The bulk decision form: each card's selection box belongs to it through its `form` attribute. */
export const BULK_FORM_ID = "bulk-decisions";

/** What the bulk bar can do: decide, or mark as spam. */
export type BulkAction = BulkStatus | "spam";

const PHRASE = { approved: m.bulk_approve_what, rejected: m.bulk_reject_what, spam: m.bulk_spam_what } as const;
/** "Approve 3 applications", "Mark 3 applications as spam". */
const phrase = (status: BulkAction, what: string) => PHRASE[status]({ what });

const applications = (n: number) => (n === 1 ? m.bulk_n_applications_one() : m.bulk_n_applications({ count: formatCount(n) }));

const UNCHANGED = {
  group: [m.bulk_unchanged_group_one, m.bulk_unchanged_group],
  approved: [m.bulk_unchanged_approved_one, m.bulk_unchanged_approved],
  rejected: [m.bulk_unchanged_rejected_one, m.bulk_unchanged_rejected],
} as const;

/** What a bulk decision did, in a sentence an admin can check against the list. */
export function bulkOutcomeMessage(mode: "event" | "group", status: BulkAction, outcome: BulkOutcome | SpamOutcome | (BulkOutcome & { notLinked: number; unconfirmed: number })): string {
  if (status === "spam") {
    const removed = "jobsRemoved" in outcome ? outcome.jobsRemoved : 0;
    const parts = [m.bulk_marked_spam({ what: applications(outcome.changed) })];
    if (removed > 0) parts.push(removed === 1 ? m.bulk_removed_one() : m.bulk_removed({ count: formatCount(removed) }));
    if (outcome.missing > 0) parts.push(m.bulk_missing({ count: formatCount(outcome.missing) }));
    return parts.join(sentenceGap());
  }
  const parts = [(status === "approved" ? m.bulk_done_approved : m.bulk_done_rejected)({ what: applications(outcome.changed) })];
  if (outcome.unchanged > 0) {
    const [one, many] = UNCHANGED[mode === "group" ? "group" : status];
    parts.push(outcome.unchanged === 1 ? one() : many({ count: formatCount(outcome.unchanged) }));
  }
  if (outcome.missing > 0) parts.push(m.bulk_missing({ count: formatCount(outcome.missing) }));
  const notLinked = "notLinked" in outcome ? outcome.notLinked : 0;
  if (notLinked > 0) parts.push(notLinked === 1 ? m.bulk_not_linked_one() : m.bulk_not_linked({ count: formatCount(notLinked) }));
  const unconfirmed = "unconfirmed" in outcome ? outcome.unconfirmed : 0;
  if (unconfirmed > 0) parts.push(unconfirmed === 1 ? m.bulk_unconfirmed_one() : m.bulk_unconfirmed({ count: formatCount(unconfirmed) }));
  return parts.join(sentenceGap());
}

/** What approving the selection would do in VRChat (see flows/decide.server's previewApproval). */
export type ApprovalPreviewAnswer = {
  preview: { inVRChat: number; needConfirming: number; needAccount: number; unchecked: boolean } | null;
  error: string | null;
};

/** The confirmation's sentence on what an approval does in VRChat. */
export function inVRChatText(answer: ApprovalPreviewAnswer | undefined): string {
  if (!answer) return m.bulk_asking_vrchat();
  if (!answer.preview) return answer.error ?? "";
  const { inVRChat, needConfirming, needAccount, unchecked } = answer.preview;
  const accepted = formatCount(inVRChat);
  const text = needAccount === 1 ? m.bulk_in_vrchat_one({ accepted }) : m.bulk_in_vrchat({ accepted, need: formatCount(needAccount) });
  const confirm = needConfirming === 0 ? "" : needConfirming === 1 ? m.bulk_confirm_first_one() : m.bulk_confirm_first({ count: formatCount(needConfirming) });
  return `${text}${confirm}${unchecked ? m.bulk_unchecked() : ""}`;
}

export type BulkResult = { ok: true; bulk: { status: BulkAction; outcome: BulkOutcome | SpamOutcome | (BulkOutcome & { notLinked: number; unconfirmed: number }) } } | { ok?: false; error: string; full?: boolean };

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
  // The decider's word that the accounts matched by name are the applicants' (asked anew each time).
  const [confirmNamed, setConfirmNamed] = useState(false);
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

  function decide(status: BulkAction, { overCapacity = false, confirmNamed = false } = {}) {
    setAsking(null);
    setAnswered(fetcher.data);
    const form = new FormData();
    form.set("intent", "bulk");
    form.set("status", status);
    if (overCapacity) form.set("overCapacity", "yes");
    if (confirmNamed) form.set("confirmNamed", "yes");
    for (const id of selection.selected) form.append("ids", id);
    void fetcher.submit(form, { method: "post" });
  }

  function ask(status: BulkAction | null) {
    setAsking(status);
    setConfirmNamed(false);
    if (status === "approved" && previewUrl) {
      const query = new URLSearchParams(selection.selected.map((id) => ["ids", id]));
      void preview.load(`${previewUrl}?${query}`);
    }
  }

  const allChecked = count > 0 && count === selectable;
  // Approvals whose accounts are matched by name only (the preview's count): the dialog asks whether they are theirs.
  const named = preview.state === "idle" ? (preview.data?.preview?.needConfirming ?? 0) : 0;
  const description =
    mode === "group"
      ? m.bulk_group_once()
      : m.bulk_event_again();

  return (
    <fetcher.Form
      id={BULK_FORM_ID}
      method="post"
      aria-label={m.bulk_label()}
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
          {m.bulk_select_all()}
        </label>
      ) : null}
      <span className="text-sm text-mist-400" aria-live="polite">
        {hydrated ? m.bulk_count_selected({ count: formatCount(count) }) : m.bulk_tick()}
      </span>
      <div className="ml-auto flex flex-wrap gap-2">
        {attendance && hydrated ? (
          <>
            <Button type="button" size="sm" variant="outline" disabled={count === 0 || marking.state !== "idle"} onClick={() => mark("attended")}>
              {m.bulk_mark_attended()}
            </Button>
            <Button type="button" size="sm" variant="outline" disabled={count === 0 || marking.state !== "idle"} onClick={() => mark("no_show")}>
              {m.bulk_mark_no_show()}
            </Button>
          </>
        ) : null}
        {(["approved", "rejected", "spam"] as const).map((status) => {
          const icon =
            status === "approved" ? <Icon node={Check} className="size-4" /> : status === "rejected" ? <Icon node={X} className="size-4" /> : <Icon node={Ban} className="size-4" />;
          if (!hydrated) {
            return (
              <Button key={status} type="submit" name="status" value={status} size="sm" variant="outline">
                {icon}
                {phrase(status, m.bulk_selected_word())}
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
                  {phrase(status, m.bulk_selected_word())}
                </Button>
              }
              title={m.bulk_question({ phrase: phrase(status, applications(count)) })}
              description={
                status === "spam"
                  ? m.bulk_spam_means()
                  : status === "approved" && previewUrl
                    ? `${description}${sentenceGap()}${inVRChatText(preview.state === "idle" ? preview.data : undefined)}`
                    : description
              }
              body={
                status === "approved" && named > 0 ? (
                  <label className="flex items-start gap-2 text-sm text-mist-100">
                    <input type="checkbox" className="mt-1" checked={confirmNamed} onChange={(event) => setConfirmNamed(event.target.checked)} />
                    {named === 1 ? m.bulk_confirm_named_one() : m.bulk_confirm_named({ count: formatCount(named) })}
                  </label>
                ) : null
              }
              action={
                <Button type="button" variant={status === "approved" ? "primary" : "danger"} onClick={() => decide(status, { confirmNamed })}>
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
