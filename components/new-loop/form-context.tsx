"use client";
// What every generated field needs without threading it through each level:
// how to change a value by path, the current errors, and which paths were
// redacted in a cloned loop.
import { createContext, useContext } from "react";
import type { Path } from "./json-schema";

export interface FormContextValue {
  set: (path: Path, value: unknown) => void;
  errors: Map<string, string[]>;
  /** True when any error sits at or below this path (to open collapsed sections). */
  hasErrorsUnder: (pathKey: string) => boolean;
  redacted: Set<string>;
}

export const FormContext = createContext<FormContextValue>({
  set: () => undefined,
  errors: new Map(),
  hasErrorsUnder: () => false,
  redacted: new Set(),
});

export const useFormContext = () => useContext(FormContext);
