"use client";
// The loop's worktree environment beside its iterations: what .worktreeinclude
// copied in, the submodules, and the setup command's status with its log.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";

const STATUS = {
  ready: "done",
  failed: "failed: the loop stopped before iteration 1",
  pending: "runs before iteration 1",
  none: "",
} as const;

export function WorktreeEnvironment({ loopId }: { loopId: string }) {
  const trpc = useTRPC();
  const env = useQuery(trpc.loops.environment.queryOptions({ id: loopId }));
  const data = env.data;
  if (!data || (data.status === "none" && data.included.length === 0 && data.submodules.length === 0)) return null;
  return (
    <details data-testid="worktree-environment" className="mb-2 text-sm" open={data.status === "failed"}>
      <summary className="cursor-pointer text-slate-700 dark:text-slate-300">
        Worktree environment
        {data.included.length > 0 && <> · copied {data.included.join(", ")}</>}
        {data.submodules.length > 0 && <> · submodules {data.submodules.join(", ")}</>}
        {data.setup && (
          <>
            {" "}
            · setup <code className="font-mono text-xs">{data.setup.argv.join(" ")}</code>{" "}
            <span
              data-testid="setup-status"
              className={data.status === "failed" ? "text-rose-700 dark:text-rose-400" : ""}
            >
              {STATUS[data.status]}
              {data.setup.durationMs !== null && ` in ${(data.setup.durationMs / 1000).toFixed(1)} s`}
            </span>
          </>
        )}
      </summary>
      {data.setup?.logTail && (
        <pre className="mt-1 max-h-64 overflow-auto rounded bg-slate-100 p-2 font-mono text-xs dark:bg-slate-900">
          {data.setup.logTail}
        </pre>
      )}
    </details>
  );
}
