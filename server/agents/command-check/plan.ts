/**
 * What a command check will run and read, from its config and the project:
 * the configured report (a file, a format on stdout), or in auto mode the
 * detected runner asked for its machine-readable report.
 */
import { resolve } from "node:path";
import type { CommandCheckScorerConfig } from "../scorer.schema";
import type { ExpectedFormat } from "../report-parsers";
import { detectRunner, runnerOfWords, scriptOf, substituteCommand, type Detection } from "../test-runners/detect";
import { planReport, type CheckPlan } from "../test-runners/plan";
import type { RunnerId } from "../test-runners/runners";

export interface PlannedCheck extends CheckPlan {
  detection: Detection | null;
  /** How to parse what the report source yields; null: the exit code alone. */
  format: ExpectedFormat | null;
  /** The report a missing or unreadable result is reported against; null when nothing in particular was expected. */
  expected: string | null;
  /** Set when the configured command was replaced by the project's own runner (npm test in a Go project). */
  substituted: string | null;
}

function forced(runner: RunnerId, argv: readonly string[]): Detection {
  const words = runnerOfWords(argv)?.words ?? [...argv];
  const env = runner === "node-test" || runner === "pytest";
  return {
    runner,
    via: "configured",
    inject: env ? "env" : "args",
    words,
    packageManager: scriptOf(argv)?.manager ?? null,
  };
}

export function planCheck(
  config: Pick<CommandCheckScorerConfig, "argv" | "format" | "runner" | "reportFile">,
  cwd: string,
  reportFile: (name: string) => string,
  env: Record<string, string>,
): PlannedCheck {
  const base = { argv: [...config.argv], env: {}, detection: null, note: null, substituted: null };
  if (config.format === "exit-code")
    return {
      ...base,
      runner: null,
      report: { kind: "stdout", format: "auto" },
      format: null,
      expected: null,
      describe: "the exit code only",
    };
  if (config.reportFile) {
    const path = resolve(cwd, config.reportFile);
    const format = config.format === "auto" ? "auto" : config.format;
    return {
      ...base,
      runner: null,
      report: { kind: "file", path, format },
      format,
      expected: `the report file ${config.reportFile}`,
      describe: `the report file ${config.reportFile}${format === "auto" ? "" : ` (${format})`}`,
    };
  }
  if (config.format !== "auto")
    return {
      ...base,
      runner: null,
      report: { kind: "stdout", format: "auto" },
      format: config.format,
      expected: `a ${config.format} report on stdout`,
      describe: `a ${config.format} report on stdout`,
    };
  const substitute = config.runner === "auto" ? substituteCommand(config.argv, cwd) : null;
  const argv = substitute?.argv ?? config.argv;
  const detection =
    config.runner === "none" ? null : config.runner === "auto" ? detectRunner(argv, cwd) : forced(config.runner, argv);
  const plan = planReport(argv, detection, reportFile, env);
  const format: ExpectedFormat = plan.report.format;
  const expected = detection ? plan.describe : null;
  return { ...plan, detection, format, expected, substituted: substitute?.why ?? null };
}
