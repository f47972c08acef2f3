// React Query's structural sharing keeps unchanged parts of a refetched
// result identical (===), so memoised components skip re-rendering. Its
// default treats a Date as an opaque value and replaces it on every refetch,
// which made every series point, and so every chart, look changed. This
// version also keeps a Date whose time did not change, and matches the rows of
// a list by their key (`id`, or an iteration's number and attempt) rather than
// their position: a newest-first list that gained a row at the top keeps every
// older row identical, so memoised rows do not redraw.
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && Object.getPrototypeOf(v) === Object.prototype;

function keyOf(item: unknown): string | null {
  if (!isPlainObject(item)) return null;
  if (typeof item.id === "string" || typeof item.id === "number") return `id:${item.id}`;
  if (typeof item.number === "number" && typeof item.attempt === "number") return `it:${item.number}:${item.attempt}`;
  return null;
}

/** The previous row with the same key, when every row has one; else the one at the same position. */
function counterparts(prev: unknown[], next: unknown[]): (i: number) => unknown {
  const byKey = new Map<string, unknown>();
  for (const item of prev) {
    const key = keyOf(item);
    if (key === null || byKey.has(key)) return (i) => prev[i];
    byKey.set(key, item);
  }
  if (byKey.size === 0) return (i) => prev[i];
  return (i) => {
    const key = keyOf(next[i]);
    return key === null ? prev[i] : byKey.get(key);
  };
}

export function shareEqual(prev: unknown, next: unknown): unknown {
  if (prev === next) return prev;
  if (prev instanceof Date && next instanceof Date) return prev.getTime() === next.getTime() ? prev : next;
  if (Array.isArray(prev) && Array.isArray(next)) {
    let same = prev.length === next.length;
    const before = counterparts(prev, next);
    const out = next.map((item: unknown, i) => {
      const old = before(i);
      const shared = old !== undefined ? shareEqual(old, item) : item;
      if (shared !== prev[i]) same = false;
      return shared;
    });
    return same ? prev : out;
  }
  if (isPlainObject(prev) && isPlainObject(next)) {
    const keys = Object.keys(next);
    let same = keys.length === Object.keys(prev).length;
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      const shared = key in prev ? shareEqual(prev[key], next[key]) : next[key];
      if (shared !== prev[key] || !(key in prev)) same = false;
      out[key] = shared;
    }
    return same ? prev : out;
  }
  return next;
}
