import type { ReactNode } from "react";
import { clsx } from "clsx";

export function EmptyState({
  title,
  description,
  icon,
  className,
}: {
  title: string;
  description?: string;
  icon?: ReactNode;
  className?: string;
}) {
  return (
    <div
      className={clsx(
        "flex flex-col items-center justify-center gap-2 rounded-2xl border border-dashed border-aurora-400/25 px-6 py-12 text-center",
        className,
      )}
    >
      {icon ? <div className="mb-1 text-aurora-300">{icon}</div> : null}
      <p className="font-display text-xl text-mist-100">{title}</p>
      {description ? <p className="text-sm text-mist-400">{description}</p> : null}
    </div>
  );
}
