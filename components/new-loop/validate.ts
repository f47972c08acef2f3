// The checks the browser can make from JSON Schema constraints before the
// server sees the form: required, type, range, length, pattern, item counts,
// and "[redacted]" left over from a clone. The server's zod errors still
// decide; these only save a round trip and point at the exact field.
import { fieldKind, pathKey, variantOf, type JsonSchema, type Path } from "./json-schema";

export const REDACTED = "[redacted]";

export interface Issue {
  path: string;
  message: string;
}

export function validateValue(s: JsonSchema, value: unknown, path: Path = []): Issue[] {
  const issues: Issue[] = [];
  const add = (message: string, at: Path = path) => issues.push({ path: pathKey(at), message });
  if (value === undefined) return issues;
  const kind = fieldKind(s);

  if (value === REDACTED || (typeof value === "string" && value.includes(REDACTED))) {
    add("was redacted in the loop this was cloned from: enter it again");
    return issues;
  }
  switch (kind) {
    case "union": {
      const variant = variantOf(s, value);
      if (!variant) add("choose a kind");
      else issues.push(...validateValue(variant.schema, value, path));
      break;
    }
    case "object": {
      if (typeof value !== "object" || value === null) return [{ path: pathKey(path), message: "must be an object" }];
      const obj = value as Record<string, unknown>;
      for (const key of s.required ?? []) {
        const child = s.properties?.[key];
        const v = obj[key];
        if ((v === undefined || v === "") && child?.default === undefined && child?.const === undefined)
          add("is required", [...path, key]);
      }
      for (const [key, child] of Object.entries(s.properties ?? {}))
        issues.push(...validateValue(child, obj[key], [...path, key]));
      break;
    }
    case "enum":
      if (!s.enum!.includes(value)) add(`must be one of ${s.enum!.join(", ")}`);
      break;
    case "number":
    case "integer": {
      if (typeof value !== "number" || Number.isNaN(value))
        return [{ path: pathKey(path), message: "must be a number" }];
      if (kind === "integer" && !Number.isInteger(value)) add("must be a whole number");
      if (s.minimum !== undefined && value < s.minimum) add(`must be >= ${s.minimum}`);
      if (s.maximum !== undefined && s.maximum < Number.MAX_SAFE_INTEGER && value > s.maximum)
        add(`must be <= ${s.maximum}`);
      if (s.exclusiveMinimum !== undefined && value <= s.exclusiveMinimum) add(`must be > ${s.exclusiveMinimum}`);
      if (s.exclusiveMaximum !== undefined && value >= s.exclusiveMaximum) add(`must be < ${s.exclusiveMaximum}`);
      break;
    }
    case "string": {
      if (typeof value !== "string") return [{ path: pathKey(path), message: "must be text" }];
      if (s.minLength !== undefined && value.trim().length < s.minLength)
        add(s.minLength === 1 ? "is required" : `needs at least ${s.minLength} characters`);
      if (s.maxLength !== undefined && value.length > s.maxLength) add(`must be at most ${s.maxLength} characters`);
      if (s.pattern && value !== "" && !new RegExp(s.pattern).test(value)) add(patternHint(s.pattern));
      if (s.format === "uri" && value !== "" && !/^https?:\/\/\S+$/.test(value)) add("must be an http(s) URL");
      break;
    }
    case "string-list":
    case "number-list":
    case "enum-list":
    case "object-list": {
      if (!Array.isArray(value)) return [{ path: pathKey(path), message: "must be a list" }];
      if (s.minItems !== undefined && value.length < s.minItems)
        add(s.minItems === 1 ? "needs at least one entry" : `needs at least ${s.minItems} entries`);
      value.forEach((item, i) => issues.push(...validateValue(s.items!, item, [...path, i])));
      break;
    }
    default:
      break;
  }
  return issues;
}

function patternHint(pattern: string): string {
  if (pattern === "^[A-Z][A-Z0-9_]*$") return "must be an environment variable name (A-Z, 0-9, _)";
  return `must match ${pattern}`;
}

/** Groups issues by path for the fields; kept stable so inputs do not re-render needlessly. */
export function issuesByPath(issues: readonly Issue[]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const i of issues) map.set(i.path, [...(map.get(i.path) ?? []), i.message]);
  return map;
}
