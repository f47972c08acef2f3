/**
 * What a loop protects by default, derived from its checks: the test files
 * the check runs (the runner's conventions and the files named in the
 * command), the runner's configuration, and the check's own script. Each
 * entry says why, so the loop page can list it and an operator can remove it.
 * Derived from the baseline tree (the grading checkout at the base commit),
 * never from what the agent left in its workspace.
 */
import { existsSync, statSync } from "node:fs";
import { isAbsolute, join, normalize, relative } from "node:path";
import { detectRunner, scriptOf } from "../test-runners/detect";
import type { RunnerId } from "../test-runners/runners";

/** tests: files with tests in them (new ones are allowed); config: runner settings and hooks; check: the check's own command files. */
export type ProtectedKind = "tests" | "config" | "check";

export interface ProtectedEntry {
  glob: string;
  kind: ProtectedKind;
  why: string;
}

export interface CheckCommand {
  name: string;
  argv: readonly string[];
  cwd?: string;
}

const JS_TESTS = ["**/*.test.*", "**/*.spec.*", "**/__tests__/**", "test/**", "tests/**"];
const JS_CONFIG = ["package.json"];

const CONVENTIONS: Record<RunnerId, { tests: string[]; config: string[] }> = {
  "node-test": {
    tests: ["**/*.test.*", "**/*-test.*", "**/*_test.*", "**/test-*.*", "**/test.*", "test/**", "tests/**"],
    config: JS_CONFIG,
  },
  vitest: {
    tests: JS_TESTS,
    config: [...JS_CONFIG, "vitest.config.*", "vitest.workspace.*", "vite.config.*", "**/vitest.setup.*"],
  },
  jest: { tests: JS_TESTS, config: [...JS_CONFIG, "jest.config.*", "**/jest.setup.*", "babel.config.*"] },
  mocha: { tests: [...JS_TESTS, "spec/**"], config: [...JS_CONFIG, ".mocharc*"] },
  pytest: {
    tests: ["**/test_*.py", "**/*_test.py", "tests/**", "test/**"],
    config: ["**/conftest.py", "pytest.ini", "pyproject.toml", "setup.cfg", "tox.ini", "**/pytest.ini"],
  },
  go: { tests: ["**/*_test.go", "**/testdata/**"], config: ["go.mod", "go.sum"] },
  cargo: {
    tests: ["tests/**", "**/tests/**", "benches/**"],
    // .cargo/config sets rustflags, aliases and environment for every build and test run.
    config: ["Cargo.toml", "**/Cargo.toml", "build.rs", "**/build.rs", ".cargo/**", "**/.cargo/**"],
  },
};

/** Hooks a runner loads from anywhere in the project: new ones count as tampering even where nothing was before. */
export const RUNNER_HOOKS = [
  "**/conftest.py",
  ".mocharc*",
  "vitest.config.*",
  "jest.config.*",
  "pytest.ini",
  "**/.cargo/config*",
];

/** A word of the command that names a file or folder inside the project, as a glob; null otherwise. */
function namedPath(word: string, cwd: string, root: string): string | null {
  if (word.startsWith("-") || /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) return null;
  const abs = isAbsolute(word) ? word : join(cwd, word);
  const rel = normalize(relative(root, abs));
  if (rel === "" || rel === "." || rel.startsWith("..") || isAbsolute(rel)) return null;
  if (!existsSync(abs)) return null;
  return statSync(abs).isDirectory() ? `${rel.replace(/\/+$/, "")}/**` : rel;
}

/**
 * The protected entries for a loop's command checks, evaluated in `root`
 * (the project at the base commit). Deduplicated by glob, first reason kept.
 */
export function derivedProtection(checks: readonly CheckCommand[], root: string): ProtectedEntry[] {
  const out = new Map<string, ProtectedEntry>();
  const add = (glob: string, kind: ProtectedKind, why: string) => {
    if (!out.has(glob)) out.set(glob, { glob, kind, why });
  };
  for (const check of checks) {
    const cwd = check.cwd ? join(root, check.cwd) : root;
    const prefix = check.cwd ? `${normalize(check.cwd).replace(/\/+$/, "")}/` : "";
    check.argv.forEach((word, i) => {
      const path = namedPath(word, cwd, root);
      if (path) add(path, i === 0 ? "check" : "tests", `check "${check.name}" names it in its command`);
    });
    const script = scriptOf(check.argv);
    if (script) {
      add(`${prefix}package.json`, "check", `check "${check.name}" runs its ${script.script} script`);
      // The package manager's settings reach every script it runs (node-options, a preload).
      for (const rc of [".npmrc", ".yarnrc", ".yarnrc.yml", ".pnpmfile.cjs"])
        add(`${prefix}${rc}`, "config", `${script.manager}'s settings, applied to the ${script.script} script`);
    }
    const detection = detectRunner(check.argv, cwd);
    if (!detection) continue;
    const conv = CONVENTIONS[detection.runner];
    const label = `${detection.runner} (${detection.via})`;
    for (const glob of conv.tests) add(`${prefix}${glob}`, "tests", `test files ${label} runs by convention`);
    for (const glob of conv.config) add(`${prefix}${glob}`, "config", `configuration of ${label}`);
  }
  return [...out.values()];
}

/** The operator's globs plus the derived ones, minus what the operator removed. */
export function protectedEntries(opts: {
  operator: readonly string[];
  derived: readonly ProtectedEntry[];
  removed: readonly string[];
}): ProtectedEntry[] {
  const removed = new Set(opts.removed);
  const out = new Map<string, ProtectedEntry>();
  for (const e of opts.derived) if (!removed.has(e.glob)) out.set(e.glob, e);
  for (const glob of opts.operator) {
    if (removed.has(glob) || out.has(glob)) continue;
    const hook = RUNNER_HOOKS.includes(glob) || /conftest|config|rc\b/.test(glob);
    out.set(glob, { glob, kind: hook ? "config" : "tests", why: "in the loop's protected paths" });
  }
  return [...out.values()];
}
