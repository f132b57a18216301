import type { ComponentProps } from "react";
import { cn } from "./cn";

export function Card({ className, ...props }: ComponentProps<"div">) {
  return (
    <div
      className={cn(
        "rounded-2xl border border-aurora-400/20 bg-night-900/70 shadow-xl shadow-black/30 backdrop-blur-sm",
        className,
      )}
      {...props}
    />
  );
}
