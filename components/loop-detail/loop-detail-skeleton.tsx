import { Skeleton } from "@/components/ui/skeleton";

export function LoopDetailSkeleton() {
  return (
    <div className="space-y-5" role="status" aria-label="Loading the loop">
      <Skeleton className="h-8 w-2/3" />
      <Skeleton className="h-24 w-full" />
      <Skeleton className="h-12 w-full" />
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-72 w-full" />
        ))}
      </div>
    </div>
  );
}
