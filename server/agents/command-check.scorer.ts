/**
 * Runs a check (usually the project's tests) in the loop workspace. This is
 * the ground-truth evidence for "tests pass": the agent's word is not needed.
 */
import { readFileSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import type { ScorerPort } from "../engine/ports";
import { abortedError, AgentError } from "./agent-error";
import type { AgentDeps } from "./deps";
import { buildChildEnv, workingDir } from "./process-env";
import { runProcess } from "./process-group";
import type { CommandCheckScorerConfig } from "./scorer.schema";
import { parseTestReport, type TestCounts } from "./test-report.parser";

function readReport(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/**
 * The pass ratio; a non-zero exit with every parsed test passing (a crash
 * after the report, a coverage threshold) counts as one more failure.
 */
export function passRatio(counts: TestCounts, exitCode: number | null): number {
  const failed = counts.failed + (exitCode !== 0 && counts.failed === 0 ? 1 : 0);
  const total = counts.passed + failed;
  return total === 0 ? (exitCode === 0 ? 1 : 0) : counts.passed / total;
}

export function createCommandCheckScorer(config: CommandCheckScorerConfig, deps: AgentDeps): ScorerPort {
  return {
    name: config.name,
    async score(ctx) {
      const workspace = deps.workspaceDir(ctx.loopId);
      const cwd = workingDir(workspace, config.cwd);
      const reportPath = config.reportFile ? resolve(cwd, config.reportFile) : null;
      // A report left by an earlier iteration must not pass for this one.
      if (reportPath) rmSync(reportPath, { force: true });
      const pending = buildChildEnv(config, deps.secrets, {
        RALPH_LOOP_ID: ctx.loopId,
        RALPH_ITERATION: String(ctx.iteration),
        RALPH_WORKSPACE: workspace,
      });
      const { env } = pending instanceof Promise ? await pending : pending;
      const outcome = await runProcess({
        argv: config.argv,
        cwd,
        env,
        timeoutMs: config.timeoutSeconds * 1000,
        killGraceMs: config.killGraceMs,
        maxOutputBytes: config.maxOutputBytes,
        signal: ctx.signal,
      });
      if (outcome.aborted) throw abortedError(`Check "${config.name}"`);
      if (outcome.spawnError !== null) {
        throw new AgentError("spawn_failed", `Check "${config.name}" could not start "${config.argv[0]}": ${outcome.spawnError}`, {
          retryable: false,
        });
      }
      if (outcome.timedOut) return { score: 0, reason: `timed out after ${config.timeoutSeconds}s` };

      const report = reportPath ? readReport(reportPath) : outcome.stdout;
      const counts = report === null ? null : parseTestReport(report, config.format);
      const exit = outcome.exitCode === null ? `killed by ${outcome.exitSignal}` : `exit ${outcome.exitCode}`;
      if (!counts) {
        const missing = reportPath && report === null ? "; no report file was written" : "";
        return { score: outcome.exitCode === 0 ? 1 : 0, reason: `${exit}${missing}` };
      }
      const skipped = counts.skipped ? `, ${counts.skipped} skipped` : "";
      return {
        score: passRatio(counts, outcome.exitCode),
        reason: `${counts.passed}/${counts.passed + counts.failed} passed${skipped} (${counts.format}, ${exit})`,
      };
    },
  };
}
