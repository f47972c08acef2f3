// The preflight's view of the loop's worktree environment: is the
// .worktreeinclude usable, and does the project look like it needs something
// the worktree will not have (node_modules, a .venv)? Then it PROPOSES the
// .worktreeinclude entry or the setup command; nothing is installed that the
// operator did not see and set. Cheap: a few file tests and one git command.
import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import { git } from "../agents/git/git-cli";
import { resolveWorktreeIncludes, WORKTREE_INCLUDE } from "../agents/git/worktree-include";
import { setupOf } from "./loop-environment";

/** A preflight line (loop-preflight.service.ts's PreflightCheck; not imported, so the two files form no cycle). */
interface EnvironmentCheck {
  id: string;
  label: string;
  status: "ok" | "problem" | "unknown";
  message: string;
  proposal?: EnvironmentProposal;
}

export interface EnvironmentProposal {
  /** Lines to add to .worktreeinclude (copied from your checkout). */
  worktreeinclude?: string[];
  /** A setup command (run in the sandbox before iteration 1). */
  setup?: string[];
}

const NODE_LOCKS: [string, string[]][] = [
  ["package-lock.json", ["npm", "ci"]],
  ["npm-shrinkwrap.json", ["npm", "ci"]],
  ["pnpm-lock.yaml", ["pnpm", "install", "--frozen-lockfile"]],
  ["yarn.lock", ["yarn", "install", "--frozen-lockfile"]],
  ["bun.lock", ["bun", "install", "--frozen-lockfile"]],
  ["bun.lockb", ["bun", "install", "--frozen-lockfile"]],
];

const covered = (paths: readonly string[], path: string) => paths.some((p) => p === path || path.startsWith(`${p}/`));

/** What the project in `dir` (the workspace, in the checkout) would lack in a fresh worktree. */
export function proposeEnvironment(
  dir: string,
  included: readonly string[],
  /** `dir` relative to the repository root, where the included paths start ("" at the root). */
  prefix = "",
): (EnvironmentProposal & { why: string })[] {
  const out: (EnvironmentProposal & { why: string })[] = [];
  const at = (path: string) => (prefix ? `${prefix}/${path}` : path);
  if (existsSync(join(dir, "package.json")) && !covered(included, at("node_modules"))) {
    const lock = NODE_LOCKS.find(([file]) => existsSync(join(dir, file)));
    const installed = existsSync(join(dir, "node_modules"));
    if (lock || installed) {
      out.push({
        why: "package.json's dependencies are not committed, so the loop's worktree has no node_modules",
        ...(installed ? { worktreeinclude: [at("node_modules")] } : {}),
        ...(lock ? { setup: lock[1] } : {}),
      });
    }
  }
  const python = ["pyproject.toml", "requirements.txt", "setup.py"].some((f) => existsSync(join(dir, f)));
  if (python && existsSync(join(dir, ".venv", "pyvenv.cfg")) && !covered(included, at(".venv"))) {
    const uv = existsSync(join(dir, "uv.lock"));
    out.push({
      why: "the checkout's .venv is not committed, so the loop's worktree has none",
      worktreeinclude: [at(".venv")],
      ...(uv ? { setup: ["uv", "sync"] } : {}),
    });
  }
  return out;
}

const said = (p: EnvironmentProposal) =>
  [
    p.worktreeinclude &&
      `add ${p.worktreeinclude.map((l) => `"${l}"`).join(", ")} to ${WORKTREE_INCLUDE} (copied from your checkout)`,
    p.setup && `set the setup command to "${p.setup.join(" ")}"`,
  ]
    .filter(Boolean)
    .join(", or ");

/** The preflight lines about the worktree's environment; none in place or outside a repository. */
export async function environmentChecks(definition: {
  workspace?: string;
  isolation?: string;
  setup?: unknown;
}): Promise<EnvironmentCheck[]> {
  const workspace = definition.workspace?.trim() ?? "";
  if (workspace === "" || definition.isolation === "in-place" || !existsSync(workspace)) return [];
  const top = (await git(workspace, ["rev-parse", "--show-toplevel"], { allowFail: true })).trim();
  if (top === "") return [];
  const checks: EnvironmentCheck[] = [];
  let included: string[] = [];
  if (existsSync(join(top, WORKTREE_INCLUDE))) {
    try {
      included = await resolveWorktreeIncludes(top);
      checks.push({
        id: "worktreeinclude",
        label: "Worktree includes",
        status: "ok",
        message:
          included.length > 0
            ? `copies ${included.join(", ")} from your checkout into the loop's worktree`
            : `${WORKTREE_INCLUDE} matches no ignored file`,
      });
    } catch (error) {
      checks.push({
        id: "worktreeinclude",
        label: "Worktree includes",
        status: "problem",
        message: error instanceof Error ? error.message : String(error),
      });
    }
  }
  const setup = setupOf(definition);
  if (setup) {
    checks.push({
      id: "setup",
      label: "Setup command",
      status: "unknown",
      message: `"${setup.argv.join(" ")}" runs once in the sandbox in the new worktree before iteration 1 (timeout ${setup.timeoutSeconds} s); if it fails, the loop stops with its output`,
    });
    return checks;
  }
  // The workspace may be a subfolder of the repository (a monorepo package): look there, and at the root.
  const dirs = [...new Set([workspace, top])];
  const proposals = dirs.flatMap((dir) => proposeEnvironment(dir, included, relative(top, dir)));
  for (const [i, p] of proposals.entries()) {
    const { why, ...proposal } = p;
    checks.push({
      id: `environment.proposal[${i}]`,
      label: "Worktree environment",
      status: "unknown",
      message: `${why}: ${said(proposal)}. Nothing is installed unless you set it.`,
      proposal,
    });
  }
  return checks;
}
