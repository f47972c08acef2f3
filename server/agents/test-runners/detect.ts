/**
 * Which test runner a check command runs, found from the command itself and,
 * for `npm test` and the like, from the project: package.json scripts and
 * dependencies, config files, pytest.ini / pyproject.toml, go.mod, Cargo.toml.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { RunnerId } from "./runners";
import { splitScript } from "./shell-words";

/** Where the runner's report flags can go. */
export type Injection =
  /** Appended to the command (the runner is the command, or the last command of the npm script). */
  | "args"
  /** Through an environment variable the runner reads wherever it is started (NODE_OPTIONS, PYTEST_ADDOPTS). */
  | "env"
  /** Nowhere safe: the runner's own output is read instead. */
  | "none";

export interface Detection {
  runner: RunnerId;
  /** How it was found, for people: "npm test runs `vitest run`". */
  via: string;
  inject: Injection;
  /** The runner's own words (to see which report flags are already there). */
  words: string[];
  /** npm, pnpm or yarn when the command is a package script. */
  packageManager: "npm" | "pnpm" | "yarn" | null;
}

const BINS: Record<string, RunnerId> = {
  vitest: "vitest",
  jest: "jest",
  mocha: "mocha",
  _mocha: "mocha",
  pytest: "pytest",
  "py.test": "pytest",
};
/** Commands that start another command: skipped with their options. */
const WRAPPERS = new Set(["npx", "bunx", "cross-env", "env", "time", "c8", "nyc", "dotenv", "nice", "xvfb-run"]);
const ENV_RUNNERS: readonly RunnerId[] = ["node-test", "pytest"];

/** The runner a command's words start, or null. */
export function runnerOfWords(words: readonly string[]): { runner: RunnerId; words: string[] } | null {
  let i = 0;
  for (; i < words.length; i++) {
    const w = words[i]!;
    const name = basename(w);
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w) || w.startsWith("-") || w === "--") continue;
    if (WRAPPERS.has(name)) continue;
    if ((name === "pnpm" || name === "npm") && (words[i + 1] === "exec" || words[i + 1] === "dlx")) {
      i++;
      continue;
    }
    if (name === "yarn" && words[i + 1] && BINS[basename(words[i + 1]!)]) continue;
    break;
  }
  const rest = words.slice(i);
  const head = rest[0] ? basename(rest[0]) : "";
  if (BINS[head]) return { runner: BINS[head], words: rest };
  if (/^node(js)?$/.test(head) && rest.includes("--test")) return { runner: "node-test", words: rest };
  if (/^python(\d(\.\d+)?)?$/.test(head) && rest[1] === "-m" && rest[2] === "pytest")
    return { runner: "pytest", words: rest };
  if (head === "go" && rest[1] === "test") return { runner: "go", words: rest };
  if (head === "cargo" && rest[1] === "test") return { runner: "cargo", words: rest };
  return null;
}

