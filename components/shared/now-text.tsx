"use client";
// A text that depends on the current time ("3 min ago", an elapsed time).
// Only this small component re-renders on the once-a-second tick, never the
// page around it (a page-wide tick re-rendered every chart each second).
import type { ReactNode } from "react";
import { useNow } from "./use-now";

export function NowText({
  serverNow,
  children,
}: {
  /** The time the server rendered with, so hydration matches (see useNow). */
  serverNow?: number | Date | null;
  children: (now: Date) => ReactNode;
}) {
  const now = useNow(serverNow);
  return <>{children(now)}</>;
}
