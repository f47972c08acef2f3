"use client";
// A value that, while `on`, changes on the page's beat (pulse.ts) only: a
// refetch answering between two beats is drawn on the next one, in the same
// frame as the clock texts and the live output. Off, it follows at once.
import { useEffect, useState } from "react";
import { atNextBeat } from "@/components/shared/pulse";

export function useBeatValue<T>(value: T, on: boolean): T {
  const [shown, setShown] = useState(value);
  useEffect(() => {
    if (!on || Object.is(value, shown)) return;
    let current = true;
    atNextBeat(() => current && setShown(value));
    return () => {
      current = false;
    };
  }, [value, shown, on]);
  return on ? shown : value;
}
