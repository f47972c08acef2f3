/**
 * Runs a check (usually the project's tests) in the loop workspace. This is
 * the ground-truth evidence for "tests pass": the agent's word is not needed.
 * In auto mode the test runner is detected and asked for a machine-readable
 * report written outside the workspace; the result carries the counts and
 * the failing tests as evidence for the iteration and the next input.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ScoreResult, ScorerPort, TestEvidence } from "../engine";
import { abortedError, AgentError } from "./agent-error";
import { planCheck } from "./command-check/plan";
import { verdict } from "./command-check/verdict";
import { tamperNote, tamperPromptLine } from "./git/tamper-note";
import type { AgentDeps } from "./deps";
import { workingDir } from "./process-env";
import { scrubDeep } from "./redact";
import { agentHome, serverIsolation } from "./sandbox/isolation";
import { runOneShot } from "./sandbox/isolated-process";
import { readFileInside } from "./sandbox/safe-files";
import type { CommandCheckScorerConfig } from "./scorer.schema";
import { OutputScanner, parseReport } from "./report-parsers";
import { withOutputMessages } from "./report-parsers/libtest-log";
import type { TestOutcome } from "./report-parsers/report";

/** Lines of stdout kept from the end, for crash messages and hints. */
const TAIL_LINES = 60;

/** What a run left beside its score, for grading against the baseline. */
export interface CheckRunFacts {
  /** Each test's outcome from a structured report the tested code cannot print into; null otherwise. */
  inventory: Record<string, TestOutcome> | null;
  /** Why there is no trusted inventory, when there is none. */
  noInventory: string | null;
  timedOut: boolean;
  complete: boolean;
}

