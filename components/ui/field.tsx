// Form controls with one look, each wired to its label, hint and error.
import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";

const CONTROL =
  "block w-full rounded-md border bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-sky-500 disabled:opacity-60 dark:bg-slate-950 dark:text-slate-100";
const border = (invalid?: boolean) =>
  invalid ? "border-rose-500 dark:border-rose-500" : "border-slate-300 dark:border-slate-700";
type Controlled<Attributes> = Attributes & { invalid?: boolean };
/** The attributes every control shares: the look, and `aria-invalid` when its value is rejected. */
const control = (invalid: boolean | undefined, className: string) => ({
  "aria-invalid": invalid || undefined,
  className: `${CONTROL} ${border(invalid)} ${className}`,
});

export const describedBy = (id: string, hint?: ReactNode, error?: ReactNode) =>
  [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;

export function Field({
  id,
  label,
  hint,
  error,
  children,
  required,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  children: ReactNode;
  required?: boolean;
}) {
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-800 dark:text-slate-200">
        {label}
        {required && (
          <span aria-hidden className="text-rose-700 dark:text-rose-400">
            {" "}
            *
          </span>
        )}
      </label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-xs font-medium text-rose-700 dark:text-rose-400">
          {error}
        </p>
      )}
    </div>
  );
}

export function TextInput({ invalid, className = "", ...props }: Controlled<InputHTMLAttributes<HTMLInputElement>>) {
  return <input {...control(invalid, className)} {...props} />;
}

export function TextArea({
  invalid,
  className = "",
  ...props
}: Controlled<TextareaHTMLAttributes<HTMLTextAreaElement>>) {
  return <textarea {...control(invalid, className)} {...props} />;
}

export function Select({
  invalid,
  className = "",
  children,
  ...props
}: Controlled<SelectHTMLAttributes<HTMLSelectElement>>) {
  return (
    <select {...control(invalid, className)} {...props}>
      {children}
    </select>
  );
}

export function Checkbox({
  id,
  label,
  hint,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { id: string; label: ReactNode; hint?: ReactNode }) {
  return (
    <div className="flex items-start gap-2">
      <input
        id={id}
        type="checkbox"
        aria-describedby={hint ? `${id}-hint` : undefined}
        className="mt-0.5 h-4 w-4 rounded border-slate-300 accent-slate-900 dark:accent-white"
        {...props}
      />
      <div>
        <label htmlFor={id} className="text-sm text-slate-800 dark:text-slate-200">
          {label}
        </label>
        {hint && (
          <p id={`${id}-hint`} className="text-xs text-slate-500 dark:text-slate-400">
            {hint}
          </p>
        )}
      </div>
    </div>
  );
}
