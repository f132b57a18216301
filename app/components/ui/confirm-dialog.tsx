import { setNonce } from "get-nonce";
import { AlertDialog } from "radix-ui";
import { useEffect, type ReactNode } from "react";
import { m } from "~/paraglide/messages";
import { Button } from "./button";

/**
 * An accessible confirmation (focus trapped, returned on close, Escape cancels). `action` is the
 * confirming control, usually a submit button in a form, so confirming works like any form post.
 */
export function ConfirmDialog({
  trigger,
  title,
  description,
  action,
  body,
  open,
  onOpenChange,
}: {
  /** The control that opens it; none when the dialog is opened through `open`. */
  trigger?: ReactNode;
  title: string;
  description: string;
  action: ReactNode;
  /** What the dialog asks beside its description (a box to tick), above its buttons. */
  body?: ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}) {
  // The dialog's scroll lock adds a <style> element: it carries the page's nonce, which the
  // Content-Security-Policy asks of style elements (browsers show a nonce only as a property).
  useEffect(() => {
    setNonce(document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce ?? "");
  }, []);
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      {trigger ? <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger> : null}
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/60 backdrop-blur-sm" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-aurora-400/30 bg-night-900 p-6 shadow-2xl">
          <AlertDialog.Title className="font-display text-2xl text-mist-100">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-3 text-mist-300">{description}</AlertDialog.Description>
          {body ? <div className="mt-4">{body}</div> : null}
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <AlertDialog.Cancel asChild>
              <Button variant="ghost">{m.dialog_cancel()}</Button>
            </AlertDialog.Cancel>
            {action}
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
