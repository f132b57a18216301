import { useId, useState, type ReactNode } from "react";
import { m } from "~/paraglide/messages";
import { Button } from "./button";
import { ConfirmDialog } from "./confirm-dialog";
import { fieldClass } from "./field";

/**
 * 'Ban' with its reason asked in a dialog: the reason goes with the ban (and into Discord's audit log).
 * `children`: what the caller shows above the reason (the accounts the ban names, to confirm).
 */
export function BanDialog({ name, busy, onBan, children }: { name: string; busy: boolean; onBan: (reason: string) => void; children?: ReactNode }) {
  const [reason, setReason] = useState("");
  const id = useId();
  return (
    <ConfirmDialog
      trigger={
        <Button type="button" size="sm" variant="danger" disabled={busy} aria-label={m.ban_dialog_label({ name })}>
          {m.bans_ban()}
        </Button>
      }
      title={m.ban_dialog_title({ name })}
      description={m.ban_dialog_text()}
      body={
        <div className="flex w-full flex-col gap-2">
          {children}
          <label htmlFor={id} className="text-sm font-semibold text-mist-100">
            {m.bans_reason()}
          </label>
          <textarea id={id} rows={2} maxLength={1000} value={reason} onChange={(event) => setReason(event.target.value)} className={fieldClass} />
        </div>
      }
      action={
        <Button type="button" variant="danger" disabled={busy || reason.trim() === ""} onClick={() => onBan(reason.trim())}>
          {m.bans_ban()}
        </Button>
      }
    />
  );
}
