/**
 * Canonical JSON: object keys sorted by code unit, no whitespace, and every
 * value as JSON.stringify would write it (undefined, function and symbol
 * members dropped, null in arrays; toJSON and non-plain objects through
 * JSON itself). So the text of a value equals the text of its JSON round
 * trip, which is what lets a checkpoint be hashed without copying it first
 * and still verify once parsed back from storage.
 *
 * It runs on every checkpoint (after each iteration, and on every restore), so
 * it is written as one pass appending to a string: no per-object arrays of
 * parts, no sort when the keys already come in order, and each key's quoted
 * form computed once (a snapshot repeats the same few hundred keys).
 */

/** Canonical texts already computed for (unchanging) objects: used instead of walking them again. */
export interface CanonicalCache {
  get(value: object): string | undefined;
}

export function canonicalJson(value: unknown, cache?: CanonicalCache): string {
  const text = member(value, cache);
  if (text === undefined) throw new TypeError(`canonicalJson cannot encode a ${typeof value}`);
  return text;
}

/** The value's text, or undefined where JSON.stringify would leave the member out. */
function member(value: unknown, cache: CanonicalCache | undefined): string | undefined {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "number":
      // A finite number's JSON is its JavaScript string form (-0 included: "0").
      return Number.isFinite(value) ? `${value}` : "null";
    case "object": {
      const known = cache?.get(value);
      if (known !== undefined) return known;
      if (Array.isArray(value)) return canonicalArray(value, cache);
      const proto: unknown = Object.getPrototypeOf(value);
      if (
        (proto === Object.prototype || proto === null) &&
        typeof (value as { toJSON?: unknown }).toJSON !== "function"
      )
        return canonicalObject(value, cache);
      // A Date, a boxed primitive, a class instance: whatever JSON makes of it.
      const json = JSON.stringify(value);
      return json === undefined ? undefined : member(JSON.parse(json), undefined);
    }
    case "bigint":
      throw new TypeError("canonicalJson cannot encode a bigint");
    default:
      // undefined, function, symbol
      return undefined;
  }
}

function canonicalArray(items: readonly unknown[], cache: CanonicalCache | undefined): string {
  let out = "[";
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out += ",";
    out += member(items[i], cache) ?? "null";
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

function canonicalObject(value: object, cache: CanonicalCache | undefined): string {
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
    const text = member(record[key], cache);
    if (text === undefined) continue;
    out += first ? keyPrefix(key) : `,${keyPrefix(key)}`;
    out += text;
    first = false;
  }
  return out + "}";
}
