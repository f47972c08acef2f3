export function Skeleton({ className = "" }: { className?: string }) {
  return <div aria-hidden className={`animate-pulse rounded bg-slate-200 dark:bg-slate-800 ${className}`} />;
}

/** A stack of placeholder rows, announced once as loading. */
export function SkeletonRows({
  rows = 3,
  label,
  className = "h-12",
}: {
  rows?: number;
  label: string;
  className?: string;
}) {
  return (
    <div className="space-y-2" role="status" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className={`w-full ${className}`} />
      ))}
    </div>
  );
}
