"use client";
// A chart's notes (handoffs, plateaus, regressions) in a short scrolling
// list, so a long loop's notes never make its card taller than its
// neighbour's (the grid would leave a blank gap beside it).
import type { ReactNode } from "react";

export function MarkerList({ label, children }: { label: string; children: ReactNode }) {
  return (
    <ul
      aria-label={label}
      // Focusable: a scrolling region must be reachable by keyboard.
      tabIndex={0}
      className="mt-2 max-h-16 space-y-0.5 overflow-y-auto text-xs text-slate-600 focus-visible:outline-2 focus-visible:outline-sky-600 dark:text-slate-400"
    >
      {children}
    </ul>
  );
}
