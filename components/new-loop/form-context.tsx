"use client";
// What every generated field needs without threading it through each level:
// how to change a value by path, the current errors, which paths were
// redacted in a cloned loop, the component that renders a child field, and extra content under
// list items (a command check's runner preview).
import { createContext, useContext, type ComponentType, type ReactNode } from "react";
import type { FieldProps } from "./field-props";
import type { Path } from "./json-schema";

export interface FormContextValue {
  set: (path: Path, value: unknown) => void;
  errors: Map<string, string[]>;
  /** True when any error sits at or below this path (to open collapsed sections). */
  hasErrorsUnder: (pathKey: string) => boolean;
  redacted: Set<string>;
  /** Renders one field of any kind (schema-field.tsx); containers call it for their children. */
  SchemaField: ComponentType<FieldProps>;
  /** Extra content under an item of a list of kinds (a command check's runner preview). */
  itemExtra?: (path: Path, value: unknown) => ReactNode;
}

export const FormContext = createContext<FormContextValue>({
  set: () => undefined,
  errors: new Map(),
  hasErrorsUnder: () => false,
  redacted: new Set(),
  SchemaField: () => {
    throw new Error("a generated field was rendered outside the New-loop form");
  },
});

export const useFormContext = () => useContext(FormContext);
