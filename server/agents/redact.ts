/**
 * Blanks secret-bearing config fields (those whose schema carries
 * `secret: true` metadata) for shared report pages, and scrubs resolved
 * secret values out of text that leaves an adapter (output, stderr, errors).
 */
import { z } from "zod";

export const REDACTED = "[redacted]";

type Def = { type: string; [key: string]: unknown };
const defOf = (schema: unknown): Def | undefined => (schema as { _zod?: { def?: Def } })?._zod?.def;

function isSecret(schema: z.ZodType): boolean {
  return (z.globalRegistry.get(schema) as { secret?: unknown } | undefined)?.secret === true;
}

function blank(value: unknown): unknown {
  if (typeof value === "string") return value === "" ? value : REDACTED;
  if (Array.isArray(value)) return value.map(blank);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, blank(v)]));
  }
  return value;
}

/** Walks `value` alongside `schema`; unknown shapes are returned unchanged. */
export function redactBySchema(schema: z.ZodType, value: unknown): unknown {
  if (value === undefined || value === null) return value;
  if (isSecret(schema)) return blank(value);
  const def = defOf(schema);
  if (!def) return value;
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
      return redactBySchema(def.innerType as z.ZodType, value);
    case "pipe":
      return redactBySchema(def.in as z.ZodType, value);
    case "object": {
      if (typeof value !== "object" || Array.isArray(value)) return value;
      const shape = def.shape as Record<string, z.ZodType>;
      const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      for (const [key, field] of Object.entries(shape)) {
        if (key in out) out[key] = redactBySchema(field, out[key]);
      }
      return out;
    }
    case "array":
      return Array.isArray(value) ? value.map((item) => redactBySchema(def.element as z.ZodType, item)) : value;
    case "record": {
      if (typeof value !== "object" || Array.isArray(value)) return value;
      const valueType = def.valueType as z.ZodType;
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactBySchema(valueType, v)]));
    }
    case "union":
      // Each option only blanks keys it marks secret, so applying all of them
      // is safe even when the value does not validate.
      return (def.options as z.ZodType[]).reduce<unknown>((acc, option) => redactBySchema(option, acc), value);
    default:
      return value;
  }
}

/** Replaces every occurrence of a resolved secret value; short values are left alone to avoid mangling text. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 6 && out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/** scrubSecrets over every string inside plain data (meta, progress reports, structured output). */
export function scrubDeep<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  if (typeof value === "string") return scrubSecrets(value, secrets) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => scrubDeep(v, secrets)) as T;
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubDeep(v, secrets)])) as T;
  }
  return value;
}
