"use client";
// Text-edited collections: lists one per line, numbers comma-separated,
// KEY=value maps, enum sets as checkboxes, and free JSON. Each keeps the raw
// text locally so typing a newline or a half-finished entry is not undone.
import { useState } from "react";
import { Checkbox, describedBy, Field, TextArea, TextInput } from "@/components/ui/field";
import { useFormContext } from "./form-context";
import { fieldId, labelOf, pathKey } from "./json-schema";
import { hintFor, type FieldProps } from "./field-props";

function useFieldBasics({ schema, path, name, required }: FieldProps, extraHint: string) {
  const { set, errors, redacted } = useFormContext();
  const id = fieldId(path);
  const key = pathKey(path);
  // Item errors (e.g. "argv.1") are shown on the list itself.
  const own = [...errors.entries()]
    .filter(([k]) => k === key || k.startsWith(`${key}.`))
    .flatMap(([k, m]) =>
      k === key ? m : m.map((x) => `entry ${Number(k.slice(key.length + 1).split(".")[0]) + 1}: ${x}`),
    );
  const error = own.length ? own.join("; ") : undefined;
  const hint = hintFor(
    { ...schema, default: undefined },
    [extraHint, [...redacted].some((r) => r.startsWith(key)) ? "redacted in the source loop: enter it again" : ""]
      .filter(Boolean)
      .join(" · "),
  );
  return {
    set,
    id,
    error,
    hint,
    label: labelOf(name, schema),
    a11y: {
      id,
      "aria-describedby": describedBy(id, hint, error),
      // Required to screen readers too, not only by the visual asterisk.
      "aria-required": (required && schema.default === undefined) || undefined,
      invalid: !!error,
    },
  };
}

/** The text as typed, kept locally; each change hands it to `commit`, which parses it into the form's value. */
function useRawText(initial: () => string, commit: (text: string) => void) {
  const [raw, setRaw] = useState(initial);
  return {
    value: raw,
    onChange: (e: { target: { value: string } }) => {
      setRaw(e.target.value);
      commit(e.target.value);
    },
  };
}

const asList = (v: unknown, fallback: unknown) => (Array.isArray(v) ? v : Array.isArray(fallback) ? fallback : []);

export function StringListField(props: FieldProps) {
  const { set, error, hint, label, a11y } = useFieldBasics(props, "one per line");
  const text = useRawText(
    () => asList(props.value, props.schema.default).join("\n"),
    (value) => {
      const lines = value.split("\n").filter((l) => l.trim() !== "");
      set(
        props.path,
        lines.length || props.schema.minItems ? lines : props.schema.default === undefined ? undefined : [],
      );
    },
  );
  return (
    <Field
      id={a11y.id}
      label={label}
      hint={hint}
      error={error}
      required={props.required && props.schema.default === undefined}
    >
      <TextArea
        {...a11y}
        rows={Math.min(6, Math.max(2, text.value.split("\n").length))}
        spellCheck={false}
        className="font-mono"
        {...text}
      />
    </Field>
  );
}

export function NumberListField(props: FieldProps) {
  const { set, error, hint, label, a11y } = useFieldBasics(props, "comma-separated");
  const text = useRawText(
    () => asList(props.value, props.schema.default).join(", "),
    (value) => {
      const parts = value
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean);
      set(
        props.path,
        parts.map((p) => (Number.isFinite(Number(p)) ? Number(p) : NaN)),
      );
    },
  );
  return (
    <Field id={a11y.id} label={label} hint={hint} error={error}>
      <TextInput {...a11y} inputMode="decimal" {...text} />
    </Field>
  );
}

export function EnumListField(props: FieldProps) {
  const { set, error, label, id } = useFieldBasics(props, "");
  const selected = asList(props.value, props.schema.default) as string[];
  return (
    <fieldset id={id} className="min-w-0">
      <legend className="mb-1 text-sm font-medium text-slate-800 dark:text-slate-200">{label}</legend>
      <div className="flex flex-wrap gap-4">
        {(props.schema.items!.enum ?? []).map((option) => (
          <Checkbox
            key={String(option)}
            id={`${id}-${String(option)}`}
            label={String(option)}
            checked={selected.includes(option as string)}
            onChange={(e) =>
              set(props.path, e.target.checked ? [...selected, option] : selected.filter((s) => s !== option))
            }
          />
        ))}
      </div>
      {error && <p className="mt-1 text-xs font-medium text-rose-700 dark:text-rose-400">{error}</p>}
    </fieldset>
  );
}

export function StringMapField(props: FieldProps) {
  const { set, error, hint, label, a11y } = useFieldBasics(props, "KEY=value, one per line");
  const initial = (props.value ?? props.schema.default ?? {}) as Record<string, string>;
  const text = useRawText(
    () =>
      Object.entries(initial)
        .map(([k, v]) => `${k}=${v}`)
        .join("\n"),
    (value) => {
      const entries = value
        .split("\n")
        .filter((l) => l.includes("="))
        .map((l) => [l.slice(0, l.indexOf("=")).trim(), l.slice(l.indexOf("=") + 1)] as const);
      set(props.path, Object.fromEntries(entries));
    },
  );
  return (
    <Field id={a11y.id} label={label} hint={hint} error={error}>
      <TextArea {...a11y} rows={2} spellCheck={false} className="font-mono" {...text} />
    </Field>
  );
}

export function JsonField(props: FieldProps) {
  const { set, error, hint, label, a11y } = useFieldBasics(props, "JSON");
  const [parseError, setParseError] = useState<string | null>(null);
  const text = useRawText(
    () => (props.value === undefined ? "" : JSON.stringify(props.value, null, 2)),
    (value) => {
      if (value.trim() === "") {
        setParseError(null);
        return set(props.path, undefined);
      }
      try {
        set(props.path, JSON.parse(value));
        setParseError(null);
      } catch {
        setParseError("is not valid JSON yet");
      }
    },
  );
  return (
    <Field id={a11y.id} label={label} hint={hint} error={parseError ?? error}>
      <TextArea
        {...a11y}
        invalid={!!(parseError ?? error)}
        rows={4}
        spellCheck={false}
        className="font-mono"
        {...text}
      />
    </Field>
  );
}
