import type { ComponentProps } from "react";
import { clsx } from "clsx";

const TONES = {
  aurora: "border-aurora-400/40 bg-aurora-500/15 text-aurora-300",
  gold: "border-ember-400/40 bg-ember-400/10 text-ember-300",
  muted: "border-mist-400/30 bg-white/5 text-mist-300",
  danger: "border-red-400/40 bg-red-500/10 text-red-300",
  live: "border-emerald-400/40 bg-emerald-500/15 text-emerald-300",
} as const;

export interface BadgeProps extends ComponentProps<"span"> {
  tone?: keyof typeof TONES;
}

export function Badge({ tone = "aurora", className, ...props }: BadgeProps) {
  return (
    <span
      className={clsx(
        "inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 text-xs font-semibold tracking-wide",
        TONES[tone],
        className,
      )}
      {...props}
    />
  );
}
