import { LoopDetailSkeleton } from "@/components/loop-detail/loop-detail-skeleton";

export default function Loading() {
  return <LoopDetailSkeleton />;
}
