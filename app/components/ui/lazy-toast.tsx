/**
 * Toasts on the public forms without the toast library in their first load: `showToast` fetches it
 * the first time a toast is shown, mounts the toaster, then shows the toast (and any asked for
 * meanwhile). The Sanctum mounts it at once (`eager`), so its screens' own toasts show as before.
 */
import { lazy, Suspense, useEffect, useSyncExternalStore } from "react";

type Pending = { kind: "success" | "error"; message: string };

const queue: Pending[] = [];
let show: ((item: Pending) => void) | null = null;
let wanted = false;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

const MountedToaster = lazy(async () => {
  const [{ Toaster }, { toast }] = await Promise.all([import("./toaster"), import("sonner")]);
  function Flushing() {
    // Runs after the toaster's own effects (its child): it is listening by then.
    useEffect(() => {
      show = (item) => toast[item.kind](item.message);
      for (const item of queue.splice(0)) show(item);
      return () => {
        show = null;
      };
    }, []);
    return <Toaster />;
  }
  return { default: Flushing };
});

export function showToast(kind: Pending["kind"], message: string) {
  if (show) return show({ kind, message });
  queue.push({ kind, message });
  if (!wanted) {
    wanted = true;
    for (const listener of listeners) listener();
  }
}

export function LazyToaster({ eager = false }: { eager?: boolean }) {
  const on = useSyncExternalStore(subscribe, () => wanted, () => false);
  return eager || on ? (
    <Suspense fallback={null}>
      <MountedToaster />
    </Suspense>
  ) : null;
}
