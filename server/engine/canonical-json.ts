/**
 * Canonical JSON: object keys sorted by code unit, no whitespace, undefined
 * members dropped (as JSON.stringify does). Two equal values always produce
 * the same text, which is what makes checkpoint hashes reproducible.
 *
 * It runs on every checkpoint (after each iteration, and on every restore), so
 * it is written as one pass appending to a string: no per-object arrays of
 * parts, no sort when the keys already come in order, and each key's quoted
 * form computed once (a snapshot repeats the same few hundred keys).
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "number":
      // A finite number's JSON is its JavaScript string form (-0 included: "0").
      return Number.isFinite(value) ? `${value}` : "null";
    case "object":
      return Array.isArray(value) ? canonicalArray(value) : canonicalObject(value);
    default:
      throw new TypeError(`canonicalJson cannot encode a ${typeof value}`);
  }
}

function canonicalArray(items: readonly unknown[]): string {
  let out = "[";
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out += ",";
    const item = items[i];
    out += item === undefined ? "null" : canonicalJson(item);
  }
  return out + "]";
}

/** Bounded: record keys may be ids, and a cache must not grow with them. */
const KEYS_CACHED = 4096;
const keyPrefixes = new Map<string, string>();

/** `"key":` */
function keyPrefix(key: string): string {
  let prefix = keyPrefixes.get(key);
  if (prefix === undefined) {
    prefix = `${JSON.stringify(key)}:`;
    if (keyPrefixes.size < KEYS_CACHED) keyPrefixes.set(key, prefix);
  }
  return prefix;
}

function canonicalObject(value: object): string {
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  for (let i = 1; i < keys.length; i++) {
    if (keys[i - 1]! > keys[i]!) {
      keys.sort();
      break;
    }
  }
  let out = "{";
  let first = true;
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) continue;
    out += first ? keyPrefix(key) : `,${keyPrefix(key)}`;
    out += canonicalJson(member);
    first = false;
  }
  return out + "}";
}
