"use client";
// Windowing for a long list on a page that scrolls as a whole: only the rows
// near the viewport are mounted, and padding above and below the list stands
// for the rest, so the scrollbar and the rows' positions stay true. Rows have
// different heights (an expanded row is tall): each mounted row is measured
// (and re-measured when it resizes), the others count as ROW_ESTIMATE until
// they have been seen once. No dependency: a few hundred lines of a library
// would do the same with more options than a timeline needs.
import { useEffect, useLayoutEffect, useState, type RefObject } from "react";

/** A collapsed row's height plus the list's gap, before a row has been measured. */
export const ROW_ESTIMATE = 52;
/** The list's gap between rows (Tailwind gap-2). */
export const ROW_GAP = 8;
/** Rows mounted beyond each edge of the viewport, in pixels: keyboard focus and fast scrolls land on real rows. */
const OVERSCAN_PX = 1200;

export interface WindowedRows {
  start: number;
  end: number;
  padTop: number;
  padBottom: number;
}

/** Which rows of `keys` to mount; everything, with no padding, while `enabled` is false. */
export function useWindowedRows(
  listRef: RefObject<HTMLOListElement | null>,
  keys: readonly string[],
  enabled: boolean,
): WindowedRows {
  const [heights, setHeights] = useState<ReadonlyMap<string, number>>(() => new Map());
  const [view, setView] = useState({ top: 0, bottom: 2000 });

  useEffect(() => {
    if (!enabled) return;
    let frame = 0;
    const update = () => {
      frame = 0;
      const list = listRef.current;
      if (!list) return;
      const top = -list.getBoundingClientRect().top;
      const next = { top, bottom: top + window.innerHeight };
      // Within a tenth of the overscan nothing new would mount: skip the render.
      setView((v) =>
        Math.abs(v.top - next.top) < OVERSCAN_PX / 10 && Math.abs(v.bottom - next.bottom) < OVERSCAN_PX / 10 ? v : next,
      );
    };
    const schedule = () => {
      frame ||= requestAnimationFrame(update);
    };
    update();
    window.addEventListener("scroll", schedule, { passive: true });
    window.addEventListener("resize", schedule);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("scroll", schedule);
      window.removeEventListener("resize", schedule);
    };
  }, [enabled, listRef]);

  const offsets = new Array<number>(keys.length + 1);
  offsets[0] = 0;
  keys.forEach((k, i) => (offsets[i + 1] = offsets[i]! + (heights.get(k) ?? ROW_ESTIMATE - ROW_GAP) + ROW_GAP));
  let start = 0;
  let end = keys.length;
  if (enabled) {
    while (start < keys.length && offsets[start + 1]! < view.top - OVERSCAN_PX) start++;
    end = start;
    while (end < keys.length && offsets[end]! <= view.bottom + OVERSCAN_PX) end++;
  }
  const mounted = keys.slice(start, end).join("\n");

  // Measure what is mounted, and again whenever a row resizes (expanding or collapsing renders no list):
  // a new height re-renders once with true offsets.
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!enabled || !list) return;
    const mountedKeys = mounted.split("\n");
    const measure = () => {
      const seen = Array.from(list.children).map((child, i) => [mountedKeys[i], (child as HTMLElement).offsetHeight]);
      setHeights((previous) => {
        const changed = seen.filter(([key, height]) => key !== undefined && previous.get(key as string) !== height);
        if (changed.length === 0) return previous;
        const next = new Map(previous);
        for (const [key, height] of changed) next.set(key as string, height as number);
        return next;
      });
    };
    measure();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(measure);
    for (const child of Array.from(list.children)) observer.observe(child);
    return () => observer.disconnect();
  }, [enabled, listRef, mounted]);

  if (!enabled) return { start: 0, end: keys.length, padTop: 0, padBottom: 0 };
  const total = offsets[keys.length]!;
  return { start, end, padTop: offsets[start]!, padBottom: Math.max(0, total - offsets[end]!) };
}
