import Link from "next/link";
import type { ButtonHTMLAttributes, ReactNode } from "react";

export type ButtonVariant = "primary" | "secondary" | "danger" | "danger-subtle" | "ghost";
export type ButtonSize = "sm" | "md";

const VARIANTS: Record<ButtonVariant, string> = {
  primary: "bg-slate-900 text-white hover:bg-slate-700 dark:bg-white dark:text-slate-900 dark:hover:bg-slate-200",
  secondary:
    "border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800",
  danger: "bg-rose-700 text-white hover:bg-rose-600 dark:bg-rose-600 dark:hover:bg-rose-500",
  // Destructive but not the point of the screen (a toolbar): red text, confirmed in a dialog.
  "danger-subtle":
    "border border-rose-300 bg-white text-rose-800 hover:bg-rose-50 dark:border-rose-900 dark:bg-slate-900 dark:text-rose-300 dark:hover:bg-rose-950",
  ghost: "text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800",
};

const SIZES: Record<ButtonSize, string> = { sm: "px-2.5 py-1.5 text-xs", md: "px-3 py-2 text-sm" };

const BASE =
  "inline-flex items-center justify-center gap-2 rounded-md font-medium transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-500 disabled:cursor-not-allowed disabled:opacity-50 aria-disabled:cursor-not-allowed aria-disabled:opacity-50";

export const buttonClass = (variant: ButtonVariant = "primary", size: ButtonSize = "md", extra = "") =>
  `${BASE} ${VARIANTS[variant]} ${SIZES[size]} ${extra}`;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /**
   * Shows a spinner and marks the button busy. A pressed button keeps focus:
   * while pending it is aria-disabled (clicks ignored), never `disabled`,
   * which would drop focus to <body>.
   */
  pending?: boolean;
}

export function Button({
  variant = "primary",
  size = "md",
  pending = false,
  className = "",
  children,
  disabled,
  onClick,
  ...props
}: ButtonProps) {
  const inert = pending || props["aria-disabled"] === true || props["aria-disabled"] === "true";
  return (
    <button
      type="button"
      aria-busy={pending || undefined}
      className={buttonClass(variant, size, className)}
      {...props}
      aria-disabled={inert || undefined}
      disabled={pending ? false : disabled}
      onClick={inert ? (e) => e.preventDefault() : onClick}
    >
      {pending && <Spinner />}
      {children}
    </button>
  );
}

export function Spinner({ className = "h-3.5 w-3.5" }: { className?: string }) {
  return (
    <span
      aria-hidden
      className={`inline-block animate-spin rounded-full border-2 border-current border-r-transparent ${className}`}
    />
  );
}

export function ButtonLink({
  href,
  variant = "primary",
  size = "md",
  children,
  className = "",
}: {
  href: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  children: ReactNode;
  className?: string;
}) {
  return (
    <Link href={href} className={buttonClass(variant, size, className)}>
      {children}
    </Link>
  );
}
