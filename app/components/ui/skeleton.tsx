import type { ComponentProps } from "react";
import { clsx } from "clsx";

export function Skeleton({ className, ...props }: ComponentProps<"div">) {
  return (
    <div
      aria-hidden="true"
      className={clsx("animate-pulse rounded-lg bg-night-700/60 motion-reduce:animate-none", className)}
      {...props}
    />
  );
}
