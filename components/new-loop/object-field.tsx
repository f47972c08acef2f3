"use client";
// An object: its properties in a grid (simple fields two abreast, nested ones
// full width). Top sections are fieldsets; deeper sections fold away, and
// open by themselves when they hold an error. An optional object with no
// default (e.g. a price override) is switched on with a checkbox.
import { useState, type ReactNode } from "react";
import { Checkbox } from "@/components/ui/field";
import { useFormContext } from "./form-context";
import { fieldId, fieldKind, initialValue, labelOf, pathKey } from "./json-schema";
import type { FieldProps } from "./field-props";

const WIDE = new Set(["object", "union", "object-list", "string-map", "json", "enum-list"]);
/** Sections of the loop settings an operator usually wants to see at once. */
const OPEN_BY_DEFAULT = new Set(["stop", "budget", "approvals"]);

export function Properties({
  schema,
  value,
  path,
  depth,
  skip,
  order,
}: Omit<FieldProps, "name" | "required"> & { skip?: string; order?: string[] }) {
  const { SchemaField } = useFormContext();
  const obj = (value && typeof value === "object" ? value : {}) as Record<string, unknown>;
  const keys = Object.keys(schema.properties ?? {}).filter((k) => k !== skip);
  if (order) keys.sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      {keys.map((key) => {
        const child = schema.properties![key]!;
        if (fieldKind(child) === "const") return null;
        const wide =
          WIDE.has(fieldKind(child)) ||
          (fieldKind(child) === "string" && (key === "goal" || (child.maxLength ?? 0) > 1000));
        return (
          <div key={key} className={wide ? "sm:col-span-2" : undefined}>
            <SchemaField
              schema={child}
              path={[...path, key]}
              name={key}
              value={obj[key]}
              required={(schema.required ?? []).includes(key)}
              depth={depth + 1}
            />
          </div>
        );
      })}
    </div>
  );
}

function Collapsible({
  title,
  open: openByDefault,
  forceOpen,
  children,
  id,
}: {
  title: string;
  open: boolean;
  forceOpen: boolean;
  children: ReactNode;
  id: string;
}) {
  const [open, setOpen] = useState(openByDefault || forceOpen);
  // A section that comes to hold an error opens itself (adjusted during render, not in an effect).
  const [wasForced, setWasForced] = useState(forceOpen);
  if (forceOpen !== wasForced) {
    setWasForced(forceOpen);
    if (forceOpen) setOpen(true);
  }
  return (
    <details
      id={id}
      open={open}
      onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}
      className="rounded-lg border border-slate-200 dark:border-slate-800"
    >
      <summary className="cursor-pointer select-none rounded-lg px-3 py-2 text-sm font-medium hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-sky-500 dark:hover:bg-slate-800/60">
        {title}
      </summary>
      <div className="border-t border-slate-200 p-3 dark:border-slate-800">{children}</div>
    </details>
  );
}

export function ObjectField({ schema, path, name, value, required, depth }: FieldProps) {
  const { set, hasErrorsUnder } = useFormContext();
  const title = labelOf(name, schema);
  const optional = !required && schema.default === undefined;
  if (optional && value === undefined) {
    return (
      <Checkbox
        id={fieldId(path)}
        label={`Set ${title.toLowerCase()}`}
        checked={false}
        onChange={() => set(path, initialValue(schema) ?? {})}
      />
    );
  }
  const body = <Properties schema={schema} value={value} path={path} depth={depth} />;
  const toggle = optional ? (
    <div className="mb-3">
      <Checkbox id={fieldId(path)} label={`Set ${title.toLowerCase()}`} checked onChange={() => set(path, undefined)} />
    </div>
  ) : null;
  if (depth >= 2) {
    return (
      <Collapsible
        id={fieldId(path)}
        title={title}
        open={OPEN_BY_DEFAULT.has(name)}
        forceOpen={hasErrorsUnder(pathKey(path))}
      >
        {toggle}
        {body}
      </Collapsible>
    );
  }
  return (
    <fieldset className="min-w-0 rounded-xl border border-slate-200 p-4 dark:border-slate-800">
      <legend className="px-1 text-sm font-semibold">{title}</legend>
      {toggle}
      {body}
    </fieldset>
  );
}
