// A labelled input or select for the auth and settings forms. No hooks here: server components (the settings
// page's sections) import its pieces too; the state that binds them is in use-form-fields.ts.
import { type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from "react";

export const INPUT =
  "w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-sky-500 focus:outline-none focus:ring-1 focus:ring-sky-500 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100";

function Labelled({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
        {label}
      </label>
      {children}
    </div>
  );
}

/** `invalid` marks the input for assistive technology; `describedBy` links it to its hint and error texts. */
export function Field({
  label,
  id,
  invalid = false,
  describedBy,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { label: string; id: string; invalid?: boolean; describedBy?: string }) {
  return (
    <Labelled id={id} label={label}>
      <input
        id={id}
        name={id}
        className={INPUT}
        aria-required={props.required || undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy || undefined}
        {...props}
      />
    </Labelled>
  );
}

type FieldProps = Parameters<typeof Field>[0];

/** The account's email, the same field wherever a form asks for it (sign in, first setup). */
export function EmailField(props: Omit<FieldProps, "id" | "label">) {
  return <Field id="email" label="Email" type="email" autoComplete="username" required {...props} />;
}

/** A password input; `autoComplete` says whose password it is (current or new) for password managers. */
export function PasswordField(props: Omit<FieldProps, "type"> & { autoComplete: "current-password" | "new-password" }) {
  return <Field type="password" {...props} />;
}

export function SelectField({
  label,
  id,
  children,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string; id: string }) {
  return (
    <Labelled id={id} label={label}>
      <select id={id} className={INPUT} {...props}>
        {children}
      </select>
    </Labelled>
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
