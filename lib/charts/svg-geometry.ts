// Scales, ticks and paths for the server-rendered SVG charts of shared
// reports (no JavaScript in the browser) and the list's sparklines.

export type Scale = (value: number) => number;

export function linearScale(domain: readonly [number, number], range: readonly [number, number]): Scale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  // A flat domain would divide by zero: put everything in the middle.
  if (d1 === d0) return () => (r0 + r1) / 2;
  return (value) => r0 + ((value - d0) / (d1 - d0)) * (r1 - r0);
}

/** Round tick values ("nice" steps of 1, 2 or 5 × 10^n) covering [min, max]. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (max === min) return [min];
  const raw = (max - min) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const ticks: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) ticks.push(Number(v.toFixed(10)));
  return ticks;
}

/**
 * An SVG path through the points; a null value breaks the line, so a gap in
 * the data (an iteration that did not score) is never drawn as a slope.
 */
export function linePath(points: readonly { x: number; y: number | null }[], x: Scale, y: Scale): string {
  let path = "";
  let drawing = false;
  for (const p of points) {
    if (p.y === null || !Number.isFinite(p.y)) {
      drawing = false;
      continue;
    }
    path += `${drawing ? "L" : "M"}${round(x(p.x))},${round(y(p.y))}`;
    drawing = true;
  }
  return path;
}

const round = (n: number) => Math.round(n * 10) / 10;

/** Evenly picks at most `max` items, always keeping the last (the current value). */
export function downsample<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  const out: T[] = [];
  const step = (items.length - 1) / (max - 1);
  for (let i = 0; i < max; i++) out.push(items[Math.round(i * step)]!);
  return out;
}

/** Running best of a score series (nulls keep the best so far). */
export function runningBest(values: readonly (number | null)[]): (number | null)[] {
  let best: number | null = null;
  return values.map((v) => {
    if (v !== null && (best === null || v > best)) best = v;
    return best;
  });
}