function readJson(path: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(readFileSync(path, "utf8"));
    return value && typeof value === "object" ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const PACKAGE_MANAGERS = new Set(["npm", "pnpm", "yarn"]);

/** `npm test`, `npm run x`, `pnpm x`, `yarn x` → the script name; null for anything else. */
export function scriptOf(words: readonly string[]): { manager: "npm" | "pnpm" | "yarn"; script: string } | null {
  const manager = basename(words[0] ?? "");
  if (!PACKAGE_MANAGERS.has(manager)) return null;
  const args = words.slice(1).filter((w) => !w.startsWith("-"));
  const first = args[0];
  if (first === undefined) return manager === "yarn" ? null : null;
  if (first === "test" || first === "t" || first === "tst") return { manager: manager as "npm", script: "test" };
  if ((first === "run" || first === "run-script") && args[1]) return { manager: manager as "npm", script: args[1] };
  // pnpm and yarn run scripts by name
  if (manager !== "npm" && !["install", "add", "exec", "dlx"].includes(first))
    return { manager: manager as "npm", script: first };
  return null;
}

type Scripts = Record<string, string>;

/** Follows a script (and the scripts it runs last) to a runner. */
function fromScript(
  scripts: Scripts,
  name: string,
  depth = 0,
): { runner: RunnerId; words: string[]; last: boolean; text: string } | null {
  const text = scripts[name];
  if (typeof text !== "string" || depth > 3) return null;
  const segments = splitScript(text);
  for (let i = segments.length - 1; i >= 0; i--) {
    const segment = segments[i]!;
    const last = i === segments.length - 1;
    const nested = scriptOf(segment);
    if (nested) {
      const inner = fromScript(scripts, nested.script, depth + 1);
      if (inner) return { ...inner, last: inner.last && last };
      continue;
    }
    const found = runnerOfWords(segment);
    if (found) return { ...found, last, text: segment.join(" ") };
  }
  return null;
}

const has = (cwd: string, ...files: string[]) => files.some((f) => existsSync(join(cwd, f)));

function fileContains(path: string, pattern: RegExp): boolean {
  try {
    return pattern.test(readFileSync(path, "utf8"));
  } catch {
    return false;
  }
}

/** A runner the project files name, when the command itself does not say. */
export function runnerFromProject(cwd: string): { runner: RunnerId; why: string } | null {
  const pkg = readJson(join(cwd, "package.json"));
  if (pkg) {
    const deps = { ...(pkg.dependencies as object), ...(pkg.devDependencies as object) } as Record<string, unknown>;
    for (const runner of ["vitest", "jest", "mocha"] as const) {
      if (runner in deps) return { runner, why: `package.json depends on ${runner}` };
    }
    if (has(cwd, "vitest.config.ts", "vitest.config.js", "vitest.config.mjs", "vitest.config.mts"))
      return { runner: "vitest", why: "vitest.config is present" };
    if (has(cwd, "jest.config.js", "jest.config.ts", "jest.config.mjs", "jest.config.cjs") || "jest" in pkg)
      return { runner: "jest", why: "a jest config is present" };
    if (has(cwd, ".mocharc.json", ".mocharc.js", ".mocharc.yml", ".mocharc.yaml", ".mocharc.cjs"))
      return { runner: "mocha", why: ".mocharc is present" };
  }
  if (
    has(cwd, "pytest.ini", "conftest.py") ||
    fileContains(join(cwd, "pyproject.toml"), /^\[tool\.pytest/m) ||
    fileContains(join(cwd, "setup.cfg"), /^\[tool:pytest\]/m) ||
    fileContains(join(cwd, "tox.ini"), /^\[pytest\]/m)
  )
    return {
      runner: "pytest",
      why: "pytest is configured (pytest.ini, pyproject.toml, setup.cfg, tox.ini or conftest.py)",
    };
  if (has(cwd, "go.mod")) return { runner: "go", why: "go.mod is present" };
  if (has(cwd, "Cargo.toml")) return { runner: "cargo", why: "Cargo.toml is present" };
  return null;
}

/** How a runner is started when the project says which one it uses but the command cannot run it. */
export const DEFAULT_COMMANDS: Partial<Record<RunnerId, string[]>> = {
  pytest: ["python3", "-m", "pytest"],
  go: ["go", "test", "./..."],
  cargo: ["cargo", "test"],
};

/**
 * `npm test` (as the shipped templates run) in a project without a
 * package.json: the project's own runner's command, when its files name one.
 */
export function substituteCommand(argv: readonly string[], cwd: string): { argv: string[]; why: string } | null {
  if (!scriptOf(argv) || existsSync(join(cwd, "package.json"))) return null;
  const project = runnerFromProject(cwd);
  const command = project && DEFAULT_COMMANDS[project.runner];
  if (!project || !command) return null;
  return {
    argv: [...command],
    why: `there is no package.json, so \`${argv.join(" ")}\` cannot run; ran \`${command.join(" ")}\` instead (${project.why})`,
  };
}

export function detectRunner(argv: readonly string[], cwd: string): Detection | null {
  const direct = runnerOfWords(argv);
  if (direct) {
    const inject = ENV_RUNNERS.includes(direct.runner) ? "env" : "args";
    return {
      runner: direct.runner,
      via: `the command runs ${direct.runner}`,
      inject,
      words: direct.words,
      packageManager: null,
    };
  }
  const script = scriptOf(argv);
  if (script) {
    const pkg = readJson(join(cwd, "package.json"));
    const scripts = (pkg?.scripts ?? {}) as Scripts;
    const found = fromScript(scripts, script.script);
    if (found) {
      const inject = ENV_RUNNERS.includes(found.runner) ? "env" : found.last ? "args" : "none";
      const via = `${script.manager} ${script.script === "test" ? "test" : `run ${script.script}`} runs \`${found.text}\``;
      return { runner: found.runner, via, inject, words: found.words, packageManager: script.manager };
    }
  }
  const project = runnerFromProject(cwd);
  if (!project) return null;
  // Only an environment variable reaches a runner started by an unknown script.
  const inject = ENV_RUNNERS.includes(project.runner) ? "env" : "none";
  return { runner: project.runner, via: project.why, inject, words: [], packageManager: script?.manager ?? null };
}
