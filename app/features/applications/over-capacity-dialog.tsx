import { Button } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";

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
      title="Approve over capacity?"
      description={refusal ?? ""}
      action={
        <Button type="button" onClick={onConfirm}>
          Approve anyway
        </Button>
      }
    />
  );
}
