"use client";
// A list of objects (scorers, secrets): each item in its own box with a
// remove button, and an add button that starts a new item from defaults.
import { Button } from "@/components/ui/button";
import { useFormContext } from "./form-context";
import { fieldId, fieldKind, initialValue, labelOf, pathKey } from "./json-schema";
import { Properties } from "./object-field";
import type { FieldProps } from "./field-props";
import { UnionField } from "./union-field";

/** "Scorers and validators" → "scorer"; "Secrets passed as variables" → "secret". */
function itemNoun(name: string) {
  return name.endsWith("s") ? name.slice(0, -1) : name;
}

export function ArrayField({ schema, path, name, value, depth }: FieldProps) {
  const { set, errors } = useFormContext();
  const items = Array.isArray(value) ? value : [];
  const itemSchema = schema.items!;
  const noun = itemNoun(name);
  const error = errors.get(pathKey(path))?.join("; ");
  return (
    <fieldset id={fieldId(path)} className="min-w-0 rounded-xl border border-slate-200 p-4 dark:border-slate-800">
      <legend className="px-1 text-sm font-semibold">{labelOf(name, schema)}</legend>
      {items.length === 0 && <p className="mb-3 text-sm text-slate-500 dark:text-slate-400">None yet.</p>}
      <ol className="space-y-3">
        {items.map((item, i) => (
          <li
            key={i}
            className="rounded-lg border border-slate-200 bg-slate-50/60 p-3 dark:border-slate-800 dark:bg-slate-950/40"
          >
            <div className="mb-2 flex items-center justify-between gap-2">
              <span className="text-xs font-medium uppercase tracking-wide text-slate-500 dark:text-slate-400">
                {noun} {i + 1}
              </span>
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Remove ${noun} ${i + 1}`}
                onClick={() =>
                  set(
                    path,
                    items.filter((_, j) => j !== i),
                  )
                }
              >
                Remove
              </Button>
            </div>
            {fieldKind(itemSchema) === "union" ? (
              <UnionField
                schema={itemSchema}
                path={[...path, i]}
                name={`${noun} ${i + 1}`}
                value={item}
                required
                depth={depth + 1}
                bare
              />
            ) : (
              <Properties schema={itemSchema} value={item} path={[...path, i]} depth={depth + 1} />
            )}
          </li>
        ))}
      </ol>
      {error && <p className="mt-2 text-xs font-medium text-rose-700 dark:text-rose-400">{error}</p>}
      <Button
        variant="secondary"
        size="sm"
        className="mt-3"
        onClick={() => set(path, [...items, initialValue(itemSchema) ?? {}])}
      >
        Add {noun}
      </Button>
    </fieldset>
  );
}
