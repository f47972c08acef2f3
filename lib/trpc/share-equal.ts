// React Query's structural sharing keeps unchanged parts of a refetched
// result identical (===), so memoised components skip re-rendering. Its
// default treats a Date as an opaque value and replaces it on every refetch,
// which made every series point, and so every chart, look changed. This
// version also keeps a Date whose time did not change.
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && Object.getPrototypeOf(v) === Object.prototype;

export function shareEqual(prev: unknown, next: unknown): unknown {
  if (prev === next) return prev;
  if (prev instanceof Date && next instanceof Date) return prev.getTime() === next.getTime() ? prev : next;
  if (Array.isArray(prev) && Array.isArray(next)) {
    let same = prev.length === next.length;
    const out = next.map((item: unknown, i) => {
      const shared = i < prev.length ? shareEqual(prev[i], item) : item;
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
