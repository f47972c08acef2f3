// The baseline inventory of a stored loop's graded command checks, taken when
// its ports are built (before iteration 1), like its worktree environment: a
// check that cannot run at all on the base commit (command not found, runner
// killed or hung, zero tests) is a loop that cannot run, stopped at iteration
// 0 with the reason, not a series of iterations failed for the same cause.
// Failing tests at the base are normal: they are the work (the targets).
import type { AgentDeps } from "../agents/deps";
import { baselineInventory } from "../agents/evidence/graded-check";
import { HeldOutMissingError } from "../agents/evidence/held-out";
import { parseScorerConfigs, scores } from "../agents/registry";
import { AgentError } from "../agents/agent-error";

export class BaselineUnusableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BaselineUnusableError";
  }
}

/**
 * Runs (once; the record keeps it) the baseline of each graded command check.
 * Throws a BaselineUnusableError naming the check and why its baseline cannot be used.
 */
export async function takeLoopBaselines(scorers: readonly unknown[], deps: AgentDeps, loopId: string): Promise<void> {
  // Only graded checks have a baseline: a loop under git with evidence (registry.ts createScorers).
  if (!deps.git || !deps.evidence) return;
  const checks = parseScorerConfigs(scorers).filter((c) => scores(c) && c.kind === "command-check");
  for (const check of checks) {
    if (check.kind !== "command-check") continue;
    let why: string | undefined;
    try {
      why = (await baselineInventory(check, deps, loopId, new AbortController().signal)).unusable;
    } catch (error) {
      // A held-out check missing now fails closed on every iteration (graded-check.ts), as documented.
      if (error instanceof HeldOutMissingError) continue;
      // The check's command cannot start on the base commit: nothing any iteration does can change that.
      if (!(error instanceof AgentError) || error.code !== "spawn_failed") throw error;
      why = error.message;
    }
    if (why) throw new BaselineUnusableError(`the baseline of check "${check.name}" is unusable: ${why}`);
  }
}
