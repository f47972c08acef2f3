/**
 * How to run a detected runner so it writes a machine-readable report to a
 * file outside the workspace: the flags or environment to add, and the
 * report to read afterwards. Flags the project already passes are respected:
 * when it chose its own report, its output is read as it is.
 */
import { dirname } from "node:path";
import type { ExpectedFormat } from "../report-parsers";
import { cargoRunnerScript, cargoRunnerVariables } from "./cargo-runner";
import type { Detection } from "./detect";
import type { RunnerId } from "./runners";

export type ReportSource =
  | { kind: "file"; path: string; format: ExpectedFormat }
  /** Read from stdout (streamed line by line, so the output cap does not matter for these). */
  | { kind: "stdout"; format: "go-json" | "auto" };

export interface CheckPlan {
  argv: string[];
  env: Record<string, string>;
  runner: RunnerId | null;
  report: ReportSource;
  /** What is read, for people. */
  describe: string;
  /** Why no report flags were added, when they were not. */
  note: string | null;
  /** Executable scripts the check writes before it runs (cargo's test runner), by path. */
  scripts?: Record<string, string>;
}

const flagged = (words: readonly string[], ...prefixes: string[]) =>
  words.some((w) => prefixes.some((p) => w === p || w.startsWith(`${p}=`) || (p.endsWith(".") && w.startsWith(p))));

function valueOf(words: readonly string[], ...names: string[]): string | undefined {
  for (let i = 0; i < words.length; i++) {
    for (const n of names) {
      if (words[i] === n) return words[i + 1];
      if (words[i]!.startsWith(`${n}=`)) return words[i]!.slice(n.length + 1);
    }
  }
  return undefined;
}

/** Arguments for the runner, placed where the command passes them on. */
function withArgs(argv: readonly string[], d: Detection, args: string[], beforeSeparator = false): string[] {
  const separator = argv.indexOf("--");
  if (beforeSeparator && separator >= 0) return [...argv.slice(0, separator), ...args, ...argv.slice(separator)];
  if (d.packageManager === "npm" && !argv.includes("--")) return [...argv, "--", ...args];
  return [...argv, ...args];
}

const quoted = (path: string) => `"${path.replace(/(["\\])/g, "\\$1")}"`;

interface RunnerPlan {
  args?: string[];
  /** Arguments of the command itself: before its `--`, after which they would reach the tests. */
  beforeSeparator?: boolean;
  scripts?: Record<string, string>;
  env?: Record<string, string>;
  report: ReportSource;
  describe: string;
}

