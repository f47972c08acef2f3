// The preflight's real run: every command check of a loop definition, run
// once where the loop's first check will run (check-worktree.ts: a temporary
// worktree with the .worktreeinclude entries and the setup command, or the
// folder itself in place), so the verdict the form shows is the verdict
// iteration 1 will get from the same code. A failing test is fine (fixing it
// is the loop's job); a check that cannot count anything, or an environment
// that cannot be prepared, is a problem.
import { WorkspaceEnvironmentError } from "../agents/git/worktree-include";
import type { Database } from "../db/client";
import { invalidInput } from "../errors";
import { previewSecrets, runPreviewCheck } from "./check-preview.service";
import { inLoopPlace } from "./check-worktree";
import type { LoopDefinition } from "./loop-definition";
import { setupOf } from "./loop-environment";
import type { PreflightCheck } from "./loop-preflight.service";
import { assertLoopPolicy } from "./loop-policy.service";
import type { ActingAs } from "./loop-services";

export interface PreflightRunCheck extends PreflightCheck {
  score: number | null;
}

export async function runPreflightChecks(
  db: Database,
  definition: LoopDefinition,
  acting: ActingAs,
  signal?: AbortSignal,
): Promise<{ ok: boolean; ranIn: "worktree" | "checkout" | null; note: string | null; checks: PreflightRunCheck[] }> {
  const workspace = definition.workspace.trim();
  if (workspace === "") throw invalidInput("Set the workspace to the project's directory first");
  await assertLoopPolicy(db, definition, acting);
  const checks = definition.scorers.flatMap((s, i) => (s.kind === "command-check" ? [{ s, i }] : []));
  if (checks.length === 0) return { ok: true, ranIn: null, note: null, checks: [] };
  const secrets = previewSecrets(acting);
  try {
    return await inLoopPlace(
      {
        workspace,
        isolation: definition.isolation,
        setup: setupOf(definition),
        deps: { secrets },
        ...(signal ? { signal } : {}),
      },
      async (place) => {
        const out: PreflightRunCheck[] = [];
        for (const { s, i } of checks) {
          const id = `scorers[${i}]`;
          const label = `Check ${s.name}`;
          try {
            const result = await runPreviewCheck(s, place, secrets, signal);
            // Counted tests (passing or not) or a clean exit: the check works there. Nothing counted and a failure: it does not.
            const works = result.tests?.counted === true || result.score > 0;
            out.push({
              id,
              label,
              status: works ? "ok" : "problem",
              message: `scores ${result.score.toFixed(2)}: ${result.reason ?? ""}`,
              score: result.score,
            });
          } catch (error) {
            out.push({
              id,
              label,
              status: "problem",
              message: error instanceof Error ? error.message : String(error),
              score: null,
            });
          }
        }
        return { ok: out.every((c) => c.status !== "problem"), ranIn: place.kind, note: place.note, checks: out };
      },
    );
  } catch (error) {
    if (!(error instanceof WorkspaceEnvironmentError)) throw error;
    return {
      ok: false,
      ranIn: "worktree",
      note: null,
      checks: [
        { id: "environment", label: "Worktree environment", status: "problem", message: error.message, score: null },
      ],
    };
  }
}
