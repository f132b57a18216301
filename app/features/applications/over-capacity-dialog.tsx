import { Button } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { m } from "~/paraglide/messages";

/**
 * Asks before approving past an event's last place: opened by the server's refusal (`refusal`, its
 * message), closed by `onDismiss`; `onConfirm` posts the approval again with `overCapacity`.
 */
export function OverCapacityDialog({ refusal, onDismiss, onConfirm }: { refusal: string | null; onDismiss: () => void; onConfirm: () => void }) {
  return (
    <ConfirmDialog
      open={refusal !== null}
      onOpenChange={(open) => {
        if (!open) onDismiss();
      }}
      title={m.over_capacity_title()}
      description={refusal ?? ""}
      action={
        <Button type="button" onClick={onConfirm}>
          {m.over_capacity_anyway()}
        </Button>
      }
    />
  );
}
