"use client";
// A value that, while `on`, changes on the page's beat (pulse.ts) only: a
// refetch answering between two beats is drawn on the next one, in the same
// frame as the clock texts and the live output. Off, it follows at once.
import { useEffect, useState } from "react";
import { flushSync } from "react-dom";
import { atNextBeat } from "@/components/shared/pulse";

export function useBeatValue<T>(value: T, on: boolean): T {
  const [shown, setShown] = useState(value);
  useEffect(() => {
    if (!on || Object.is(value, shown)) return;
    let current = true;
    // Drawn within the beat's task (a plain update would render in a task, and a frame, of its own).
    atNextBeat(() => current && flushSync(() => setShown(value)));
    return () => {
      current = false;
    };
  }, [value, shown, on]);
  return on ? shown : value;
}
