// The frame of a settings section, its "add one" form, and the notice that shows a new credential once.
import type { FormEvent, ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { errorMessage, FormError, INPUT } from "./field";

export function Section({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-label={title}
      className="rounded-xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 className="font-medium">{title}</h2>
      {description && <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{description}</p>}
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** A section's form that adds one row: its fields in a grid, then the server's error and the submit button. */
export function AddForm({
  title,
  onSubmit,
  columns = 3,
  mutation,
  submitLabel,
  notice,
  className = "",
  children,
}: {
  title: string;
  onSubmit: (event: FormEvent) => void;
  /** Fields per row on wider screens. */
  columns?: 2 | 3;
  mutation: { error: unknown; isPending: boolean };
  submitLabel: string;
  notice?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  const span = columns === 2 ? "sm:col-span-2" : "sm:col-span-3";
  return (
    <>
      <h3 className="mb-2 text-sm font-medium">{title}</h3>
      <form
        onSubmit={onSubmit}
        className={`grid gap-3 ${columns === 2 ? "sm:grid-cols-2" : "sm:grid-cols-3"} ${className}`}
        noValidate
      >
        {children}
        <div className={span}>
          <FormError message={errorMessage(mutation.error)} />
          {notice}
          <Button type="submit" className="mt-2" disabled={mutation.isPending}>
            {submitLabel}
          </Button>
        </div>
      </form>
    </>
  );
}

/** A credential the server returns once (a token, a signing secret): selectable, then dismissed. */
export function ShownOnce({
  label,
  value,
  onDone,
  after,
  children,
}: {
  label: string;
  value: string;
  onDone: () => void;
  after?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div
      role="status"
      className="mb-4 space-y-2 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm dark:border-emerald-900 dark:bg-emerald-950"
    >
      {children}
      <input
        readOnly
        aria-label={label}
        className={`${INPUT} font-mono`}
        value={value}
        onFocus={(e) => e.currentTarget.select()}
      />
      {after}
      <Button variant="ghost" onClick={onDone}>
        Done
      </Button>
    </div>
  );
}

/** A section's list of rows (channels, secrets, tokens), and its empty state once the server says there are none. */
export function RowList<T>({
  label,
  items,
  empty,
  children,
}: {
  label?: string;
  items: readonly T[] | undefined;
  empty: string;
  /** Renders one row: an `li` with its key. */
  children: (item: T) => ReactNode;
}) {
  return (
    <>
      {items?.length === 0 && <EmptyState title={empty} />}
      <ul className="mb-6 divide-y divide-slate-100 text-sm dark:divide-slate-800" aria-label={label}>
        {items?.map(children)}
      </ul>
    </>
  );
}
