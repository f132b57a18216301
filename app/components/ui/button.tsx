import { clsx } from "clsx";
import { cloneElement, isValidElement, type ComponentProps, type ReactElement } from "react";

const VARIANTS = {
  primary:
    "bg-gradient-to-r from-aurora-500 to-aurora-600 text-white shadow-lg shadow-aurora-600/25 hover:from-aurora-600 hover:to-aurora-700",
  gold: "bg-gradient-to-r from-ember-400 to-ember-500 text-night-950 shadow-lg shadow-ember-500/20 hover:from-ember-300 hover:to-ember-400",
  outline: "border border-aurora-400/50 text-mist-100 hover:bg-aurora-500/15 hover:border-aurora-300",
  ghost: "text-mist-300 hover:bg-white/5 hover:text-mist-100",
  danger: "bg-red-600 text-white shadow-lg shadow-red-900/25 hover:bg-red-700",
} as const;

const SIZES = {
  sm: "h-9 px-3 text-sm",
  md: "h-11 px-5 text-sm",
  lg: "h-12 px-7 text-base",
} as const;

export interface ButtonProps extends ComponentProps<"button"> {
  variant?: keyof typeof VARIANTS;
  size?: keyof typeof SIZES;
  /** Give the one child element (a Link, an anchor) the button's look, instead of rendering a button. */
  asChild?: boolean;
}

export function Button({
  variant = "primary",
  size = "md",
  asChild = false,
  className,
  children,
  ...props
}: ButtonProps) {
  const look = clsx(
    "inline-flex items-center justify-center gap-2 rounded-lg font-semibold tracking-wide transition-colors disabled:pointer-events-none disabled:opacity-50",
    VARIANTS[variant],
    SIZES[size],
    className,
  );
  if (asChild && isValidElement<{ className?: string }>(children)) {
    const child: ReactElement<{ className?: string }> = children;
    return cloneElement(child, { ...props, className: clsx(look, child.props.className) });
  }
  return (
    <button className={look} {...props}>
      {children}
    </button>
  );
}
