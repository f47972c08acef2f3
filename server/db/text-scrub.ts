// PostgreSQL refuses NUL in text and in jsonb (22021 / 22P05), while SQLite
// stores it. Every write and filter goes through scrubText (wired into the
// Prisma client once, in client.ts), so both providers store the same thing and
// a NUL printed by an agent can never make a step commit fail forever.
// Lone UTF-16 surrogates (an output cut inside a surrogate pair, a bad escape
// in an agent's JSON) are no text either: PostgreSQL refuses them in jsonb and
// SQLite stores bytes that read back as three U+FFFD. They become one U+FFFD.

/** What a NUL (or a lone surrogate) becomes: the Unicode replacement character, so the change stays visible. */
export const NUL_REPLACEMENT = "\uFFFD";

// With the u flag, \p{Surrogate} matches only unpaired surrogates.
const UNSTORABLE = /\0|\p{Surrogate}/u;
const UNSTORABLE_ALL = /\0|\p{Surrogate}/gu;

const isPlainObject = (value: object) => {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/**
 * Returns `value` with every NUL in its strings (and plain-object keys)
 * replaced, recursing through arrays and plain objects only (dates, buffers
 * and Prisma's sentinels pass untouched). Returns the same reference when
 * nothing changed, so the common case allocates nothing.
 */
export function scrubText<T>(value: T): T {
  if (typeof value === "string")
    return (UNSTORABLE.test(value) ? value.replace(UNSTORABLE_ALL, NUL_REPLACEMENT) : value) as T;
  if (!value || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const next = scrubText(value[i]);
      if (next !== value[i]) (copy ??= value.slice())[i] = next;
    }
    return (copy ?? value) as T;
  }
  if (!isPlainObject(value)) return value;
  let copy: Record<string, unknown> | null = null;
  const entries = Object.entries(value);
  for (const [key, item] of entries) {
    const next = scrubText(item);
    const nextKey = scrubText(key);
    if (next !== item || nextKey !== key) {
      copy ??= Object.fromEntries(entries);
      if (nextKey !== key) delete copy[key];
      copy[nextKey] = next;
    }
  }
  return (copy ?? value) as T;
}