/** Runs the check once in `workspace`. Throws only for an abort or a command that cannot start. */
export async function runCommandCheck(
  config: CommandCheckScorerConfig,
  deps: AgentDeps,
  run: { loopId: string; workspace: string; extraEnv: Record<string, string>; signal?: AbortSignal },
  facts?: CheckRunFacts,
): Promise<ScoreResult> {
  const cwd = workingDir(run.workspace, config.cwd);
  const isolation = deps.isolation ?? serverIsolation();
  const sandboxed = isolation.mode === "on" && config.sandbox === "on";
  // The runner writes its report and the server reads it: outside the workspace (the agent
  // cannot plant one), fresh per run, and inside the sandbox's writable HOME when sandboxed
  // (its /tmp is private to the sandbox).
  const reportDir = mkdtempSync(join(sandboxed ? agentHome(isolation, run.loopId) : tmpdir(), ".ralph-check-"));
  try {
    const planned = planCheck(config, cwd, (name) => join(reportDir, name), config.env);
    const fileReport = planned.report.kind === "file" ? planned.report.path : null;
    // A report left by an earlier iteration must not pass for this one.
    if (fileReport) rmSync(fileReport, { force: true });
    for (const [path, text] of Object.entries(planned.scripts ?? {})) writeFileSync(path, text, { mode: 0o700 });
    const scanner = new OutputScanner({ cwd, runner: planned.runner });
    const tail: string[] = [];
    // The tests it runs are code the agent may have written: sandboxed like the agent.
    const { outcome, secretValues } = await runOneShot(
      {
        config,
        deps,
        loopId: run.loopId,
        workspace: run.workspace,
        cwd,
        argv: planned.argv,
        extraEnv: { ...run.extraEnv, ...planned.env },
      },
      {
        maxOutputBytes: config.maxOutputBytes,
        signal: run.signal,
        onLine: (line) => {
          if (planned.format !== null) scanner.line(line);
          tail.push(line);
          if (tail.length > TAIL_LINES) tail.shift();
        },
      },
    );
    if (outcome.aborted) throw abortedError(`Check "${config.name}"`);
    if (outcome.lost !== null) {
      throw new AgentError("exit_nonzero", `Check "${config.name}" was cut short: ${outcome.lost}`, {
        retryable: true,
      });
    }
    if (outcome.spawnError !== null) {
      throw new AgentError(
        "spawn_failed",
        `Check "${config.name}" could not start "${planned.argv[0]}": ${outcome.spawnError}`,
        { retryable: false },
      );
    }

    let report = null;
    let reportMissing = false;
    let fromFile = false;
    if (planned.format !== null) {
      if (fileReport) {
        // In a folder the check's own code could write: never followed through a symlink.
        const text = readFileInside(config.reportFile ? run.workspace : reportDir, fileReport);
        reportMissing = text === null;
        report = text === null ? null : parseReport(text, planned.format, { cwd, runner: planned.runner });
        fromFile = report?.complete === true;
        if (report?.format === "libtest-log")
          report = withOutputMessages(report, scanner.finish("auto", outcome.stdout));
      }
      if (!report?.complete) {
        // No (usable) report file: the runner's own output may still say what happened.
        scanner.extraLines(outcome.stderrTail);
        report = scanner.finish(fileReport ? "auto" : planned.format, outcome.stdout) ?? report;
      }
    }
    if (facts) {
      // A report file is written by the runner's reporter; go's -json stream wraps what tests print.
      const trusted = report?.complete === true && (fromFile || report.format === "go-json");
      facts.inventory = trusted ? (report?.tests ?? null) : null;
      facts.noInventory = facts.inventory
        ? null
        : report?.complete
          ? `${planned.runner ?? report.source ?? "the check"}'s ${report.format} report came from its output, which the tested code can print to`
          : planned.runner
            ? `no per-test report from ${planned.runner}${planned.note ? ` (${planned.note})` : ""}`
            : "the check has no known runner: only its exit code counts";
      facts.timedOut = outcome.timedOut;
      facts.complete = report?.complete === true;
    }
    // Test names and messages are kept and shown; a secret the tests printed must not be.
    const result = verdict({
      report,
      expected: planned.expected,
      reportMissing,
      runner: planned.runner,
      exitCode: outcome.exitCode,
      exitSignal: outcome.exitSignal,
      timedOut: outcome.timedOut,
      timeoutSeconds: config.timeoutSeconds,
      truncated: outcome.truncated,
      fromFile,
      maxOutputBytes: config.maxOutputBytes,
      stdoutTail: tail.join("\n"),
      stderrTail: outcome.stderrTail,
      notes: planned.substituted ? [planned.substituted] : [],
    });
    return scrubDeep(result, secretValues);
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
}

export function createCommandCheckScorer(config: CommandCheckScorerConfig, deps: AgentDeps): ScorerPort {
  return {
    name: config.name,
    async score(ctx) {
      const workspace = await deps.workspaceDir(ctx.loopId);
      // Before the check runs: restore (or refuse) protected files the agent changed.
      const guard = deps.git ? await deps.git.protectEvidence(ctx.loopId) : null;
      if (guard && guard.tampered.length > 0 && guard.policy === "fail") {
        const tests: TestEvidence = {
          ...{ passed: 0, failed: 0, skipped: 0, errored: 0, failures: [], moreFailures: 0 },
          ...{ format: "exit-code", runner: null, counted: false, exitCode: null },
          warnings: [tamperPromptLine(guard)],
        };
        return { score: 0, reason: tamperNote(guard), tests };
      }
      const result = await runCommandCheck(config, deps, {
        loopId: ctx.loopId,
        workspace,
        signal: ctx.signal,
        extraEnv: { RALPH_LOOP_ID: ctx.loopId, RALPH_ITERATION: String(ctx.iteration), RALPH_WORKSPACE: workspace },
      });
      // The evidence on the real tests is kept; the iteration still cannot pass on it.
      if (guard && guard.tampered.length > 0)
        return {
          ...result,
          score: 0,
          reason: `${tamperNote(guard)}. ${result.reason ?? ""}`.trim(),
          ...(result.tests
            ? { tests: { ...result.tests, warnings: [tamperPromptLine(guard), ...result.tests.warnings] } }
            : {}),
        };
      return result;
    },
  };
}
