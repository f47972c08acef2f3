// Reading the JSON Schema of the loop definition (z.toJSONSchema of the same
// zod schema the API validates with) to drive a generic form: which control a
// schema node needs, its label, its discriminated variants, and the checks a
// browser can make before the server does. Pure.

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  format?: string;
  additionalProperties?: JsonSchema | boolean;
  propertyNames?: JsonSchema;
  secret?: boolean;
}

export type FieldKind =
  | "object"
  | "union"
  | "enum"
  | "const"
  | "boolean"
  | "number"
  | "integer"
  | "string"
  | "string-list"
  | "number-list"
  | "enum-list"
  | "object-list"
  | "string-map"
  | "json";

const typeOf = (s: JsonSchema) => (Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type);

export function fieldKind(s: JsonSchema): FieldKind {
  if (s.oneOf || s.anyOf) return discriminator(s) ? "union" : "json";
  if (s.const !== undefined) return "const";
  if (s.enum) return "enum";
  const type = typeOf(s);
  if (type === "object") {
    if (s.properties) return "object";
    const values = typeof s.additionalProperties === "object" ? s.additionalProperties : null;
    return values && typeOf(values) === "string" ? "string-map" : "json";
  }
  if (type === "array" && s.items) {
    const item = s.items;
    if (item.enum) return "enum-list";
    if (typeOf(item) === "string") return "string-list";
    if (typeOf(item) === "number" || typeOf(item) === "integer") return "number-list";
    if (item.properties || item.oneOf) return "object-list";
    return "json";
  }
  if (type === "boolean" || type === "number" || type === "integer" || type === "string") return type;
  return "json";
}

export interface Variant {
  value: string;
  label: string;
  schema: JsonSchema;
}

/** A oneOf whose every option pins one property to a constant ("kind"): the variants, by that value. */
export function discriminator(s: JsonSchema): { key: string; variants: Variant[] } | null {
  const options = s.oneOf ?? s.anyOf;
  if (!options?.length) return null;
  const first = options[0]!.properties ?? {};
  const key = Object.keys(first).find((k) => options.every((o) => o.properties?.[k]?.const !== undefined));
  if (!key) return null;
  return {
    key,
    variants: options.map((o) => ({
      value: String(o.properties![key]!.const),
      label: o.description ?? String(o.properties![key]!.const),
      schema: o,
    })),
  };
}

export function variantOf(s: JsonSchema, value: unknown): Variant | null {
  const d = discriminator(s);
  if (!d) return null;
  const current = value && typeof value === "object" ? (value as Record<string, unknown>)[d.key] : undefined;
  return d.variants.find((v) => v.value === current) ?? d.variants[0] ?? null;
}

export function humanize(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[-_]/g, " ")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export const labelOf = (key: string, s: JsonSchema) => s.description || humanize(key);

/** Fields whose text is long enough to deserve a multi-line box. */
export function isLongText(key: string, s: JsonSchema): boolean {
  return (s.maxLength ?? 0) > 1000 || ["goal", "rubric", "system", "instructions"].includes(key);
}

export type Path = (string | number)[];
export const pathKey = (path: Path) => path.join(".");
export const fieldId = (path: Path) => `f-${path.join("-") || "root"}`;

export function getAt(value: unknown, path: Path): unknown {
  let cur = value;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[key as string];
  }
  return cur;
}

/** Immutable set; `undefined` removes the key, so optional fields left empty are not sent. */
export function setAt(value: unknown, path: Path, next: unknown): unknown {
  if (path.length === 0) return next;
  const [head, ...rest] = path;
  if (typeof head === "number") {
    const arr = Array.isArray(value) ? [...value] : [];
    arr[head] = setAt(arr[head], rest, next);
    return arr;
  }
  const obj = {
    ...(value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {}),
  };
  const child = setAt(obj[head!], rest, next);
  if (child === undefined) delete obj[head!];
  else obj[head!] = child;
  return obj;
}

/** A fresh value for a schema node: its default, or for an object its required fields' defaults. */
export function initialValue(s: JsonSchema): unknown {
  if (s.default !== undefined) return structuredClone(s.default);
  const kind = fieldKind(s);
  if (kind === "union") {
    const d = discriminator(s)!;
    return initialValue(d.variants[0]!.schema);
  }
  if (kind === "const") return s.const;
  if (kind === "object") {
    const out: Record<string, unknown> = {};
    for (const key of s.required ?? []) {
      const v = initialValue(s.properties![key]!);
      if (v !== undefined) out[key] = v;
    }
    return out;
  }
  return undefined;
}
