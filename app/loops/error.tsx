"use client";
import { ErrorState } from "@/components/ui/error-state";

// A render error anywhere under /loops: say so and offer a retry, keep the app shell.
export default function LoopsError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <ErrorState
      title="This page failed to load"
      message={error.digest ? `Reference ${error.digest}` : error.message}
      onRetry={reset}
    />
  );
}