function runnerPlan(d: Detection, file: (name: string) => string, env: Record<string, string>): RunnerPlan | string {
  const w = d.words;
  switch (d.runner) {
    case "vitest": {
      if (flagged(w, "--outputFile", "--outputFile.")) return "the command already chooses vitest's output file";
      const path = file("vitest.json");
      const keepDefault = flagged(w, "--reporter") ? [] : ["--reporter=default"];
      const once = w[1] === "run" || flagged(w, "--run", "--watch") ? [] : ["--run"];
      return {
        args: [...once, ...keepDefault, "--reporter=json", `--outputFile.json=${path}`],
        report: { kind: "file", path, format: "json" },
        describe: "vitest's JSON report file",
      };
    }
    case "jest": {
      if (flagged(w, "--outputFile")) return "the command already chooses jest's output file";
      const path = file("jest.json");
      return {
        args: [...(flagged(w, "--json") ? [] : ["--json"]), `--outputFile=${path}`],
        report: { kind: "file", path, format: "json" },
        describe: "jest's JSON report file",
      };
    }
    case "mocha": {
      const reporter = valueOf(w, "--reporter", "-R");
      if (flagged(w, "--reporter-option", "--reporter-options", "-O"))
        return "the command already sets mocha reporter options";
      // Another reporter (tap, spec) prints to stdout, where a test's own output can pass for a
      // result (a bare "ok" line counted as a pass): a later --reporter wins in mocha, so the
      // check asks for its own JSON file instead.
      const own = reporter === "json" || reporter === "xunit";
      const format = reporter === "xunit" ? "junit" : "json";
      const path = file(format === "junit" ? "mocha.xml" : "mocha.json");
      return {
        args: [...(own ? [] : ["--reporter", "json"]), "--reporter-option", `output=${path}`],
        report: { kind: "file", path, format },
        describe: `mocha's ${format === "junit" ? "xunit" : "JSON"} report file`,
      };
    }
    case "node-test": {
      if (flagged(w, "--test-reporter", "--test-reporter-destination"))
        return "the command already chooses node's test reporters";
      const path = file("node-test.tap");
      const extra = `--test-reporter=spec --test-reporter-destination=stdout --test-reporter=tap --test-reporter-destination=${quoted(path)}`;
      return {
        env: { NODE_OPTIONS: env.NODE_OPTIONS ? `${env.NODE_OPTIONS} ${extra}` : extra },
        report: { kind: "file", path, format: "tap" },
        describe: "node's TAP report file (asked for through NODE_OPTIONS)",
      };
    }
    case "pytest": {
      if (flagged(w, "--junitxml", "--junit-xml") || /--junit-?xml/.test(env.PYTEST_ADDOPTS ?? ""))
        return "the command already asks pytest for a JUnit file";
      const path = file("pytest.xml");
      const extra = `--junitxml=${quoted(path)}`;
      return {
        env: { PYTEST_ADDOPTS: env.PYTEST_ADDOPTS ? `${env.PYTEST_ADDOPTS} ${extra}` : extra },
        report: { kind: "file", path, format: "junit" },
        describe: "pytest's JUnit XML file (asked for through PYTEST_ADDOPTS)",
      };
    }
    case "go":
      return {
        args: flagged(w, "-json", "--json") ? [] : ["-json"],
        report: { kind: "stdout", format: "go-json" },
        describe: "go test's -json event stream",
      };
    case "cargo": {
      if (flagged(w, "--logfile")) return "the command already sets libtest's --logfile";
      const variables = cargoRunnerVariables();
      if (variables.length === 0) return "cargo's target on this machine is not one the check knows";
      const taken = variables.find((v) => env[v]);
      if (taken) return `the check's environment already sets ${taken}`;
      const path = file("cargo-tests.log");
      const runner = file("cargo-runner.sh");
      // cargo splits a runner given in a variable at whitespace.
      if (/\s/.test(runner)) return "the report folder's path has a space, which cargo's runner setting cannot hold";
      // Every test binary runs, not only those before the first failure: the inventory is whole.
      const direct = d.inject === "args" && d.packageManager === null && !flagged(w, "--no-fail-fast");
      return {
        args: direct ? ["--no-fail-fast"] : [],
        beforeSeparator: true,
        env: Object.fromEntries(variables.map((v) => [v, runner])),
        scripts: { [runner]: cargoRunnerScript(path, dirname(path)) },
        report: { kind: "file", path, format: "libtest-log" },
        describe: "libtest's per-test log of each test binary (through a cargo runner; doctests as one entry)",
      };
    }
  }
}

/**
 * The command to run and the report to read. `reportFile(name)` gives a path
 * in a fresh directory outside the workspace; `env` is what the check runs with.
 */
export function planReport(
  argv: readonly string[],
  detection: Detection | null,
  reportFile: (name: string) => string,
  env: Record<string, string>,
): CheckPlan {
  const plain = (note: string | null): CheckPlan => ({
    argv: [...argv],
    env: {},
    runner: detection?.runner ?? null,
    report: { kind: "stdout", format: "auto" },
    describe: detection
      ? `${detection.runner}'s summary line`
      : "the command's output (TAP, JUnit XML, JSON or a runner's summary line), else its exit code",
    note,
  });
  if (!detection) return plain(null);
  const plan = runnerPlan(detection, reportFile, env);
  if (typeof plan === "string") return plain(`No report flags added: ${plan}.`);
  if (plan.args && plan.args.length > 0 && detection.inject !== "args")
    return plain(
      "No report flags added: the runner is not the last command of the script, so arguments would not reach it.",
    );
  return {
    argv: plan.args && plan.args.length > 0 ? withArgs(argv, detection, plan.args, plan.beforeSeparator) : [...argv],
    env: plan.env ?? {},
    ...(plan.scripts ? { scripts: plan.scripts } : {}),
    runner: detection.runner,
    report: plan.report,
    describe: plan.describe,
    note: null,
  };
}
