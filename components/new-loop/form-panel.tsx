// A card beside the New-loop form (the preflight, the stored-secret picker): a titled section,
// named for screen readers.
import type { ReactNode } from "react";

export function FormPanel({
  label,
  testId,
  title,
  className = "",
  children,
}: {
  label: string;
  testId: string;
  title: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-label={label}
      data-testid={testId}
      className={`rounded-xl border border-slate-200 bg-white p-4 text-sm dark:border-slate-800 dark:bg-slate-900 ${className}`}
    >
      <h2 className="font-medium">{title}</h2>
      {children}
    </section>
  );
}
