// A labelled input for the auth and settings forms.
import type { InputHTMLAttributes } from "react";

export const INPUT =
  "w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-sky-500 focus:outline-none focus:ring-1 focus:ring-sky-500 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100";

/** `invalid` marks the input for assistive technology; `describedBy` links it to its hint and error texts. */
export function Field({
  label,
  id,
  invalid = false,
  describedBy,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { label: string; id: string; invalid?: boolean; describedBy?: string }) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
        {label}
      </label>
      <input
        id={id}
        name={id}
        className={INPUT}
        aria-required={props.required || undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy || undefined}
        {...props}
      />
    </div>
  );
}

export function FormError({ message, id }: { message: string | null | undefined; id?: string }) {
  if (!message) return null;
  return (
    <p
      id={id}
      role="alert"
      className="rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800 dark:border-rose-900 dark:bg-rose-950 dark:text-rose-200"
    >
      {message}
    </p>
  );
}

/** The message a tRPC error carries, for showing to the user. */
export function errorMessage(error: unknown): string | null {
  if (!error) return null;
  const e = error as {
    message?: string;
    data?: { zodError?: { fieldErrors?: Record<string, string[] | undefined>; formErrors?: string[] } };
  };
  const fields = e.data?.zodError?.fieldErrors;
  const first = fields && Object.values(fields).flat().find(Boolean);
  return first ?? e.data?.zodError?.formErrors?.[0] ?? e.message ?? "Something went wrong";
}
