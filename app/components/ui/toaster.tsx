import { Toaster as Sonner } from "sonner";

/**
 * Where toasts appear. Only the screens that raise them render it (the application form and the
 * Sanctum), so the pages most visitors see do not load the toast library.
 */
export function Toaster() {
  return <Sonner theme="dark" position="top-center" richColors />;
}
