// What every generated field receives, and the hint text they share.
import type { JsonSchema, Path } from "./json-schema";

export interface FieldProps {
  schema: JsonSchema;
  path: Path;
  name: string;
  value: unknown;
  required: boolean;
  depth: number;
}

/** Hint text: defaults and ranges, so nothing has to be guessed. */
export function hintFor(schema: JsonSchema, extra?: string): string | undefined {
  const parts: string[] = [];
  if (extra) parts.push(extra);
  if (schema.minimum !== undefined && schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER)
    parts.push(`${schema.minimum}–${schema.maximum}`);
  if (schema.default !== undefined && typeof schema.default !== "object" && schema.default !== "")
    parts.push(`default ${String(schema.default)}`);
  if (schema.secret) parts.push("sensitive: hidden on shared pages");
  return parts.length ? parts.join(" · ") : undefined;
}
