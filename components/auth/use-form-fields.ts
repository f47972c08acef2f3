// The state of an auth or settings form: kept apart from field.tsx, which server components import too.
import { useState } from "react";

/** A form's values with one binder per field: `bind("name")` gives an input its value and change handler. */
export function useFormFields<T extends Record<string, string>>(initial: T) {
  const [form, setForm] = useState(initial);
  const bind = <K extends keyof T>(key: K) => ({
    value: form[key],
    onChange: (e: { target: { value: string } }) => setForm({ ...form, [key]: e.target.value as T[K] }),
  });
  return { form, setForm, bind };
}
