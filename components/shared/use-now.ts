"use client";
// The current time for "12 s ago", elapsed times and countdowns, ticking once
// a second through one shared timer. During hydration it returns the time the
// server rendered with (`serverTime`, e.g. a query's dataUpdatedAt), so the
// server's and the browser's first render agree; the next tick moves on.
//
// useNowText is the cheap form: the component re-renders only when the text
// changes ("3 min ago" once a minute), not on every tick; a page left open
// for hours then does next to nothing while it idles. The tick is the shared
// beat's whole seconds (pulse.ts), so it shares its frame with the page's
// other unhurried updates.
import { createContext, useContext, useMemo, useSyncExternalStore } from "react";
import { onEverySecond } from "./pulse";

/**
 * The time the server rendered with, for leaves deep in a server-rendered
 * list that are not handed one (`<ServerTime value={query.dataUpdatedAt}>`).
 */
export const ServerTime = createContext<number>(0);

let current = Date.now();
const listeners = new Set<() => void>();
let timer: (() => void) | null = null;

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!timer) {
    current = Date.now();
    timer = onEverySecond(() => {
      current = Date.now();
      listeners.forEach((l) => l());
    });
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      timer();
      timer = null;
    }
  };
}

/** Stable within a second, as useSyncExternalStore requires; fresh when no timer runs yet. */
function snapshot() {
  if (!timer) current = Math.floor(Date.now() / 1000) * 1000;
  return current;
}

const millis = (t: number | Date | null | undefined) => (t == null ? 0 : typeof t === "number" ? t : t.getTime());

export function useNow(serverTime?: number | Date | null): Date {
  const fallback = useContext(ServerTime);
  const server = serverTime == null ? fallback : millis(serverTime);
  const t = useSyncExternalStore(subscribe, snapshot, () => server);
  return useMemo(() => new Date(t), [t]);
}

const still = () => () => undefined;

/**
 * A text computed from the current time; the caller re-renders only when the
 * text itself changes. `format` must be pure (it runs on every tick).
 * `paused` (e.g. scrolled out of view): it stops ticking until unpaused.
 */
export function useNowText<T extends string | null>(
  format: (now: Date) => T,
  serverTime?: number | Date | null,
  paused = false,
): T {
  const fallback = useContext(ServerTime);
  const server = serverTime == null ? fallback : millis(serverTime);
  return useSyncExternalStore(
    paused ? still : subscribe,
    () => format(new Date(snapshot())),
    () => format(new Date(server)),
  );
}
