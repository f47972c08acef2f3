"use client";
// A discriminated union (agent kind, scorer kind, verifier, reflector): a
// kind selector, then the chosen variant's own fields. Switching kind starts
// that variant from its defaults, keeping a shared "name" if there is one.
import { describedBy, Field, Select } from "@/components/ui/field";
import { useFormContext } from "./form-context";
import { discriminator, fieldId, initialValue, labelOf, pathKey, variantOf } from "./json-schema";
import { Properties } from "./object-field";
import type { FieldProps } from "./field-props";

export function UnionField({ schema, path, name, value, depth, bare = false }: FieldProps & { bare?: boolean }) {
  const { set, errors, itemExtra } = useFormContext();
  const d = discriminator(schema)!;
  const variant = variantOf(schema, value)!;
  const id = `${fieldId(path)}-${d.key}`;
  const error = errors.get(pathKey([...path, d.key]))?.join("; ") ?? errors.get(pathKey(path))?.join("; ");
  const selector = (
    <Field id={id} label={bare ? "Kind" : `${labelOf(name, schema)}: kind`} error={error}>
      <Select
        id={id}
        aria-describedby={describedBy(id, undefined, error)}
        value={variant.value}
        onChange={(e) => {
          const next = d.variants.find((v) => v.value === e.target.value)!;
          const fresh = (initialValue(next.schema) ?? {}) as Record<string, unknown>;
          const keepName =
            value && typeof value === "object" && "name" in value && next.schema.properties?.name
              ? { name: (value as { name: unknown }).name }
              : {};
          set(path, { ...fresh, ...keepName, [d.key]: next.value });
        }}
      >
        {d.variants.map((v) => (
          <option key={v.value} value={v.value}>
            {v.value} — {v.label}
          </option>
        ))}
      </Select>
    </Field>
  );
  const fields = <Properties schema={variant.schema} value={value} path={path} depth={depth} skip={d.key} />;
  if (bare) {
    return (
      <div className="space-y-4">
        {selector}
        {fields}
        {itemExtra?.(path, value)}
      </div>
    );
  }
  return (
    <fieldset className="min-w-0 space-y-4 rounded-xl border border-slate-200 p-4 dark:border-slate-800">
      <legend className="px-1 text-sm font-semibold">{labelOf(name, schema)}</legend>
      {selector}
      {fields}
    </fieldset>
  );
}
