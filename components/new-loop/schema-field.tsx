"use client";
// One generated field: picks the control for its JSON Schema node. Containers
// (objects, unions, lists of objects) render their children through the form
// context's SchemaField, which the form fills with this component: the
// recursion runs through the context, so the modules import one way only.
import type { ComponentType } from "react";
import { Checkbox, describedBy, Field, Select, TextArea, TextInput } from "@/components/ui/field";
import { ArrayField } from "./array-field";
import { hintFor, type FieldProps } from "./field-props";
import { useFormContext } from "./form-context";
import { fieldId, fieldKind, isLongText, labelOf, pathKey, type FieldKind } from "./json-schema";
import { EnumListField, JsonField, NumberListField, StringListField, StringMapField } from "./list-fields";
import { ObjectField } from "./object-field";
import { UnionField } from "./union-field";

/** The kinds whose control is a component of its own, given the field's props as they are. */
const COMPOSITE_FIELDS: Partial<Record<FieldKind, ComponentType<FieldProps>>> = {
  object: ObjectField,
  union: UnionField,
  "object-list": ArrayField,
  "string-list": StringListField,
  "number-list": NumberListField,
  "enum-list": EnumListField,
  "string-map": StringMapField,
  json: JsonField,
};

export function SchemaField(props: FieldProps) {
  const { schema, path, name, value, required } = props;
  const { set, errors, redacted } = useFormContext();
  const id = fieldId(path);
  const key = pathKey(path);
  const error = errors.get(key)?.join("; ");
  const label = labelOf(name, schema);
  const wasRedacted = redacted.has(key);
  const hint = hintFor(schema, wasRedacted ? "redacted in the source loop: enter it again" : undefined);
  const a11y = {
    id,
    "aria-describedby": describedBy(id, hint, error),
    // Required to screen readers too, not only by the visual asterisk (e.g. Goal).
    "aria-required": (required && schema.default === undefined) || undefined,
    invalid: !!error,
  };

  const kind = fieldKind(schema);
  const Composite = COMPOSITE_FIELDS[kind];
  if (Composite) return <Composite {...props} />;
  switch (kind) {
    case "const":
      return null;
    case "boolean":
      return (
        <div>
          <Checkbox
            id={id}
            label={label}
            hint={hint}
            checked={Boolean(value ?? schema.default ?? false)}
            onChange={(e) => set(path, e.target.checked)}
          />
          {error && <p className="mt-1 text-xs font-medium text-rose-700 dark:text-rose-400">{error}</p>}
        </div>
      );
    case "enum": {
      const current = value ?? schema.default;
      return (
        <Field id={id} label={label} hint={hint} error={error} required={required && schema.default === undefined}>
          <Select
            {...a11y}
            value={current === undefined ? "" : String(current)}
            onChange={(e) => set(path, e.target.value === "" ? undefined : e.target.value)}
          >
            {current === undefined && <option value="">Choose…</option>}
            {schema.enum!.map((option) => (
              <option key={String(option)} value={String(option)}>
                {String(option)}
              </option>
            ))}
          </Select>
        </Field>
      );
    }
    case "number":
    case "integer": {
      const shown = typeof value === "number" ? value : "";
      return (
        <Field id={id} label={label} hint={hint} error={error} required={required && schema.default === undefined}>
          <TextInput
            {...a11y}
            type="number"
            inputMode="decimal"
            min={schema.minimum ?? schema.exclusiveMinimum}
            max={schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER ? schema.maximum : undefined}
            step={fieldKind(schema) === "integer" ? 1 : "any"}
            placeholder={schema.default !== undefined ? String(schema.default) : undefined}
            value={shown}
            onChange={(e) => set(path, e.target.value === "" ? undefined : e.target.valueAsNumber)}
          />
        </Field>
      );
    }
    default: {
      const text = typeof value === "string" ? value : "";
      const onText = (next: string) => set(path, next === "" && schema.default === undefined ? undefined : next);
      return (
        <Field id={id} label={label} hint={hint} error={error} required={required && schema.default === undefined}>
          {isLongText(name, schema) ? (
            <TextArea {...a11y} rows={name === "goal" ? 4 : 3} value={text} onChange={(e) => onText(e.target.value)} />
          ) : (
            <TextInput
              {...a11y}
              type={schema.format === "uri" ? "url" : "text"}
              autoComplete="off"
              spellCheck={false}
              value={text}
              onChange={(e) => onText(e.target.value)}
            />
          )}
        </Field>
      );
    }
  }
}
