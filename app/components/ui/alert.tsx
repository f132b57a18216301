import { AlertTriangle } from "lucide";
import { Icon } from "~/components/ui/icon";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Button } from "./button";
import { clsx } from "clsx";

/** A failure the reader must see: announced at once to screen readers. */
export function ErrorAlert({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <p role="alert" className={clsx("rounded-xl border border-red-400/40 bg-red-500/10 px-4 py-3 text-red-200", className)}>
      {children}
    </p>
  );
}

/** What was just done (a save, a publish): told to screen readers when it appears. */
export function SuccessAlert({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="rounded-xl border border-emerald-400/40 bg-emerald-500/10 px-4 py-3 text-emerald-200">
      {children}
    </p>
  );
}

/** A warning about the page's state (a closed event, a setting that is off). */
export function Notice({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="flex items-center gap-2 rounded-xl border border-ember-400/30 bg-ember-400/10 px-4 py-3 text-ember-300">
      <Icon node={AlertTriangle} className="size-5 shrink-0" />
      {children}
    </p>
  );
}


/** "← Back to …": the way up from a detail page. */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Button asChild variant="ghost" size="sm" className="-ml-3">
      <Link to={to}>
        <span aria-hidden="true">←</span>
        {children}
      </Link>
    </Button>
  );
}
