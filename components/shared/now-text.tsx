"use client";
// A text that depends on the current time ("3 min ago", an elapsed time).
// Only this small component re-renders, and only when its text changes: a
// page-wide tick re-rendered every chart each second.
import { useNowText } from "./use-now";

export function NowText({
  serverNow,
  children,
}: {
  /** The time the server rendered with, so hydration matches (see useNow). */
  serverNow?: number | Date | null;
  children: (now: Date) => string | null;
}) {
  return <>{useNowText(children, serverNow)}</>;
}
