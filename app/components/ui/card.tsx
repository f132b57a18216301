import { clsx } from "clsx";
import type { ComponentProps } from "react";

const BORDERS = {
  plain: "border-aurora-400/20",
  danger: "border-red-400/40",
} as const;

export interface CardProps extends ComponentProps<"div"> {
  tone?: keyof typeof BORDERS;
}

/** A panel. Classes given are added to its own, so they should not restate its border, background or corners. */
export function Card({ tone = "plain", className, ...props }: CardProps) {
  return (
    <div
      className={clsx(
        "rounded-2xl border bg-night-900/70 shadow-xl shadow-black/30 backdrop-blur-sm",
        BORDERS[tone],
        className,
      )}
      {...props}
    />
  );
}
