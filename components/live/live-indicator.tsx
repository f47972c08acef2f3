"use client";
// Says whether the view is live: connected, (re)connecting, or failed.
export function LiveIndicator({ status }: { status: string }) {
  const live = status === "pending";
  const label = live ? "Live" : status === "error" ? "Live updates failed" : "Connecting…";
  return (
    <span
      className="inline-flex items-center gap-1.5 text-xs text-slate-600 dark:text-slate-400"
      role="status"
      aria-live="polite"
    >
      <span
        aria-hidden
        className={`h-2 w-2 rounded-full ${live ? "bg-emerald-500" : status === "error" ? "bg-rose-500" : "animate-pulse bg-amber-500"}`}
      />
      {label}
    </span>
  );
}
