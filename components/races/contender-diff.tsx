"use client";
// A contender's whole work against its base commit (the loop's patch), on demand: the same file-at-a-time
// view as an iteration's diff.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "@/lib/trpc/client";
import { errorMessage } from "@/components/shared/trpc-errors";
import { Button } from "@/components/ui/button";
import { SkeletonRows } from "@/components/ui/skeleton";
import { DiffFileList } from "@/components/loop-detail/iterations/code-diff";

/** `iteration`: the contender's iteration count; the diff is read again when it moves on. */
export function ContenderDiff({ loopId, name, iteration }: { loopId: string; name: string; iteration: number }) {
  // Open by default: the compare view is where the diffs are read side by side.
  const [open, setOpen] = useState(true);
  const trpc = useTRPC();
  const query = useQuery({ ...trpc.loops.patch.queryOptions({ id: loopId }), enabled: open });
  const { refetch } = query;
  // The patch read at page load is empty while the race runs: read it again after every iteration.
  useEffect(() => {
    if (open) void refetch();
  }, [iteration, open, refetch]);
  if (!open)
    return (
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)}>
        Show the diff of {name}
      </Button>
    );
  if (query.isPending) return <SkeletonRows rows={2} label={`Loading the diff of ${name}`} />;
  if (query.isError) return <p className="text-sm text-rose-700 dark:text-rose-400">{errorMessage(query.error)}</p>;
  return <DiffFileList diff={query.data.patch} truncated={false} />;
}
