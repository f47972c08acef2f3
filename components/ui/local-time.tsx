"use client";
// A date in the reader's own time zone and locale. The server cannot know
// either, so it renders UTC and the browser switches after hydration (no
// mismatch between the two renders).
import { useSyncExternalStore } from "react";

const noop = () => () => undefined;
export const useHydrated = () =>
  useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );

export function LocalTime({
  date,
  mode = "datetime",
  className,
}: {
  date: Date | string | number;
  mode?: "datetime" | "time";
  className?: string;
}) {
  const hydrated = useHydrated();
  const d = new Date(date);
  const iso = d.toISOString();
  const text = hydrated
    ? mode === "time"
      ? d.toLocaleTimeString()
      : d.toLocaleString()
    : `${mode === "time" ? iso.slice(11, 19) : iso.slice(0, 19).replace("T", " ")} UTC`;
  return (
    <time dateTime={iso} className={className}>
      {text}
    </time>
  );
}
