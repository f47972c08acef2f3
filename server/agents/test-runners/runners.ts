/**
 * The test runners the command check knows: how each is recognised, the
 * report it is asked for, and what it needs. The README table and the
 * New-loop form read this list.
 */
export const runnerIds = ["vitest", "jest", "mocha", "node-test", "pytest", "go", "cargo"] as const;
export type RunnerId = (typeof runnerIds)[number];

export interface RunnerInfo {
  id: RunnerId;
  label: string;
  /** The report the check asks for, in words. */
  report: string;
  needs: string;
}

export const RUNNERS: Record<RunnerId, RunnerInfo> = {
  vitest: {
    id: "vitest",
    label: "Vitest",
    report: "JSON report file (--reporter=json --outputFile.json=<temp file>), default output kept",
    needs: "vitest in the project's node_modules",
  },
  jest: {
    id: "jest",
    label: "Jest",
    report: "JSON report file (--json --outputFile=<temp file>)",
    needs: "jest in the project's node_modules",
  },
  mocha: {
    id: "mocha",
    label: "Mocha",
    report: "JSON report file (--reporter json --reporter-option output=<temp file>)",
    needs: "mocha 9 or later in the project's node_modules",
  },
  "node-test": {
    id: "node-test",
    label: "node --test",
    report: "TAP report file (NODE_OPTIONS: --test-reporter=tap --test-reporter-destination=<temp file>)",
    needs: "Node.js 20 or later",
  },
  pytest: {
    id: "pytest",
    label: "pytest",
    report: "JUnit XML report file (PYTEST_ADDOPTS: --junitxml=<temp file>)",
    needs: "pytest on the PATH the check runs with (or python -m pytest)",
  },
  go: {
    id: "go",
    label: "go test",
    report: "event stream on stdout (go test -json), read line by line",
    needs: "Go 1.14 or later",
  },
  cargo: {
    id: "cargo",
    label: "cargo test",
    report:
      "libtest's per-test log of each test binary (--logfile, added by a cargo runner the check sets: CARGO_TARGET_<host>_RUNNER), with --no-fail-fast; doctests as one entry",
    needs:
      "cargo on the PATH the check runs with; test binaries on libtest (harness = false targets count as one test)",
  },
};
