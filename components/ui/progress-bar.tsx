/** A share of something (budget, iterations) as a bar; tone turns warm near the end. */
export function ProgressBar({
  value,
  label,
  className = "w-24",
}: {
  value: number;
  label: string;
  className?: string;
}) {
  const share = Math.min(1, Math.max(0, value));
  const tone = share >= 0.9 ? "bg-rose-600" : share >= 0.7 ? "bg-amber-500" : "bg-emerald-600";
  return (
    <div
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(share * 100)}
      className={`h-1.5 overflow-hidden rounded bg-slate-200 dark:bg-slate-700 ${className}`}
    >
      <div className={`h-full rounded ${tone}`} style={{ width: `${share * 100}%` }} />
    </div>
  );
}
