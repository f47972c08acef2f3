"use client";
// Under a command-check scorer on the New-loop form: the test runner the
// check will detect in the workspace, the report it will read and the exact
// command, plus "Test the check now", which runs it once there.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc/client";
import { useSettled } from "@/components/shared/use-settled";
import { errorMessage } from "@/components/shared/trpc-errors";
import { formatScore } from "@/components/loops/format";
import { Button } from "@/components/ui/button";
import { TestEvidencePanel } from "@/components/loop-detail/iterations/test-evidence-panel";
import type { TestEvidenceView } from "@/components/loop-detail/iterations/test-evidence";

/** A word as a shell would need it typed (the report paths are placeholders, shown as they are). */
const shellWord = (w: string) => (/[\s'"\\$`;&|()]/.test(w) ? `'${w.replace(/'/g, "'\\''")}'` : w);

export function CheckPreview({
  check,
  workspace,
  isolation,
  setup,
}: {
  check: Record<string, unknown>;
  workspace: string;
  /** The loop's isolation and setup command: the check runs where the loop's first check will. */
  isolation?: "worktree" | "in-place";
  setup?: Record<string, unknown>;
}) {
  const trpc = useTRPC();
  // Compared as text: the form hands over a new object on every render.
  const settled = useSettled(JSON.stringify({ workspace: workspace.trim(), check }));
  const input = JSON.parse(settled) as { workspace: string; check: Record<string, unknown> };
  const argv = Array.isArray(check.argv) ? check.argv.filter((a) => typeof a === "string" && a !== "") : [];
  const ready = input.workspace !== "" && argv.length > 0;
  const detect = useQuery({ ...trpc.checks.detect.queryOptions(input), enabled: ready, retry: false });
  const run = useMutation(trpc.checks.run.mutationOptions());
  const name = typeof check.name === "string" ? check.name : "tests";

  return (
    <div
      data-testid="check-preview"
      className="space-y-2 rounded-lg border border-dashed border-slate-300 p-3 text-sm dark:border-slate-700"
    >
      {!ready ? (
        <p className="text-slate-600 dark:text-slate-400">
          Set the workspace to your project&apos;s directory to see which test runner this check detects and which
          report it reads.
        </p>
      ) : detect.isPending ? (
        <p className="text-slate-600 dark:text-slate-400">Detecting the test runner…</p>
      ) : detect.isError ? (
        <p role="alert" className="text-rose-700 dark:text-rose-400">
          {errorMessage(detect.error)}
        </p>
      ) : (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1" aria-label="What the check will run">
          <dt className="text-slate-600 dark:text-slate-400">Runner</dt>
          <dd data-testid="detected-runner">
            {detect.data.runner ? (
              <>
                <span className="font-medium">{detect.data.runner.label}</span>
                {detect.data.via && <span className="text-slate-600 dark:text-slate-400"> — {detect.data.via}</span>}
              </>
            ) : (
              "none detected"
            )}
          </dd>
          <dt className="text-slate-600 dark:text-slate-400">Reads</dt>
          <dd data-testid="detected-report">{detect.data.report}</dd>
          <dt className="text-slate-600 dark:text-slate-400">Runs</dt>
          <dd className="break-all font-mono text-xs">
            {Object.entries(detect.data.env)
              .map(([k, v]) => `${k}=${shellWord(v)} `)
              .join("")}
            {detect.data.argv.map(shellWord).join(" ")}
          </dd>
          {detect.data.note && (
            <>
              <dt className="text-slate-600 dark:text-slate-400">Note</dt>
              <dd className="text-amber-800 dark:text-amber-300">{detect.data.note}</dd>
            </>
          )}
        </dl>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant="secondary"
          size="sm"
          disabled={!ready || run.isPending}
          pending={run.isPending}
          onClick={() =>
            run.mutate({
              workspace: workspace.trim(),
              check,
              ...(isolation ? { isolation } : {}),
              ...(setup ? { setup } : {}),
            })
          }
        >
          Test the check now
        </Button>
        <span className="text-xs text-slate-500 dark:text-slate-400">
          Runs it once where the loop will: in a new worktree of HEAD with .worktreeinclude and the setup command, or in
          the folder itself in place.
        </span>
      </div>
      <div aria-live="polite">
        {run.isError && (
          <p role="alert" className="text-rose-700 dark:text-rose-400">
            {errorMessage(run.error)}
          </p>
        )}
        {run.data && (
          <div data-testid="check-result" className="space-y-2">
            <p>
              Score <span className="font-semibold tabular-nums">{formatScore(run.data.score)}</span>{" "}
              <span className="text-slate-600 dark:text-slate-400">— {run.data.reason}</span>
            </p>
            {run.data.note && (
              <p data-testid="check-place" className="text-xs text-slate-600 dark:text-slate-400">
                {run.data.note}
              </p>
            )}
            {run.data.tests && (
              <TestEvidencePanel
                checks={[
                  {
                    check: name,
                    score: run.data.score,
                    reason: run.data.reason,
                    tests: run.data.tests as TestEvidenceView,
                  },
                ]}
                iteration={0}
              />
            )}
          </div>
        )}
      </div>
    </div>
  );
}
