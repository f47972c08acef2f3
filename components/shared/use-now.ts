"use client";
// The current time for "12 s ago", elapsed times and countdowns, ticking once
// a second through one shared timer. During hydration it returns the time the
// server rendered with (`serverTime`, e.g. a query's dataUpdatedAt), so the
// server's and the browser's first render agree; the next tick moves on.
import { useMemo, useSyncExternalStore } from "react";

let current = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!timer) {
    current = Date.now();
    timer = setInterval(() => {
      current = Date.now();
      listeners.forEach((l) => l());
    }, 1000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** Stable within a second, as useSyncExternalStore requires; fresh when no timer runs yet. */
function snapshot() {
  if (!timer) current = Math.floor(Date.now() / 1000) * 1000;
  return current;
}

export function useNow(serverTime?: number | Date | null): Date {
  const server = serverTime == null ? 0 : typeof serverTime === "number" ? serverTime : serverTime.getTime();
  const t = useSyncExternalStore(subscribe, snapshot, () => server);
  return useMemo(() => new Date(t), [t]);
}
