/**
 * Canonical JSON: object keys sorted by code unit, no whitespace, undefined
 * members dropped (as JSON.stringify does). Two equal values always produce
 * the same text, which is what makes checkpoint hashes reproducible.
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? JSON.stringify(value) : "null";
    case "object":
      return Array.isArray(value) ? canonicalArray(value) : canonicalObject(value);
    default:
      throw new TypeError(`canonicalJson cannot encode a ${typeof value}`);
  }
}

function canonicalArray(items: readonly unknown[]): string {
  return `[${items.map((item) => (item === undefined ? "null" : canonicalJson(item))).join(",")}]`;
}

function canonicalObject(value: object): string {
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(",")}}`;
}
